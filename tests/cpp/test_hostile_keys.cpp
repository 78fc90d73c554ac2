// Keys aimed at one pair of buckets by someone who knows the seed (issue 26):
// found as an attacker finds them, by hashing candidates until enough share
// one fingerprint and one pair of buckets. Such keys must cost the filter
// only themselves: the ninth goes to the stash, the rest are refused with
// nothing changed, and ordinary items keep being added and found.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/hashing.hpp"
#include "cuckoo/scalable_filter.hpp"
#include "item_hash.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

using testing::bytesOf;
using testing::containsKey;
using testing::insertKey;
using testing::makeFilter;

bool insertKey(ScalableCuckooFilter& f, std::uint64_t key) { return f.insert(&key, sizeof key); }
bool containsKey(const ScalableCuckooFilter& f, std::uint64_t key) { return f.contains(&key, sizeof key); }

// `count` keys from `from` on that share the first one's fingerprint and
// pair of buckets (in either order).
std::vector<std::uint64_t> collidingKeys(const CuckooFilter& filter, std::size_t count, std::uint64_t from) {
  const ItemLocation target = filter.locate(&from, sizeof from);
  std::vector<std::uint64_t> keys{from};
  for (std::uint64_t key = from + 1; keys.size() < count; ++key) {
    const ItemLocation at = filter.locate(&key, sizeof key);
    if (at.fingerprint == target.fingerprint &&
        (at.primaryBucket == target.primaryBucket || at.primaryBucket == target.alternateBucket)) {
      keys.push_back(key);
    }
  }
  return keys;
}

struct HostileCase {
  const char* name;
  unsigned fingerprintBits;
  std::uint64_t bucketCount;
  bool semiSort;
  std::size_t hostileKeys;
};

class HostileKeys : public ::testing::TestWithParam<HostileCase> {};

