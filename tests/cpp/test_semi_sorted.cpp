// Semi-sorting (Section 5.2; semi_sorted_table.hpp): the nibble-rank encoding,
// the sorted table, and filters built on it.

#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/sizing.hpp"
#include "cuckoo/detail/buckets.hpp"
#include "cuckoo/semi_sorted_table.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

using namespace testing;  // the shared helpers of test_support.hpp

TEST(SemiSortedEncoding, RanksNumberEverySortedNibbleMultisetOnce) {
  // Enumerate the multisets independently of the rank formula: 3,876 of them.
  std::set<std::uint32_t> ranks;
  for (unsigned a = 0; a < 16; ++a)
    for (unsigned b = a; b < 16; ++b)
      for (unsigned c = b; c < 16; ++c)
        for (unsigned d = c; d < 16; ++d) {
          const std::uint32_t rank = semisort::rankNibbles(a, b, c, d);
          ASSERT_LT(rank, kNibbleMultisets);
          ranks.insert(rank);
          ASSERT_EQ(semisort::kUnrank[rank], a | b << 4 | c << 8 | d << 12);
        }
  EXPECT_EQ(ranks.size(), 3876U);
  EXPECT_EQ(semisort::rankNibbles(0, 0, 0, 0), 0U) << "an empty bucket encodes as all-zero bits";
}

TEST(SemiSortedEncoding, EveryMultisetWithRandomLowBitsRoundTripsAtEveryWidth) {
  SplitMix64 rng(4);
  for (unsigned bits = kSemiSortedMinBits; bits <= 32; ++bits) {
    const unsigned lowBits = bits - 4;
    // Three buckets, so the middle one has neighbours on both sides.
    SemiSortedTable table;
    ASSERT_EQ(SemiSortedTable::allocate(bits, 3, table), Status::kOk);
    semisort::Bucket neighbour{{0, 1, 2, (std::uint32_t{1} << (bits - 1)) | 3}};
    const unsigned bucketBits = 4 * bits - 4;
    semisort::encode(table.data(), 0, bits, neighbour);
    semisort::encode(table.data(), 2 * bucketBits, bits, neighbour);
    for (std::uint32_t rank = 0; rank < kNibbleMultisets; ++rank) {
      const std::uint32_t nibbles = semisort::kUnrank[rank];
      semisort::Bucket b;
      for (unsigned s = 0; s < 4; ++s) {
        const auto low = static_cast<std::uint32_t>(rng.next() & ((std::uint64_t{1} << lowBits) - 1));
        b.entries[3 - s] = ((nibbles >> (4 * s)) & 0xF) << lowBits | low;  // reversed: encode must sort
      }
      semisort::Bucket sorted = b;
      semisort::sortFour(sorted.entries);
      semisort::encode(table.data(), bucketBits, bits, b);
      const semisort::Bucket back = table.decode(1);
      for (unsigned s = 0; s < 4; ++s) ASSERT_EQ(back.entries[s], sorted.entries[s]) << "f=" << bits << " rank=" << rank;
    }
    for (unsigned s = 0; s < 4; ++s) {
      ASSERT_EQ(table.read(0, s), neighbour.entries[s]) << "f=" << bits;
      ASSERT_EQ(table.read(2, s), neighbour.entries[s]) << "f=" << bits;
    }
  }
}

TEST(SemiSortedEncoding, ABucketTakesFourFMinusFourBits) {
  EXPECT_EQ(SemiSortedTable::bytesFor(13, 1 << 16), (std::uint64_t{1} << 16) * 48 / 8 + 7);
  EXPECT_EQ(SemiSortedTable::bytesFor(13, 1 << 16), PackedTable::bytesFor(12, 4, 1 << 16));
  EXPECT_EQ(SemiSortedTable::bytesFor(5, 3), (3 * 16 + 7) / 8 + 7U);
}

TEST(SemiSortedTable, InsertRemoveAndExchangeKeepTheBucketSorted) {
  SemiSortedTable table;
  ASSERT_EQ(SemiSortedTable::allocate(9, 4, table), Status::kOk);
  detail::SemiSortedBuckets<0> view(table.data(), 9);
  EXPECT_TRUE(view.insertIntoEmptySlot(2, 300));
  EXPECT_TRUE(view.insertIntoEmptySlot(2, 7));
  EXPECT_TRUE(view.insertIntoEmptySlot(2, 511));
  EXPECT_TRUE(view.insertIntoEmptySlot(2, 7));
  EXPECT_FALSE(view.insertIntoEmptySlot(2, 1)) << "four entries: full";
  EXPECT_EQ(view.matching(view.probe(2), 7), 0b0011U) << "sorted: 7, 7, 300, 511";
  EXPECT_EQ(view.exchange(2, 3, 2), 511U);
  EXPECT_EQ(table.read(2, 0), 2U);
  EXPECT_TRUE(view.removeOne(2, 7));
  EXPECT_EQ(table.read(2, 0), 0U) << "the empty entry sorts first";
  EXPECT_EQ(table.occupiedEntries(), 3U);
  for (std::uint32_t other : {0U, 1U, 3U}) EXPECT_EQ(view.matching(view.probe(other), 0), 0b1111U);
}

