// The byte format of FORMAT.md: deserialize(serialize(x)) is x for every shape,
// plain and semi-sorted, and each field is where FORMAT.md puts it.
// (What deserialize refuses: test_serialization_status.cpp.)

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "byte_format.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

using namespace testing;  // the shared helpers of test_support.hpp and byte_format.hpp

// Runs the same operations on two equal filters, which must agree on every
// result. Only keys that were stored get erased, as the filter requires.
void applySameOperations(CuckooFilter& a, CuckooFilter& b, std::uint64_t oldKeyCount, std::uint64_t firstNewKey) {
  std::vector<std::uint64_t> stored;
  std::uint64_t key = firstNewKey;
  for (int i = 0; i < 300; ++i, ++key) {
    const bool inserted = insertKey(a, key);
    ASSERT_EQ(inserted, insertKey(b, key));
    if (inserted) stored.push_back(key);
  }
  for (std::size_t i = 0; i < stored.size(); i += 3) ASSERT_EQ(eraseKey(a, stored[i]), eraseKey(b, stored[i]));
  // Freeing room in a full filter re-walks the stashed fingerprint, drawing from the PRNG.
  for (std::uint64_t k = 0; k < oldKeyCount; k += 2) ASSERT_EQ(eraseKey(a, k), eraseKey(b, k));
  for (int i = 0; i < 300; ++i, ++key) ASSERT_EQ(insertKey(a, key), insertKey(b, key));
}

// deserialize(serialize(x)) is x: same bytes, same answers, and the same
// future, since the eviction PRNG's state travels with the table.
void expectRoundTrip(CuckooFilter& original, std::uint64_t keysInserted) {
  const Bytes bytes = serialized(original);
  CuckooFilter restored;
  ASSERT_EQ(deserializeInto(bytes, restored), Status::kOk);
  ASSERT_EQ(serialized(restored), bytes);
  ASSERT_TRUE(snapshot(restored) == snapshot(original));
  EXPECT_EQ(restored.params().fingerprintBits, original.params().fingerprintBits);
  EXPECT_EQ(restored.params().bucketSize, original.params().bucketSize);
  EXPECT_EQ(restored.params().bucketCount, original.params().bucketCount);
  EXPECT_EQ(restored.params().maxKicks, original.params().maxKicks);
  EXPECT_EQ(restored.params().seed, original.params().seed);
  EXPECT_EQ(restored.bucketIndex().hashId(), original.bucketIndex().hashId());
  for (std::uint64_t key = 0; key < keysInserted + 500; ++key) {
    ASSERT_EQ(containsKey(restored, key), containsKey(original, key)) << key;
    ASSERT_EQ(countKey(restored, key), countKey(original, key)) << key;
  }
  ASSERT_NO_FATAL_FAILURE(applySameOperations(original, restored, keysInserted, std::uint64_t{1} << 40));
  ASSERT_EQ(serialized(restored), serialized(original));
}

enum class Fill { kEmpty, kHalf, kUntilStashOccupied };

TEST(SerializationRoundTrip, EveryShapeEmptyHalfFullAndWithOccupiedStash) {
  for (unsigned b : {1U, 2U, 4U, 8U}) {
    for (unsigned f : {2U, 7U, 8U, 12U, 13U, 16U, 31U, 32U}) {
      for (std::uint64_t m : {std::uint64_t{1}, std::uint64_t{8}, std::uint64_t{256}}) {
        for (Fill fill : {Fill::kEmpty, Fill::kHalf, Fill::kUntilStashOccupied}) {
          SCOPED_TRACE("f=" + std::to_string(f) + " b=" + std::to_string(b) + " m=" + std::to_string(m) +
                       " fill=" + std::to_string(static_cast<int>(fill)));
          CuckooFilter filter = makeFilter(f, b, m, /*seed=*/f * 1000 + b * 10 + m, /*maxKicks=*/100);
          std::uint64_t inserted = 0;
          if (fill == Fill::kHalf) {
            // b = 1 with 2-bit fingerprints can fail below half load; stopping there is fine.
            while (inserted < m * b / 2 && insertKey(filter, inserted)) ++inserted;
          } else if (fill == Fill::kUntilStashOccupied) {
            inserted = fillToFirstFailure(filter, 0).size();
            ASSERT_TRUE(filter.stash().occupied);
          }
          ASSERT_NO_FATAL_FAILURE(expectRoundTrip(filter, inserted));
        }
      }
    }
  }
}

