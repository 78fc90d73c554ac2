// Hash ids 6 to 11 (hashing.hpp, FORMAT.md's versions 5 to 7): filters of
// 64-bit keys, ids 8 and 9 mixing each key first, ids 10 and 11 mixing the
// key XOR a seed word alone. The vectors were printed by
// tests/vectors/mulshift_vectors.py, a separate implementation in Python
// integers from the definition alone.

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/hashing.hpp"
#include "cuckoo/patch.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

// Ids 6 and 7 unless another `form` (8 and 9, or 10 and 11: what new filters get).
CuckooFilter multiplyShiftFilter(std::uint64_t bucketCount, std::uint64_t seed, bool semiSort = false,
                                 KeyHash form = KeyHash::kMultiplyShift) {
  FilterParams params;
  params.fingerprintBits = semiSort ? 13 : 12;
  params.bucketCount = bucketCount;
  params.seed = seed;
  params.semiSort = semiSort;
  params.multiplyShiftHash = true;
  params.keyHash = form;
  return testing::createdFilter<CuckooFilter>(params);
}

std::vector<std::uint32_t> located(const CuckooFilter& filter, std::uint64_t key) {
  const ItemLocation where = filter.locate(&key, sizeof key);
  return {where.fingerprint, where.primaryBucket, where.alternateBucket};
}

TEST(MultiplyShiftHash, DrawsItsConstantsFromTheSeed) {
  struct Constants {
    std::uint64_t seed, aHigh, aLow, bHigh, bLow;
  };
  const Constants expected[] = {
      {0, 0x0d35b78b9930a2bdULL, 0x80f4d5a8ca972cedULL, 0x89f19f33d989d5dbULL, 0xf48c28b543117749ULL},
      {42, 0x51a9864b1bd6ee11ULL, 0xfaacfcbd7ee49ebdULL, 0x3f5edbd82ccea206ULL, 0x09f50dc3e0504723ULL},
      {~std::uint64_t{0}, 0xa964a0764d97548aULL, 0xb03d494a75b1dfb9ULL, 0x32037abff6c81897ULL, 0xb329a367cd0758e6ULL},
  };
  for (const Constants& e : expected) {
    const MultiplyShiftHash hash = MultiplyShiftHash::forSeed(e.seed, KeyHash::kMultiplyShift);
    EXPECT_EQ((std::vector<std::uint64_t>{hash.aHigh, hash.aLow, hash.bHigh, hash.bLow}),
              (std::vector<std::uint64_t>{e.aHigh, e.aLow, e.bHigh, e.bLow}))
        << "seed " << e.seed;
  }
}

