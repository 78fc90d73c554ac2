// (1 - p)^y without libm (one_minus_power.hpp), against std::pow over every
// fingerprint width and the loads a table can have.

#include <cmath>

#include <gtest/gtest.h>

#include "one_minus_power.hpp"

namespace cuckoo::detail {
namespace {

// The rounding of ln(1 - p) * y carries into exp: a few units in the last
// place of the exponent become ~16 in the result, far below what a
// statistic needs.
constexpr double kTolerance = 16 * 2.220446049250313e-16;

TEST(OneMinusPower, AgreesWithPowToSixteenUnitsInTheLastPlace) {
  double worst = 0.0;
  for (int f = 2; f <= 32; ++f) {
    const double p = std::ldexp(1.0, -f);
    for (double y = 0.0; y <= 16.0; y += 0.0625) {
      const double expected = std::pow(1.0 - p, y);
      const double relative = std::fabs(oneMinusPower(p, y) - expected) / expected;
      worst = std::fmax(worst, relative);
      ASSERT_LE(relative, kTolerance) << "p = 2^-" << f << ", y = " << y;
    }
  }
  // The false-positive rate is 1 minus this: for f = 32 the power is within
  // 2^-28 of 1, so the rate keeps about 24 significant bits of accuracy at
  // worst, as 1 - pow() does.
  EXPECT_GT(worst, 0.0);
}

TEST(OneMinusPower, EdgeValues) {
  EXPECT_EQ(oneMinusPower(0.0, 5.0), 1.0);
  EXPECT_EQ(oneMinusPower(0.25, 0.0), 1.0);
  EXPECT_NEAR(oneMinusPower(0.5, 1.0), 0.5, 0.5 * kTolerance);
  EXPECT_NEAR(oneMinusPower(0.25, 10.0), std::pow(0.75, 10.0), std::pow(0.75, 10.0) * kTolerance);
}

}  // namespace
}  // namespace cuckoo::detail
