// The cuckoo filter itself (cuckoo_filter.hpp): parameters, insert, lookup,
// count and erase against an exact multiset, filling to full with the stash,
// the false-positive rate, and determinism.

#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/cuckoo_filter.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

using namespace testing;  // the shared helpers of test_support.hpp

// ---------------------------------------------------------------- parameters

TEST(FilterParams, EveryBadParameterHasItsOwnStatus) {
  const auto statusOf = [](unsigned f, unsigned b, std::uint64_t m, std::uint32_t kicks = 500) {
    FilterParams p;
    p.fingerprintBits = f;
    p.bucketSize = b;
    p.bucketCount = m;
    p.maxKicks = kicks;
    CuckooFilter filter;
    return CuckooFilter::create(p, filter);
  };
  EXPECT_EQ(statusOf(12, 4, 1024), Status::kOk);
  EXPECT_EQ(statusOf(2, 1, 1), Status::kOk);
  EXPECT_EQ(statusOf(32, 8, 2), Status::kOk);
  EXPECT_EQ(statusOf(1, 4, 1024), Status::kInvalidFingerprintBits);
  EXPECT_EQ(statusOf(0, 4, 1024), Status::kInvalidFingerprintBits);
  EXPECT_EQ(statusOf(33, 4, 1024), Status::kInvalidFingerprintBits);
  EXPECT_EQ(statusOf(12, 0, 1024), Status::kInvalidBucketSize);
  EXPECT_EQ(statusOf(12, 3, 1024), Status::kInvalidBucketSize);
  EXPECT_EQ(statusOf(12, 16, 1024), Status::kInvalidBucketSize);
  EXPECT_EQ(statusOf(12, 4, 0), Status::kInvalidBucketCount);
  EXPECT_EQ(statusOf(12, 4, 1000), Status::kOk) << "any count from 1 to 2^32";
  EXPECT_EQ(statusOf(12, 4, 3), Status::kOk);
  EXPECT_EQ(statusOf(12, 4, (std::uint64_t{1} << 32) + 1), Status::kInvalidBucketCount);
  EXPECT_EQ(statusOf(12, 4, std::uint64_t{1} << 33), Status::kInvalidBucketCount);
  EXPECT_EQ(statusOf(12, 4, 1024, kMaxKicksLimit + 1), Status::kInvalidMaxKicks);
  EXPECT_EQ(statusOf(12, 4, 1024, 0), Status::kOk);
  EXPECT_STRNE(statusMessage(Status::kInvalidBucketSize), statusMessage(Status::kInvalidBucketCount));
}

// The load is the table's: a fingerprint in the stash is an item (itemCount)
// but holds no slot.
TEST(FilterStats, TheStashIsCountedApartFromTheLoad) {
  CuckooFilter f = makeFilter(12, 4, 64);
  std::uint64_t k = 0;
  while (insertKey(f, k)) ++k;
  ASSERT_TRUE(f.stash().occupied);
  const FilterStats s = f.stats();
  EXPECT_EQ(s.itemCount, k);
  EXPECT_EQ(s.stashedCount, 1U);
  EXPECT_DOUBLE_EQ(s.loadFactor, static_cast<double>(k - 1) / 256.0);
  EXPECT_LE(s.loadFactor, 1.0);
  EXPECT_EQ(makeFilter(12, 4, 64).stats().stashedCount, 0U);
}

TEST(FilterStats, MatchTheFormulas) {
  CuckooFilter f = makeFilter(12, 4, 1024);
  for (std::uint64_t k = 0; k < 2000; ++k) ASSERT_TRUE(insertKey(f, k));
  const FilterStats s = f.stats();
  EXPECT_EQ(s.itemCount, 2000U);
  EXPECT_EQ(s.slotCount, 4096U);
  EXPECT_DOUBLE_EQ(s.loadFactor, 2000.0 / 4096.0);
  EXPECT_EQ(s.sizeInBytes, 1024U * 4 * 12 / 8 + 7);
  EXPECT_DOUBLE_EQ(s.bitsPerItem, 1024.0 * 4 * 12 / 2000.0);  // f / load
  EXPECT_DOUBLE_EQ(s.falsePositiveBound, 8.0 / 4096.0);
  EXPECT_NEAR(s.expectedFalsePositiveRate, 1.0 - std::pow(1.0 - 1.0 / 4096.0, 8.0 * 2000.0 / 4096.0), 1e-15);
  EXPECT_TRUE(std::isinf(makeFilter(8, 2, 4).stats().bitsPerItem));
}

