// What deserialize says about every input it refuses, one status per check of
// FORMAT.md, and that a refused input leaves the destination filter as it was.

#include <algorithm>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "byte_format.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

using namespace testing;  // the shared helpers of test_support.hpp and byte_format.hpp

// A valid buffer to corrupt, and a filter that failed deserializations must
// leave exactly as it was.
class SerializationStatus : public ::testing::Test {
 protected:
  void SetUp() override {
    source_ = makeFilter(12, 4, 16, /*seed=*/7);
    for (std::uint64_t k = 0; k < 40; ++k) ASSERT_TRUE(insertKey(source_, k));
    valid_ = serialized(source_);
    ASSERT_EQ(valid_.size(), kHeaderBytes + 96 + kChecksumBytes);

    fullSource_ = makeFilter(12, 4, 16, /*seed=*/8, /*maxKicks=*/50);
    fillToFirstFailure(fullSource_, 1000);
    ASSERT_TRUE(fullSource_.isFull());
    validWithStash_ = serialized(fullSource_);

    resetTarget();
  }

  void resetTarget() {
    target_ = makeFilter(8, 2, 32, /*seed=*/3);
    for (std::uint64_t k = 500; k < 530; ++k) ASSERT_TRUE(insertKey(target_, k));
    targetBefore_ = snapshot(target_);
  }

  // The status of deserializing `bytes` over target_; on failure, also checks
  // that target_ is untouched and still answers as before.
  Status statusOf(const Bytes& bytes) {
    const Status status = deserializeInto(bytes, target_);
    if (status == Status::kOk) {
      resetTarget();
      return status;
    }
    EXPECT_TRUE(snapshot(target_) == targetBefore_);
    EXPECT_EQ(target_.params().bucketCount, 32U);
    for (std::uint64_t k = 500; k < 530; ++k) EXPECT_TRUE(containsKey(target_, k));
    return status;
  }

  static Bytes withField(Bytes bytes, std::size_t at, std::uint64_t value, unsigned width) {
    writeField(bytes, at, value, width);
    return bytes;
  }
  static Bytes resealed(Bytes bytes) {
    reseal(bytes);
    return bytes;
  }

  CuckooFilter source_;
  CuckooFilter fullSource_;
  Bytes valid_;
  Bytes validWithStash_;
  CuckooFilter target_;
  testing::Snapshot targetBefore_;
};

TEST_F(SerializationStatus, ValidBuffersLoad) {
  EXPECT_EQ(statusOf(valid_), Status::kOk);
  EXPECT_EQ(statusOf(validWithStash_), Status::kOk);
}

TEST_F(SerializationStatus, MagicAndShortInputs) {
  EXPECT_EQ(statusOf(Bytes{}), Status::kFormatTruncated);
  EXPECT_EQ(statusOf(Bytes{'C'}), Status::kFormatTruncated);
  EXPECT_EQ(statusOf(Bytes{'C', 'K', 'F'}), Status::kFormatTruncated);
  EXPECT_EQ(statusOf(Bytes{'X'}), Status::kFormatBadMagic);
  EXPECT_EQ(statusOf(Bytes{'C', 'x'}), Status::kFormatBadMagic);
  EXPECT_EQ(statusOf(Bytes{'C', 'K', 'F', 'w'}), Status::kFormatBadMagic);
  EXPECT_EQ(statusOf(Bytes{'C', 'K', 'F', 'W'}), Status::kFormatTruncated);
  EXPECT_EQ(statusOf(Bytes{'{', '"', 'a', '"', ':'}), Status::kFormatBadMagic);
  for (std::size_t i = 0; i < 4; ++i) {
    Bytes bytes = valid_;
    bytes[i] ^= 0x20;
    EXPECT_EQ(statusOf(bytes), Status::kFormatBadMagic) << i;
  }
}

