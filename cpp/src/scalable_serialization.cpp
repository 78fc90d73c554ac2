// Byte format version 3 of FORMAT.md: a growable filter (hash id 3).

#include <cmath>
#include <cstring>
#include <new>
#include <utility>

#include "byte_order.hpp"
#include "cuckoo/hashing.hpp"
#include "cuckoo/scalable_filter.hpp"
#include "item_hash.hpp"
#include "patch_access.hpp"
#include "reject.hpp"
#include "scalable_slot_codec.hpp"
#include "scalable_table.hpp"

namespace cuckoo {
namespace {

using detail::getLittleEndian;
using detail::putLittleEndian;
using detail::rejected;

constexpr std::uint8_t kVersionGrowable = 3;
constexpr std::uint8_t kFlagSemiSorted = 1U << 0;

// Byte offsets of the header fields (FORMAT.md's version 3 table).
namespace at {
constexpr std::size_t kFlags = 5;
constexpr std::size_t kHashId = 6;
constexpr std::size_t kFixedBits = 7;
constexpr std::size_t kTailBits = 8;
constexpr std::size_t kLevel = 9;
constexpr std::size_t kInitialLevel = 10;
constexpr std::size_t kStashCount = 11;
constexpr std::size_t kMaxKicks = 12;
constexpr std::size_t kSeed = 16;
constexpr std::size_t kPrngState = 24;
constexpr std::size_t kItemCount = 32;
constexpr std::size_t kEntryCount = 40;
constexpr std::size_t kSplitBucket = 48;
constexpr std::size_t kInitialCapacity = 56;
constexpr std::size_t kFalsePositiveRate = 64;
constexpr std::size_t kGrowth = 72;
constexpr std::size_t kPayloadLength = 80;
constexpr std::size_t kStash = 88;  // kMaxHeld records of 12 bytes: slot value (4), bucket (8)
}  // namespace at
constexpr std::size_t kStashRecordBytes = 12;
constexpr std::size_t kHeaderBytes = at::kStash + ScalableCuckooFilter::kMaxHeld * kStashRecordBytes;

void putDouble(unsigned char* to, double value) noexcept {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  putLittleEndian(to, bits, 8);
}
double getDouble(const unsigned char* from) noexcept {
  const std::uint64_t bits = getLittleEndian(from, 8);
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

bool wellFormed(std::uint32_t value, const ScalableShape& shape) noexcept {
  return detail::scalable::wellFormed(value, shape.slotBits(), shape.tailBits);
}

}  // namespace

std::size_t ScalableCuckooFilter::serializedSize() const noexcept {
  return kHeaderBytes + table_->payloadBytes() + detail::kFormatChecksumBytes;
}

std::size_t detail::PatchAccess::writeHeader(const ScalableCuckooFilter& filter, unsigned char* out) noexcept {
  const ScalableParams& params = filter.params_;
  const ScalableShape& shape = filter.shape_;
  std::memset(out, 0, kHeaderBytes);
  std::memcpy(out, detail::kFormatMagic, sizeof detail::kFormatMagic);
  out[detail::kFormatVersionOffset] = kVersionGrowable;
  out[at::kFlags] = params.semiSort ? kFlagSemiSorted : 0;
  out[at::kHashId] = kHashIdXxh3LinearV1;
  out[at::kFixedBits] = static_cast<unsigned char>(shape.fixedBits);
  out[at::kTailBits] = static_cast<unsigned char>(shape.tailBits);
  out[at::kLevel] = static_cast<unsigned char>(shape.level);
  out[at::kInitialLevel] = static_cast<unsigned char>(shape.initialLevel);
  out[at::kStashCount] = static_cast<unsigned char>(filter.stashCount_);
  putLittleEndian(out + at::kMaxKicks, params.maxKicks, 4);
  putLittleEndian(out + at::kSeed, params.seed, 8);
  putLittleEndian(out + at::kPrngState, filter.prng_.state(), 8);
  putLittleEndian(out + at::kItemCount, filter.itemCount_, 8);
  putLittleEndian(out + at::kEntryCount, filter.entryCount_, 8);
  putLittleEndian(out + at::kSplitBucket, shape.splitBucket, 8);
  putLittleEndian(out + at::kInitialCapacity, params.initialCapacity, 8);
  putDouble(out + at::kFalsePositiveRate, params.falsePositiveRate);
  putDouble(out + at::kGrowth, params.growth);
  putLittleEndian(out + at::kPayloadLength, filter.table_->payloadBytes(), 8);
  for (unsigned k = 0; k < filter.stashCount_; ++k) {
    putLittleEndian(out + at::kStash + k * kStashRecordBytes, filter.stash_[k].value, 4);
    putLittleEndian(out + at::kStash + k * kStashRecordBytes + 4, filter.stash_[k].bucket, 8);
  }
  return kHeaderBytes;
}

void ScalableCuckooFilter::serialize(unsigned char* out) const noexcept {
  detail::PatchAccess::writeHeader(*this, out);
  const std::size_t payload = table_->payloadBytes();
  std::memcpy(out + kHeaderBytes, table_->data(), payload);
  putLittleEndian(out + kHeaderBytes + payload, detail::formatChecksum(out, kHeaderBytes + payload), 8);
}

Status ScalableCuckooFilter::deserialize(const unsigned char* data, std::size_t length, ScalableCuckooFilter& out) noexcept {
  // 1-3: magic, version, header length.
  const std::size_t magicBytes = length < sizeof detail::kFormatMagic ? length : sizeof detail::kFormatMagic;
  for (std::size_t i = 0; i < magicBytes; ++i) {
    if (data[i] != detail::kFormatMagic[i]) return rejected(Status::kFormatBadMagic);
  }
  if (length <= detail::kFormatVersionOffset) return rejected(Status::kFormatTruncated);
  if (data[detail::kFormatVersionOffset] != kVersionGrowable) return rejected(Status::kFormatUnsupportedVersion);
  if (length < kHeaderBytes) return rejected(Status::kFormatTruncated);

  // 4: parameters and shape, as create() and growth make them.
  ScalableParams params;
  params.semiSort = (data[at::kFlags] & kFlagSemiSorted) != 0;
  params.maxKicks = static_cast<std::uint32_t>(getLittleEndian(data + at::kMaxKicks, 4));
  params.seed = getLittleEndian(data + at::kSeed, 8);
  params.initialCapacity = getLittleEndian(data + at::kInitialCapacity, 8);
  params.falsePositiveRate = getDouble(data + at::kFalsePositiveRate);
  params.growth = getDouble(data + at::kGrowth);
  if ((data[at::kFlags] & ~kFlagSemiSorted) != 0 || data[at::kHashId] != kHashIdXxh3LinearV1) {
    return rejected(Status::kFormatBadParameters);
  }
  const Status valid = validate(params);
  if (valid != Status::kOk) return rejected(valid == Status::kTableTooLarge ? valid : Status::kFormatBadParameters);
  const ScalableShape initial = initialShape(params);
  ScalableShape shape = initial;
  shape.tailBits = data[at::kTailBits];
  shape.level = data[at::kLevel];
  shape.splitBucket = getLittleEndian(data + at::kSplitBucket, 8);
  const unsigned stashCount = data[at::kStashCount];
  const bool shapeOk = data[at::kFixedBits] == shape.fixedBits && data[at::kInitialLevel] == shape.initialLevel &&
                       shape.level >= shape.initialLevel && shape.level <= kMaxScalableLevel &&
                       shape.splitBucket < (std::uint64_t{1} << shape.level) &&
                       (shape.level < kMaxScalableLevel || shape.splitBucket == 0) &&
                       shape.bucketCount() >= initial.bucketCount() && shape.tailBits == initial.tailBits &&
                       shape.slotBits() <= 32 && stashCount <= kMaxHeld;
  if (!shapeOk) return rejected(Status::kFormatBadParameters);
  const std::uint64_t payload = detail::ScalableTable::payloadBytesFor(shape.bucketCount(), shape.slotBits(), params.semiSort);
  if (payload == 0) return rejected(Status::kTableTooLarge);
  if (getLittleEndian(data + at::kPayloadLength, 8) != payload) return rejected(Status::kFormatBadParameters);

  // 5-6: length and checksum.
  const std::uint64_t total = kHeaderBytes + payload + detail::kFormatChecksumBytes;
  if (length < total) return rejected(Status::kFormatTruncated);
  if (length > total) return rejected(Status::kFormatInconsistent);
  const auto checked = static_cast<std::size_t>(kHeaderBytes + payload);
  if (detail::formatChecksum(data, checked) != getLittleEndian(data + checked, 8)) {
    return rejected(Status::kFormatChecksumMismatch);
  }

  // 7: contents, on the table rebuilt from the payload.
  auto* table = new (std::nothrow) detail::ScalableTable(shape.slotBits(), params.semiSort);
  if (table == nullptr) return Status::kOutOfMemory;
  ScalableCuckooFilter loaded;
  loaded.table_ = table;  // owned from here on
  if (const Status status = table->resize(shape.bucketCount()); status != Status::kOk) return status;
  std::memcpy(table->data(), data + kHeaderBytes, static_cast<std::size_t>(payload));
  const std::uint64_t usedBits = shape.bucketCount() * table->bucketBits();
  if (usedBits % 8 != 0 && (table->data()[payload - 1] >> (usedBits % 8)) != 0) {
    return rejected(Status::kFormatInconsistent);
  }
  std::uint64_t entries = 0;
  for (std::uint64_t bucket = 0; bucket < shape.bucketCount(); ++bucket) {
    if (params.semiSort && bits::read(table->data(), bucket * table->bucketBits(), kNibbleRankBits) >= kNibbleMultisets) {
      return rejected(Status::kFormatInconsistent);
    }
    const detail::SlotValues slots = table->read(bucket);
    for (unsigned s = 0; s < 4; ++s) {
      const std::uint32_t value = slots.value[s];
      if (params.semiSort && s > 0 && slots.value[s - 1] > value) return rejected(Status::kFormatInconsistent);
      if (value == 0) continue;
      if (!wellFormed(value, shape)) return rejected(Status::kFormatInconsistent);
      ++entries;
    }
  }
  for (unsigned k = 0; k < kMaxHeld; ++k) {
    const unsigned char* record = data + at::kStash + k * kStashRecordBytes;
    HeldEntry held{static_cast<std::uint32_t>(getLittleEndian(record, 4)), getLittleEndian(record + 4, 8)};
    const bool used = k < stashCount;
    if (!used && (held.value != 0 || held.bucket != 0)) return rejected(Status::kFormatInconsistent);
    if (used && (!wellFormed(held.value, shape) || held.bucket >= shape.bucketCount())) {
      return rejected(Status::kFormatInconsistent);
    }
    if (used) loaded.stash_[k] = held;
  }
  const std::uint64_t entryCount = getLittleEndian(data + at::kEntryCount, 8);
  const std::uint64_t itemCount = getLittleEndian(data + at::kItemCount, 8);
  if (entryCount != entries + stashCount || itemCount > entryCount) return rejected(Status::kFormatInconsistent);

  loaded.params_ = params;
  loaded.shape_ = shape;
  loaded.prng_ = SplitMix64(getLittleEndian(data + at::kPrngState, 8));
  loaded.stashCount_ = stashCount;
  loaded.itemCount_ = itemCount;
  loaded.entryCount_ = entryCount;
  out = std::move(loaded);
  return Status::kOk;
}

}  // namespace cuckoo
