// Sizing a filter from (capacity, false-positive rate), the paper's Section 5.1.

#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "cuckoo/cuckoo_filter.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

struct SizingCase {
  std::uint64_t capacity;
  double rate;
  unsigned bucketSize;       // expected, worked out by hand from Section 5.1
  unsigned fingerprintBits;  // ceil(log2(2b / rate))
  std::uint64_t bucketCount;  // next power of two >= capacity / (b * maxLoad(b))
};

// Each expectation was computed by hand; e.g. (1e6, 0.001): b = 4 since
// 0.00001 < 0.001 <= 0.002; f = ceil(log2(8 / 0.001)) = ceil(12.97) = 13;
// 1e6 / (4 * 0.95) = 263157.9 > 2^18, so m = 2^19.
const SizingCase kGrid[] = {
    {1000, 0.01, 2, 9, 1024},              // 1000/1.68 = 595.2
    {10, 0.5, 2, 3, 8},                    // log2(8) = 3 exactly; 10/1.68 = 5.95
    {1'000'000, 0.001, 4, 13, 1 << 19},
    {100'000, 0.0001, 4, 17, 1 << 15},     // log2(80000) = 16.29; 100000/3.8 = 26315.8
    {3'800, 0.002, 4, 12, 1 << 10},        // boundary: 0.002 is b = 4; log2(4000) = 11.97; exactly 1000
    {3'801, 0.003, 2, 11, 1 << 12},        // log2(1333.3) = 10.38; 3801/1.68 = 2262.5
    {50'000, 0.000001, 8, 24, 1 << 13},    // log2(1.6e7) = 23.93; 50000/7.84 = 6377.6
    {1, 0.00001, 8, 21, 1},                // boundary: 1e-5 is b = 8; log2(1.6e6) = 20.61
    {1, 0.9, 2, 3, 1},                     // log2(4.44) = 2.15
};

TEST(Sizing, ChoosesTheSpaceOptimalShape) {
  for (const SizingCase& c : kGrid) {
    FilterParams p;
    p.seed = 99;
    p.maxKicks = 123;
    ASSERT_EQ(paramsForCapacity(c.capacity, c.rate, p), Status::kOk) << c.capacity << " " << c.rate;
    EXPECT_EQ(p.bucketSize, c.bucketSize) << c.capacity << " " << c.rate;
    EXPECT_EQ(p.fingerprintBits, c.fingerprintBits) << c.capacity << " " << c.rate;
    EXPECT_EQ(p.bucketCount, c.bucketCount) << c.capacity << " " << c.rate;
    EXPECT_EQ(p.seed, 99U) << "sizing keeps the seed";
    EXPECT_EQ(p.maxKicks, 123U) << "sizing keeps maxKicks";
  }
}

TEST(Sizing, RejectsImpossibleRequests) {
  FilterParams p;
  EXPECT_EQ(paramsForCapacity(0, 0.01, p), Status::kInvalidCapacity);
  EXPECT_EQ(paramsForCapacity(100, 0.0, p), Status::kInvalidFalsePositiveRate);
  EXPECT_EQ(paramsForCapacity(100, 1.0, p), Status::kInvalidFalsePositiveRate);
  EXPECT_EQ(paramsForCapacity(100, -0.5, p), Status::kInvalidFalsePositiveRate);
  EXPECT_EQ(paramsForCapacity(100, std::numeric_limits<double>::quiet_NaN(), p), Status::kInvalidFalsePositiveRate);
  EXPECT_EQ(paramsForCapacity(100, std::numeric_limits<double>::infinity(), p),
            Status::kInvalidFalsePositiveRate);
  // 16 / 2^32 = 3.7e-9 is the lowest rate 32-bit fingerprints can promise.
  EXPECT_EQ(paramsForCapacity(100, 1e-9, p), Status::kFalsePositiveRateTooLow);
  EXPECT_EQ(paramsForCapacity(100, 4e-9, p), Status::kOk);
  EXPECT_EQ(p.fingerprintBits, 32U);
  EXPECT_EQ(paramsForCapacity(std::uint64_t{1} << 40, 0.001, p), Status::kTableTooLarge);
}

TEST(Sizing, AFilterSizedForNHoldsNItemsWithinTheTargetRate) {
  // Capacities close to the practical maximum load of each bucket size.
  const struct {
    std::uint64_t capacity;
    double rate;
  } cases[] = {{3'400, 0.01}, {7'600, 0.001}, {15'500, 0.0001}, {7'900, 0.000005}, {200'000, 0.001}};
  for (const auto& c : cases) {
    FilterParams p;
    p.seed = 4242;
    ASSERT_EQ(paramsForCapacity(c.capacity, c.rate, p), Status::kOk);
    CuckooFilter filter;
    ASSERT_EQ(CuckooFilter::create(p, filter), Status::kOk);
    for (std::uint64_t k = 0; k < c.capacity; ++k) ASSERT_TRUE(testing::insertKey(filter, k)) << k;
    for (std::uint64_t k = 0; k < c.capacity; ++k) ASSERT_TRUE(testing::containsKey(filter, k)) << k;
    const FilterStats s = filter.stats();
    // The bound 2b/2^f <= rate; at this load the expected rate is below it.
    // Probes for >= 1000 expected false positives keep the noise near 3%.
    const auto probes =
        static_cast<std::uint64_t>(std::fmax(1e6, std::ceil(1000.0 / s.expectedFalsePositiveRate)));
    const double measured = testing::measuredFalsePositiveRate(filter, std::min<std::uint64_t>(probes, 40'000'000));
    std::printf("[ sizing   ] n=%llu eps=%g: b=%u f=%u m=%llu load %.3f measured fpr %.3e\n",
                static_cast<unsigned long long>(c.capacity), c.rate, p.bucketSize, p.fingerprintBits,
                static_cast<unsigned long long>(p.bucketCount), s.loadFactor, measured);
    EXPECT_LE(measured, c.rate);
  }
}

}  // namespace
}  // namespace cuckoo
