#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/hashing.hpp"
#include "cuckoo/prng.hpp"

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

}  // namespace
}  // namespace cuckoo