// FORMAT.md's table: f = 12; i1, i2 at m = 2^16 (hash id 6); i1, c, i2 at
// m = 1000 (hash id 7).
TEST(MultiplyShiftHash, MatchesTheVectorsOfTheSeparateImplementation) {
  struct Vector {
    std::uint64_t seed, key, hash;
    std::uint32_t fingerprint, i1, i2, j1, c, j2;
  };
  const std::uint64_t all = ~std::uint64_t{0}, top = std::uint64_t{1} << 63, mixed = 0x0123456789abcdefULL;
  const Vector vectors[] = {
      {0, 0, 0x89f19f33d989d5dbULL, 2207, 54747, 54681, 849, 1, 152},
      {0, 1, 0x972756bf72ba7899ULL, 2418, 30873, 8034, 448, 406, 958},
      {0, 42, 0xb4c1bc1afb8488f3ULL, 2892, 35059, 53825, 982, 354, 372},
      {0, top, 0x4a6c0a083ed56c52ULL, 1191, 27730, 30789, 245, 78, 833},
      {0, mixed, 0xee254317add26e49ULL, 3810, 28233, 56296, 678, 709, 31},
      {42, 0, 0x3f5edbd82ccea206ULL, 1014, 41478, 3514, 175, 686, 511},
      {42, 1, 0x9108622348a59018ULL, 2320, 36888, 18086, 283, 838, 555},
      {42, 42, 0xa52ee42abe11b0f9ULL, 2643, 45305, 50756, 742, 463, 721},
      {42, top, 0x3cb55a36ec40f164ULL, 972, 61796, 19398, 922, 729, 807},
      {42, mixed, 0xe35393aab36450abULL, 3637, 20651, 39560, 700, 789, 89},
      {all, 0, 0x32037abff6c81897ULL, 801, 6295, 4868, 963, 45, 82},
      {all, 1, 0xdb681b36445f6d22ULL, 3510, 27938, 8636, 267, 299, 32},
      {all, 42, 0xfc85ce28b19bf758ULL, 4040, 63320, 11296, 693, 857, 164},
      {all, top, 0x8a221f6531a10874ULL, 2210, 2164, 53916, 193, 855, 662},
      {all, mixed, 0x855290a003c4f23bULL, 2133, 62011, 46595, 14, 266, 252},
  };
  for (const Vector& v : vectors) {
    SCOPED_TRACE(::testing::Message() << "seed " << v.seed << ", key " << v.key);
    const CuckooFilter xorFilter = multiplyShiftFilter(1 << 16, v.seed);
    const CuckooFilter rangeFilter = multiplyShiftFilter(1000, v.seed);
    EXPECT_EQ(xorFilter.hashId(), kHashIdMulShiftV1);
    EXPECT_EQ(rangeFilter.hashId(), kHashIdMulShiftRangeV1);
    EXPECT_EQ(xorFilter.itemHash(&v.key, sizeof v.key), v.hash);
    EXPECT_EQ(MultiplyShiftHash::forSeed(v.seed, KeyHash::kMultiplyShift)(v.key), v.hash);
    EXPECT_EQ(located(xorFilter, v.key), (std::vector<std::uint32_t>{v.fingerprint, v.i1, v.i2}));
    EXPECT_EQ(located(rangeFilter, v.key), (std::vector<std::uint32_t>{v.fingerprint, v.j1, v.j2}));
    EXPECT_EQ(rangeFilter.bucketIndex().offset(v.fingerprint), v.c);
  }
}

// The smallest and largest bucket count of each id (seed 42, key
// 0x0123456789abcdef, whose hash is 0xe35393aab36450ab: fp 3637).
TEST(MultiplyShiftHash, MatchesTheVectorsAtTheEdgesOfTheBucketCount) {
  struct Edge {
    std::uint64_t m;
    std::uint32_t i1, c, i2;
  };
  const Edge edges[] = {{1, 0, 0, 0},
                        {std::uint64_t{1} << 32, 3009695915U, 0, 2034732814U},
                        {3, 2, 2, 0},
                        {(std::uint64_t{1} << 32) - 1, 3009695914U, 3391348644U, 381652730U}};
  for (const Edge& e : edges) {
    const BucketIndex index = BucketIndex::forCount(e.m, true);
    const ItemLocation where = index.locate(0xe35393aab36450abULL, 12);
    EXPECT_EQ(where.fingerprint, 3637U) << "m " << e.m;
    EXPECT_EQ(where.primaryBucket, e.i1) << "m " << e.m;
    EXPECT_EQ(where.alternateBucket, e.i2) << "m " << e.m;
    if (!index.powerOfTwo()) {
      EXPECT_EQ(index.offset(where.fingerprint), e.c) << "m " << e.m;
    }
    EXPECT_EQ(index.alternate(where.alternateBucket, where.fingerprint), where.primaryBucket) << "m " << e.m;
  }
}

TEST(MultiplyShiftHash, OtherLengthsHashAsXxh3) {
  FilterParams params;
  params.seed = 42;
  CuckooFilter plain = testing::createdFilter<CuckooFilter>(params);
  CuckooFilter keys = multiplyShiftFilter(params.bucketCount, 42);
  for (const std::string item : {"", "a", "seven b", "nine bytes", "https://example.com/a/b?c=d"}) {
    EXPECT_EQ(keys.itemHash(item.data(), item.size()), plain.itemHash(item.data(), item.size())) << item;
  }
  const std::uint64_t key = 42;
  EXPECT_NE(keys.itemHash(&key, 8), plain.itemHash(&key, 8));
}

