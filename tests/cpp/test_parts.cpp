// A filter kept elsewhere (cuckoo-wasm/redis keeps the table in Redis): its
// items located without a table (CuckooFilter::locateEach) and a filter rebuilt
// from its parts (CuckooFilter::fromParts), checked as deserialize checks bytes.

#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#define XXH_INLINE_ALL
#include "xxhash.h"

#include "cuckoo/cuckoo_filter.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

using namespace testing;

struct Parts {
  std::vector<unsigned char> payload;
  Stash stash;
  std::uint64_t itemCount;
};

Parts partsOf(const CuckooFilter& filter) {
  return Parts{std::vector<unsigned char>(filter.tableData(), filter.tableData() + filter.payloadByteLength()),
               filter.stash(), filter.itemCount()};
}

Status rebuild(const FilterParams& params, const Parts& parts, CuckooFilter& out) {
  return CuckooFilter::fromParts(params, parts.payload.data(), parts.payload.size(), parts.stash, parts.itemCount,
                                 out);
}

std::vector<std::uint64_t> keys(std::uint64_t first, std::size_t count) {
  std::vector<std::uint64_t> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = first + i;
  return out;
}

TEST(Parts, LocateEachAgreesWithLocateForBothLayouts) {
  for (const std::uint64_t bucketCount : {std::uint64_t{1024}, std::uint64_t{1000}, std::uint64_t{3}}) {
    const CuckooFilter filter = makeFilter(13, 4, bucketCount, 77);
    const std::vector<std::uint64_t> items = keys(5, 500);
    std::vector<std::uint32_t> located(4 * items.size());
    CuckooFilter::locateEach(filter.params(), ItemBatch::fixed(items.data(), 8, items.size()), located.data());
    for (std::size_t k = 0; k < items.size(); ++k) {
      const ItemLocation where = filter.locate(&items[k], 8);
      ASSERT_EQ(located[4 * k], where.fingerprint) << bucketCount;
      ASSERT_EQ(located[4 * k + 1], where.primaryBucket) << bucketCount;
      ASSERT_EQ(located[4 * k + 2], where.alternateBucket) << bucketCount;
      // The route word as hashing.hpp defines it, computed here from libxxhash itself.
      ASSERT_EQ(located[4 * k + 3], XXH3_64bits_withSeed(&items[k], 8, 77 ^ 0x9e3779b97f4a7c15ULL) >> 32);
    }
  }
}

// The route's bits are not the location's: among items of one first bucket,
// the route still splits them evenly over shards.
TEST(Parts, RouteIsIndependentOfTheFirstBucket) {
  const CuckooFilter filter = makeFilter(12, 4, 16, 3);
  const std::vector<std::uint64_t> items = keys(0, 64000);
  std::vector<std::uint32_t> located(4 * items.size());
  CuckooFilter::locateEach(filter.params(), ItemBatch::fixed(items.data(), 8, items.size()), located.data());
  std::uint64_t inBucketZero = 0;
  std::uint64_t inBucketZeroAndShardZero = 0;
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (located[4 * k + 1] != 0) continue;
    ++inBucketZero;
    // Two shards: shard = (route * 2) >> 32, the route's top bit.
    if ((located[4 * k + 3] >> 31) == 0) ++inBucketZeroAndShardZero;
  }
  ASSERT_GT(inBucketZero, 3000U);  // 64000 / 16 expected
  // Binomial(n, 1/2): within 5 standard deviations of n/2.
  const double n = static_cast<double>(inBucketZero);
  EXPECT_NEAR(static_cast<double>(inBucketZeroAndShardZero), n / 2, 5 * std::sqrt(n / 4));
}