// ------------------------------------------------------------- differential

struct DifferentialCase {
  unsigned bits;
  unsigned slots;
  std::uint64_t buckets;
  int operations;
  bool semiSort = false;
};

// Random inserts (with duplicates), erases of present items and lookups,
// checked against an exact multiset. The filter runs into its capacity many
// times, so failing inserts, the stash and its re-insertion are all exercised.
TEST(FilterDifferential, NeverLosesAnItemAgainstAnExactMultiset) {
  const DifferentialCase cases[] = {
      {12, 4, 1 << 12, 250000}, {4, 2, 1 << 10, 150000}, {8, 8, 1 << 9, 150000},
      {16, 1, 1 << 12, 150000}, {2, 4, 1 << 8, 150000},  {32, 2, 1 << 11, 150000},
      {7, 4, 1 << 6, 100000},
      // The semi-sorted table: narrow (5 bits: many equal nibbles), common, widest.
      {13, 4, 1 << 12, 150000, true}, {5, 4, 1 << 8, 100000, true},  {32, 4, 1 << 9, 100000, true},
  };
  long long checkedOperations = 0;
  for (const DifferentialCase& c : cases) {
    SCOPED_TRACE(::testing::Message() << "f=" << c.bits << " b=" << c.slots << " m=" << c.buckets
                                      << (c.semiSort ? " semi-sorted" : ""));
    CuckooFilter filter = makeFilter(c.bits, c.slots, c.buckets, 1000 + c.bits, kDefaultMaxKicks, c.semiSort);
    SplitMix64 rng(c.bits * 7919 + c.slots);
    std::unordered_map<std::uint64_t, unsigned> copies;
    std::vector<std::uint64_t> live;  // one entry per stored copy
    std::uint64_t nextFresh = 1;
    int failedInserts = 0;

    for (int op = 0; op < c.operations; ++op, ++checkedOperations) {
      const std::uint64_t roll = rng.next() % 100;
      if (roll < 50 || live.empty()) {
        // Mostly fresh keys; sometimes a second copy of a stored one.
        std::uint64_t key = nextFresh;
        if (roll < 5 && !live.empty()) {
          const std::uint64_t candidate = live[rng.next() % live.size()];
          if (copies[candidate] < 2) key = candidate;
        }
        if (key == nextFresh) ++nextFresh;
        const auto before = snapshot(filter);
        if (insertKey(filter, key)) {
          ++copies[key];
          live.push_back(key);
        } else {
          ++failedInserts;
          ASSERT_TRUE(filter.stash().occupied) << "an insert may only fail while the stash is occupied";
          ASSERT_TRUE(filter.isFull());
          ASSERT_TRUE(snapshot(filter) == before) << "a failed insert changed the filter";
        }
      } else if (roll < 80) {
        const std::size_t pick = rng.next() % live.size();
        const std::uint64_t key = live[pick];
        ASSERT_TRUE(eraseKey(filter, key)) << "erase of a present key failed, key " << key;
        live[pick] = live.back();
        live.pop_back();
        if (--copies[key] == 0) copies.erase(key);
      } else {
        const std::uint64_t key = live[rng.next() % live.size()];
        ASSERT_TRUE(containsKey(filter, key)) << "false negative for key " << key;
        ASSERT_GE(countKey(filter, key), copies[key]);
      }
      ASSERT_EQ(filter.itemCount(), live.size());
      if (op % 25000 == 0) {
        for (const auto& [key, n] : copies) {
          ASSERT_TRUE(containsKey(filter, key)) << "false negative for key " << key;
          ASSERT_GE(countKey(filter, key), n);
        }
      }
    }
    for (const auto& [key, n] : copies) ASSERT_GE(countKey(filter, key), n);
    // Deleting everything empties the filter completely.
    for (const std::uint64_t key : live) ASSERT_TRUE(eraseKey(filter, key));
    EXPECT_EQ(filter.itemCount(), 0U);
    EXPECT_FALSE(filter.isFull());
    for (std::size_t i = 0; i < filter.tableByteLength(); ++i) ASSERT_EQ(filter.tableData()[i], 0) << "byte " << i;
    EXPECT_GT(failedInserts, 0) << "the case never reached capacity; it should";
  }
  EXPECT_GE(checkedOperations, 1000000);
}

