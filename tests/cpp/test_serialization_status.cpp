// What deserialize says about every input it refuses, one status per check of
// FORMAT.md, and that a refused input leaves the destination filter as it was.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "byte_format.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/packed_table.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

using namespace testing;  // the shared helpers of test_support.hpp and byte_format.hpp

// ------------------------------------------------------------------ inputs

constexpr std::uint64_t kPlainItems = 40;
constexpr std::size_t kPlainPayloadBytes = 96;  // 16 buckets of 4 x 12 bits

// f = 12, b = 4 and m buckets holding keys 0 .. items - 1, serialized in
// headerBytes + payloadBytes + the checksum.
Bytes filledInput(std::uint64_t bucketCount, std::uint64_t seed, std::uint64_t items, std::size_t headerBytes,
                  std::size_t payloadBytes) {
  CuckooFilter filter = makeFilter(12, 4, bucketCount, seed);
  for (std::uint64_t k = 0; k < items; ++k) EXPECT_TRUE(insertKey(filter, k));
  const Bytes bytes = serialized(filter);
  EXPECT_EQ(bytes.size(), headerBytes + payloadBytes + kChecksumBytes);
  EXPECT_EQ(readField(bytes, kItemCountAt, 8), items);
  return bytes;
}

// f = 12, b = 4, m = 16 holding 40 items, the stash empty.
Bytes plainInput() { return filledInput(16, /*seed=*/7, kPlainItems, kHeaderBytes, kPlainPayloadBytes); }

constexpr std::uint64_t kAnyCountItems = 30;
constexpr std::size_t kAnyCountPayloadBytes = 72;  // 12 buckets of 4 x 12 bits

// Version 2: f = 12, b = 4, m = 12 (not a power of two: hash id 2) holding 30 items.
Bytes anyCountInput() {
  const Bytes bytes = filledInput(12, /*seed=*/9, kAnyCountItems, kHeaderBytesV2, kAnyCountPayloadBytes);
  EXPECT_EQ(readField(bytes, kVersionAt, 1), 2U);
  EXPECT_EQ(readField(bytes, kHashIdAt, 1), 2U);
  EXPECT_EQ(readField(bytes, kBucketCountV2At, 8), 12U);
  return bytes;
}

// The same shape filled until a fingerprint waits in the stash.
Bytes stashedInput() {
  CuckooFilter filter = makeFilter(12, 4, 16, /*seed=*/8, /*maxKicks=*/50);
  fillToFirstFailure(filter, 1000);
  EXPECT_TRUE(filter.stash().occupied);
  return serialized(filter);
}

// f = 9, b = 4, m = 8, semi-sorted, holding 12 items.
Bytes semiSortedInput() {
  CuckooFilter filter = makeFilter(9, 4, 8, /*seed=*/3, /*maxKicks=*/500, /*semiSort=*/true);
  for (std::uint64_t key = 0; key < 12; ++key) EXPECT_TRUE(insertKey(filter, key));
  return serialized(filter);
}

// The same semi-sorted shape, empty.
Bytes emptySemiSortedInput() {
  return serialized(makeFilter(9, 4, 8, /*seed=*/3, /*maxKicks=*/500, /*semiSort=*/true));
}

// A single bucket (m = 1) with every slot used, so that the payload's last
// byte is the last entry's, with its unused high bits.
std::function<Bytes()> fullSingleBucketInput(unsigned fingerprintBits, unsigned bucketSize) {
  return [=] {
    CuckooFilter filter = makeFilter(fingerprintBits, bucketSize, 1, /*seed=*/11);
    for (std::uint64_t k = 0; filter.itemCount() < bucketSize; ++k) EXPECT_TRUE(insertKey(filter, k));
    return serialized(filter);
  };
}

std::function<Bytes()> literal(Bytes bytes) {
  return [=] { return bytes; };
}

// ------------------------------------------------------------------ edits

using Edit = std::function<void(Bytes&)>;

Edit setField(std::size_t at, std::uint64_t value, unsigned width) {
  return [=](Bytes& bytes) { writeField(bytes, at, value, width); };
}

Edit flipBits(std::size_t at, unsigned bits) {
  return [=](Bytes& bytes) { bytes.at(at) ^= static_cast<unsigned char>(bits); };
}

