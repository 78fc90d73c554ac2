#pragma once
// A bit-packed array of bucketCount x bucketSize fingerprints of fingerprintBits
// bits each: entry k of the table occupies bits [k*f, (k+1)*f) of a little-endian
// byte array, with no per-bucket or per-word padding. 7 zero bytes follow the
// last entry so that any entry, and any bucket of at most 57 bits, can be read
// with one unaligned 64-bit load. So the table uses m*b*f bits plus less than
// one machine word, and bits per item is f / load, as in the paper's eq. (4).
//
// The value 0 marks an empty slot; fingerprints are never 0 (hashing.hpp).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "cuckoo/bit_io.hpp"
#include "cuckoo/status.hpp"

namespace cuckoo {

class PackedTable {
 public:
  PackedTable() noexcept = default;
  PackedTable(const PackedTable&) = delete;
  PackedTable& operator=(const PackedTable&) = delete;
  PackedTable(PackedTable&& other) noexcept { moveFrom(other); }
  PackedTable& operator=(PackedTable&& other) noexcept {
    if (this != &other) {
      release();
      moveFrom(other);
    }
    return *this;
  }
  ~PackedTable() { release(); }

  // Bytes needed for the given shape, or 0 when it exceeds kMaxTableBytes.
  // Parameters must already be valid (see CuckooFilter::validate).
  static std::uint64_t bytesFor(unsigned fingerprintBits, unsigned bucketSize,
                                std::uint64_t bucketCount) noexcept;

  // Allocates a zeroed (all-empty) table; kTableTooLarge or kOutOfMemory on failure.
  static Status allocate(unsigned fingerprintBits, unsigned bucketSize, std::uint64_t bucketCount,
                         PackedTable& out) noexcept;

  // A byte-for-byte copy (kOutOfMemory if the copy cannot be allocated).
  Status copyTo(PackedTable& out) const noexcept;

  // Non-zero entries among the first `entryCount` entries of `bitsPerEntry`
  // (2..32) bits packed as this table packs them. Reads only bytes
  // [0, byteCount), so it also works on unpadded buffers such as a serialized
  // payload; byteCount must be at least ceil(entryCount * bitsPerEntry / 8).
  static std::uint64_t countNonZeroEntries(const unsigned char* bytes, std::size_t byteCount,
                                           unsigned bitsPerEntry, std::uint64_t entryCount) noexcept;

  // Occupied slots in the whole table.
  std::uint64_t occupiedEntries() const noexcept {
    return countNonZeroEntries(bytes_, payloadBytes(), shape_.bitsPerEntry,
                               shape_.bucketCount * shape_.slotsPerBucket);
  }

  std::uint32_t read(std::uint64_t bucket, unsigned slot) const noexcept {
    return readEntry(bucket * shape_.slotsPerBucket + slot);
  }

  void write(std::uint64_t bucket, unsigned slot, std::uint32_t value) noexcept {
    bits::write(bytes_, (bucket * shape_.slotsPerBucket + slot) * shape_.bitsPerEntry, shape_.bitsPerEntry, value);
  }

  // Slots of `bucket` holding `fingerprint`, as a bit set (bit s = slot s).
  // With fingerprint 0 this is the set of empty slots.
  std::uint32_t matchingSlots(std::uint64_t bucket, std::uint32_t fingerprint) const noexcept {
    if (shape_.swarScan) return swarMatches(bucket, fingerprint);
    std::uint32_t found = 0;
    for (unsigned s = 0; s < shape_.slotsPerBucket; ++s) {
      found |= static_cast<std::uint32_t>(read(bucket, s) == fingerprint) << s;
    }
    return found;
  }

  bool contains(std::uint64_t bucket, std::uint32_t fingerprint) const noexcept {
    if (shape_.swarScan) return swarZeroLaneTops(bucket, fingerprint) != 0;
    return matchingSlots(bucket, fingerprint) != 0;
  }

  // Puts `fingerprint` in the lowest empty slot; false when the bucket is full.
  bool insertIntoEmptySlot(std::uint64_t bucket, std::uint32_t fingerprint) noexcept {
    const std::uint32_t empty = matchingSlots(bucket, 0);
    if (empty == 0) return false;
    write(bucket, lowestSlot(empty), fingerprint);
    return true;
  }

  // Empties the lowest slot holding `fingerprint`; false when there is none.
  bool removeOne(std::uint64_t bucket, std::uint32_t fingerprint) noexcept {
    const std::uint32_t found = matchingSlots(bucket, fingerprint);
    if (found == 0) return false;
    write(bucket, lowestSlot(found), 0);
    return true;
  }

