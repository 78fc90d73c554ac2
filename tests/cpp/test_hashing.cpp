// Hashing (hashing.hpp) and the eviction PRNG: the fingerprint and bucket of
// an item, checked by property and against FORMAT.md's frozen test vectors.

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/hashing.hpp"
#include "cuckoo/prng.hpp"
#include "item_hash.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

TEST(Hashing, AlternateBucketIsSelfInverseForEveryFingerprintAtSmallWidths) {
  SplitMix64 rng(42);
  // Powers of two (hash id 1) and other counts (hash id 2), from the smallest
  // to the largest; odd and even ones, since the relation's fixed points differ.
  const std::uint64_t counts[] = {1,    2,       16,         1024,        65536,           1U << 24, std::uint64_t{1} << 32,
                                  3,    5,       6,          12,          1000,            65535,    (1U << 24) + 1,
                                  999'999'937, 0xFFFFFFFFULL};
  for (unsigned bits = 2; bits <= 12; ++bits) {
    for (const std::uint64_t m : counts) {
      const BucketIndex index = BucketIndex::forCount(m);
      ASSERT_EQ(index.hashId(), isPowerOfTwo(m) ? kHashIdXxh3V1 : kHashIdXxh3RangeV1) << m;
      for (std::uint32_t fp = 1; fp < (std::uint32_t{1} << bits); ++fp) {
        for (int trial = 0; trial < 16; ++trial) {
          const auto i = static_cast<std::uint32_t>((rng.next() >> 32) * m >> 32);
          const std::uint32_t j = index.alternate(i, fp);
          ASSERT_LT(j, m);
          ASSERT_EQ(index.alternate(j, fp), i) << "f=" << bits << " fp=" << fp << " i=" << i << " m=" << m;
        }
      }
    }
  }
}

TEST(Hashing, EveryBucketOfASmallTableMapsBackToItself) {
  // Exhaustively, for every m up to 300 and every offset a fingerprint can have.
  for (std::uint64_t m = 1; m <= 300; ++m) {
    const BucketIndex index = BucketIndex::forCount(m);
    for (std::uint32_t fp = 1; fp < 4096; ++fp) {
      for (std::uint32_t i = 0; i < m; ++i) {
        const std::uint32_t j = index.alternate(i, fp);
        ASSERT_LT(j, m);
        ASSERT_EQ(index.alternate(j, fp), i) << "m=" << m << " fp=" << fp << " i=" << i;
      }
    }
  }
}

TEST(Hashing, XorWouldLoseFingerprintsWhenTheCountIsNotAPowerOfTwo) {
  // Why hash id 2 exists: with m = 12, XOR by offset 6 sends bucket 9 to 15,
  // outside the table; folded back (15 mod 12 = 3), the way back from 3 is
  // 3 XOR 6 = 5, not 9. The reflection about the same point returns.
  const std::uint32_t m = 12, offset = 6, bucket = 9;
  const std::uint32_t folded = (bucket ^ offset) % m;
  EXPECT_NE((folded ^ offset) % m, bucket);
  const std::uint32_t reflected = (offset + m - bucket) % m;
  EXPECT_EQ((offset + m - reflected) % m, bucket);
}

TEST(Hashing, RangeLayoutScalesLowHalfAndFingerprintHashByMultiplyShift) {
  const std::uint64_t m = 1000;
  const BucketIndex index = BucketIndex::forCount(m);
  const std::uint64_t hash = 0x123456789abcdef0ULL;
  const ItemLocation where = index.locate(hash, 12);
  EXPECT_EQ(where.fingerprint, fingerprintFromHash(hash, 12));
  EXPECT_EQ(where.primaryBucket, (std::uint64_t{0x9abcdef0} * m) >> 32);
  const auto c = static_cast<std::uint32_t>((std::uint64_t{mix32(where.fingerprint)} * m) >> 32);
  EXPECT_EQ(index.offset(where.fingerprint), c);
  EXPECT_EQ(where.alternateBucket, (c + m - where.primaryBucket) % m);
  // The extremes of the low half land on the first and last bucket.
  EXPECT_EQ(index.primary(0), 0U);
  EXPECT_EQ(index.primary(0xFFFFFFFFULL), m - 1);
}