constexpr KeyHash kKeyHashes[] = {KeyHash::kMultiplyShift, KeyHash::kMixedMultiplyShift, KeyHash::kSeededMix};

TEST(MultiplyShiftHash, FiltersRoundTripAsVersions5To7AndMergeAndPatchOnlyWithTheirOwnKind) {
  for (const std::uint64_t m : {std::uint64_t{1024}, std::uint64_t{1000}}) {
    for (const bool semiSort : {false, true}) {
     for (const KeyHash form : kKeyHashes) {
      const unsigned generation = static_cast<unsigned>(form);  // 0, 1, 2: versions 5, 6, 7; ids 6, 8, 10 and the next
      SCOPED_TRACE(::testing::Message() << "m=" << m << (semiSort ? " semi-sorted" : "") << ", key hash " << generation);
      const std::uint8_t id = static_cast<std::uint8_t>(6 + 2 * generation + (m == 1024 ? 0 : 1));
      CuckooFilter filter = multiplyShiftFilter(m, 7, semiSort, form);
      const std::vector<unsigned char> empty = testing::bytesOf(filter);
      const std::vector<std::uint64_t> stored = testing::fillToFirstFailure(filter, 0);
      EXPECT_GT(stored.size(), m * 4 * 9 / 10);
      for (const std::uint64_t key : stored) ASSERT_TRUE(filter.contains(key));
      const std::vector<unsigned char> bytes = testing::bytesOf(filter);
      EXPECT_EQ(bytes[4], 5U + generation) << "format version";
      EXPECT_EQ(bytes[6], id) << "hash id";
      EXPECT_EQ(filter.hashId(), id);
      CuckooFilter loaded;
      ASSERT_EQ(CuckooFilter::deserialize(bytes.data(), bytes.size(), loaded), Status::kOk);
      EXPECT_TRUE(loaded.params().multiplyShiftHash);
      EXPECT_FALSE(loaded.params().keyedHash);
      EXPECT_EQ(loaded.params().keyHash, form);
      EXPECT_EQ(loaded.hashId(), id);
      EXPECT_STREQ(loaded.kernelName(), filter.kernelName());
      EXPECT_EQ(testing::bytesOf(loaded), bytes);
      for (const std::uint64_t key : stored) ASSERT_TRUE(loaded.contains(key));
      // A version 5, 6 or 7 header must name the hash id its bucket count has.
      for (const std::uint8_t wrongId : {kHashIdXxh3V1, kHashIdXxh3RangeV1, kHashIdSipHash13V1,
                                         static_cast<std::uint8_t>(id ^ 1), static_cast<std::uint8_t>(id ^ 14)}) {
        std::vector<unsigned char> wrong = bytes;
        wrong[6] = wrongId;
        EXPECT_EQ(CuckooFilter::checkSerializedHeader(wrong.data(), wrong.size()), Status::kFormatBadParameters)
            << "hash id " << int{wrongId};
      }
      // Merges and patches between filters that hash differently are refused.
      CuckooFilter plain = testing::makeFilter(semiSort ? 13 : 12, 4, m, 7, kDefaultMaxKicks, semiSort);
      EXPECT_EQ(plain.merge(filter), Status::kMergeHashDiffers);
      PatchBytes across;
      EXPECT_EQ(diff(plain, filter, across), Status::kPatchFiltersDiffer);
      for (const KeyHash other : kKeyHashes) {
        if (other == form) continue;
        CuckooFilter otherGeneration = multiplyShiftFilter(m, 7, semiSort, other);
        EXPECT_EQ(otherGeneration.merge(filter), Status::kMergeHashDiffers);
        EXPECT_EQ(diff(otherGeneration, filter, across), Status::kPatchFiltersDiffer);
      }
      CuckooFilter sameKind = multiplyShiftFilter(m, 7, semiSort, form);
      EXPECT_EQ(sameKind.merge(loaded), Status::kOk);
      // A patch from the empty filter to the full one rebuilds it.
      CuckooFilter base;
      ASSERT_EQ(CuckooFilter::deserialize(empty.data(), empty.size(), base), Status::kOk);
      PatchBytes patch;
      ASSERT_EQ(diff(base, filter, patch), Status::kOk);
      ASSERT_EQ(applyPatch(base, patch.data(), patch.size()), Status::kOk);
      EXPECT_EQ(testing::bytesOf(base), bytes);
     }
    }
  }
}

