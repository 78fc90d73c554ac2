// Sizing a filter from (capacity, false-positive rate) (sizing.hpp): the
// shape chosen for a rate, the smallest bucket count that holds the capacity,
// and the promise behind it, that `capacity` adds succeed at every size.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/bit_io.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/packed_table.hpp"
#include "cuckoo/sizing.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

struct SizingCase {
  std::uint64_t capacity;
  double rate;
  bool semiSort;
  unsigned bucketSize;        // expected, worked out by hand below
  unsigned fingerprintBits;   // the smallest f with 2b / 2^f <= rate
  std::uint64_t bucketCount;  // the smallest m with floor(m * b * load) >= capacity
};

// Worked by hand from the sizing rule. Shapes: f_b for b = 2, 4, 8 and their
// bits per item f_b / load_b with loads 0.84, 0.945, 0.975. Counts: large
// tables (2^13 slots and more) are sized to a load of 0.945 for b = 4, 0.84
// for b = 2; m = ceil(capacity / (b * load)), unless floor(m * b * load)
// falls just short. E.g. (1e6, 0.001): f = 12, 13, 14 for b = 2, 4, 8 cost
// 14.29, 13.76 and 14.36 bits, so b = 4; 1e6 / 3.78 = 264550.3: 264,550
// buckets hold floor(999,999.0) items, 264,551 hold 1,000,002.
const SizingCase kGrid[] = {
    {1'000'000, 0.001, false, 4, 13, 264'551},
    {1'000'000, 0.001, true, 4, 13, 264'551},  // the same shape; one bit less stored per entry
    {100'000, 0.0001, false, 4, 17, 26'456},   // 100000 / 3.78 = 26455.03; 26455 holds 99999
    // b = 2: f = 7 for the rate, but at 10^6 items groups of 5 sharing both
    // buckets need f = 10 to be rare (eq. (3)): 11.9 bits against b = 4's 8.47.
    {1'000'000, 0.05, false, 4, 8, 264'551},
    // At 2,000 items f = 7 is enough for b = 2 (eq. (3) gives 7.6e-6): 1,210
    // buckets (2,420 slots, sized at 0.8268 between the knots 0.825 and 0.835)
    // hold 2,000, 8.47 bits per item against b = 4's 8.54.
    {2'000, 0.05, false, 2, 7, 1'210},
    {1'000'000, 0.01, false, 4, 10, 264'551},  // 9 / 0.84 = 10.71 > 10 / 0.945 = 10.58
    {1'000'000, 0.01, true, 4, 10, 264'551},   // semi-sorted at any rate now: b = 4
    {1'000'000, 1e-6, true, 4, 23, 264'551},
    {1, 0.9, false, 2, 3, 1},  // 4 / 2^3 = 0.5 <= 0.9; one bucket holds b + 1 = 3 items, stash included
    {3, 0.9, false, 2, 3, 1},
};

TEST(Sizing, ChoosesTheShapeWithTheFewestBitsAndTheSmallestBucketCount) {
  for (const SizingCase& c : kGrid) {
    FilterParams p;
    p.seed = 99;
    p.maxKicks = 123;
    p.semiSort = c.semiSort;
    ASSERT_EQ(paramsForCapacity(c.capacity, c.rate, p), Status::kOk) << c.capacity << " " << c.rate;
    EXPECT_EQ(p.bucketSize, c.bucketSize) << c.capacity << " " << c.rate;
    EXPECT_EQ(p.fingerprintBits, c.fingerprintBits) << c.capacity << " " << c.rate;
    EXPECT_EQ(p.bucketCount, c.bucketCount) << c.capacity << " " << c.rate;
    EXPECT_EQ(p.semiSort, c.semiSort);
    EXPECT_EQ(p.seed, 99U) << "sizing keeps the seed";
    EXPECT_EQ(p.maxKicks, 123U) << "sizing keeps maxKicks";
  }
}

// Capacities up to 2^32 natively. Where pointers are 32-bit (wasm32) tables
// stop at 2 GiB (kMaxTableBytes), so there capacities stop at 2^27, whose
// table is under 1 GiB even at 32-bit fingerprints; the refusal beyond is
// the next test's.
constexpr unsigned kCapacityBits = sizeof(void*) >= 8 ? 32 : 27;

TEST(Sizing, TheBucketCountIsTheSmallestThatHoldsTheCapacity) {
  SplitMix64 rng(5);
  for (int trial = 0; trial < 3000; ++trial) {
    const std::uint64_t capacity = 1 + (rng.next() >> (rng.next() % kCapacityBits + 64 - kCapacityBits));
    const double rate = std::ldexp(1.0, -static_cast<int>(rng.next() % 26)) * 0.9;
    FilterParams p;
    p.semiSort = (rng.next() & 1) != 0;
    ASSERT_EQ(paramsForCapacity(capacity, rate, p), Status::kOk) << capacity << " " << rate;
    ASSERT_GE(capacityFor(p.bucketSize, p.bucketCount), capacity);
    if (p.bucketCount > 1) {
      ASSERT_LT(capacityFor(p.bucketSize, p.bucketCount - 1), capacity) << capacity;
    }
    ASSERT_LE(2.0 * p.bucketSize * std::ldexp(1.0, -static_cast<int>(p.fingerprintBits)), rate);
  }
}

// 1.8e9 items at 3.4e-6: a table of about 5 GB, which 64-bit builds size and
// 32-bit ones (wasm32) refuse.
TEST(Sizing, ATableBeyondTheLargestAllocationIsRefused) {
  FilterParams p;
  const Status status = paramsForCapacity(1'835'831'624, 3.4332275390625e-06, p);
  if (kMaxTableBytes < (std::uint64_t{5} << 30)) {
    EXPECT_EQ(status, Status::kTableTooLarge);
  } else {
    ASSERT_EQ(status, Status::kOk);
    EXPECT_GT(PackedTable::bytesFor(p.fingerprintBits, p.bucketSize, p.bucketCount), std::uint64_t{4} << 30);
  }
}

TEST(Sizing, CapacityGrowsWithTheBucketCountAndIsNeverBelowOneBucketAndTheStash) {
  for (const unsigned b : {1U, 2U, 4U, 8U}) {
    std::uint64_t previous = 0;
    for (std::uint64_t m = 1; m <= 100'000; ++m) {
      const std::uint64_t held = capacityFor(b, m);
      ASSERT_GE(held, previous) << "b=" << b << " m=" << m;
      ASSERT_GE(held, b + 1) << "b=" << b << " m=" << m;
      ASSERT_LE(held, m * b + 1) << "b=" << b << " m=" << m;
      previous = held;
    }
    for (std::uint64_t m = 100'000; m < kMaxBucketCount; m += m / 7 + 1) {
      ASSERT_GE(capacityFor(b, m + m / 7 + 1), capacityFor(b, m)) << "b=" << b << " m=" << m;
    }
    EXPECT_DOUBLE_EQ(maxLoadFor(b, (std::uint64_t{1} << 20) / b), practicalMaxLoad(b));
  }
  EXPECT_EQ(capacityFor(4, 1), 5U);
  EXPECT_EQ(capacityFor(2, 1), 3U);
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
  // 4 / 2^32 = 9.3e-10 (b = 2, f = 32) is the lowest rate fingerprints can promise.
  EXPECT_EQ(paramsForCapacity(100, 9e-10, p), Status::kFalsePositiveRateTooLow);
  ASSERT_EQ(paramsForCapacity(100, 1e-9, p), Status::kOk);
  EXPECT_EQ(p.bucketSize, 2U);
  EXPECT_EQ(p.fingerprintBits, 32U);
  // Semi-sorted needs b = 4: 8 / 2^32 = 1.9e-9 at the lowest.
  FilterParams semi;
  semi.semiSort = true;
  EXPECT_EQ(paramsForCapacity(100, 1e-9, semi), Status::kFalsePositiveRateTooLow);
  EXPECT_EQ(paramsForCapacity(100, 2e-9, semi), Status::kOk);
  EXPECT_EQ(paramsForCapacity(std::uint64_t{1} << 40, 0.001, p), Status::kTableTooLarge);
}

// The promise: a filter sized for `capacity` accepts `capacity` adds (the last
// may wait in the stash), at every size; small tables are sized lower because
// they fill less evenly. And the false-positive rate at capacity is within
// the one asked for. Capacities 1 .. 300 one by one, then in steps of 7 % to
// 10^6, three seeds each, for every bucket size the sizing chooses.
TEST(Sizing, EveryCapacityAddsSucceedAtEverySize) {
  std::vector<std::uint64_t> capacities;
  for (std::uint64_t c = 1; c <= 300; ++c) capacities.push_back(c);
  for (double c = 300 * 1.07; c <= 1e6; c *= 1.07) capacities.push_back(static_cast<std::uint64_t>(c));
  capacities.push_back(1'000'000);
  // 0.05 sizes small filters with b = 2 and large ones with b = 4.
  const struct {
    double rate;
    bool semiSort;
  } shapes[] = {{0.05, false}, {0.001, false}, {0.001, true}};
  std::uint64_t filters = 0, adds = 0, withTwoSlots = 0;
  for (const auto& shape : shapes) {
    for (const std::uint64_t capacity : capacities) {
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        FilterParams p;
        p.seed = seed * 1'000'003 + capacity;
        p.semiSort = shape.semiSort;
        ASSERT_EQ(paramsForCapacity(capacity, shape.rate, p), Status::kOk);
        withTwoSlots += p.bucketSize == 2 ? 1 : 0;
        CuckooFilter filter;
        ASSERT_EQ(CuckooFilter::create(p, filter), Status::kOk);
        const std::uint64_t base = seed << 40;
        for (std::uint64_t k = 0; k < capacity; ++k) {
          ASSERT_TRUE(testing::insertKey(filter, base + k))
              << "add " << k + 1 << " of " << capacity << ", b=" << p.bucketSize << " m=" << p.bucketCount
              << " seed=" << p.seed << (p.semiSort ? " semi-sorted" : "");
        }
        ++filters;
        adds += capacity;
      }
    }
  }
  std::printf("[ sizing   ] %llu filters (%llu of b = 2), %llu adds, none refused\n",
              static_cast<unsigned long long>(filters), static_cast<unsigned long long>(withTwoSlots),
              static_cast<unsigned long long>(adds));
  EXPECT_GT(withTwoSlots, 50U) << "the b = 2 sizes were covered";
}

TEST(Sizing, TheFalsePositiveRateAtCapacityIsWithinTheRate) {
  // Expected rates at capacity are about load * 2b / 2^f, at most 0.945 of the
  // rate asked for: 10^7 probes make the standard deviation of a measured
  // 0.001 about 1 % of it, so the margin is several deviations wide.
  const struct {
    std::uint64_t capacity;
    double rate;
    bool semiSort;
  } cases[] = {{2'000, 0.05, false},      {100'000, 0.01, false}, {300'000, 0.001, false},
               {300'000, 0.001, true},    {250, 0.01, false},     {1'000'000, 0.003, false}};
  for (const auto& c : cases) {
    FilterParams p;
    p.seed = 4242;
    p.semiSort = c.semiSort;
    ASSERT_EQ(paramsForCapacity(c.capacity, c.rate, p), Status::kOk);
    CuckooFilter filter;
    ASSERT_EQ(CuckooFilter::create(p, filter), Status::kOk);
    for (std::uint64_t k = 0; k < c.capacity; ++k) ASSERT_TRUE(testing::insertKey(filter, k)) << k;
    for (std::uint64_t k = 0; k < c.capacity; ++k) ASSERT_TRUE(testing::containsKey(filter, k)) << k;
    const double measured = testing::measuredFalsePositiveRate(filter, 10'000'000);
    const FilterStats s = filter.stats();
    std::printf("[ sizing   ] n=%llu eps=%g%s: b=%u f=%u m=%llu load %.4f bits/item %.2f measured fpr %.3e\n",
                static_cast<unsigned long long>(c.capacity), c.rate, c.semiSort ? " semi-sorted" : "", p.bucketSize,
                p.fingerprintBits, static_cast<unsigned long long>(p.bucketCount), s.loadFactor, s.bitsPerItem,
                measured);
    EXPECT_LE(measured, c.rate);
  }
}

TEST(Sizing, TheRatesOfAShapeAreTheRatesAFilterOfThatShapeReports) {
  // stats() writes the two expressions itself (sizing.cpp says why): they must agree bit for bit.
  for (const unsigned b : {1U, 2U, 4U, 8U}) {
    for (const unsigned f : {2U, 6U, 12U, 20U, 32U}) {
      CuckooFilter filter = testing::makeFilter(f, b, 64);
      for (std::uint64_t k = 0; filter.stats().loadFactor < 0.9 && filter.stats().stashedCount == 0; ++k) {
        ASSERT_TRUE(testing::insertKey(filter, k));
        const FilterStats s = filter.stats();
        ASSERT_EQ(expectedFalsePositiveRate(b, f, s.loadFactor), s.expectedFalsePositiveRate) << "b " << b << " f " << f << " load " << s.loadFactor;
        ASSERT_EQ(falsePositiveBound(b, f), s.falsePositiveBound) << "b " << b << " f " << f;
      }
    }
  }
  EXPECT_EQ(expectedFalsePositiveRate(4, 6, 0.0), 0.0);
}

}  // namespace
}  // namespace cuckoo