TEST(SerializationRoundTrip, RestoredFilterFollowsTheOriginalOperationForOperation) {
  CuckooFilter original = makeFilter(12, 4, 512, /*seed=*/0x5eed);
  const std::uint64_t stored = fillToFirstFailure(original, 0).size();
  ASSERT_TRUE(original.stash().occupied);
  for (std::uint64_t k = 0; k < stored; k += 5) ASSERT_TRUE(eraseKey(original, k));

  CuckooFilter restored;
  ASSERT_EQ(deserializeInto(serialized(original), restored), Status::kOk);
  // One operation at a time, comparing whole states after each one.
  std::uint64_t next = stored + 1;
  for (int round = 0; round < 400; ++round) {
    switch (round % 4) {
      case 0:
      case 1:
        ASSERT_EQ(insertKey(original, next), insertKey(restored, next));
        ++next;
        break;
      case 2: {
        const std::uint64_t victim = 1 + 7 * static_cast<std::uint64_t>(round);
        if (victim % 5 != 0 && victim < stored) {
          ASSERT_EQ(eraseKey(original, victim), eraseKey(restored, victim));
        }
        break;
      }
      default:
        ASSERT_EQ(original.insertUnique(&next, sizeof next), restored.insertUnique(&next, sizeof next));
        ++next;
        break;
    }
    ASSERT_TRUE(snapshot(original) == snapshot(restored)) << "round " << round;
  }
  ASSERT_EQ(serialized(original), serialized(restored));
  original.clear();
  restored.clear();
  ASSERT_EQ(serialized(original), serialized(restored));
}

TEST(SerializationSemiSorted, RoundTripsEmptyHalfAndFullWithStash) {
  for (unsigned f : {5U, 9U, 13U, 16U, 32U}) {
    for (Fill fill : {Fill::kEmpty, Fill::kHalf, Fill::kUntilStashOccupied}) {
      SCOPED_TRACE("f=" + std::to_string(f) + " fill=" + std::to_string(static_cast<int>(fill)));
      CuckooFilter filter = makeFilter(f, 4, 64, f * 7, 100, /*semiSort=*/true);
      std::uint64_t inserted = 0;
      if (fill == Fill::kHalf) {
        while (inserted < 128 && insertKey(filter, inserted)) ++inserted;
      } else if (fill == Fill::kUntilStashOccupied) {
        inserted = fillToFirstFailure(filter, 0).size();
      }
      const Bytes bytes = serialized(filter);
      EXPECT_EQ(readField(bytes, kFlagsAt, 1) & kSemiSortedFlag, kSemiSortedFlag);
      // 64 buckets of 4f - 4 bits.
      EXPECT_EQ(readField(bytes, kPayloadLengthAt, 8), (64 * (4 * f - 4) + 7) / 8);
      ASSERT_NO_FATAL_FAILURE(expectRoundTrip(filter, inserted));
      CuckooFilter restored;
      ASSERT_EQ(deserializeInto(bytes, restored), Status::kOk);
      EXPECT_TRUE(restored.semiSorted());
    }
  }
}

TEST(SerializationLayout, FieldsAreWhereFormatMdSaysTheyAre) {
  CuckooFilter filter = makeFilter(13, 2, 64, /*seed=*/0x0123456789abcdefULL, /*maxKicks=*/77);
  fillToFirstFailure(filter, 100);
  ASSERT_TRUE(filter.stash().occupied);
  const Bytes bytes = serialized(filter);

  const std::size_t payloadBytes = (64 * 2 * 13 + 7) / 8;
  ASSERT_EQ(bytes.size(), kHeaderBytes + payloadBytes + kChecksumBytes);
  EXPECT_EQ(filter.serializedSize(), bytes.size());
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "CKFW");
  EXPECT_EQ(bytes[kVersionAt], 1);
  EXPECT_EQ(bytes[kFlagsAt], kStashFlag);
  EXPECT_EQ(bytes[kHashIdAt], 1);
  EXPECT_EQ(bytes[kFingerprintBitsAt], 13);
  EXPECT_EQ(bytes[kBucketSizeAt], 2);
  EXPECT_EQ(bytes[kLog2BucketCountAt], 6);
  EXPECT_EQ(readField(bytes, kReservedAt, 2), 0U);
  EXPECT_EQ(readField(bytes, kMaxKicksAt, 4), 77U);
  EXPECT_EQ(readField(bytes, kSeedAt, 8), 0x0123456789abcdefULL);
  EXPECT_EQ(readField(bytes, kPrngStateAt, 8), filter.prngState());
  EXPECT_EQ(readField(bytes, kItemCountAt, 8), filter.itemCount());
  EXPECT_EQ(readField(bytes, kStashFingerprintAt, 4), filter.stash().fingerprint);
  EXPECT_EQ(readField(bytes, kStashBucketAt, 4), filter.stash().bucket);
  EXPECT_EQ(readField(bytes, kPayloadLengthAt, 8), payloadBytes);
  EXPECT_EQ(0, std::memcmp(bytes.data() + kHeaderBytes, filter.tableData(), payloadBytes));
  EXPECT_EQ(readField(bytes, kHeaderBytes + payloadBytes, 8), independentChecksum(bytes, kHeaderBytes + payloadBytes));

  // The PRNG field is the raw SplitMix64 state: seed XOR the offset before any draw.
  const Bytes fresh = serialized(makeFilter(12, 4, 16, /*seed=*/42));
  EXPECT_EQ(readField(fresh, kPrngStateAt, 8), 42U ^ 0x6a09e667f3bcc909ULL);
  EXPECT_EQ(fresh[kFlagsAt], 0);
  EXPECT_EQ(readField(fresh, kStashFingerprintAt, 8), 0U);
}

}  // namespace
}  // namespace cuckoo