// The shapes of the vectors in mulshift_mixed_vectors.inc and mix64_vectors.inc.
struct KeyVector {
  std::uint64_t seed, key, hash;
  std::uint32_t fingerprint, i1, i2, j1, c, j2;
};
struct KeyEdge {
  std::uint64_t m;
  std::uint32_t i1, c, i2;
};
struct EdgeKey {
  std::uint64_t seed, key, hash;
  std::uint32_t fingerprint;
};

// A hash of keys against its tables: each vector through filters of 2^16
// and 1,000 buckets (hash ids `xorId` and xorId + 1), and one key's places at
// the smallest and largest bucket count of each id.
template <std::size_t VectorCount, std::size_t EdgeCount>
void expectTheVectors(KeyHash form, std::uint8_t xorId, const KeyVector (&vectors)[VectorCount], const EdgeKey& edgeKey,
                      const KeyEdge (&edges)[EdgeCount]) {
  for (const KeyVector& v : vectors) {
    SCOPED_TRACE(::testing::Message() << "seed " << v.seed << ", key " << v.key);
    const CuckooFilter xorFilter = multiplyShiftFilter(1 << 16, v.seed, false, form);
    const CuckooFilter rangeFilter = multiplyShiftFilter(1000, v.seed, false, form);
    EXPECT_EQ(xorFilter.hashId(), xorId);
    EXPECT_EQ(rangeFilter.hashId(), xorId + 1);
    EXPECT_EQ(xorFilter.itemHash(&v.key, sizeof v.key), v.hash);
    EXPECT_EQ(rangeFilter.itemHash(&v.key, sizeof v.key), v.hash);
    EXPECT_EQ(MultiplyShiftHash::forSeed(v.seed, form)(v.key), v.hash);
    EXPECT_EQ(located(xorFilter, v.key), (std::vector<std::uint32_t>{v.fingerprint, v.i1, v.i2}));
    EXPECT_EQ(located(rangeFilter, v.key), (std::vector<std::uint32_t>{v.fingerprint, v.j1, v.j2}));
    EXPECT_EQ(rangeFilter.bucketIndex().offset(v.fingerprint), v.c);
  }
  EXPECT_EQ(MultiplyShiftHash::forSeed(edgeKey.seed, form)(edgeKey.key), edgeKey.hash);
  for (const KeyEdge& e : edges) {
    const BucketIndex index = BucketIndex::forCount(e.m, true);
    const ItemLocation where = index.locate(edgeKey.hash, 12);
    EXPECT_EQ(where.fingerprint, edgeKey.fingerprint) << "m " << e.m;
    EXPECT_EQ(where.primaryBucket, e.i1) << "m " << e.m;
    EXPECT_EQ(where.alternateBucket, e.i2) << "m " << e.m;
    if (!index.powerOfTwo()) {
      EXPECT_EQ(index.offset(where.fingerprint), e.c) << "m " << e.m;
    }
  }
}

// FORMAT.md's version 6 tables, printed by the same script.
TEST(MultiplyShiftHash, MixedKeysMatchTheVectorsOfTheSeparateImplementation) {
  using Vector = KeyVector;
  using Edge = KeyEdge;
#include "mulshift_mixed_vectors.inc"
  for (const auto& pair : kMixedKeys) EXPECT_EQ(mixKey64(pair[0]), pair[1]) << pair[0];
  expectTheVectors(KeyHash::kMixedMultiplyShift, kHashIdMulShiftMixedV1, kMixedVectors,
                   {kMixedEdgeSeed, kMixedEdgeKey, kMixedEdgeHash, kMixedEdgeFingerprint}, kMixedEdges);
}

