#include "cuckoo/sizing.hpp"

#include <cmath>

#include "one_minus_power.hpp"
#include "reject.hpp"

namespace cuckoo {
namespace {

using detail::rejected;

// A point of a load curve: tables of 2^log2Slots slots are sized to `load`.
struct Knot {
  double log2Slots;
  double load;
};

// The sizing loads, measured by cuckoo_load_curve over 200,000 seeds per size
// (bench/README.md): at each size, below the 0.01 % quantile of the load at the first
// refused add, so that a table filled to capacity refuses an add with odds
// below 1 in 10,000, and rising with size as the spread narrows. Between knots
// the load is interpolated linearly, knot to knot by whole log2(slots) and
// within each octave by slots; beyond the last knot it stays there.
// One slot per bucket fills unevenly even in large tables: b = 1 is never
// chosen by the sizing, and its curve is low and cautious.
constexpr Knot kKnots1[] = {{6, 0.03},  {10, 0.05}, {12, 0.10}, {14, 0.20}, {16, 0.30},
                            {17, 0.38}, {18, 0.43}, {26, 0.43}, {32, 0.40}};
constexpr Knot kKnots2[] = {{4, 0.22},  {5, 0.30},   {6, 0.35},  {7, 0.55},  {8, 0.72},   {9, 0.78}, {10, 0.81},
                            {11, 0.825}, {12, 0.835}, {13, 0.84}, {28, 0.84}, {30, 0.835}, {33, 0.83}};
constexpr Knot kKnots4[] = {{4, 0.45},  {5, 0.58},   {6, 0.75},   {7, 0.85},  {8, 0.895}, {9, 0.92},   {10, 0.93},
                            {11, 0.935}, {12, 0.94}, {13, 0.945}, {26, 0.945}, {28, 0.94}, {30, 0.935}, {32, 0.93},
                            {34, 0.925}};
constexpr Knot kKnots8[] = {{4, 0.62},  {5, 0.78},   {6, 0.86},   {7, 0.92},  {8, 0.95}, {9, 0.965},
                            {10, 0.97}, {11, 0.975}, {28, 0.975}, {30, 0.97}, {35, 0.965}};

// Where large tables of each bucket size are sized: the plateau of the curves.
constexpr unsigned kLargeTableLog2Slots = 20;

// The knots of bucket size b.
const Knot* knotsFor(unsigned bucketSize, unsigned& count) noexcept {
  switch (bucketSize) {
    case 1: count = sizeof kKnots1 / sizeof kKnots1[0]; return kKnots1;
    case 2: count = sizeof kKnots2 / sizeof kKnots2[0]; return kKnots2;
    case 4: count = sizeof kKnots4 / sizeof kKnots4[0]; return kKnots4;
    default: count = sizeof kKnots8 / sizeof kKnots8[0]; return kKnots8;
  }
}

// The curve of `bucketSize` at 2^log2Slots slots, for a whole log2Slots:
// linear between knots.
double loadAtPowerOfTwo(unsigned bucketSize, int log2Slots) noexcept {
  unsigned count = 0;
  const Knot* knots = knotsFor(bucketSize, count);
  if (log2Slots <= knots[0].log2Slots) return knots[0].load;
  for (unsigned k = 1; k < count; ++k) {
    if (log2Slots <= knots[k].log2Slots) {
      const double t = (log2Slots - knots[k - 1].log2Slots) / (knots[k].log2Slots - knots[k - 1].log2Slots);
      return knots[k - 1].load + t * (knots[k].load - knots[k - 1].load);
    }
  }
  return knots[count - 1].load;
}

// The curve at `slots` (>= 1), linear in slots within each octave. Only
// correctly rounded arithmetic, no logarithm, so that native and wasm builds
// size every filter alike.
double loadAt(unsigned bucketSize, std::uint64_t slots) noexcept {
  const int octave = 63 - __builtin_clzll(slots);
  const double low = std::ldexp(1.0, octave);
  const double t = (static_cast<double>(slots) - low) / low;
  const double from = loadAtPowerOfTwo(bucketSize, octave);
  return from + t * (loadAtPowerOfTwo(bucketSize, octave + 1) - from);
}

// The smallest f with 2b / 2^f <= rate, at least kMinFingerprintBits; more
// than kMaxFingerprintBits when none fits. Exact: no logarithm.
unsigned fingerprintBitsFor(unsigned bucketSize, double falsePositiveRate) noexcept {
  unsigned bits = kMinFingerprintBits;
  while (bits <= kMaxFingerprintBits && std::ldexp(falsePositiveRate, static_cast<int>(bits)) < 2.0 * bucketSize) ++bits;
  return bits;
}

// The paper's eq. (3): the expected number of groups of 2b + 1 of `items`
// items that share both buckets in a table of `bucketCount` buckets with
// f-bit fingerprints. One such group makes an add fail whatever the load, and
// short fingerprints make them likely (Section 4: f must grow like log n / b).
// Products only, so that native and wasm builds agree to the bit.
double expectedFullBucketPairs(std::uint64_t items, std::uint64_t bucketCount, unsigned bucketSize,
                               unsigned fingerprintBits) noexcept {
  const unsigned group = 2 * bucketSize + 1;
  if (items < group) return 0.0;
  double expected = 1.0;
  const double sharesPair = 2.0 / (static_cast<double>(bucketCount) * (std::ldexp(1.0, static_cast<int>(fingerprintBits)) - 1));
  for (unsigned i = 0; i < group; ++i) {
    expected *= static_cast<double>(items - i) / (i + 1);
    if (i > 0) expected *= sharesPair;
  }
  return expected;
}

// Odds of an add failing before capacity that the fingerprint width may add.
constexpr double kMaxExpectedFullBucketPairs = 1e-5;

// The smallest bucket count whose tables of `bucketSize` hold `capacity`; 0
// when even 2^32 buckets do not.
std::uint64_t bucketCountFor(unsigned bucketSize, std::uint64_t capacity) noexcept {
  if (capacityFor(bucketSize, kMaxBucketCount) < capacity) return 0;
  // capacityFor grows with the bucket count.
  std::uint64_t tooFew = 0;
  std::uint64_t enough = kMaxBucketCount;
  while (enough - tooFew > 1) {
    const std::uint64_t middle = tooFew + (enough - tooFew) / 2;
    (capacityFor(bucketSize, middle) >= capacity ? enough : tooFew) = middle;
  }
  return enough;
}

struct Shape {
  unsigned bucketSize = 0;  // 0: no shape fits
  unsigned fingerprintBits = 0;
  std::uint64_t bucketCount = 0;
};

// The shape of bucket size b for `capacity` items at `rate`: the fingerprint
// that keeps 2b / 2^f within the rate, widened until groups of 2b + 1 items
// sharing both buckets are unlikely; b = 0 when f would pass 32 bits or the
// table 2^32 buckets.
Shape shapeFor(unsigned bucketSize, std::uint64_t capacity, double rate, unsigned minimumBits) noexcept {
  Shape shape;
  shape.bucketCount = bucketCountFor(bucketSize, capacity);
  if (shape.bucketCount == 0) return shape;
  unsigned bits = fingerprintBitsFor(bucketSize, rate);
  if (bits < minimumBits) bits = minimumBits;
  while (bits <= kMaxFingerprintBits &&
         expectedFullBucketPairs(capacity, shape.bucketCount, bucketSize, bits) > kMaxExpectedFullBucketPairs) {
    ++bits;
  }
  if (bits > kMaxFingerprintBits) return shape;
  shape.bucketSize = bucketSize;
  shape.fingerprintBits = bits;
  return shape;
}

// Bits of table per item at capacity.
double bitsPerItem(const Shape& shape, std::uint64_t capacity, bool semiSort) noexcept {
  const unsigned stored = semiSort ? shape.fingerprintBits - 1 : shape.fingerprintBits;
  return static_cast<double>(shape.bucketCount) * shape.bucketSize * stored / static_cast<double>(capacity);
}

}  // namespace

// CuckooFilter::stats() writes the same two expressions for a filter. It keeps
// its own copy: calling these from it changed the lean module's bytes (its
// register allocation), and that module's size is fixed. test_sizing.cpp
// checks that the two agree bit for bit.
double falsePositiveBound(unsigned bucketSize, unsigned fingerprintBits) noexcept {
  return 2.0 * bucketSize * std::ldexp(1.0, -static_cast<int>(fingerprintBits));
}

double expectedFalsePositiveRate(unsigned bucketSize, unsigned fingerprintBits, double loadFactor) noexcept {
  const double perSlotMatch = std::ldexp(1.0, -static_cast<int>(fingerprintBits));
  return 1.0 - detail::oneMinusPower(perSlotMatch, 2.0 * bucketSize * loadFactor);
}

double practicalMaxLoad(unsigned bucketSize) noexcept {
  if (bucketSize != 1 && bucketSize != 2 && bucketSize != 4 && bucketSize != 8) return 0.0;
  return loadAt(bucketSize, std::uint64_t{1} << kLargeTableLog2Slots);
}

double maxLoadFor(unsigned bucketSize, std::uint64_t bucketCount) noexcept {
  return loadAt(bucketSize, bucketCount * bucketSize);
}

std::uint64_t capacityFor(unsigned bucketSize, std::uint64_t bucketCount) noexcept {
  const double slots = static_cast<double>(bucketCount) * bucketSize;
  const auto sized = static_cast<std::uint64_t>(slots * maxLoadFor(bucketSize, bucketCount));
  return sized > bucketSize + 1U ? sized : bucketSize + 1U;
}

Status paramsForCapacity(std::uint64_t capacity, double falsePositiveRate, FilterParams& out) noexcept {
  if (capacity == 0) return rejected(Status::kInvalidCapacity);
  // Written so that NaN fails too.
  if (!(falsePositiveRate > 0.0 && falsePositiveRate < 1.0)) {
    return rejected(Status::kInvalidFalsePositiveRate);
  }
  // Semi-sorting needs b = 4; otherwise the bucket size with the fewest bits
  // per item at capacity (the smaller on a tie).
  Shape best;
  bool someTableFits = false;
  for (const unsigned b : {2U, 4U, 8U}) {
    if (out.semiSort && b != kSemiSortedBucketSize) continue;
    const Shape shape = shapeFor(b, capacity, falsePositiveRate, out.semiSort ? kSemiSortedMinBits : kMinFingerprintBits);
    someTableFits = someTableFits || shape.bucketCount != 0;
    if (shape.bucketSize == 0) continue;
    if (best.bucketSize == 0 || bitsPerItem(shape, capacity, out.semiSort) < bitsPerItem(best, capacity, out.semiSort)) {
      best = shape;
    }
  }
  if (best.bucketSize == 0) return rejected(someTableFits ? Status::kFalsePositiveRateTooLow : Status::kTableTooLarge);

  FilterParams sized = out;
  sized.fingerprintBits = best.fingerprintBits;
  sized.bucketSize = best.bucketSize;
  sized.bucketCount = best.bucketCount;
  const Status valid = CuckooFilter::validate(sized);
  if (valid != Status::kOk) return valid;
  out = sized;
  return Status::kOk;
}

}  // namespace cuckoo