TEST(Hashing, BucketsCoincideForAboutOneItemInM) {
  // For odd m, 2 i1 = c (mod m) has one solution per c; for even m, two when
  // c is even and none when odd: 1/m of uniform (i1, fp) pairs either way.
  // 2,000,000 draws at m = 101 and 100 expect about 19,800 and 20,000 with a
  // standard deviation near 140; +-1,000 (7 sigma) catches a halved or
  // doubled rate.
  for (const std::uint64_t m : {101U, 100U}) {
    const BucketIndex index = BucketIndex::forCount(m);
    SplitMix64 rng(m);
    int same = 0;
    for (int draw = 0; draw < 2'000'000; ++draw) {
      const ItemLocation where = index.locate(rng.next(), 16);
      same += where.primaryBucket == where.alternateBucket ? 1 : 0;
    }
    EXPECT_NEAR(same, 2'000'000.0 / static_cast<double>(m), 1000) << m;
  }
}

TEST(Hashing, FingerprintIsNeverZeroAndFitsItsWidth) {
  SplitMix64 rng(7);
  for (unsigned bits = 2; bits <= 32; ++bits) {
    const std::uint64_t limit = (std::uint64_t{1} << bits) - 1;
    // The extremes of the high half of the hash map to 1 and 2^f - 1.
    EXPECT_EQ(fingerprintFromHash(0, bits), 1U);
    EXPECT_EQ(fingerprintFromHash(0xFFFFFFFF00000000ULL, bits), limit);
    for (int trial = 0; trial < 20000; ++trial) {
      const std::uint32_t fp = fingerprintFromHash(rng.next(), bits);
      ASSERT_GE(fp, 1U);
      ASSERT_LE(fp, limit);
    }
  }
}

TEST(Hashing, SmallFingerprintsAreUniformOverNonZeroValues) {
  // 3-bit fingerprints take 7 values; 700,000 uniform hashes give 100,000 each
  // with a standard deviation of about 293, so +-1,500 (5 sigma) catches a
  // value drawn twice as often (as masking and remapping 0 to 1 would do).
  SplitMix64 rng(99);
  std::vector<int> seen(8, 0);
  for (int i = 0; i < 700000; ++i) ++seen[fingerprintFromHash(rng.next(), 3)];
  EXPECT_EQ(seen[0], 0);
  for (int v = 1; v < 8; ++v) EXPECT_NEAR(seen[v], 100000, 1500) << "value " << v;
}

TEST(Hashing, Mix32SpreadsSmallFingerprintsAcrossLowBits) {
  // Offsets are taken modulo m, so the low bits must look random even for
  // consecutive small fingerprints (i XOR fp alone would keep evicted items
  // within 2^f buckets, Section 3.1).
  std::vector<bool> seen(1 << 20, false);
  int collisionsInLow20 = 0;
  for (std::uint32_t fp = 0; fp < (1U << 12); ++fp) {
    const std::uint32_t low = mix32(fp) & ((1U << 20) - 1);
    if (seen[low]) ++collisionsInLow20;
    seen[low] = true;
  }
  // 4096 values into 2^20 cells: about 8 collisions expected by chance.
  EXPECT_LT(collisionsInLow20, 40);
}

TEST(Hashing, LocationUsesDisjointHashHalves) {
  const std::uint32_t mask = (1U << 16) - 1;
  const BucketIndex index = BucketIndex::forCount(std::uint64_t{mask} + 1);
  const std::uint64_t hash = 0x123456789abcdef0ULL;
  const ItemLocation where = index.locate(hash, 12);
  EXPECT_EQ(where.primaryBucket, 0xdef0U);
  EXPECT_EQ(where.fingerprint, fingerprintFromHash(hash, 12));
  EXPECT_EQ(where.alternateBucket, 0xdef0U ^ (mix32(where.fingerprint) & mask));
  // Changing only the low half moves i1 but keeps the fingerprint.
  const ItemLocation moved = index.locate(hash ^ 0x1, 12);
  EXPECT_EQ(moved.fingerprint, where.fingerprint);
  EXPECT_EQ(moved.primaryBucket, 0xdef1U);
}