  // Stores `fingerprint` in `slot` and returns what was there.
  std::uint32_t exchange(std::uint64_t bucket, unsigned slot, std::uint32_t fingerprint) noexcept {
    const std::uint32_t previous = read(bucket, slot);
    write(bucket, slot, fingerprint);
    return previous;
  }

  void clear() noexcept {
    if (bytes_ != nullptr) std::memset(bytes_, 0, byteLength_);
  }

  unsigned fingerprintBits() const noexcept { return shape_.bitsPerEntry; }
  unsigned bucketSize() const noexcept { return shape_.slotsPerBucket; }
  std::uint64_t bucketCount() const noexcept { return shape_.bucketCount; }
  // Bits of fingerprint storage, m*b*f, excluding the trailing padding.
  std::uint64_t payloadBits() const noexcept { return shape_.bucketCount * shape_.slotsPerBucket * shape_.bitsPerEntry; }
  // Bytes of the allocation, payload rounded up to a byte plus padding.
  std::size_t byteLength() const noexcept { return byteLength_; }
  // Bytes that hold fingerprints: ceil(m*b*f / 8). The padding after them is always zero.
  std::size_t payloadBytes() const noexcept { return static_cast<std::size_t>((payloadBits() + 7) / 8); }
  const unsigned char* data() const noexcept { return bytes_; }
  unsigned char* data() noexcept { return bytes_; }

  static unsigned lowestSlot(std::uint32_t slotSet) noexcept {
    return static_cast<unsigned>(__builtin_ctz(slotSet));
  }

 private:
  std::uint32_t readEntry(std::uint64_t entry) const noexcept {
    const std::uint64_t bitPos = entry * shape_.bitsPerEntry;
    return static_cast<std::uint32_t>(bits::window(bytes_, bitPos) & shape_.entryMask);
  }

  // All slots of a bucket compared at once inside one 64-bit word: lane s holds
  // slot s. A lane of (bucket XOR fingerprint-in-every-lane) is zero exactly
  // where the slot matches; adding the low-bits mask carries into a lane's top
  // bit unless its low bits are all zero, which isolates zero lanes exactly (no
  // borrow crosses lanes, unlike the shorter (x - ones) & ~x form).
  std::uint32_t swarMatches(std::uint64_t bucket, std::uint32_t fingerprint) const noexcept {
    return compressLaneTops(swarZeroLaneTops(bucket, fingerprint));
  }

  std::uint64_t swarZeroLaneTops(std::uint64_t bucket, std::uint32_t fingerprint) const noexcept {
    const std::uint64_t bitPos = bucket * shape_.bucketBits;
    const std::uint64_t word = bits::window(bytes_, bitPos);
    const std::uint64_t x = (word ^ (shape_.laneLowBits * fingerprint)) & shape_.bucketMask;
    const std::uint64_t lowMask = shape_.bucketMask & ~shape_.laneHighBits;
    const std::uint64_t zeroLaneTops = ~(((x & lowMask) + lowMask) | x | lowMask) & shape_.laneHighBits;
    return zeroLaneTops;
  }

  // Gathers bit (s*f + f-1) of `tops` into bit s of the result.
  std::uint32_t compressLaneTops(std::uint64_t tops) const noexcept {
    std::uint32_t slots = 0;
    for (unsigned s = 0; s < shape_.slotsPerBucket; ++s) {
      slots |= static_cast<std::uint32_t>((tops >> (s * shape_.bitsPerEntry + shape_.bitsPerEntry - 1)) & 1U) << s;
    }
    return slots;
  }

  void release() noexcept;
  void moveFrom(PackedTable& other) noexcept {
    bytes_ = std::exchange(other.bytes_, nullptr);
    byteLength_ = std::exchange(other.byteLength_, 0);
    shape_ = other.shape_;
  }

  // Everything derived from (f, b, m); trivially copyable.
  struct Shape {
    std::uint64_t bucketCount = 0;
    unsigned bitsPerEntry = 0;
    unsigned slotsPerBucket = 0;
    unsigned bucketBits = 0;
    bool swarScan = false;
    std::uint64_t entryMask = 0;
    std::uint64_t bucketMask = 0;    // the low bucketBits bits
    std::uint64_t laneLowBits = 0;   // bit 0 of every lane
    std::uint64_t laneHighBits = 0;  // bit f-1 of every lane
  };

  unsigned char* bytes_ = nullptr;
  std::size_t byteLength_ = 0;
  Shape shape_;
};

}  // namespace cuckoo
