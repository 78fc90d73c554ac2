#pragma once
// (1 - p)^y, the expected false-positive rate's power (CuckooFilter::stats),
// from sums and products alone: with libm's pow the WebAssembly modules would
// carry its tables, about 5 KB of the main entry's download.

#include <cmath>

namespace cuckoo::detail {

// For 0 <= p <= 1/2 and y >= 0, within a few units in the last place of pow.
inline double oneMinusPower(double p, double y) noexcept {
  if (p == 0.0 || y == 0.0) return 1.0;
  // ln(1 - p) = -2 atanh(u) with u = p / (2 - p) <= 1/3: the series
  // u + u^3/3 + u^5/5 + ... gains a factor u^2 <= 1/9 a term.
  const double u = p / (2.0 - p);
  const double uSquared = u * u;
  double sum = 0.0;
  double power = u;
  for (int k = 1; power > 0.0 && power / k > sum * 1e-18; k += 2) {
    sum += power / k;
    power *= uSquared;
  }
  const double z = -2.0 * sum * y;
  // exp(z) = 2^n exp(r) with z = n ln 2 + r, |r| <= ln 2 / 2; ln 2 in two
  // parts, so that n ln 2 is exact for the n a rate can need.
  constexpr double kLn2High = 0.693145751953125;  // 22 significant bits
  constexpr double kLn2Low = 1.4286068203094172321e-06;
  const double n = std::floor(z / (kLn2High + kLn2Low) + 0.5);
  const double r = (z - n * kLn2High) - n * kLn2Low;
  double e = 1.0;
  for (int k = 20; k >= 1; --k) e = 1.0 + e * r / k;
  return std::ldexp(e, static_cast<int>(n));
}

}  // namespace cuckoo::detail