TEST_F(SerializationStatus, Version) {
  EXPECT_EQ(statusOf(Bytes{'C', 'K', 'F', 'W', 2}), Status::kFormatUnsupportedVersion);
  EXPECT_EQ(statusOf(Bytes{'C', 'K', 'F', 'W', 1}), Status::kFormatTruncated);
  for (unsigned version : {0U, 2U, 255U}) {
    EXPECT_EQ(statusOf(withField(valid_, kVersionAt, version, 1)), Status::kFormatUnsupportedVersion) << version;
  }
}

TEST_F(SerializationStatus, TruncationAtEveryLength) {
  for (const Bytes* whole : {&valid_, &validWithStash_}) {
    for (std::size_t length = 0; length < whole->size(); ++length) {
      // An exact-size copy, so that reading past it trips AddressSanitizer.
      const Bytes prefix(whole->begin(), whole->begin() + static_cast<std::ptrdiff_t>(length));
      ASSERT_EQ(statusOf(prefix), Status::kFormatTruncated) << "length " << length;
    }
  }
}

// The header-only check that lets a caller refuse an input before copying it
// must agree with deserialize on everything the header decides.
TEST_F(SerializationStatus, HeaderCheckAgreesWithDeserializeWithoutTheRest) {
  const auto headerStatus = [](const Bytes& bytes, std::size_t totalLength) {
    // Exactly the bytes the check may read, so that ASan catches any read beyond.
    const std::size_t available = std::min(totalLength, CuckooFilter::kSerializedHeaderBytes);
    const Bytes header(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(std::min(available, bytes.size())));
    return CuckooFilter::checkSerializedHeader(header.data(), totalLength);
  };
  EXPECT_EQ(headerStatus(valid_, valid_.size()), Status::kOk);
  for (std::size_t length = 0; length < valid_.size(); ++length) {
    const Bytes prefix(valid_.begin(), valid_.begin() + static_cast<std::ptrdiff_t>(length));
    ASSERT_EQ(headerStatus(prefix, length), statusOf(prefix)) << "length " << length;
  }
  EXPECT_EQ(headerStatus(valid_, valid_.size() + 1), Status::kFormatInconsistent);
  EXPECT_EQ(headerStatus(withField(valid_, 0, 'X', 1), valid_.size()), Status::kFormatBadMagic);
  EXPECT_EQ(headerStatus(withField(valid_, kVersionAt, 9, 1), valid_.size()), Status::kFormatUnsupportedVersion);
  EXPECT_EQ(headerStatus(withField(valid_, kBucketSizeAt, 3, 1), valid_.size()), Status::kFormatBadParameters);
  // A 2 GiB input of zeros is judged by its first bytes alone.
  const Bytes zeros(CuckooFilter::kSerializedHeaderBytes, 0);
  EXPECT_EQ(CuckooFilter::checkSerializedHeader(zeros.data(), std::size_t{1} << 31), Status::kFormatBadMagic);
  // Checksum and contents are beyond the header: it lets them through.
  Bytes flipped = valid_;
  flipped[kHeaderBytes + 3] ^= 1;
  EXPECT_EQ(headerStatus(flipped, flipped.size()), Status::kOk);
  EXPECT_EQ(statusOf(flipped), Status::kFormatChecksumMismatch);
}

TEST_F(SerializationStatus, TrailingByte) {
  Bytes bytes = valid_;
  bytes.push_back(0);
  EXPECT_EQ(statusOf(bytes), Status::kFormatInconsistent);
}