// FORMAT.md's version 7 tables, printed by the same script.
TEST(MultiplyShiftHash, SeededMixMatchesTheVectorsOfTheSeparateImplementation) {
  using Vector = KeyVector;
  using Edge = KeyEdge;
#include "mix64_vectors.inc"
  for (const auto& pair : kSeedWords) {
    EXPECT_EQ(MultiplyShiftHash::forSeed(pair[0], KeyHash::kSeededMix).aHigh, pair[1]) << pair[0];
  }
  expectTheVectors(KeyHash::kSeededMix, kHashIdMix64V1, kSeededMixVectors,
                   {kSeededMixEdgeSeed, kSeededMixEdgeKey, kSeededMixEdgeHash, kSeededMixEdgeFingerprint}, kSeededMixEdges);
}

TEST(MultiplyShiftHash, NewFiltersGetTheSeededMix) {
  FilterParams params;
  params.multiplyShiftHash = true;
  CuckooFilter filter = testing::createdFilter<CuckooFilter>(params);
  EXPECT_EQ(filter.params().keyHash, KeyHash::kSeededMix);
  EXPECT_EQ(filter.hashId(), kHashIdMix64V1);
  EXPECT_EQ(multiplyShiftFilter(1000, 0, false, KeyHash::kSeededMix).hashId(), kHashIdMix64RangeV1);
  EXPECT_EQ(mixKey64(0), 0U);
  // (The three hashes' values are checked against the separate
  // implementation's vectors above, not against this file's own formulas.)
}

// Why ids 8 to 11 exist. Keys in arithmetic progression (sequential ids,
// multiples, timestamps) under a hash linear in the key give a structured
// cuckoo graph: filters of ids 6 and 7 refuse adds long before the load a
// random hash reaches. With the key mixed (ids 8 and 9), or the key XOR a
// seed word mixed (ids 10 and 11), they fill as XXH3's do.
// 20 fixed seeds, 2^12 buckets of 4: a random hash's first failure is above
// 0.93 on all of them (the sizing's knot, sizing.cpp, is 0.945 at this size
// for the 0.01 % quantile).
TEST(MultiplyShiftHash, MixedKeysFillOnStructuredKeySets) {
  const std::uint64_t m = 4096;
  struct Pattern {
    const char* name;
    std::uint64_t start, step;
    bool linearFallsShort;  // on these 20 seeds
  };
  const Pattern patterns[] = {{"sequential", 0, 1, true},
                              {"multiples of 7919", 0, 7919, true},
                              {"multiples of 2^16", 0, 1 << 16, true},
                              {"second timestamps in ms", 1764300000000ULL, 1000, false}};
  for (const Pattern& pattern : patterns) {
    unsigned linearShort = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      for (const KeyHash form : kKeyHashes) {
        CuckooFilter filter = multiplyShiftFilter(m, seed * 0x9e3779b97f4a7c15ULL, false, form);
        std::uint64_t stored = 0;
        while (filter.insert(pattern.start + stored * pattern.step)) ++stored;
        const double load = static_cast<double>(stored) / static_cast<double>(m * 4);
        if (form != KeyHash::kMultiplyShift) {
          EXPECT_GT(load, 0.93) << pattern.name << ", seed " << seed << ", key hash " << static_cast<int>(form);
        } else {
          linearShort += load < 0.9 ? 1 : 0;
        }
      }
    }
    // Ids 6 and 7 on the same keys and seeds: some filters stop short.
    if (pattern.linearFallsShort) {
      EXPECT_GT(linearShort, 0U) << pattern.name;
    }
  }
}

TEST(MultiplyShiftHash, CannotBeKeyedToo) {
  FilterParams params;
  params.multiplyShiftHash = true;
  params.keyedHash = true;
  CuckooFilter filter;
  EXPECT_EQ(CuckooFilter::create(params, filter), Status::kConflictingHashes);
  EXPECT_STREQ(statusMessage(Status::kConflictingHashes),
               "keyedHash and multiplyShiftHash cannot both be true: a filter hashes its items one way");
}

}  // namespace
}  // namespace cuckoo
