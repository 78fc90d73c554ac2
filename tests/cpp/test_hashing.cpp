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
#include "test_support.hpp"

namespace cuckoo {
namespace {

TEST(Hashing, AlternateBucketIsSelfInverseForEveryFingerprintAtSmallWidths) {
  SplitMix64 rng(42);
  for (unsigned bits = 2; bits <= 12; ++bits) {
    for (unsigned logBuckets : {0U, 1U, 4U, 10U, 16U, 24U, 32U}) {
      const std::uint32_t mask = logBuckets == 32 ? 0xFFFFFFFFU : (std::uint32_t{1} << logBuckets) - 1;
      for (std::uint32_t fp = 1; fp < (std::uint32_t{1} << bits); ++fp) {
        for (int trial = 0; trial < 16; ++trial) {
          const std::uint32_t i = static_cast<std::uint32_t>(rng.next()) & mask;
          const std::uint32_t j = alternateBucket(i, fp, mask);
          ASSERT_LE(j, mask);
          ASSERT_EQ(alternateBucket(j, fp, mask), i) << "f=" << bits << " fp=" << fp << " i=" << i;
        }
      }
    }
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
  const std::uint64_t hash = 0x123456789abcdef0ULL;
  const ItemLocation where = locateHash(hash, 12, mask);
  EXPECT_EQ(where.primaryBucket, 0xdef0U);
  EXPECT_EQ(where.fingerprint, fingerprintFromHash(hash, 12));
  EXPECT_EQ(where.alternateBucket, 0xdef0U ^ (mix32(where.fingerprint) & mask));
  // Changing only the low half moves i1 but keeps the fingerprint.
  const ItemLocation moved = locateHash(hash ^ 0x1, 12, mask);
  EXPECT_EQ(moved.fingerprint, where.fingerprint);
  EXPECT_EQ(moved.primaryBucket, 0xdef1U);
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
    EXPECT_EQ(where.hash, v.hash);
    EXPECT_EQ(where.fingerprint, v.fingerprint);
    EXPECT_EQ(where.primaryBucket, v.primaryBucket);
    EXPECT_EQ(where.alternateBucket, v.alternateBucket);
  }
}

}  // namespace
}  // namespace cuckoo