TEST_F(SerializationStatus, EachParameterField) {
  const auto bad = Status::kFormatBadParameters;
  EXPECT_EQ(statusOf(withField(valid_, kFlagsAt, kSemiSortedFlag, 1)), bad);
  EXPECT_EQ(statusOf(withField(validWithStash_, kFlagsAt, kSemiSortedFlag | kStashFlag, 1)), bad);
  for (unsigned bit = 2; bit < 8; ++bit) {
    EXPECT_EQ(statusOf(withField(valid_, kFlagsAt, 1U << bit, 1)), bad) << "flag bit " << bit;
  }
  for (unsigned id : {0U, 2U, 255U}) EXPECT_EQ(statusOf(withField(valid_, kHashIdAt, id, 1)), bad) << id;
  // 13 and 16 are valid widths, but not for this payload length.
  for (unsigned f : {0U, 1U, 13U, 16U, 33U, 255U}) {
    EXPECT_EQ(statusOf(withField(valid_, kFingerprintBitsAt, f, 1)), bad) << "f=" << f;
  }
  for (unsigned b : {0U, 3U, 2U, 8U, 16U, 255U}) {
    EXPECT_EQ(statusOf(withField(valid_, kBucketSizeAt, b, 1)), bad) << "b=" << b;
  }
  for (unsigned log2m : {3U, 5U, 32U, 33U, 64U, 255U}) {
    EXPECT_EQ(statusOf(withField(valid_, kLog2BucketCountAt, log2m, 1)), bad) << "log2 m=" << log2m;
  }
  EXPECT_EQ(statusOf(withField(valid_, kReservedAt, 1, 1)), bad);
  EXPECT_EQ(statusOf(withField(valid_, kReservedAt + 1, 0x80, 1)), bad);
  EXPECT_EQ(statusOf(withField(valid_, kMaxKicksAt, kMaxKicksLimit + 1, 4)), bad);
  EXPECT_EQ(statusOf(withField(valid_, kMaxKicksAt, 0xFFFFFFFFU, 4)), bad);
  for (std::uint64_t length : {std::uint64_t{0}, std::uint64_t{95}, std::uint64_t{97}, std::uint64_t{96} + 7,
                               std::uint64_t{1} << 63, ~std::uint64_t{0}}) {
    EXPECT_EQ(statusOf(withField(valid_, kPayloadLengthAt, length, 8)), bad) << "payload length " << length;
  }
  // The limits themselves are fine.
  EXPECT_EQ(statusOf(resealed(withField(valid_, kMaxKicksAt, kMaxKicksLimit, 4))), Status::kOk);
  EXPECT_EQ(statusOf(resealed(withField(valid_, kMaxKicksAt, 0, 4))), Status::kOk);
}

TEST_F(SerializationStatus, LargestShapeIsJudgedBeforeAnyAllocation) {
  // A bare header claiming f=32, b=8, m=2^32 (a 128 GiB table).
  Bytes header(valid_.begin(), valid_.begin() + kHeaderBytes);
  header[kFingerprintBitsAt] = 32;
  header[kBucketSizeAt] = 8;
  header[kLog2BucketCountAt] = 32;
  writeField(header, kPayloadLengthAt, std::uint64_t{1} << 37, 8);
  header.resize(kHeaderBytes + kChecksumBytes);
  const bool fitsThisBuild = PackedTable::bytesFor(32, 8, std::uint64_t{1} << 32) != 0;
  EXPECT_EQ(statusOf(header), fitsThisBuild ? Status::kFormatTruncated : Status::kTableTooLarge);
}

TEST_F(SerializationStatus, Checksum) {
  const std::size_t payloadStart = kHeaderBytes;
  for (std::size_t at : {payloadStart, payloadStart + 50, valid_.size() - kChecksumBytes - 1}) {
    for (unsigned bit = 0; bit < 8; bit += 3) {
      Bytes bytes = valid_;
      bytes[at] ^= static_cast<unsigned char>(1U << bit);
      EXPECT_EQ(statusOf(bytes), Status::kFormatChecksumMismatch) << at << ":" << bit;
    }
  }
  // Fields no other check covers.
  EXPECT_EQ(statusOf(withField(valid_, kSeedAt, 8, 8)), Status::kFormatChecksumMismatch);
  EXPECT_EQ(statusOf(withField(valid_, kPrngStateAt, 1, 8)), Status::kFormatChecksumMismatch);
  EXPECT_EQ(statusOf(withField(valid_, kItemCountAt, 41, 8)), Status::kFormatChecksumMismatch);
  for (std::size_t at = valid_.size() - kChecksumBytes; at < valid_.size(); ++at) {
    Bytes bytes = valid_;
    bytes[at] ^= 0x01;
    EXPECT_EQ(statusOf(bytes), Status::kFormatChecksumMismatch) << at;
  }
}

