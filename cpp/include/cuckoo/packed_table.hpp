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

// Everything about a bucket of `slotsPerBucket` entries of `bitsPerEntry` bits
// that reading and comparing it needs, derived once (PackedTable::allocate)
// so that the generic kernel does not recompute it per operation.
struct PackedShape {
  unsigned bitsPerEntry = 0;
  unsigned slotsPerBucket = 0;
  bool oneLoad = false;             // the bucket fits one 64-bit load (then the masks below are set)
  std::uint64_t bucketMask = 0;     // the low bitsPerEntry * slotsPerBucket bits
  std::uint64_t laneLowBits = 0;    // bit 0 of every lane
  std::uint64_t laneHighBits = 0;   // bit f-1 of every lane

  static PackedShape of(unsigned bitsPerEntry, unsigned slotsPerBucket) noexcept;
};

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
    return countNonZeroEntries(bytes_, payloadBytes(), shape_.bitsPerEntry, bucketCount_ * shape_.slotsPerBucket);
  }

  // Entry access, for inspection and tests; the filter's algorithms work on
  // buckets through the views of cpp/src/buckets.hpp.
  std::uint32_t read(std::uint64_t bucket, unsigned slot) const noexcept {
    return static_cast<std::uint32_t>(bits::read(bytes_, entryBit(bucket, slot), shape_.bitsPerEntry));
  }
  void write(std::uint64_t bucket, unsigned slot, std::uint32_t value) noexcept {
    bits::write(bytes_, entryBit(bucket, slot), shape_.bitsPerEntry, value);
  }

  void clear() noexcept {
    if (bytes_ != nullptr) std::memset(bytes_, 0, byteLength_);
  }

  const PackedShape& shape() const noexcept { return shape_; }
  unsigned fingerprintBits() const noexcept { return shape_.bitsPerEntry; }
  unsigned bucketSize() const noexcept { return shape_.slotsPerBucket; }
  std::uint64_t bucketCount() const noexcept { return bucketCount_; }
  // Bits of fingerprint storage, m*b*f, excluding the trailing padding.
  std::uint64_t payloadBits() const noexcept { return bucketCount_ * shape_.slotsPerBucket * shape_.bitsPerEntry; }
  // Bytes of the allocation, payload rounded up to a byte plus padding.
  std::size_t byteLength() const noexcept { return byteLength_; }
  // Bytes that hold fingerprints: ceil(m*b*f / 8). The padding after them is always zero.
  std::size_t payloadBytes() const noexcept { return static_cast<std::size_t>((payloadBits() + 7) / 8); }
  const unsigned char* data() const noexcept { return bytes_; }
  unsigned char* data() noexcept { return bytes_; }

 private:
  std::uint64_t entryBit(std::uint64_t bucket, unsigned slot) const noexcept {
    return (bucket * shape_.slotsPerBucket + slot) * shape_.bitsPerEntry;
  }

  void release() noexcept;
  void moveFrom(PackedTable& other) noexcept {
    bytes_ = std::exchange(other.bytes_, nullptr);
    byteLength_ = std::exchange(other.byteLength_, 0);
    bucketCount_ = other.bucketCount_;
    shape_ = other.shape_;
  }

  unsigned char* bytes_ = nullptr;
  std::size_t byteLength_ = 0;
  std::uint64_t bucketCount_ = 0;
  PackedShape shape_;
};

}  // namespace cuckoo
