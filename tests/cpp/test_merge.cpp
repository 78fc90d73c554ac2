// CuckooFilter::merge: every fingerprint of the other filter is added from
// the bucket it is in, all or nothing, and only between filters of the same
// parameters and seed.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace cuckoo {
namespace {

using testing::containsKey;
using testing::insertKey;
using testing::makeFilter;

std::vector<unsigned char> bytesOf(const CuckooFilter& f) {
  std::vector<unsigned char> bytes(f.serializedSize());
  f.serialize(bytes.data());
  return bytes;
}

struct Shape {
  unsigned fingerprintBits;
  unsigned bucketSize;
  std::uint64_t bucketCount;
  bool semiSort;
};

class MergeShapes : public ::testing::TestWithParam<Shape> {};

TEST_P(MergeShapes, HoldsEveryItemOfBoth) {
  const Shape s = GetParam();
  CuckooFilter a = makeFilter(s.fingerprintBits, s.bucketSize, s.bucketCount, 3, kDefaultMaxKicks, s.semiSort);
  CuckooFilter b = makeFilter(s.fingerprintBits, s.bucketSize, s.bucketCount, 3, kDefaultMaxKicks, s.semiSort);
  const std::uint64_t each = s.bucketCount * s.bucketSize * 4 / 10;  // 40 % load each
  for (std::uint64_t k = 0; k < each; ++k) {
    ASSERT_TRUE(insertKey(a, k));
    ASSERT_TRUE(insertKey(b, 1'000'000 + k));
  }
  ASSERT_EQ(a.merge(b), Status::kOk);
  EXPECT_EQ(a.itemCount(), 2 * each);
  for (std::uint64_t k = 0; k < each; ++k) {
    ASSERT_TRUE(containsKey(a, k)) << k;
    ASSERT_TRUE(containsKey(a, 1'000'000 + k)) << k;
  }
  // As one filter of the same items would: the same false-positive rate, at 80 % load.
  CuckooFilter together = makeFilter(s.fingerprintBits, s.bucketSize, s.bucketCount, 3, kDefaultMaxKicks, s.semiSort);
  for (std::uint64_t k = 0; k < each; ++k) {
    insertKey(together, k);
    insertKey(together, 1'000'000 + k);
  }
  const double merged = testing::measuredFalsePositiveRate(a, 400000);
  const double direct = testing::measuredFalsePositiveRate(together, 400000);
  EXPECT_NEAR(merged, direct, 0.25 * direct + 0.0002);
}

TEST_P(MergeShapes, AllOrNothingWhenTooFull) {
  const Shape s = GetParam();
  CuckooFilter a = makeFilter(s.fingerprintBits, s.bucketSize, s.bucketCount, 3, kDefaultMaxKicks, s.semiSort);
  CuckooFilter b = makeFilter(s.fingerprintBits, s.bucketSize, s.bucketCount, 3, kDefaultMaxKicks, s.semiSort);
  const std::uint64_t each = s.bucketCount * s.bucketSize * 7 / 10;  // 140 % together
  for (std::uint64_t k = 0; k < each; ++k) {
    ASSERT_TRUE(insertKey(a, k));
    ASSERT_TRUE(insertKey(b, 1'000'000 + k));
  }
  const std::vector<unsigned char> before = bytesOf(a);
  EXPECT_EQ(a.merge(b), Status::kMergeWouldOverfill);
  EXPECT_EQ(bytesOf(a), before);
}

INSTANTIATE_TEST_SUITE_P(Shapes, MergeShapes,
                         ::testing::Values(Shape{12, 4, 1024, false}, Shape{12, 4, 1000, false},
                                           Shape{13, 4, 512, true}, Shape{9, 2, 777, false}, Shape{16, 8, 256, false}));

TEST(Merge, NamesTheParameterThatDiffers) {
  CuckooFilter a = makeFilter(12, 4, 1024, 3);
  const std::vector<unsigned char> before = bytesOf(a);
  CuckooFilter bits = makeFilter(13, 4, 1024, 3);
  CuckooFilter size = makeFilter(12, 2, 1024, 3);
  CuckooFilter count = makeFilter(12, 4, 1000, 3);
  CuckooFilter seed = makeFilter(12, 4, 1024, 4);
  CuckooFilter semi = makeFilter(12, 4, 1024, 3, kDefaultMaxKicks, true);
  EXPECT_EQ(a.merge(bits), Status::kMergeFingerprintBitsDiffer);
  EXPECT_EQ(a.merge(size), Status::kMergeBucketSizeDiffer);
  EXPECT_EQ(a.merge(count), Status::kMergeBucketCountDiffer);
  EXPECT_EQ(a.merge(seed), Status::kMergeSeedDiffer);
  EXPECT_EQ(a.merge(semi), Status::kMergeSemiSortDiffer);
  EXPECT_EQ(bytesOf(a), before);
}

TEST(Merge, TakesTheOthersStash) {
  CuckooFilter a = makeFilter(12, 4, 64, 3);
  CuckooFilter b = makeFilter(12, 4, 64, 3, 5);
  std::vector<std::uint64_t> stored = testing::fillToFirstFailure(b, 500);
  ASSERT_TRUE(b.stash().occupied);
  ASSERT_EQ(a.merge(b), Status::kOk);
  for (const std::uint64_t key : stored) ASSERT_TRUE(containsKey(a, key)) << key;
}

}  // namespace
}  // namespace cuckoo