TEST_F(SerializationStatus, ItemCountMustMatchTheContents) {
  const std::uint64_t count = readField(valid_, kItemCountAt, 8);
  ASSERT_EQ(count, 40U);
  for (std::uint64_t wrong : {count - 1, count + 1, std::uint64_t{0}, ~std::uint64_t{0}}) {
    EXPECT_EQ(statusOf(resealed(withField(valid_, kItemCountAt, wrong, 8))), Status::kFormatInconsistent) << wrong;
  }
  // An entry the count does not know about, then the same entry counted.
  Bytes bytes = valid_;
  std::size_t emptyByte = kHeaderBytes;
  while (bytes.at(emptyByte) != 0) ++emptyByte;
  bytes.at(emptyByte) = 0x10;
  EXPECT_EQ(statusOf(resealed(bytes)), Status::kFormatInconsistent);
  EXPECT_EQ(statusOf(resealed(withField(bytes, kItemCountAt, count + 1, 8))), Status::kOk);
}

TEST_F(SerializationStatus, StashFieldsMustAgreeWithTheStashFlag) {
  const auto inconsistent = Status::kFormatInconsistent;
  // Flag off: fingerprint and bucket must be 0.
  EXPECT_EQ(statusOf(resealed(withField(valid_, kStashFingerprintAt, 5, 4))), inconsistent);
  EXPECT_EQ(statusOf(resealed(withField(valid_, kStashBucketAt, 3, 4))), inconsistent);
  // Flag on without a fingerprint.
  EXPECT_EQ(statusOf(resealed(withField(valid_, kFlagsAt, kStashFlag, 1))), inconsistent);

  const std::uint64_t fullCount = readField(validWithStash_, kItemCountAt, 8);
  // Flag cleared on a stashed filter: the stash fields are left over, and the count is one too high.
  EXPECT_EQ(statusOf(resealed(withField(validWithStash_, kFlagsAt, 0, 1))), inconsistent);
  Bytes dropped = withField(validWithStash_, kFlagsAt, 0, 1);
  writeField(dropped, kStashFingerprintAt, 0, 4);
  writeField(dropped, kStashBucketAt, 0, 4);
  EXPECT_EQ(statusOf(resealed(dropped)), inconsistent);
  writeField(dropped, kItemCountAt, fullCount - 1, 8);
  EXPECT_EQ(statusOf(resealed(dropped)), Status::kOk);

  // Flag on: fingerprint in [1, 2^12 - 1], bucket below m = 16.
  EXPECT_EQ(statusOf(resealed(withField(validWithStash_, kStashFingerprintAt, 0, 4))), inconsistent);
  EXPECT_EQ(statusOf(resealed(withField(validWithStash_, kStashFingerprintAt, 4096, 4))), inconsistent);
  EXPECT_EQ(statusOf(resealed(withField(validWithStash_, kStashFingerprintAt, 0xFFFFFFFFU, 4))), inconsistent);
  EXPECT_EQ(statusOf(resealed(withField(validWithStash_, kStashBucketAt, 16, 4))), inconsistent);
  EXPECT_EQ(statusOf(resealed(withField(validWithStash_, kStashFingerprintAt, 4095, 4))), Status::kOk);
  EXPECT_EQ(statusOf(resealed(withField(validWithStash_, kStashBucketAt, 15, 4))), Status::kOk);
}