// ----------------------------------------------------------- filling to full

TEST(FilterFull, FillToFirstFailureKeepsEveryItemAndRefusedInsertsChangeNothing) {
  // b = 0 stands for the semi-sorted table (b = 4).
  for (unsigned slots : {1U, 2U, 4U, 8U, 0U}) {
    SCOPED_TRACE(::testing::Message() << "b=" << slots);
    const bool semiSort = slots == 0;
    CuckooFilter filter = makeFilter(10, semiSort ? 4 : slots, 1 << 10, 3, kDefaultMaxKicks, semiSort);
    std::vector<std::uint64_t> stored = fillToFirstFailure(filter, 1);
    // The first walk that ran out left a fingerprint in the stash; the second
    // was undone and refused.
    ASSERT_TRUE(filter.stash().occupied);
    ASSERT_TRUE(filter.isFull());
    EXPECT_EQ(filter.itemCount(), stored.size());
    for (const std::uint64_t key : stored) ASSERT_TRUE(containsKey(filter, key)) << key;
    // From here each insert either finds room (a free slot, or a walk that
    // ends) or is refused having changed nothing: table, stash, count, PRNG.
    unsigned refused = 0;
    for (std::uint64_t key = 1u << 30; key < (1u << 30) + 1000; ++key) {
      const auto before = snapshot(filter);
      if (insertKey(filter, key)) {
        stored.push_back(key);
        EXPECT_FALSE(filter.isFull());
      } else {
        ++refused;
        ASSERT_TRUE(snapshot(filter) == before) << "the refused insert of key " << key << " changed the filter";
        ASSERT_TRUE(filter.isFull());
      }
    }
    EXPECT_GT(refused, 500U) << "past its first failure a filter refuses most inserts";
    EXPECT_EQ(filter.itemCount(), stored.size());
    for (const std::uint64_t key : stored) ASSERT_TRUE(containsKey(filter, key)) << key;
    // insertUnique of a new item that cannot be placed reports full, unchanged.
    unsigned fullOutcomes = 0;
    for (std::uint64_t fresh = 1ULL << 40; fresh < (1ULL << 40) + 100; ++fresh) {
      if (containsKey(filter, fresh)) continue;
      const auto before = snapshot(filter);
      const InsertOutcome outcome = filter.insertUnique(&fresh, sizeof fresh);
      if (outcome == InsertOutcome::kFull) {
        ++fullOutcomes;
        EXPECT_TRUE(snapshot(filter) == before);
      } else {
        EXPECT_EQ(outcome, InsertOutcome::kInserted);
      }
    }
    EXPECT_GT(fullOutcomes, 0U);
  }
}

class FilterFullEitherTable : public ::testing::TestWithParam<bool> {};
INSTANTIATE_TEST_SUITE_P(Tables, FilterFullEitherTable, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "SemiSorted" : "Packed"; });

