// SipHash-1-3 as hash ids 4 and 5 use it (keyed_hash.hpp, FORMAT.md): the
// vectors were computed by a separate implementation of SipHash-c-d, itself
// checked against the SipHash paper's SipHash-2-4 vector (key 00..0f,
// message 00..0e: 0xa129ca6149be45e5).

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/cuckoo_filter.hpp"
#include "keyed_hash.hpp"
#include "test_support.hpp"

namespace cuckoo::detail {
namespace {

std::vector<unsigned char> int64Bytes(std::uint64_t value) {
  std::vector<unsigned char> bytes(8);
  for (unsigned i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(value >> (8 * i));
  return bytes;
}

std::vector<unsigned char> text(const std::string& s) { return {s.begin(), s.end()}; }

struct Vector {
  std::uint64_t seed;
  std::vector<unsigned char> item;
  std::uint64_t hash;
};

TEST(KeyedHash, MatchesTheReferenceVectors) {
  std::vector<unsigned char> counting(32);
  for (unsigned i = 0; i < 32; ++i) counting[i] = static_cast<unsigned char>(i);
  const std::uint64_t other = 0x0123456789abcdefULL;
  const Vector vectors[] = {
      {0, text(""), 0x61d1b8495b88d5e1ULL},
      {0, text("a"), 0x6cd2f1583967b431ULL},
      {0, text("abc"), 0x438ddc9614565393ULL},
      {0, text("hello world"), 0xf310f084687c174cULL},
      {0, text("cuckoo"), 0xb3d2f98af3892436ULL},
      {0, int64Bytes(0), 0xa6d54f2b03dc1f4aULL},
      {0, int64Bytes(1), 0x8d44c6f2a9fff2d4ULL},
      {0, int64Bytes(5), 0xda78173c0fd6a122ULL},
      {0, int64Bytes(~std::uint64_t{0}), 0x6a0a0b405f7d0609ULL},
      {0, int64Bytes((std::uint64_t{1} << 53) - 1), 0x77425d56d6580d6cULL},
      {0, counting, 0x80aad5abafbcfe43ULL},
      {0, text("https://example.com/a/b?c=d"), 0x753c0df4ed37511bULL},
      {other, text(""), 0xa53227c8d4c74534ULL},
      {other, text("a"), 0x9d3d0c2d828ea9a6ULL},
      {other, text("abc"), 0x3189a24c299b4196ULL},
      {other, text("hello world"), 0xf1322b692e8471a1ULL},
      {other, text("cuckoo"), 0x9e2ff5372cd16a23ULL},
      {other, int64Bytes(0), 0x10a91f67454078b7ULL},
      {other, int64Bytes(1), 0x6993f1ace408d282ULL},
      {other, int64Bytes(5), 0x2524180dd07890baULL},
      {other, int64Bytes(~std::uint64_t{0}), 0x5e1621cce30eae34ULL},
      {other, int64Bytes((std::uint64_t{1} << 53) - 1), 0xe32c583ccb02f2baULL},
      {other, counting, 0xda985d5066f9204aULL},
      {other, text("https://example.com/a/b?c=d"), 0xe1418eda277ac0b6ULL},
  };
  for (const Vector& v : vectors) {
    EXPECT_EQ(keyedItemHash(v.item.data(), v.item.size(), v.seed), v.hash)
        << "seed " << v.seed << ", " << v.item.size() << " bytes";
  }
}

CuckooFilter keyedFilter(std::uint64_t bucketCount, bool keyed, bool semiSort = false) {
  FilterParams params;
  params.fingerprintBits = semiSort ? 13 : 12;
  params.bucketCount = bucketCount;
  params.seed = 0;
  params.semiSort = semiSort;
  params.keyedHash = keyed;
  return testing::createdFilter<CuckooFilter>(params);
}

// The same vectors' locations, from the same separate program: hash id 4
// (m = 2^16, XOR) and hash id 5 (m = 1000, reflection), f = 12, seed 0.
TEST(KeyedHash, FiltersLocateItemsByTheKeyedHash) {
  struct Located {
    std::string item;
    std::uint32_t fingerprint, i1, i2, j1, j2;
  };
  const Located expected[] = {{"a", 1741, 46129, 22584, 224, 386},
                              {"hello world", 3889, 5964, 17766, 408, 714},
                              {"cuckoo", 2877, 9270, 24030, 951, 312}};
  const CuckooFilter xorKeyed = keyedFilter(1 << 16, true);
  const CuckooFilter rangeKeyed = keyedFilter(1000, true);
  EXPECT_EQ(xorKeyed.hashId(), kHashIdSipHash13V1);
  EXPECT_EQ(rangeKeyed.hashId(), kHashIdSipHash13RangeV1);
  EXPECT_STREQ(xorKeyed.kernelName(), "generic");
  for (const Located& e : expected) {
    const ItemLocation x = xorKeyed.locate(e.item.data(), e.item.size());
    EXPECT_EQ((std::vector<std::uint32_t>{x.fingerprint, x.primaryBucket, x.alternateBucket}),
              (std::vector<std::uint32_t>{e.fingerprint, e.i1, e.i2}))
        << e.item;
    const ItemLocation r = rangeKeyed.locate(e.item.data(), e.item.size());
    EXPECT_EQ((std::vector<std::uint32_t>{r.fingerprint, r.primaryBucket, r.alternateBucket}),
              (std::vector<std::uint32_t>{e.fingerprint, e.j1, e.j2}))
        << e.item;
  }
}

TEST(KeyedHash, KeyedFiltersWorkRoundTripAsVersion4AndMergeOnlyWithKeyedOnes) {
  for (const std::uint64_t m : {std::uint64_t{1024}, std::uint64_t{1000}}) {
    for (const bool semiSort : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "m=" << m << (semiSort ? " semi-sorted" : ""));
      CuckooFilter filter = keyedFilter(m, true, semiSort);
      const std::vector<std::uint64_t> stored = testing::fillToFirstFailure(filter, 0);
      EXPECT_GT(stored.size(), m * 4 * 9 / 10);
      for (const std::uint64_t key : stored) ASSERT_TRUE(testing::containsKey(filter, key));
      const std::vector<unsigned char> bytes = testing::bytesOf(filter);
      EXPECT_EQ(bytes[4], 4U) << "format version";
      EXPECT_EQ(bytes[6], m == 1024 ? 4U : 5U) << "hash id";
      CuckooFilter loaded;
      ASSERT_EQ(CuckooFilter::deserialize(bytes.data(), bytes.size(), loaded), Status::kOk);
      EXPECT_TRUE(loaded.params().keyedHash);
      EXPECT_EQ(testing::bytesOf(loaded), bytes);
      for (const std::uint64_t key : stored) ASSERT_TRUE(testing::containsKey(loaded, key));
      // A version 4 header must name the hash id its bucket count has, and
      // versions 1 and 2 may not name a keyed one.
      std::vector<unsigned char> wrong = bytes;
      wrong[6] = m == 1024 ? 5 : 4;
      EXPECT_EQ(CuckooFilter::checkSerializedHeader(wrong.data(), wrong.size()), Status::kFormatBadParameters);
      CuckooFilter plain = keyedFilter(m, false, semiSort);
      EXPECT_EQ(plain.merge(filter), Status::kMergeHashDiffers);
      CuckooFilter keyedToo = keyedFilter(m, true, semiSort);
      EXPECT_EQ(keyedToo.merge(loaded), Status::kOk);
      EXPECT_EQ(testing::bytesOf(keyedToo).size(), bytes.size());
    }
  }
  // The item hash really differs from XXH3's: the same seed places items elsewhere.
  CuckooFilter keyed = keyedFilter(1 << 16, true);
  CuckooFilter plain = keyedFilter(1 << 16, false);
  unsigned same = 0;
  for (std::uint64_t key = 0; key < 1000; ++key) same += keyed.itemHash(&key, 8) == plain.itemHash(&key, 8) ? 1 : 0;
  EXPECT_EQ(same, 0U);
}

}  // namespace
}  // namespace cuckoo::detail