TEST(Hashing, AnEightByteKeyHashesAsItsBytesWithTheSeedDerivedOnce) {
  // ItemHash (item_hash.hpp) takes what XXH3 derives from the seed once per
  // filter and an 8-byte item as its little-endian value: the same hash.
  SplitMix64 rng(7);
  std::vector<std::uint64_t> seeds = {0, 1, ~std::uint64_t{0}, 0x0123456789abcdefULL, 0xFFFFFFFFULL, 0xFFFFFFFF00000000ULL};
  for (int i = 0; i < 64; ++i) seeds.push_back(rng.next());
  for (const std::uint64_t seed : seeds) {
    const detail::ItemHash hash = detail::ItemHash::forSeed(seed);
    for (int i = 0; i < 256; ++i) {
      const std::uint64_t key = i < 4 ? std::uint64_t{0} - static_cast<std::uint64_t>(i) : rng.next() >> (i % 64);
      unsigned char bytes[8];
      for (int b = 0; b < 8; ++b) bytes[b] = static_cast<unsigned char>(key >> (8 * b));
      const std::uint64_t expected = XXH3_64bits_withSeed(bytes, 8, seed);
      ASSERT_EQ(hash.ofKey(key), expected) << "seed " << seed << " key " << key;
      ASSERT_EQ(hash.ofKey(detail::ItemHash::keyOf(bytes)), expected);
      ASSERT_EQ(hash.ofBytes(bytes, 8), expected);
    }
  }
}

TEST(Prng, SameSeedSameSequenceDifferentSeedDifferentSequence) {
  SplitMix64 a = SplitMix64::fromSeed(5), b = SplitMix64::fromSeed(5), c = SplitMix64::fromSeed(6);
  int differences = 0;
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t x = a.next();
    ASSERT_EQ(x, b.next());
    differences += x != c.next();
  }
  EXPECT_EQ(differences, 100);
}

using Bytes = std::vector<unsigned char>;

Bytes text(const char* s) { return Bytes(s, s + std::strlen(s)); }