Edit setBitOfLastPayloadByte(unsigned bit) {
  return [=](Bytes& bytes) { bytes.at(bytes.size() - kChecksumBytes - 1) |= static_cast<unsigned char>(1U << bit); };
}

// Writes 0x10 into the first all-zero payload byte: one entry more than the item count says.
void addUncountedEntry(Bytes& bytes) {
  std::size_t at = kHeaderBytes;
  while (bytes.at(at) != 0) ++at;
  bytes.at(at) = 0x10;
}

void countOneItemLess(Bytes& bytes) { writeField(bytes, kItemCountAt, readField(bytes, kItemCountAt, 8) - 1, 8); }

// The stash flag and both stash fields set to 0; the item count still includes the stashed fingerprint.
void clearTheStash(Bytes& bytes) {
  writeField(bytes, kFlagsAt, 0, 1);
  writeField(bytes, kStashFingerprintAt, 0, 4);
  writeField(bytes, kStashBucketAt, 0, 4);
}

// Bucket 0 starts a semi-sorted payload: its first 12 bits are the nibble rank.
Edit setFirstRank(std::uint64_t rank) {
  return [=](Bytes& bytes) {
    const std::uint64_t word = readField(bytes, kHeaderBytes, 2);
    writeField(bytes, kHeaderBytes, (word & ~std::uint64_t{0xFFF}) | rank, 2);
  };
}

// A bare header (and an all-zero checksum) where a payload should follow.
void dropThePayload(Bytes& bytes) {
  bytes.resize(kHeaderBytes);
  bytes.resize(kHeaderBytes + kChecksumBytes);
}

void appendAByte(Bytes& bytes) { bytes.push_back(0); }

Bytes edited(Bytes bytes, const std::vector<Edit>& edits) {
  for (const Edit& edit : edits) edit(bytes);
  return bytes;
}

// ------------------------------------------------------------------ the table

struct Corruption {
  std::string name;
  std::function<Bytes()> input;
  std::vector<Edit> edits;
  Status expected;
};

// Names the row in test listings instead of dumping its bytes.
void PrintTo(const Corruption& corruption, std::ostream* out) { *out << corruption.name; }

