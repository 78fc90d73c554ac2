// A filter kept elsewhere (cuckoo-wasm/redis keeps the table in Redis): its
// items located without a table (CuckooFilter::locateEach) and a filter rebuilt
// from its parts (CuckooFilter::fromParts), checked as deserialize checks bytes.

#include <cmath>
#include <utility>
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
      EXPECT_TRUE(rebuilt.isFull());
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


// BITFIELD order (cuckoo-wasm/redis), read here bit by bit as Redis's
// BITFIELD reads it: bit p is bit 7 - p % 8 of byte p / 8, a field most
// significant bit first. Written independently of cpp/src/parts.cpp.
std::uint64_t bitfieldGet(const std::vector<unsigned char>& bytes, std::uint64_t bitPos, unsigned width) {
  std::uint64_t value = 0;
  for (unsigned t = 0; t < width; ++t) {
    const std::uint64_t p = bitPos + t;
    const unsigned bit = p / 8 < bytes.size() ? (bytes[p / 8] >> (7 - p % 8)) & 1U : 0U;
    value = value << 1 | bit;
  }
  return value;
}

std::vector<unsigned char> toBitfieldOrder(const CuckooFilter& filter) {
  std::vector<unsigned char> ordered(filter.payloadByteLength(), 0xAA);
  CuckooFilter::payloadToBitfieldOrder(filter.params(), filter.tableData(), ordered.data());
  return ordered;
}

// Filled to the first refused add (so the stash holds one), in each layout.
std::vector<CuckooFilter> fullFilters() {
  std::vector<CuckooFilter> filters;
  const struct {
    unsigned f, b;
    std::uint64_t m;
    bool semiSort;
  } shapes[] = {{13, 4, 256, false}, {13, 4, 300, false}, {7, 2, 64, false}, {17, 4, 100, false}, {32, 8, 16, false},
                {5, 1, 50, false},   {13, 4, 256, true},  {13, 4, 301, true}, {15, 4, 64, true},  {32, 4, 33, true}};
  for (const auto& shape : shapes) {
    filters.push_back(makeFilter(shape.f, shape.b, shape.m, 21, kDefaultMaxKicks, shape.semiSort));
    fillToFirstFailure(filters.back(), 1000);
  }
  return filters;
}

TEST(Parts, BitfieldOrderHoldsEachFieldWhereTheFormatPutsIt) {
  for (const CuckooFilter& filter : fullFilters()) {
    const FilterParams& p = filter.params();
    const std::vector<unsigned char> ordered = toBitfieldOrder(filter);
    ASSERT_EQ(ordered.size(), filter.payloadByteLength());
    for (std::uint64_t bucket = 0; bucket < p.bucketCount; ++bucket) {
      if (!p.semiSort) {
        for (unsigned s = 0; s < p.bucketSize; ++s) {
          ASSERT_EQ(bitfieldGet(ordered, (bucket * p.bucketSize + s) * p.fingerprintBits, p.fingerprintBits),
                    filter.slotValue(bucket, s));
        }
        continue;
      }
      // A semi-sorted bucket: its rank then four low parts, as FORMAT.md lays them out.
      const std::uint64_t base = bucket * (4 * p.fingerprintBits - 4);
      unsigned nibbles[4];
      for (unsigned s = 0; s < 4; ++s) nibbles[s] = filter.slotValue(bucket, s) >> (p.fingerprintBits - 4);
      EXPECT_EQ(bitfieldGet(ordered, base, 12), semisort::rankNibbles(nibbles[0], nibbles[1], nibbles[2], nibbles[3]));
      for (unsigned s = 0; s < 4; ++s) {
        ASSERT_EQ(bitfieldGet(ordered, base + 12 + s * (p.fingerprintBits - 4), p.fingerprintBits - 4),
                  filter.slotValue(bucket, s) & ((1U << (p.fingerprintBits - 4)) - 1));
      }
    }
    // The unused low bits of the last byte (BITFIELD numbers from the top) are zero.
    const std::uint64_t payloadBits = p.bucketCount * (p.semiSort ? 4 * p.fingerprintBits - 4 : p.bucketSize * p.fingerprintBits);
    const unsigned spare = static_cast<unsigned>(8 * ordered.size() - payloadBits);
    EXPECT_EQ(bitfieldGet(ordered, payloadBits, spare), 0U);
  }
}

TEST(Parts, BitfieldOrderConvertsBackToThePayload) {
  for (const CuckooFilter& filter : fullFilters()) {
    const std::vector<unsigned char> ordered = toBitfieldOrder(filter);
    std::vector<unsigned char> back(ordered.size(), 0x55);
    CuckooFilter::payloadFromBitfieldOrder(filter.params(), ordered.data(), back.data());
    EXPECT_EQ(back, partsOf(filter).payload);
  }
}