INSTANTIATE_TEST_SUITE_P(
    Shapes, HostileKeys,
    ::testing::Values(HostileCase{"xor_f8_9", 8, 1024, false, 9}, HostileCase{"xor_f8_100", 8, 1024, false, 100},
                      HostileCase{"range_f8_9", 8, 1323, false, 9}, HostileCase{"range_f8_100", 8, 1323, false, 100},
                      HostileCase{"semisorted_f6_9", 6, 512, true, 9},
                      HostileCase{"semisorted_f6_100", 6, 512, true, 100}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_P(HostileKeys, CostTheFilterOnlyThemselves) {
  const HostileCase c = GetParam();
  CuckooFilter filter = makeFilter(c.fingerprintBits, 4, c.bucketCount, /*seed=*/0, kDefaultMaxKicks, c.semiSort);
  const std::vector<std::uint64_t> hostile = collidingKeys(filter, c.hostileKeys, std::uint64_t{1} << 40);

  // Two buckets of 4 and the stash hold nine; each later one is refused, changing nothing.
  std::vector<std::uint64_t> stored;
  for (std::size_t k = 0; k < hostile.size(); ++k) {
    const auto before = testing::snapshot(filter);
    const bool added = insertKey(filter, hostile[k]);
    ASSERT_EQ(added, k < 9) << "hostile key " << k;
    if (added) {
      stored.push_back(hostile[k]);
    } else {
      ASSERT_TRUE(testing::snapshot(filter) == before) << "refused hostile key " << k << " changed the filter";
      ASSERT_TRUE(filter.isFull());
    }
  }
  ASSERT_TRUE(filter.stash().occupied);

  // Ordinary items up to a load of 0.9: at least 99 % of the adds succeed,
  // and everything added is found and counted.
  const std::uint64_t slots = c.bucketCount * 4;
  std::uint64_t tried = 0;
  std::uint64_t refused = 0;
  for (std::uint64_t key = 1; filter.stats().loadFactor < 0.9; ++key) {
    ++tried;
    if (insertKey(filter, key)) {
      stored.push_back(key);
    } else {
      ++refused;
    }
  }
  EXPECT_GT(tried, slots * 8 / 10);
  EXPECT_LE(refused * 100, tried) << refused << " of " << tried << " ordinary adds refused";
  EXPECT_EQ(filter.itemCount(), stored.size());
  for (const std::uint64_t key : stored) ASSERT_TRUE(containsKey(filter, key)) << key;
  const std::vector<unsigned char> bytes = bytesOf(filter);
  CuckooFilter loaded;
  ASSERT_EQ(CuckooFilter::deserialize(bytes.data(), bytes.size(), loaded), Status::kOk);
  for (const std::uint64_t key : stored) ASSERT_TRUE(containsKey(loaded, key)) << key;
}

// The growable filter's keys collide on the fingerprint and on `depth` bits
// of the virtual bucket number beyond the table's level: growth does not
// separate them until it has split `depth` more times.
std::vector<std::uint64_t> collidingScalableKeys(std::uint64_t seed, unsigned fixedBits, unsigned bits, std::size_t count,
                                                 std::uint64_t from) {
  const auto where = [&](std::uint64_t key) {
    const std::uint64_t hash = detail::hashItem(&key, sizeof key, seed);
    return std::uint64_t{fingerprintFromHash(hash, fixedBits)} << 32 |
           (linearVirtualBucket(hash) & ((std::uint64_t{1} << bits) - 1));
  };
  const std::uint64_t target = where(from);
  std::vector<std::uint64_t> keys{from};
  for (std::uint64_t key = from + 1; keys.size() < count; ++key) {
    if (where(key) == target) keys.push_back(key);
  }
  return keys;
}

class HostileScalableKeys : public ::testing::TestWithParam<std::size_t> {};
INSTANTIATE_TEST_SUITE_P(Counts, HostileScalableKeys, ::testing::Values(9, 100));

TEST_P(HostileScalableKeys, NeitherRefuseOrdinaryAddsNorGrowTheTableWithoutBound) {
  for (const bool semiSort : {false, true}) {
    SCOPED_TRACE(semiSort ? "semi-sorted" : "plain");
    ScalableCuckooFilter filter = testing::createdFilter<ScalableCuckooFilter>(
        ScalableParams{1000, 0.01, kDefaultGrowth, kDefaultMaxKicks, /*seed=*/0, semiSort});
    const unsigned level = filter.shape().level;
    const std::uint64_t initialBuckets = filter.shape().bucketCount();
    // Aimed two levels deep: two rounds of growth (about 4 times the table)
    // would separate them, and the items fill far less than 1/16 of it.
    const std::vector<std::uint64_t> hostile =
        collidingScalableKeys(0, filter.shape().fixedBits, level + 3, GetParam(), std::uint64_t{1} << 40);
    std::vector<std::uint64_t> stored;
    for (const std::uint64_t key : hostile) {
      const std::vector<unsigned char> before = bytesOf(filter);
      if (insertKey(filter, key)) {
        stored.push_back(key);
      } else {
        ASSERT_TRUE(bytesOf(filter) == before) << "a refused hostile key changed the filter";
      }
    }
    // Eight fill their two buckets; later ones wait in the stash (what a
    // growth carries) or are refused.
    EXPECT_GE(stored.size(), 8U);
    EXPECT_LE(stored.size(), 8U + ScalableCuckooFilter::kMaxHeld / 4);
    // 1,000 ordinary adds, every one stored and found.
    for (std::uint64_t key = 1; key <= 1000; ++key) {
      ASSERT_TRUE(insertKey(filter, key)) << "ordinary key " << key << " refused";
      stored.push_back(key);
    }
    EXPECT_EQ(filter.itemCount(), stored.size());
    for (const std::uint64_t key : stored) ASSERT_TRUE(containsKey(filter, key)) << key;
    // Growth for entries it cannot place stops while the items fill at least
    // 1/16 of the slots: at most 4 buckets per item and one growth more.
    const double bound = 4.0 * kDefaultGrowth * static_cast<double>(filter.itemCount());
    EXPECT_LE(static_cast<double>(filter.shape().bucketCount()), std::max(bound, 2.0 * static_cast<double>(initialBuckets)))
        << "grew from " << initialBuckets << " to " << filter.shape().bucketCount() << " buckets for "
        << filter.itemCount() << " items";
  }
}

}  // namespace
}  // namespace cuckoo
