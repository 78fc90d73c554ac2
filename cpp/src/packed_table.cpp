#include "cuckoo/packed_table.hpp"

#include <cstdlib>

#include "cuckoo/detail/buckets.hpp"
#include <utility>

namespace cuckoo {

// The table is addressed as little-endian bytes through memcpy'd 64-bit loads;
// wasm32 and every supported native target are little-endian.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the packed table assumes a little-endian host");

std::uint64_t PackedTable::bytesFor(unsigned fingerprintBits, unsigned bucketSize,
                                    std::uint64_t bucketCount) noexcept {
  // At most 2^32 * 8 * 32 = 2^40 bits: no overflow in 64-bit arithmetic.
  const std::uint64_t payloadBits = bucketCount * bucketSize * fingerprintBits;
  const std::uint64_t bytes = (payloadBits + 7) / 8 + kTablePaddingBytes;
  return bytes > kMaxTableBytes ? 0 : bytes;
}

PackedShape PackedShape::of(unsigned bitsPerEntry, unsigned slotsPerBucket) noexcept {
  PackedShape shape;
  shape.bitsPerEntry = bitsPerEntry;
  shape.slotsPerBucket = slotsPerBucket;
  const unsigned bucketBits = bitsPerEntry * slotsPerBucket;
  shape.oneLoad = detail::fitsOneLoad(bucketBits);
  if (shape.oneLoad) {
    shape.bucketMask = bucketBits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bucketBits) - 1;
    shape.laneLowBits = detail::laneLowBits(slotsPerBucket, bitsPerEntry);
    shape.laneHighBits = shape.laneLowBits << (bitsPerEntry - 1);
  }
  return shape;
}

Status PackedTable::allocate(unsigned fingerprintBits, unsigned bucketSize, std::uint64_t bucketCount,
                             PackedTable& out) noexcept {
  const std::uint64_t bytes = bytesFor(fingerprintBits, bucketSize, bucketCount);
  if (bytes == 0) return Status::kTableTooLarge;
  void* memory = std::calloc(static_cast<std::size_t>(bytes), 1);
  if (memory == nullptr) return Status::kOutOfMemory;
  PackedTable table;
  table.bytes_ = static_cast<unsigned char*>(memory);
  table.byteLength_ = static_cast<std::size_t>(bytes);
  table.bucketCount_ = bucketCount;
  table.shape_ = PackedShape::of(fingerprintBits, bucketSize);
  out = std::move(table);
  return Status::kOk;
}

Status PackedTable::copyTo(PackedTable& out) const noexcept {
  void* memory = std::malloc(byteLength_ == 0 ? 1 : byteLength_);
  if (memory == nullptr) return Status::kOutOfMemory;
  if (byteLength_ != 0) std::memcpy(memory, bytes_, byteLength_);
  PackedTable copy;
  copy.bytes_ = static_cast<unsigned char*>(memory);
  copy.byteLength_ = byteLength_;
  copy.bucketCount_ = bucketCount_;
  copy.shape_ = shape_;
  out = std::move(copy);
  return Status::kOk;
}

std::uint64_t PackedTable::countNonZeroEntries(const unsigned char* bytes, std::size_t byteCount,
                                               unsigned bitsPerEntry, std::uint64_t entryCount) noexcept {
  // Entries are tested a group at a time inside one 64-bit load, with the lane
  // trick of packed_buckets.hpp's zeroLaneTops. A load starts at the byte holding the group's
  // first bit, so up to 7 leading bits are shifted out: a group gets 57 bits.
  const unsigned lanes = 57 / bitsPerEntry;
  const unsigned groupBits = lanes * bitsPerEntry;
  const std::uint64_t groupMask = (std::uint64_t{1} << groupBits) - 1;
  std::uint64_t laneHighBits = 0;
  for (unsigned s = 0; s < lanes; ++s) laneHighBits |= std::uint64_t{1} << (s * bitsPerEntry + bitsPerEntry - 1);
  const std::uint64_t laneLowBits = groupMask & ~laneHighBits;

  std::uint64_t nonZero = 0;
  std::uint64_t entry = 0;
  std::uint64_t bitPos = 0;
  while (entry + lanes <= entryCount && (bitPos >> 3) + sizeof(std::uint64_t) <= byteCount) {
    const std::uint64_t group = bits::window(bytes, bitPos) & groupMask;
    // A lane's top bit ends up set exactly when the lane is non-zero: either
    // its own top bit is set or its low bits carry into it.
    const std::uint64_t nonZeroTops = (((group & laneLowBits) + laneLowBits) | group) & laneHighBits;
    nonZero += static_cast<std::uint64_t>(__builtin_popcountll(nonZeroTops));
    entry += lanes;
    bitPos += groupBits;
  }
  // The last few entries, where a 64-bit load would run past the buffer.
  const std::uint64_t entryMask = (std::uint64_t{1} << bitsPerEntry) - 1;
  for (; entry < entryCount; ++entry, bitPos += bitsPerEntry) {
    const std::uint64_t firstByte = bitPos >> 3;
    const std::uint64_t endByte = (bitPos + bitsPerEntry + 7) >> 3;
    std::uint64_t window = 0;
    for (std::uint64_t i = firstByte; i < endByte; ++i) window |= std::uint64_t{bytes[i]} << (8 * (i - firstByte));
    nonZero += ((window >> (bitPos & 7)) & entryMask) != 0 ? 1 : 0;
  }
  return nonZero;
}

void PackedTable::release() noexcept {
  std::free(bytes_);
  bytes_ = nullptr;
  byteLength_ = 0;
}

}  // namespace cuckoo