TEST_P(FilterFullEitherTable, ErasingFreesRoomAndTheStashIsReinserted) {
  CuckooFilter filter = makeFilter(12, 4, 1 << 8, 11, kDefaultMaxKicks, GetParam());
  const std::vector<std::uint64_t> stored = fillToFirstFailure(filter, 500);
  ASSERT_TRUE(filter.isFull());
  // Erase items one at a time until the stash empties into the freed room.
  std::size_t erased = 0;
  while (filter.stash().occupied) {
    ASSERT_LT(erased, stored.size());
    ASSERT_TRUE(eraseKey(filter, stored[erased++]));
  }
  EXPECT_EQ(filter.itemCount(), stored.size() - erased);
  for (std::size_t i = erased; i < stored.size(); ++i) ASSERT_TRUE(containsKey(filter, stored[i]));
  // With room again, inserts succeed.
  EXPECT_TRUE(insertKey(filter, 1ULL << 50));
}

// What an observed erase reports: nothing, unless the stash was occupied and
// the erase freed a slot; then the walk of the stashed fingerprint, step by
// step, as an insert's. And it changes exactly what erase changes.
TEST_P(FilterFullEitherTable, AnObservedEraseReportsTheStashedFingerprintsWalk) {
  struct Walk final : InsertObserver {
    std::vector<std::uint32_t> incoming;  // per kick, the homeless fingerprint
    bool ended = false;
    std::uint32_t endFingerprint = 0;
    void onKick(std::uint32_t, unsigned, std::uint32_t in, std::uint32_t, std::uint32_t) override { incoming.push_back(in); }
    void onPlaced(std::uint32_t, std::uint32_t fp) override { ended = true, endFingerprint = fp; }
    void onStashed(std::uint32_t, std::uint32_t fp) override { ended = true, endFingerprint = fp; }
    void onUndone(std::uint32_t, std::uint32_t) override { ADD_FAILURE() << "a delete's walk is never undone"; }
  };
  CuckooFilter plain = makeFilter(8, 4, 1 << 6, 3, 20, GetParam());
  const std::vector<std::uint64_t> stored = fillToFirstFailure(plain, 900);
  ASSERT_TRUE(plain.isFull());
  CuckooFilter observed;
  ASSERT_EQ(plain.cloneTo(observed), Status::kOk);
  unsigned walks = 0;
  for (const std::uint64_t key : stored) {
    const Stash before = observed.stash();
    Walk walk;
    ASSERT_EQ(observed.eraseObserved(&key, sizeof key, walk), eraseKey(plain, key));
    ASSERT_TRUE(snapshot(observed) == snapshot(plain)) << "after erasing key " << key;
    if (!before.occupied) {
      EXPECT_FALSE(walk.ended) << "no stash, no walk (key " << key << ")";
      continue;
    }
    if (!walk.ended) continue;  // the erased item was the stashed one
    ++walks;
    // The walk starts from the stashed fingerprint, and a walk that ends in the
    // stash leaves there the fingerprint it reports.
    EXPECT_EQ(walk.incoming.empty() ? walk.endFingerprint : walk.incoming.front(), before.fingerprint);
    if (observed.stash().occupied) {
      EXPECT_EQ(observed.stash().fingerprint, walk.endFingerprint);
    }
  }
  EXPECT_GE(walks, 1U);
}