TEST_F(SerializationStatus, UnusedBitsOfTheLastPayloadByteMustBeZero) {
  // f=13, b=2, m=1: 26 bits in 4 bytes, so the top 6 bits of byte 3 are unused.
  // f=7, b=1, m=1: 7 bits in 1 byte, so the top bit is unused.
  struct Shape {
    unsigned f, b;
    unsigned usedBitsOfLastByte;
  };
  for (const Shape shape : {Shape{13, 2, 2}, Shape{7, 1, 7}}) {
    CuckooFilter filter = makeFilter(shape.f, shape.b, 1, /*seed=*/11);
    for (std::uint64_t k = 0; filter.itemCount() < shape.b; ++k) ASSERT_TRUE(insertKey(filter, k));
    const Bytes bytes = serialized(filter);
    const std::size_t lastPayloadByte = bytes.size() - kChecksumBytes - 1;
    for (unsigned bit = shape.usedBitsOfLastByte; bit < 8; ++bit) {
      Bytes padded = bytes;
      padded[lastPayloadByte] |= static_cast<unsigned char>(1U << bit);
      EXPECT_EQ(statusOf(resealed(padded)), Status::kFormatInconsistent) << "f=" << shape.f << " bit " << bit;
    }
  }
}

TEST_F(SerializationStatus, CorruptionNeverCrashes) {
  // Every single-byte value at every offset, with and without a valid checksum;
  // AddressSanitizer and UBSan watch the reads.
  for (const Bytes* whole : {&valid_, &validWithStash_}) {
    for (std::size_t at = 0; at < whole->size(); ++at) {
      for (unsigned value = 0; value < 256; value += 17) {
        Bytes bytes = *whole;
        bytes[at] = static_cast<unsigned char>(value);
        statusOf(bytes);
        if (at < whole->size() - kChecksumBytes) {
          reseal(bytes);
          EXPECT_NE(statusOf(bytes), Status::kFormatChecksumMismatch);
        }
      }
    }
  }
}

TEST(SerializationSemiSorted, RejectsBadShapesRanksAndUnsortedBuckets) {
  CuckooFilter filter = makeFilter(9, 4, 8, 3, 500, /*semiSort=*/true);
  for (std::uint64_t key = 0; key < 12; ++key) ASSERT_TRUE(insertKey(filter, key));
  const Bytes valid = serialized(filter);
  CuckooFilter untouched = makeFilter(12, 4, 8);
  // Semi-sorting with b = 2 is not a shape create() accepts, so neither does load.
  Bytes wrongBucketSize = valid;
  writeField(wrongBucketSize, kBucketSizeAt, 2, 1);
  EXPECT_EQ(deserializeInto(wrongBucketSize, untouched), Status::kFormatBadParameters);

  // Bucket 0 starts the payload: its first 12 bits are the nibble rank. 3,876
  // and above name no multiset; behind a valid checksum that is inconsistent.
  for (std::uint64_t rank : {std::uint64_t{3876}, std::uint64_t{4095}}) {
    Bytes badRank = valid;
    const std::uint64_t word = readField(badRank, kHeaderBytes, 2);
    writeField(badRank, kHeaderBytes, (word & ~std::uint64_t{0xFFF}) | rank, 2);
    reseal(badRank);
    EXPECT_EQ(deserializeInto(badRank, untouched), Status::kFormatInconsistent) << rank;
  }
  // A bucket holding one fingerprint stores it last, since empty entries (0)
  // sort first. Setting entry 0's lowest bit (bit 12, right after the rank)
  // makes the bucket read 1, 0, 0, 0: not the order encoding produces.
  CuckooFilter sparse = makeFilter(9, 4, 8, 3, 500, /*semiSort=*/true);
  Bytes unsorted = serialized(sparse);
  writeField(unsorted, kHeaderBytes + 1, 0x10, 1);
  writeField(unsorted, kItemCountAt, 1, 8);
  reseal(unsorted);
  EXPECT_EQ(deserializeInto(unsorted, untouched), Status::kFormatInconsistent);
  // The same fingerprint in the last entry is the canonical form, and loads.
  Bytes sorted = serialized(sparse);
  // Entry 3's low bits start at 12 + 3 * 5 = 27: byte 3, bit 3.
  writeField(sorted, kHeaderBytes + 3, 0x08, 1);
  writeField(sorted, kItemCountAt, 1, 8);
  reseal(sorted);
  EXPECT_EQ(deserializeInto(sorted, untouched), Status::kOk);
  EXPECT_EQ(untouched.slotValue(0, 3), 1U);
}

}  // namespace
}  // namespace cuckoo