TEST(SemiSortedFilter, ParametersAndSizing) {
  FilterParams p;
  p.semiSort = true;
  p.bucketSize = 2;
  CuckooFilter filter;
  EXPECT_EQ(CuckooFilter::create(p, filter), Status::kInvalidSemiSortParameters);
  p.bucketSize = 4;
  p.fingerprintBits = 4;
  EXPECT_EQ(CuckooFilter::create(p, filter), Status::kInvalidSemiSortParameters);
  p.fingerprintBits = 5;
  EXPECT_EQ(CuckooFilter::create(p, filter), Status::kOk);

  // Sized semi-sorted filters take b = 4 at any rate: 8 / 2^f <= rate, stored in f - 1 bits.
  for (const auto& [rate, bits] : {std::pair{0.01, 10U}, std::pair{0.001, 13U}, std::pair{0.000001, 23U}, std::pair{0.2, 6U}}) {
    FilterParams sized;
    sized.semiSort = true;
    ASSERT_EQ(paramsForCapacity(1000, rate, sized), Status::kOk) << rate;
    EXPECT_TRUE(sized.semiSort);
    EXPECT_EQ(sized.bucketSize, 4U);
    EXPECT_EQ(sized.fingerprintBits, bits) << rate;
  }
  FilterParams coarse;
  coarse.semiSort = true;
  ASSERT_EQ(paramsForCapacity(1000, 0.9, coarse), Status::kOk);
  EXPECT_EQ(coarse.fingerprintBits, kSemiSortedMinBits) << "8 / 2^4 would do, but semi-sorting needs 5 bits";
}

TEST(SemiSortedFilter, LoadFactorAtFirstFailureMatchesThePlainTable) {
  for (unsigned bits : {8U, 13U}) {
    CuckooFilter filter = makeFilter(bits, 4, 1 << 16, 77, kDefaultMaxKicks, true);
    fillToFirstFailure(filter, 1);
    EXPECT_GE(filter.stats().loadFactor, 0.94) << "f=" << bits;
  }
}

// The paper's claim (Section 5.2, Table 3): at the same space, semi-sorting
// halves the false-positive rate. f = 13 semi-sorted stores 12 bits per entry.
TEST(SemiSortedFilter, SameSpaceAsOneBitNarrowerAndHalfTheFalsePositiveRate) {
  CuckooFilter plain = makeFilter(12, 4, 1 << 16, 2024);
  CuckooFilter semi = makeFilter(13, 4, 1 << 16, 2024, kDefaultMaxKicks, true);
  fillToFirstFailure(plain, 1);
  fillToFirstFailure(semi, 1);
  const FilterStats p = plain.stats(), s = semi.stats();
  EXPECT_NEAR(s.bitsPerItem / p.bitsPerItem, 1.0, 0.01);
  // Expected rates ~1.9e-3 and ~0.94e-3: 2M probes give ~3,700 and ~1,900
  // false positives, a ratio known to about +-3%, so [0.40, 0.60] around the
  // expected 0.5 is stable and still fails for a rate that did not halve.
  const double plainRate = measuredFalsePositiveRate(plain, 2'000'000);
  const double semiRate = measuredFalsePositiveRate(semi, 2'000'000);
  std::printf("[ semisort ] bits/item plain f=12 %.3f, semi-sorted f=13 %.3f; FPR %.3e vs %.3e (ratio %.3f)\n",
              p.bitsPerItem, s.bitsPerItem, plainRate, semiRate, semiRate / plainRate);
  EXPECT_GT(semiRate / plainRate, 0.40);
  EXPECT_LT(semiRate / plainRate, 0.60);
  EXPECT_NEAR(semiRate, s.expectedFalsePositiveRate, 0.25 * s.expectedFalsePositiveRate);
}

TEST(SemiSortedFilter, OperationsAndDeterminismMatchThePlainContract) {
  CuckooFilter a = makeFilter(13, 4, 1 << 8, 5, kDefaultMaxKicks, true);
  CuckooFilter b = makeFilter(13, 4, 1 << 8, 5, kDefaultMaxKicks, true);
  const std::uint64_t key = 42;
  EXPECT_EQ(a.insertUnique(&key, 8), InsertOutcome::kInserted);
  EXPECT_EQ(a.insertUnique(&key, 8), InsertOutcome::kAlreadyPresent);
  EXPECT_TRUE(a.insert(&key, 8));
  EXPECT_EQ(a.count(&key, 8), 2U);
  EXPECT_TRUE(a.erase(&key, 8));
  EXPECT_TRUE(a.erase(&key, 8));
  EXPECT_FALSE(a.contains(&key, 8));
  const std::vector<std::uint64_t> storedA = fillToFirstFailure(a, 100);
  const std::vector<std::uint64_t> storedB = fillToFirstFailure(b, 100);
  EXPECT_EQ(storedA, storedB) << "same seed, same outcome";
  for (const std::uint64_t k : storedA) ASSERT_TRUE(containsKey(a, k));
  const FilterStats s = a.stats();
  EXPECT_DOUBLE_EQ(s.bitsPerItem, 256.0 * 48 / static_cast<double>(s.itemCount));
  a.clear();
  CuckooFilter fresh = makeFilter(13, 4, 1 << 8, 5, kDefaultMaxKicks, true);
  EXPECT_TRUE(testing::snapshot(a) == testing::snapshot(fresh));
}

}  // namespace
}  // namespace cuckoo