TEST(FilterFull, OneBucketFilterUsesTheStashAsItsLastSlot) {
  // m = 1, b = 1: both candidate buckets are bucket 0, so the second item
  // must end in the stash, and the third insert must fail.
  CuckooFilter filter = makeFilter(8, 1, 1, 5);
  std::uint64_t a = 1, b = 2;
  while (filter.locate(&b, 8).fingerprint == filter.locate(&a, 8).fingerprint) ++b;
  ASSERT_TRUE(insertKey(filter, a));
  EXPECT_FALSE(filter.stash().occupied);
  ASSERT_TRUE(insertKey(filter, b));
  EXPECT_TRUE(filter.stash().occupied);
  EXPECT_FALSE(filter.isFull()) << "the insert that filled the stash succeeded";
  EXPECT_TRUE(containsKey(filter, a));
  EXPECT_TRUE(containsKey(filter, b));
  EXPECT_EQ(countKey(filter, a), 1U);
  EXPECT_EQ(countKey(filter, b), 1U);
  std::uint64_t c = 3;
  while (filter.locate(&c, 8).fingerprint == filter.locate(&a, 8).fingerprint ||
         filter.locate(&c, 8).fingerprint == filter.locate(&b, 8).fingerprint) {
    ++c;
  }
  const auto beforeRefusal = snapshot(filter);
  EXPECT_FALSE(insertKey(filter, c));
  EXPECT_TRUE(filter.isFull());
  EXPECT_TRUE(snapshot(filter) == beforeRefusal) << "the refused insert's kicks were not all undone";
  EXPECT_FALSE(containsKey(filter, c));
  // Erasing either item leaves the other in the table and the stash empty.
  ASSERT_TRUE(eraseKey(filter, a));
  EXPECT_FALSE(filter.isFull());
  EXPECT_FALSE(filter.stash().occupied);
  EXPECT_TRUE(containsKey(filter, b));
  EXPECT_FALSE(containsKey(filter, a));
  EXPECT_EQ(filter.slotValue(0, 0), filter.locate(&b, 8).fingerprint);
  ASSERT_TRUE(eraseKey(filter, b));
  EXPECT_EQ(filter.itemCount(), 0U);
  EXPECT_FALSE(eraseKey(filter, b));
}

struct LoadCase {
  unsigned bits;
  unsigned slots;
  double minimumLoad;  // the paper's Section 5.1 / Figure 2 figures
};

TEST(FilterFull, LoadFactorAtFirstFailureMatchesThePaper) {
  const LoadCase cases[] = {
      {8, 4, 0.94}, {12, 4, 0.94}, {16, 4, 0.94}, {12, 2, 0.82}, {12, 8, 0.97}, {8, 8, 0.97}, {12, 1, 0.45},
  };
  for (const LoadCase& c : cases) {
    CuckooFilter filter = makeFilter(c.bits, c.slots, 1 << 16, 77);
    const std::vector<std::uint64_t> stored = fillToFirstFailure(filter, 1);
    const double load = filter.stats().loadFactor;
    EXPECT_GE(load, c.minimumLoad) << "f=" << c.bits << " b=" << c.slots;
    EXPECT_LT(load, 1.0);
    std::printf("[ load     ] f=%2u b=%u m=2^16: first failure at load %.4f (%zu items)\n", c.bits, c.slots, load,
                stored.size());
  }
}

// ------------------------------------------------------ false-positive rate

TEST(FilterFalsePositives, MeasuredRateAtFullLoadIsWithin25PercentOfTheory) {
  for (unsigned bits : {8U, 12U, 16U}) {
    CuckooFilter filter = makeFilter(bits, 4, 1 << 16, 2024);
    fillToFirstFailure(filter, 1);
    const FilterStats s = filter.stats();
    // Enough probes for >= 400 expected false positives, so that +-25% is at
    // least 5 standard deviations of the binomial count: stable, yet a halved
    // or doubled rate fails.
    const double expected = s.expectedFalsePositiveRate;
    const auto probes = static_cast<std::uint64_t>(std::fmax(1e6, std::ceil(400.0 / expected)));
    const double measured = measuredFalsePositiveRate(filter, probes);
    std::printf("[ fpr      ] f=%2u b=4 load %.4f: measured %.3e expected %.3e over %llu probes\n", bits,
                s.loadFactor, measured, expected, static_cast<unsigned long long>(probes));
    EXPECT_NEAR(measured, expected, 0.25 * expected) << "f=" << bits;
  }
}

// ----------------------------------------------------------------- semantics