TEST(Parts, BucketWordsGroupFieldsUpTo53Bits) {
  const auto wordsOf = [](unsigned f, unsigned b, bool semiSort) {
    FilterParams params;
    params.fingerprintBits = f;
    params.bucketSize = b;
    params.semiSort = semiSort;
    CuckooFilter::BucketWord words[CuckooFilter::kMaxBucketWords];
    const unsigned count = CuckooFilter::bucketWords(params, words);
    std::vector<std::pair<unsigned, unsigned>> out;
    for (unsigned w = 0; w < count; ++w) out.emplace_back(words[w].offset, words[w].width);
    return out;
  };
  using Words = std::vector<std::pair<unsigned, unsigned>>;
  EXPECT_EQ(wordsOf(13, 4, false), (Words{{0, 52}}));
  EXPECT_EQ(wordsOf(17, 4, false), (Words{{0, 51}, {51, 17}}));
  EXPECT_EQ(wordsOf(32, 8, false), (Words{{0, 32}, {32, 32}, {64, 32}, {96, 32}, {128, 32}, {160, 32}, {192, 32}, {224, 32}}));
  EXPECT_EQ(wordsOf(7, 8, false), (Words{{0, 49}, {49, 7}}));
  EXPECT_EQ(wordsOf(13, 4, true), (Words{{0, 48}}));
  EXPECT_EQ(wordsOf(15, 4, true), (Words{{0, 45}, {45, 11}}));
  EXPECT_EQ(wordsOf(32, 4, true), (Words{{0, 40}, {40, 28}, {68, 28}, {96, 28}}));
}

TEST(Parts, CountInBucketWordsAgreesWithCount) {
  for (const CuckooFilter& filter : fullFilters()) {
    const FilterParams& p = filter.params();
    ASSERT_TRUE(filter.stash().occupied);
    const std::vector<unsigned char> ordered = toBitfieldOrder(filter);
    CuckooFilter::BucketWord layout[CuckooFilter::kMaxBucketWords];
    const unsigned wordCount = CuckooFilter::bucketWords(p, layout);
    const std::uint64_t bucketBits = p.semiSort ? 4 * p.fingerprintBits - 4 : p.bucketSize * p.fingerprintBits;
    // Stored keys, keys never added, and the items of the stash's fingerprint.
    const std::vector<std::uint64_t> items = keys(990, 3000);
    std::vector<std::uint32_t> located(4 * items.size());
    CuckooFilter::locateEach(p, ItemBatch::fixed(items.data(), 8, items.size()), located.data());
    std::vector<std::uint64_t> words;
    for (std::size_t k = 0; k < items.size(); ++k) {
      for (unsigned which = 1; which <= 2; ++which) {
        for (unsigned w = 0; w < wordCount; ++w) {
          words.push_back(bitfieldGet(ordered, located[4 * k + which] * bucketBits + layout[w].offset, layout[w].width));
        }
      }
    }
    std::vector<std::uint32_t> counts(items.size());
    ASSERT_EQ(CuckooFilter::countInBucketWords(p, words.data(), located.data(), items.size(), filter.stash(),
                                               counts.data()),
              Status::kOk);
    std::size_t positives = 0;
    for (std::size_t k = 0; k < items.size(); ++k) {
      ASSERT_EQ(counts[k], countKey(filter, items[k])) << k;
      positives += counts[k] > 0 ? 1 : 0;
    }
    EXPECT_GT(positives, 0U);
  }
}

TEST(Parts, CountInBucketWordsRefusesARankBeyondTheLast) {
  CuckooFilter filter = makeFilter(13, 4, 64, 9, kDefaultMaxKicks, true);
  const std::uint64_t key = 5;
  std::vector<std::uint32_t> located(4);
  CuckooFilter::locateEach(filter.params(), ItemBatch::fixed(&key, 8, 1), located.data());
  // One 48-bit word per bucket: the rank is its top 12 bits.
  const std::uint64_t words[2] = {std::uint64_t{kNibbleMultisets} << 36, 0};
  std::uint32_t count = 7;
  EXPECT_EQ(CuckooFilter::countInBucketWords(filter.params(), words, located.data(), 1, Stash{}, &count),
            Status::kFormatInconsistent);
  const std::uint64_t lastRank[2] = {std::uint64_t{kNibbleMultisets - 1} << 36, 0};
  EXPECT_EQ(CuckooFilter::countInBucketWords(filter.params(), lastRank, located.data(), 1, Stash{}, &count), Status::kOk);
}

}  // namespace
}  // namespace cuckoo