// Numbers reach the core as 8-byte little-endian int64, as the TypeScript layer encodes them.
Bytes int64LittleEndian(std::int64_t value) {
  Bytes bytes(8);
  for (unsigned i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(static_cast<std::uint64_t>(value) >> (8 * i));
  return bytes;
}

struct HashVector {
  unsigned fingerprintBits;
  unsigned bucketSize;
  unsigned log2BucketCount;
  std::uint64_t seed;
  Bytes item;
  std::uint64_t hash;
  std::uint32_t fingerprint;
  std::uint32_t primaryBucket;
  std::uint32_t alternateBucket;
};

TEST(HashVectors, ItemsMapToTheFrozenFingerprintAndBuckets) {
  // Computed by a separate program from libxxhash and hashing.hpp's written
  // layout, not by this core; FORMAT.md lists the same table row for row.
  const std::vector<HashVector> vectors = {
      {12, 4, 16, 0x0000000000000000ULL, text(""), 0x2d06800538d394c2ULL, 721, 38082, 3695},
      {12, 4, 16, 0x0000000000000000ULL, text("a"), 0xe6c632b61e964e1fULL, 3692, 19999, 1178},
      {12, 4, 16, 0x0000000000000000ULL, text("abc"), 0x78af5f94892f3950ULL, 1931, 14672, 61915},
      {12, 4, 16, 0x0000000000000000ULL, text("hello world"), 0xd447b1ea40e6988bULL, 3396, 39051, 8909},
      {12, 4, 16, 0x0000000000000000ULL, text("cuckoo"), 0x6b9c4af711372734ULL, 1722, 10036, 55823},
      {12, 4, 16, 0x0000000000000000ULL, int64LittleEndian(0), 0xc77b3abb6f87acd9ULL, 3191, 44249, 12216},
      {12, 4, 16, 0x0000000000000000ULL, int64LittleEndian(1), 0x2fbc593564db792eULL, 764, 31022, 60774},
      {12, 4, 16, 0x0000000000000000ULL, int64LittleEndian(5), 0x8e03e9aa39aaa78cULL, 2272, 42892, 3649},
      {12, 4, 16, 0x0000000000000000ULL, int64LittleEndian(-1), 0x5111c7e47d784413ULL, 1297, 17427, 17780},
      {12, 4, 16, 0x0000000000000000ULL, int64LittleEndian(9007199254740991), 0x7c21423830c24a1bULL, 1986, 18971, 28838},
      {12, 4, 16, 0x0123456789abcdefULL, text(""), 0xcc1ca35a1b089c5cULL, 3265, 40028, 27052},
      {12, 4, 16, 0x0123456789abcdefULL, text("a"), 0xfcf369f9e7541d1bULL, 4047, 7451, 54644},
      {12, 4, 16, 0x0123456789abcdefULL, text("abc"), 0x4a2ec311f0e180a4ULL, 1187, 32932, 37961},
      {12, 4, 16, 0x0123456789abcdefULL, text("hello world"), 0x3f5ca66db40a4952ULL, 1014, 18770, 42669},
      {12, 4, 16, 0x0123456789abcdefULL, text("cuckoo"), 0x837db40cd7eb1a99ULL, 2104, 6809, 34715},
      {12, 4, 16, 0x0123456789abcdefULL, int64LittleEndian(0), 0x84c4077b5ba88a78ULL, 2124, 35448, 9940},
      {12, 4, 16, 0x0123456789abcdefULL, int64LittleEndian(1), 0x62da9b4ecf9e94bcULL, 1582, 38076, 59875},
      {12, 4, 16, 0x0123456789abcdefULL, int64LittleEndian(5), 0x1be944fc238e1f8dULL, 447, 8077, 42843},
      {12, 4, 16, 0x0123456789abcdefULL, int64LittleEndian(-1), 0x1c90f36d547002f0ULL, 457, 752, 28822},
      {12, 4, 16, 0x0123456789abcdefULL, int64LittleEndian(9007199254740991), 0x7e9c3b6e60627dc2ULL, 2026, 32194, 43520},
      {7, 2, 10, 0x0000000000000000ULL, text(""), 0x2d06800538d394c2ULL, 23, 194, 513},
      {7, 2, 10, 0x0000000000000000ULL, text("a"), 0xe6c632b61e964e1fULL, 115, 543, 736},
      {7, 2, 10, 0x0000000000000000ULL, text("abc"), 0x78af5f94892f3950ULL, 60, 336, 337},
      {7, 2, 10, 0x0000000000000000ULL, text("hello world"), 0xd447b1ea40e6988bULL, 106, 139, 10},
      {7, 2, 10, 0x0000000000000000ULL, text("cuckoo"), 0x6b9c4af711372734ULL, 54, 820, 160},
      {7, 2, 10, 0x0000000000000000ULL, int64LittleEndian(0), 0xc77b3abb6f87acd9ULL, 99, 217, 972},
      {7, 2, 10, 0x0000000000000000ULL, int64LittleEndian(1), 0x2fbc593564db792eULL, 24, 302, 981},
      {7, 2, 10, 0x0000000000000000ULL, int64LittleEndian(5), 0x8e03e9aa39aaa78cULL, 71, 908, 483},
      {7, 2, 10, 0x0000000000000000ULL, int64LittleEndian(-1), 0x5111c7e47d784413ULL, 41, 19, 487},
      {7, 2, 10, 0x0000000000000000ULL, int64LittleEndian(9007199254740991), 0x7c21423830c24a1bULL, 62, 539, 147},
  };
  for (const HashVector& v : vectors) {
    SCOPED_TRACE("f=" + std::to_string(v.fingerprintBits) + " seed=" + std::to_string(v.seed) + " item of " +
                 std::to_string(v.item.size()) + " bytes starting " +
                 (v.item.empty() ? std::string("-") : std::to_string(v.item[0])));
    const CuckooFilter filter =
        testing::makeFilter(v.fingerprintBits, v.bucketSize, std::uint64_t{1} << v.log2BucketCount, v.seed);
    const ItemLocation where = filter.locate(v.item.data(), v.item.size());
    EXPECT_EQ(filter.itemHash(v.item.data(), v.item.size()), v.hash);
    EXPECT_EQ(where.fingerprint, v.fingerprint);
    EXPECT_EQ(where.primaryBucket, v.primaryBucket);
    EXPECT_EQ(where.alternateBucket, v.alternateBucket);
  }
}

struct RangeHashVector {
  unsigned fingerprintBits;
  unsigned bucketSize;
  std::uint64_t bucketCount;
  std::uint64_t seed;
  Bytes item;
  std::uint64_t hash;
  std::uint32_t fingerprint;
  std::uint32_t primaryBucket;
  std::uint32_t reflectionPoint;
  std::uint32_t alternateBucket;
};

TEST(HashVectors, ItemsMapToTheFrozenFingerprintAndBucketsOfHashId2) {
  // Computed by a separate program from libxxhash and FORMAT.md's written
  // layout, not by this core; FORMAT.md lists the same table row for row.
  const std::vector<RangeHashVector> vectors = {
      {12, 4, 1000ULL, 0x0000000000000000ULL, text(""), 0x2d06800538d394c2ULL, 721, 221, 899, 678},
      {12, 4, 1000ULL, 0x0000000000000000ULL, text("a"), 0xe6c632b61e964e1fULL, 3692, 119, 831, 712},
      {12, 4, 1000ULL, 0x0000000000000000ULL, text("abc"), 0x78af5f94892f3950ULL, 1931, 535, 119, 584},
      {12, 4, 1000ULL, 0x0000000000000000ULL, text("hello world"), 0xd447b1ea40e6988bULL, 3396, 253, 469, 216},
      {12, 4, 1000ULL, 0x0000000000000000ULL, text("cuckoo"), 0x6b9c4af711372734ULL, 1722, 67, 836, 769},
      {12, 4, 1000ULL, 0x0000000000000000ULL, int64LittleEndian(0), 0xc77b3abb6f87acd9ULL, 3191, 435, 734, 299},
      {12, 4, 1000ULL, 0x0000000000000000ULL, int64LittleEndian(1), 0x2fbc593564db792eULL, 764, 393, 95, 702},
      {12, 4, 1000ULL, 0x0000000000000000ULL, int64LittleEndian(5), 0x8e03e9aa39aaa78cULL, 2272, 225, 107, 882},
      {12, 4, 1000ULL, 0x0000000000000000ULL, int64LittleEndian(-1), 0x5111c7e47d784413ULL, 1297, 490, 13, 523},
      {12, 4, 1000ULL, 0x0000000000000000ULL, int64LittleEndian(9007199254740991), 0x7c21423830c24a1bULL, 1986, 190, 149, 959},
      {12, 4, 1000ULL, 0x0123456789abcdefULL, text(""), 0xcc1ca35a1b089c5cULL, 3265, 105, 547, 442},
      {12, 4, 1000ULL, 0x0123456789abcdefULL, text("a"), 0xfcf369f9e7541d1bULL, 4047, 903, 823, 920},
      {12, 4, 1000ULL, 0x0123456789abcdefULL, text("abc"), 0x4a2ec311f0e180a4ULL, 1187, 940, 114, 174},
      {12, 4, 1000ULL, 0x0123456789abcdefULL, text("hello world"), 0x3f5ca66db40a4952ULL, 1014, 703, 360, 657},
      {12, 4, 1000ULL, 0x0123456789abcdefULL, text("cuckoo"), 0x837db40cd7eb1a99ULL, 2104, 843, 104, 261},
      {12, 4, 1000ULL, 0x0123456789abcdefULL, int64LittleEndian(0), 0x84c4077b5ba88a78ULL, 2124, 358, 342, 984},
      {12, 4, 1000ULL, 0x0123456789abcdefULL, int64LittleEndian(1), 0x62da9b4ecf9e94bcULL, 1582, 811, 375, 564},
      {12, 4, 1000ULL, 0x0123456789abcdefULL, int64LittleEndian(5), 0x1be944fc238e1f8dULL, 447, 138, 392, 254},
      {12, 4, 1000ULL, 0x0123456789abcdefULL, int64LittleEndian(-1), 0x1c90f36d547002f0ULL, 457, 329, 183, 854},
      {12, 4, 1000ULL, 0x0123456789abcdefULL, int64LittleEndian(9007199254740991), 0x7e9c3b6e60627dc2ULL, 2026, 376, 257, 881},
      {7, 2, 3ULL, 0x0000000000000000ULL, text(""), 0x2d06800538d394c2ULL, 23, 0, 0, 0},
      {7, 2, 3ULL, 0x0000000000000000ULL, text("a"), 0xe6c632b61e964e1fULL, 115, 0, 0, 0},
      {7, 2, 3ULL, 0x0000000000000000ULL, text("abc"), 0x78af5f94892f3950ULL, 60, 1, 1, 0},
      {7, 2, 3ULL, 0x0000000000000000ULL, text("hello world"), 0xd447b1ea40e6988bULL, 106, 0, 2, 2},
      {7, 2, 3ULL, 0x0000000000000000ULL, text("cuckoo"), 0x6b9c4af711372734ULL, 54, 0, 1, 1},
      {7, 2, 3ULL, 0x0000000000000000ULL, int64LittleEndian(0), 0xc77b3abb6f87acd9ULL, 99, 1, 0, 2},
      {7, 2, 3ULL, 0x0000000000000000ULL, int64LittleEndian(1), 0x2fbc593564db792eULL, 24, 1, 1, 0},
      {7, 2, 3ULL, 0x0000000000000000ULL, int64LittleEndian(5), 0x8e03e9aa39aaa78cULL, 71, 0, 1, 1},
      {7, 2, 3ULL, 0x0000000000000000ULL, int64LittleEndian(-1), 0x5111c7e47d784413ULL, 41, 1, 0, 2},
      {7, 2, 3ULL, 0x0000000000000000ULL, int64LittleEndian(9007199254740991), 0x7c21423830c24a1bULL, 62, 0, 0, 0},
      {16, 4, 4294967295ULL, 0x0000000000000000ULL, text(""), 0x2d06800538d394c2ULL, 11527, 953390273, 3804480643, 2851090370},
      {16, 4, 4294967295ULL, 0x0000000000000000ULL, text("a"), 0xe6c632b61e964e1fULL, 59078, 513166878, 1929177106, 1416010228},
      {16, 4, 4294967295ULL, 0x0000000000000000ULL, text("abc"), 0x78af5f94892f3950ULL, 30895, 2301573455, 3064267679, 762694224},
      {16, 4, 4294967295ULL, 0x0000000000000000ULL, text("hello world"), 0xd447b1ea40e6988bULL, 54343, 1088854154, 2945694279, 1856840125},
      {16, 4, 4294967295ULL, 0x0000000000000000ULL, text("cuckoo"), 0x6b9c4af711372734ULL, 27548, 288827187, 521540293, 232713106},
      {16, 4, 4294967295ULL, 0x0000000000000000ULL, int64LittleEndian(0), 0xc77b3abb6f87acd9ULL, 51067, 1871162584, 2004399745, 133237161},
      {16, 4, 4294967295ULL, 0x0000000000000000ULL, int64LittleEndian(1), 0x2fbc593564db792eULL, 12221, 1692105005, 1718592096, 26487091},
      {16, 4, 4294967295ULL, 0x0000000000000000ULL, int64LittleEndian(5), 0x8e03e9aa39aaa78cULL, 36356, 967485323, 1243378524, 275893201},
      {16, 4, 4294967295ULL, 0x0000000000000000ULL, int64LittleEndian(-1), 0x5111c7e47d784413ULL, 20754, 2105033746, 4165231508, 2060197762},
      {16, 4, 4294967295ULL, 0x0000000000000000ULL, int64LittleEndian(9007199254740991), 0x7c21423830c24a1bULL, 31777, 818039322, 159253103, 3636181076},
  };
  for (const RangeHashVector& v : vectors) {
    SCOPED_TRACE("m=" + std::to_string(v.bucketCount) + " seed=" + std::to_string(v.seed) + " item of " +
                 std::to_string(v.item.size()) + " bytes");
    // The largest count's table (2^32 - 1 buckets) is not allocated: its
    // layout is checked through BucketIndex on the hash a small filter gives.
    const bool allocate = v.bucketCount <= 1'000'000;
    const CuckooFilter filter = testing::makeFilter(v.fingerprintBits, v.bucketSize, allocate ? v.bucketCount : 3, v.seed);
    const BucketIndex index = BucketIndex::forCount(v.bucketCount);
    ASSERT_EQ(index.hashId(), kHashIdXxh3RangeV1);
    const std::uint64_t hash = filter.itemHash(v.item.data(), v.item.size());
    const ItemLocation where = allocate ? filter.locate(v.item.data(), v.item.size()) : index.locate(hash, v.fingerprintBits);
    EXPECT_EQ(hash, v.hash);
    EXPECT_EQ(where.fingerprint, v.fingerprint);
    EXPECT_EQ(where.primaryBucket, v.primaryBucket);
    EXPECT_EQ(index.offset(v.fingerprint), v.reflectionPoint);
    EXPECT_EQ(where.alternateBucket, v.alternateBucket);
  }
}

}  // namespace
}  // namespace cuckoo