TEST(FilterOperations, CountInsertUniqueEraseAndDuplicates) {
  CuckooFilter filter = makeFilter(16, 4, 1 << 10, 9);
  const std::uint64_t key = 123456;
  EXPECT_EQ(countKey(filter, key), 0U);
  EXPECT_FALSE(eraseKey(filter, key));
  EXPECT_EQ(filter.insertUnique(&key, sizeof key), InsertOutcome::kInserted);
  EXPECT_EQ(filter.insertUnique(&key, sizeof key), InsertOutcome::kAlreadyPresent);
  EXPECT_EQ(countKey(filter, key), 1U);
  EXPECT_TRUE(insertKey(filter, key));
  EXPECT_TRUE(insertKey(filter, key));
  EXPECT_EQ(countKey(filter, key), 3U);
  EXPECT_EQ(filter.itemCount(), 3U);
  EXPECT_TRUE(eraseKey(filter, key));
  EXPECT_EQ(countKey(filter, key), 2U);
  EXPECT_TRUE(eraseKey(filter, key));
  EXPECT_TRUE(eraseKey(filter, key));
  EXPECT_FALSE(containsKey(filter, key));
  EXPECT_FALSE(eraseKey(filter, key));
  EXPECT_EQ(filter.itemCount(), 0U);
}

TEST(FilterOperations, ByteItemsOfAnyLengthIncludingEmpty) {
  CuckooFilter filter = makeFilter(16, 4, 1 << 10, 9);
  const char text[] = "partial-key cuckoo hashing";
  for (std::size_t len = 0; len < sizeof text; ++len) ASSERT_TRUE(filter.insert(text, len));
  for (std::size_t len = 0; len < sizeof text; ++len) ASSERT_TRUE(filter.contains(text, len)) << len;
  EXPECT_TRUE(filter.contains(nullptr, 0)) << "the empty item is an item";
  ASSERT_TRUE(filter.erase(nullptr, 0));
  EXPECT_EQ(filter.count(text, 0), 0U);
}

TEST(FilterOperations, ClearRestoresTheFreshStateAndCloneIsIndependent) {
  CuckooFilter filter = makeFilter(12, 4, 1 << 8, 31);
  const auto fresh = snapshot(filter);
  fillToFirstFailure(filter, 1);
  CuckooFilter copy;
  ASSERT_EQ(filter.cloneTo(copy), Status::kOk);
  const auto full = snapshot(filter);
  EXPECT_TRUE(snapshot(copy) == full);
  filter.clear();
  EXPECT_TRUE(snapshot(filter) == fresh);
  EXPECT_TRUE(snapshot(copy) == full) << "clearing the original changed the clone";
  EXPECT_TRUE(containsKey(copy, 1));
  EXPECT_FALSE(containsKey(filter, 1));
}

// -------------------------------------------------------------- determinism

void runWorkload(CuckooFilter& filter, std::uint64_t workloadSeed) {
  SplitMix64 rng(workloadSeed);
  std::vector<std::uint64_t> stored = fillToFirstFailure(filter, 1);
  for (int i = 0; i < 5000; ++i) {
    if (rng.next() % 2 == 0 && !stored.empty()) {
      const std::size_t pick = rng.next() % stored.size();
      eraseKey(filter, stored[pick]);
      stored[pick] = stored.back();
      stored.pop_back();
    } else {
      const std::uint64_t key = rng.next();
      if (insertKey(filter, key)) stored.push_back(key);
    }
  }
}

TEST(FilterDeterminism, SameSeedSameTableDifferentSeedDifferentTable) {
  CuckooFilter a = makeFilter(12, 4, 1 << 10, 555);
  CuckooFilter b = makeFilter(12, 4, 1 << 10, 555);
  CuckooFilter c = makeFilter(12, 4, 1 << 10, 556);
  runWorkload(a, 1);
  runWorkload(b, 1);
  runWorkload(c, 1);
  EXPECT_TRUE(snapshot(a) == snapshot(b));
  EXPECT_NE(snapshot(a).table, snapshot(c).table);
  EXPECT_NE(snapshot(a).prngState, snapshot(c).prngState);
}

}  // namespace
}  // namespace cuckoo