// The rows follow the steps of FORMAT.md's "Checks on load".
std::vector<Corruption> corruptions() {
  const Status truncated = Status::kFormatTruncated;
  const Status badMagic = Status::kFormatBadMagic;
  const Status badVersion = Status::kFormatUnsupportedVersion;
  const Status bad = Status::kFormatBadParameters;
  const Status checksum = Status::kFormatChecksumMismatch;
  const Status inconsistent = Status::kFormatInconsistent;
  const Status ok = Status::kOk;
  std::vector<Corruption> rows;
  const auto add = [&rows](std::string name, std::function<Bytes()> input, std::vector<Edit> edits, Status expected) {
    rows.push_back({std::move(name), std::move(input), std::move(edits), expected});
  };

  add("PlainInputLoads", plainInput, {}, ok);
  add("StashedInputLoads", stashedInput, {}, ok);
  add("AnyCountInputLoads", anyCountInput, {}, ok);

  // Step 1: the magic, and inputs too short to hold it.
  add("Empty", literal({}), {}, truncated);
  add("OneByteOfTheMagic", literal({'C'}), {}, truncated);
  add("ThreeBytesOfTheMagic", literal({'C', 'K', 'F'}), {}, truncated);
  add("WrongFirstByte", literal({'X'}), {}, badMagic);
  add("WrongSecondByte", literal({'C', 'x'}), {}, badMagic);
  add("LowercaseFourthByte", literal({'C', 'K', 'F', 'w'}), {}, badMagic);
  add("MagicAlone", literal({'C', 'K', 'F', 'W'}), {}, truncated);
  add("JsonText", literal({'{', '"', 'a', '"', ':'}), {}, badMagic);
  for (std::size_t i = 0; i < 4; ++i) {
    add("MagicByte" + std::to_string(i) + "CaseFlipped", plainInput, {flipBits(i, 0x20)}, badMagic);
  }

  // Step 2: the version, before the length of the rest matters.
  add("MagicAndVersion3Alone", literal({'C', 'K', 'F', 'W', 3}), {}, badVersion);
  add("MagicAndVersion2Alone", literal({'C', 'K', 'F', 'W', 2}), {}, truncated);
  add("MagicAndVersion1Alone", literal({'C', 'K', 'F', 'W', 1}), {}, truncated);
  for (unsigned version : {0U, 3U, 255U}) {
    add("Version" + std::to_string(version), plainInput, {setField(kVersionAt, version, 1)}, badVersion);
    add("Version" + std::to_string(version) + "OfAnyCount", anyCountInput, {setField(kVersionAt, version, 1)},
        badVersion);
  }

  // Steps 3 and 6, inputs cut short: SerializationStatusSweep.TruncationAtEveryLength.

  // Step 4: each parameter field.
  add("SemiSortedFlagOnAPlainPayload", plainInput, {setField(kFlagsAt, kSemiSortedFlag, 1)}, bad);
  add("SemiSortedFlagOnAPlainPayloadWithStash", stashedInput, {setField(kFlagsAt, kSemiSortedFlag | kStashFlag, 1)},
      bad);
  for (unsigned bit = 2; bit < 8; ++bit) {
    add("UnknownFlagBit" + std::to_string(bit), plainInput, {setField(kFlagsAt, 1U << bit, 1)}, bad);
  }
  // Semi-sorting with b = 2 is not a shape create() accepts, so neither does load.
  add("SemiSortedBucketSize2", semiSortedInput, {setField(kBucketSizeAt, 2, 1)}, bad);
  for (unsigned id : {0U, 2U, 255U}) add("HashId" + std::to_string(id), plainInput, {setField(kHashIdAt, id, 1)}, bad);
  // 13 and 16 are valid widths, but not for this payload length.
  for (unsigned f : {0U, 1U, 13U, 16U, 33U, 255U}) {
    add("FingerprintBits" + std::to_string(f), plainInput, {setField(kFingerprintBitsAt, f, 1)}, bad);
  }
  for (unsigned b : {0U, 3U, 2U, 8U, 16U, 255U}) {
    add("BucketSize" + std::to_string(b), plainInput, {setField(kBucketSizeAt, b, 1)}, bad);
  }
  for (unsigned log2m : {3U, 5U, 32U, 33U, 64U, 255U}) {
    add("Log2BucketCount" + std::to_string(log2m), plainInput, {setField(kLog2BucketCountAt, log2m, 1)}, bad);
  }
  add("ReservedLowBit", plainInput, {setField(kReservedAt, 1, 1)}, bad);
  add("ReservedHighBit", plainInput, {setField(kReservedAt + 1, 0x80, 1)}, bad);
  add("MaxKicksAboveTheLimit", plainInput, {setField(kMaxKicksAt, kMaxKicksLimit + 1, 4)}, bad);
  add("MaxKicksAllOnes", plainInput, {setField(kMaxKicksAt, 0xFFFFFFFFU, 4)}, bad);
  for (std::uint64_t length : {std::uint64_t{0}, std::uint64_t{95}, std::uint64_t{97}, std::uint64_t{96} + 7,
                               std::uint64_t{1} << 63, ~std::uint64_t{0}}) {
    add("PayloadLength" + std::to_string(length), plainInput, {setField(kPayloadLengthAt, length, 8)}, bad);
  }
  // Version 2: the hash id, the bucket count and the version must agree: a
  // power-of-two count is only ever written as version 1 with hash id 1.
  add("Version1HeaderReadAsVersion2", plainInput, {setField(kVersionAt, 2, 1)}, bad);
  add("Version2HeaderReadAsVersion1", anyCountInput, {setField(kVersionAt, 1, 1)}, bad);
  for (unsigned id : {0U, 1U, 3U}) {
    add("AnyCountHashId" + std::to_string(id), anyCountInput, {setField(kHashIdAt, id, 1)}, bad);
  }
  add("AnyCountWithHashId1AsVersion1", anyCountInput, {setField(kVersionAt, 1, 1), setField(kHashIdAt, 1, 1)}, bad);
  for (std::uint64_t m : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{16}, std::uint64_t{11},
                          std::uint64_t{13}, (std::uint64_t{1} << 32) + 12, ~std::uint64_t{0}}) {
    add("AnyCountBucketCount" + std::to_string(m), anyCountInput, {setField(kBucketCountV2At, m, 8)}, bad);
  }
  // A power of two with the payload length to match still disagrees with hash id 2.
  add("AnyCountPowerOfTwoWithItsLength", anyCountInput,
      {setField(kBucketCountV2At, 16, 8), setField(kPayloadLengthAt, 96, 8)}, bad);
  for (std::size_t at : {kReservedV2At, kReservedV2At + 1, kReservedV2At + 2}) {
    add("AnyCountReservedByte" + std::to_string(at), anyCountInput, {setField(at, 1, 1)}, bad);
  }
  add("AnyCountPayloadLength71", anyCountInput, {setField(kPayloadLengthAt, 71, 8)}, bad);
  // The limits themselves are fine.
  add("MaxKicksAtTheLimitLoads", plainInput, {setField(kMaxKicksAt, kMaxKicksLimit, 4), reseal}, ok);
  add("MaxKicksZeroLoads", plainInput, {setField(kMaxKicksAt, 0, 4), reseal}, ok);

  // Step 5: f = 32, b = 8, m = 2^32 is a 128 GiB table, judged before anything is allocated.
  add("LargestShapeIsJudgedBeforeAnyAllocation", plainInput,
      {setField(kFingerprintBitsAt, 32, 1), setField(kBucketSizeAt, 8, 1), setField(kLog2BucketCountAt, 32, 1),
       setField(kPayloadLengthAt, std::uint64_t{1} << 37, 8), dropThePayload},
      PackedTable::bytesFor(32, 8, std::uint64_t{1} << 32) != 0 ? truncated : Status::kTableTooLarge);

  // Step 6: trailing bytes.
  add("TrailingByte", plainInput, {appendAByte}, inconsistent);
  add("TrailingByteOfAnyCount", anyCountInput, {appendAByte}, inconsistent);

  // Step 7: the checksum, over the payload, the fields no other check covers, and itself.
  for (std::size_t at : {kHeaderBytes, kHeaderBytes + 50, kHeaderBytes + kPlainPayloadBytes - 1}) {
    for (unsigned bit = 0; bit < 8; bit += 3) {
      add("PayloadByte" + std::to_string(at) + "Bit" + std::to_string(bit) + "Flipped", plainInput,
          {flipBits(at, 1U << bit)}, checksum);
    }
  }
  add("SeedChanged", plainInput, {setField(kSeedAt, 8, 8)}, checksum);
  add("AnyCountPayloadByteFlipped", anyCountInput, {flipBits(kHeaderBytesV2 + 5, 0x04)}, checksum);
  add("AnyCountChecksumByteFlipped", anyCountInput, {flipBits(kHeaderBytesV2 + kAnyCountPayloadBytes, 0x01)}, checksum);
  add("PrngStateChanged", plainInput, {setField(kPrngStateAt, 1, 8)}, checksum);
  add("ItemCountChanged", plainInput, {setField(kItemCountAt, kPlainItems + 1, 8)}, checksum);
  for (std::size_t i = 0; i < kChecksumBytes; ++i) {
    add("ChecksumByte" + std::to_string(i) + "Flipped", plainInput,
        {flipBits(kHeaderBytes + kPlainPayloadBytes + i, 0x01)}, checksum);
  }

  // Step 8, behind a valid checksum: unused bits of the payload's last byte must be 0.
  // f = 13, b = 2, m = 1: 26 bits in 4 bytes, so the top 6 bits of byte 3 are unused.
  for (unsigned bit = 2; bit < 8; ++bit) {
    add("UnusedBit" + std::to_string(bit) + "OfF13B2", fullSingleBucketInput(13, 2),
        {setBitOfLastPayloadByte(bit), reseal}, inconsistent);
  }
  // f = 7, b = 1, m = 1: 7 bits in 1 byte, so the top bit is unused.
  add("UnusedBit7OfF7B1", fullSingleBucketInput(7, 1), {setBitOfLastPayloadByte(7), reseal}, inconsistent);

  // Step 8: the stash fields must agree with the stash flag. Flag off: fingerprint and bucket must be 0.
  add("StashFingerprintWithoutTheFlag", plainInput, {setField(kStashFingerprintAt, 5, 4), reseal}, inconsistent);
  add("StashBucketWithoutTheFlag", plainInput, {setField(kStashBucketAt, 3, 4), reseal}, inconsistent);
  add("StashFlagWithoutAFingerprint", plainInput, {setField(kFlagsAt, kStashFlag, 1), reseal}, inconsistent);
  // Flag cleared on a stashed filter: the stash fields are left over, and the count is one too high.
  add("StashFlagCleared", stashedInput, {setField(kFlagsAt, 0, 1), reseal}, inconsistent);
  add("StashFlagAndFieldsCleared", stashedInput, {clearTheStash, reseal}, inconsistent);
  add("StashFlagAndFieldsClearedAndUncountedLoads", stashedInput, {clearTheStash, countOneItemLess, reseal}, ok);
  // Flag on: fingerprint in [1, 2^12 - 1], bucket below m = 16.
  add("StashFingerprintZero", stashedInput, {setField(kStashFingerprintAt, 0, 4), reseal}, inconsistent);
  add("StashFingerprint4096", stashedInput, {setField(kStashFingerprintAt, 4096, 4), reseal}, inconsistent);
  add("StashFingerprintAllOnes", stashedInput, {setField(kStashFingerprintAt, 0xFFFFFFFFU, 4), reseal},
      inconsistent);
  add("StashBucket16", stashedInput, {setField(kStashBucketAt, 16, 4), reseal}, inconsistent);
  // m = 12: bucket 12 is past the table (and not a power-of-two mask).
  add("AnyCountStashBucket12", anyCountInput,
      {setField(kFlagsAt, kStashFlag, 1), setField(kStashFingerprintAt, 7, 4), setField(kStashBucketAt, 12, 4),
       setField(kItemCountAt, kAnyCountItems + 1, 8), reseal},
      inconsistent);
  add("AnyCountStashBucket11Loads", anyCountInput,
      {setField(kFlagsAt, kStashFlag, 1), setField(kStashFingerprintAt, 7, 4), setField(kStashBucketAt, 11, 4),
       setField(kItemCountAt, kAnyCountItems + 1, 8), reseal},
      ok);
  add("AnyCountWrongItemCount", anyCountInput, {setField(kItemCountAt, kAnyCountItems - 1, 8), reseal}, inconsistent);
  add("StashFingerprint4095Loads", stashedInput, {setField(kStashFingerprintAt, 4095, 4), reseal}, ok);
  add("StashBucket15Loads", stashedInput, {setField(kStashBucketAt, 15, 4), reseal}, ok);

  // Step 8: the item count must match the contents.
  for (std::uint64_t wrong : {kPlainItems - 1, kPlainItems + 1, std::uint64_t{0}, ~std::uint64_t{0}}) {
    add("WrongItemCount" + std::to_string(wrong), plainInput, {setField(kItemCountAt, wrong, 8), reseal}, inconsistent);
  }
  add("UncountedEntry", plainInput, {addUncountedEntry, reseal}, inconsistent);
  add("UncountedEntryCountedLoads", plainInput,
      {addUncountedEntry, setField(kItemCountAt, kPlainItems + 1, 8), reseal}, ok);

  // Step 8, semi-sorted: ranks of 3,876 and above name no multiset of four nibbles.
  for (std::uint64_t rank : {std::uint64_t{3876}, std::uint64_t{4095}}) {
    add("SemiSortedRank" + std::to_string(rank), semiSortedInput, {setFirstRank(rank), reseal}, inconsistent);
  }
  // A bucket holding one fingerprint stores it last, since empty entries (0)
  // sort first. Setting entry 0's lowest bit (bit 12, right after the rank)
  // makes the bucket read 1, 0, 0, 0: not the order encoding produces.
  add("SemiSortedBucketOutOfOrder", emptySemiSortedInput,
      {setField(kHeaderBytes + 1, 0x10, 1), setField(kItemCountAt, 1, 8), reseal}, inconsistent);
  return rows;
}