TEST(Parts, AFilterRebuiltFromItsPartsAnswersAsItDoes) {
  for (const bool semiSort : {false, true}) {
    for (const std::uint64_t bucketCount : {std::uint64_t{256}, std::uint64_t{300}}) {
      CuckooFilter original = makeFilter(semiSort ? 13 : 12, 4, bucketCount, 9, kDefaultMaxKicks, semiSort);
      const std::vector<std::uint64_t> stored = fillToFirstFailure(original, 0);
      ASSERT_TRUE(original.stash().occupied);
      CuckooFilter rebuilt;
      ASSERT_EQ(rebuild(original.params(), partsOf(original), rebuilt), Status::kOk);
      EXPECT_EQ(rebuilt.itemCount(), original.itemCount());
      EXPECT_TRUE(rebuilt.stash().occupied);
      EXPECT_EQ(rebuilt.stash().fingerprint, original.stash().fingerprint);
      EXPECT_EQ(partsOf(rebuilt).payload, partsOf(original).payload);
      for (std::uint64_t key = 0; key < stored.size() + 2000; ++key) {
        ASSERT_EQ(containsKey(rebuilt, key), containsKey(original, key)) << key;
      }
      // The eviction PRNG starts from the seed, as a new filter's does.
      EXPECT_EQ(rebuilt.prngState(), makeFilter(semiSort ? 13 : 12, 4, bucketCount, 9).prngState());
    }
  }
}

TEST(Parts, PartsThatDisagreeAreRefusedAndLeaveTheDestinationUnchanged) {
  CuckooFilter original = makeFilter(12, 4, 300, 9);
  for (std::uint64_t key = 0; key < 500; ++key) insertKey(original, key);
  const FilterParams params = original.params();
  const Parts good = partsOf(original);
  CuckooFilter destination = makeFilter(7, 2, 16);
  insertKey(destination, 1);
  const Snapshot before = snapshot(destination);

  const auto refusal = [&](const Parts& parts) {
    const Status status = rebuild(params, parts, destination);
    EXPECT_TRUE(snapshot(destination) == before);
    return status;
  };
  Parts shorter = good;
  shorter.payload.pop_back();
  EXPECT_EQ(refusal(shorter), Status::kFormatTruncated);
  Parts longer = good;
  longer.payload.push_back(0);
  EXPECT_EQ(refusal(longer), Status::kFormatInconsistent);
  Parts miscounted = good;
  ++miscounted.itemCount;
  EXPECT_EQ(refusal(miscounted), Status::kFormatInconsistent);
  Parts emptyStash = good;
  emptyStash.stash = Stash{true, 0, 5};
  emptyStash.itemCount += 1;
  EXPECT_EQ(refusal(emptyStash), Status::kFormatInconsistent);
  Parts stashOutOfRange = good;
  stashOutOfRange.stash = Stash{true, 7, 300};
  stashOutOfRange.itemCount += 1;
  EXPECT_EQ(refusal(stashOutOfRange), Status::kFormatInconsistent);
  Parts strayStash = good;
  strayStash.stash = Stash{false, 7, 0};
  EXPECT_EQ(refusal(strayStash), Status::kFormatInconsistent);
  // 300 buckets of 4 slots of 12 bits fill whole bytes: use a shape with spare bits.
  const FilterParams odd = makeFilter(7, 4, 3).params();
  Parts spareBitSet{std::vector<unsigned char>((3 * 4 * 7 + 7) / 8, 0), Stash{}, 0};
  spareBitSet.payload.back() = 0x80;
  EXPECT_EQ(CuckooFilter::fromParts(odd, spareBitSet.payload.data(), spareBitSet.payload.size(), spareBitSet.stash,
                                    spareBitSet.itemCount, destination),
            Status::kFormatInconsistent);
  EXPECT_TRUE(snapshot(destination) == before);
  FilterParams badShape = params;
  badShape.bucketSize = 3;
  EXPECT_EQ(rebuild(badShape, good, destination), Status::kInvalidBucketSize);
  EXPECT_TRUE(snapshot(destination) == before);
  EXPECT_EQ(rebuild(params, good, destination), Status::kOk);
  EXPECT_EQ(destination.itemCount(), original.itemCount());
}

TEST(Parts, ASemiSortedPayloadWithABadRankIsRefused) {
  CuckooFilter original = makeFilter(13, 4, 64, 9, kDefaultMaxKicks, true);
  Parts parts = partsOf(original);
  // Bucket 0's 12-bit rank at its lowest bits: 4095 names no nibble multiset (3876 exist).
  parts.payload[0] = 0xff;
  parts.payload[1] = static_cast<unsigned char>(parts.payload[1] | 0x0f);
  CuckooFilter out;
  EXPECT_EQ(rebuild(original.params(), parts, out), Status::kFormatInconsistent);
}

}  // namespace
}  // namespace cuckoo
