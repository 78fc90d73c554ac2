#pragma once
// The growable filter's table (scalable_filter.hpp): buckets of four W-bit
// slots, plain (4W bits per bucket) or semi-sorted (4W - 4, FORMAT.md), in one
// block of memory that grows at its end as buckets are added. A bucket is read
// and written whole, as four values; 0 is an empty slot.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "cuckoo/bit_io.hpp"
#include "cuckoo/semi_sorted_table.hpp"
#include "cuckoo/status.hpp"

namespace cuckoo::detail {

struct SlotValues {
  std::uint32_t value[4];
};

class ScalableTable {
 public:
  ScalableTable(unsigned slotBits, bool semiSorted) noexcept : slotBits_(slotBits), semiSorted_(semiSorted) {}
  ScalableTable(const ScalableTable&) = delete;
  ScalableTable& operator=(const ScalableTable&) = delete;
  ~ScalableTable() { std::free(bytes_); }

  static std::uint64_t bucketBitsFor(unsigned slotBits, bool semiSorted) noexcept {
    return semiSorted ? 4 * std::uint64_t{slotBits} - 4 : 4 * std::uint64_t{slotBits};
  }
  // Payload bytes of `buckets` buckets (what the byte format stores), or 0 above kMaxTableBytes.
  static std::uint64_t payloadBytesFor(std::uint64_t buckets, unsigned slotBits, bool semiSorted) noexcept {
    const std::uint64_t bytes = (buckets * bucketBitsFor(slotBits, semiSorted) + 7) / 8;
    return bytes + kTablePaddingBytes > kMaxTableBytes ? 0 : bytes;
  }

  // Makes room for `buckets` buckets, keeping the contents of the current
  // ones; the new ones are empty. kTableTooLarge / kOutOfMemory change nothing.
  Status resize(std::uint64_t buckets) noexcept {
    const std::uint64_t payload = payloadBytesFor(buckets, slotBits_, semiSorted_);
    if (payload == 0) return Status::kTableTooLarge;
    const std::size_t length = static_cast<std::size_t>(payload) + kTablePaddingBytes;
    auto* grown = static_cast<unsigned char*>(std::realloc(bytes_, length));
    if (grown == nullptr) return Status::kOutOfMemory;
    // The old payload's last byte may hold bits of the new buckets' space: clear from it on.
    const std::size_t keep = static_cast<std::size_t>((bucketCount_ * bucketBits() + 7) / 8);
    const std::size_t keepWhole = static_cast<std::size_t>(bucketCount_ * bucketBits() / 8);
    if (keep > keepWhole) {
      const unsigned usedBits = static_cast<unsigned>(bucketCount_ * bucketBits() % 8);
      grown[keepWhole] &= static_cast<unsigned char>((1U << usedBits) - 1);
    }
    std::memset(grown + keep, 0, length - keep);
    bytes_ = grown;
    byteLength_ = length;
    bucketCount_ = buckets;
    return Status::kOk;
  }

  Status copyTo(ScalableTable& out) const noexcept {
    ScalableTable copy(slotBits_, semiSorted_);
    if (bytes_ != nullptr) {
      copy.bytes_ = static_cast<unsigned char*>(std::malloc(byteLength_));
      if (copy.bytes_ == nullptr) return Status::kOutOfMemory;
      std::memcpy(copy.bytes_, bytes_, byteLength_);
    }
    copy.byteLength_ = byteLength_;
    copy.bucketCount_ = bucketCount_;
    out.swap(copy);
    return Status::kOk;
  }

  SlotValues read(std::uint64_t bucket) const noexcept {
    const std::uint64_t bitPos = bucket * bucketBits();
    SlotValues out;
    if (semiSorted_) {
      const semisort::Bucket b = bucketBits() <= 57 ? semisort::decodeWindow(bits::read(bytes_, bitPos, static_cast<unsigned>(bucketBits())), slotBits_)
                                                    : semisort::decodeFields(bytes_, bitPos, slotBits_);
      for (unsigned s = 0; s < 4; ++s) out.value[s] = b.entries[s];
      return out;
    }
    for (unsigned s = 0; s < 4; ++s) out.value[s] = static_cast<std::uint32_t>(bits::read(bytes_, bitPos + s * slotBits_, slotBits_));
    return out;
  }

  // Semi-sorted buckets keep their values in ascending order, so a value's slot may change.
  void write(std::uint64_t bucket, const SlotValues& slots) noexcept {
    const std::uint64_t bitPos = bucket * bucketBits();
    if (semiSorted_) {
      semisort::Bucket b;
      for (unsigned s = 0; s < 4; ++s) b.entries[s] = slots.value[s];
      semisort::encode(bytes_, bitPos, slotBits_, b);
      return;
    }
    for (unsigned s = 0; s < 4; ++s) bits::write(bytes_, bitPos + s * slotBits_, slotBits_, slots.value[s]);
  }

  void clearAll() noexcept {
    if (bytes_ != nullptr) std::memset(bytes_, 0, byteLength_);
  }

  void swap(ScalableTable& other) noexcept {
    std::swap(bytes_, other.bytes_);
    std::swap(byteLength_, other.byteLength_);
    std::swap(bucketCount_, other.bucketCount_);
    std::swap(slotBits_, other.slotBits_);
    std::swap(semiSorted_, other.semiSorted_);
  }

  const unsigned char* data() const noexcept { return bytes_; }
  unsigned char* data() noexcept { return bytes_; }
  std::size_t byteLength() const noexcept { return byteLength_; }
  std::size_t payloadBytes() const noexcept { return static_cast<std::size_t>((bucketCount_ * bucketBits() + 7) / 8); }
  std::uint64_t bucketCount() const noexcept { return bucketCount_; }
  std::uint64_t bucketBits() const noexcept { return bucketBitsFor(slotBits_, semiSorted_); }
  unsigned slotBits() const noexcept { return slotBits_; }

 private:
  unsigned char* bytes_ = nullptr;
  std::size_t byteLength_ = 0;
  std::uint64_t bucketCount_ = 0;
  unsigned slotBits_;
  bool semiSorted_;
};

}  // namespace cuckoo::detail