// ------------------------------------------------------------------ the destination

// A filter that failed deserializations must leave exactly as it was.
class DeserializationTarget : public ::testing::Test {
 protected:
  void SetUp() override { resetTarget(); }

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

  CuckooFilter target_;
  Snapshot targetBefore_;
};

class SerializationStatus : public DeserializationTarget, public ::testing::WithParamInterface<Corruption> {};

TEST_P(SerializationStatus, OfTheEditedInput) {
  EXPECT_EQ(statusOf(edited(GetParam().input(), GetParam().edits)), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Each, SerializationStatus, ::testing::ValuesIn(corruptions()),
                         [](const ::testing::TestParamInfo<Corruption>& info) { return info.param.name; });

// ------------------------------------------------------------------ sweeps

class SerializationStatusSweep : public DeserializationTarget {};

TEST_F(SerializationStatusSweep, TruncationAtEveryLength) {
  for (const Bytes& whole : {plainInput(), stashedInput(), anyCountInput()}) {
    for (std::size_t length = 0; length < whole.size(); ++length) {
      // An exact-size copy, so that reading past it trips AddressSanitizer.
      const Bytes prefix(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(length));
      ASSERT_EQ(statusOf(prefix), Status::kFormatTruncated) << "length " << length;
    }
  }
}

// The header-only check that lets a caller refuse an input before copying it
// must agree with deserialize on everything the header decides.
TEST_F(SerializationStatusSweep, HeaderCheckAgreesWithDeserializeWithoutTheRest) {
  const auto headerStatus = [](const Bytes& bytes, std::size_t totalLength) {
    // Exactly the bytes the check may read, so that ASan catches any read beyond.
    const std::size_t available = std::min(totalLength, CuckooFilter::kSerializedHeaderBytes);
    const Bytes header(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(std::min(available, bytes.size())));
    return CuckooFilter::checkSerializedHeader(header.data(), totalLength);
  };
  for (const Bytes& whole : {plainInput(), anyCountInput()}) {
    EXPECT_EQ(headerStatus(whole, whole.size()), Status::kOk);
    for (std::size_t length = 0; length < whole.size(); ++length) {
      const Bytes prefix(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(length));
      ASSERT_EQ(headerStatus(prefix, length), statusOf(prefix)) << "length " << length;
    }
  }
  const Bytes valid = plainInput();
  EXPECT_EQ(headerStatus(valid, valid.size() + 1), Status::kFormatInconsistent);
  EXPECT_EQ(headerStatus(edited(valid, {setField(0, 'X', 1)}), valid.size()), Status::kFormatBadMagic);
  EXPECT_EQ(headerStatus(edited(valid, {setField(kVersionAt, 9, 1)}), valid.size()), Status::kFormatUnsupportedVersion);
  EXPECT_EQ(headerStatus(edited(valid, {setField(kBucketSizeAt, 3, 1)}), valid.size()), Status::kFormatBadParameters);
  // A 2 GiB input of zeros is judged by its first bytes alone.
  const Bytes zeros(CuckooFilter::kSerializedHeaderBytes, 0);
  EXPECT_EQ(CuckooFilter::checkSerializedHeader(zeros.data(), std::size_t{1} << 31), Status::kFormatBadMagic);
  // Checksum and contents are beyond the header: it lets them through.
  const Bytes flipped = edited(valid, {flipBits(kHeaderBytes + 3, 1)});
  EXPECT_EQ(headerStatus(flipped, flipped.size()), Status::kOk);
  EXPECT_EQ(statusOf(flipped), Status::kFormatChecksumMismatch);
}

TEST_F(SerializationStatusSweep, CorruptionNeverCrashes) {
  // Every single-byte value at every offset, with and without a valid checksum;
  // AddressSanitizer and UBSan watch the reads.
  for (const Bytes& whole : {plainInput(), stashedInput(), anyCountInput()}) {
    for (std::size_t at = 0; at < whole.size(); ++at) {
      for (unsigned value = 0; value < 256; value += 17) {
        Bytes bytes = whole;
        bytes[at] = static_cast<unsigned char>(value);
        statusOf(bytes);
        if (at < whole.size() - kChecksumBytes) {
          reseal(bytes);
          EXPECT_NE(statusOf(bytes), Status::kFormatChecksumMismatch);
        }
      }
    }
  }
}

// The canonical order of a semi-sorted bucket (the counterpart of
// SemiSortedBucketOutOfOrder above) loads, with the fingerprint in the last entry.
TEST(SerializationSemiSorted, OneFingerprintStoredLastLoads) {
  // Entry 3's low bits start at 12 + 3 * 5 = 27: byte 3, bit 3.
  const Bytes sorted =
      edited(emptySemiSortedInput(), {setField(kHeaderBytes + 3, 0x08, 1), setField(kItemCountAt, 1, 8), reseal});
  CuckooFilter loaded = makeFilter(12, 4, 8);
  EXPECT_EQ(deserializeInto(sorted, loaded), Status::kOk);
  EXPECT_EQ(loaded.slotValue(0, 3), 1U);
}

}  // namespace
}  // namespace cuckoo
