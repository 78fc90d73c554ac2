#include "cuckoo/semi_sorted_table.hpp"

#include <cstdlib>
#include <cstring>

namespace cuckoo {

static_assert(semisort::rankNibbles(15, 15, 15, 15) == kNibbleMultisets - 1, "the ranks fill [0, 3876)");
static_assert((1U << kNibbleRankBits) >= kNibbleMultisets, "a rank fits its field");

std::uint64_t SemiSortedTable::bytesFor(unsigned fingerprintBits, std::uint64_t bucketCount) noexcept {
  const std::uint64_t bytes = (bucketCount * bucketBitsFor(fingerprintBits) + 7) / 8 + kTablePaddingBytes;
  return bytes > kMaxTableBytes ? 0 : bytes;
}

Status SemiSortedTable::allocate(unsigned fingerprintBits, std::uint64_t bucketCount, SemiSortedTable& out) noexcept {
  const std::uint64_t bytes = bytesFor(fingerprintBits, bucketCount);
  if (bytes == 0) return Status::kTableTooLarge;
  void* memory = std::calloc(static_cast<std::size_t>(bytes), 1);
  if (memory == nullptr) return Status::kOutOfMemory;
  SemiSortedTable table;
  table.bytes_ = static_cast<unsigned char*>(memory);
  table.byteLength_ = static_cast<std::size_t>(bytes);
  table.bucketCount_ = bucketCount;
  table.bitsPerEntry_ = fingerprintBits;
  table.bucketBits_ = static_cast<unsigned>(bucketBitsFor(fingerprintBits));
  out = std::move(table);
  return Status::kOk;
}

Status SemiSortedTable::copyTo(SemiSortedTable& out) const noexcept {
  void* memory = std::malloc(byteLength_ == 0 ? 1 : byteLength_);
  if (memory == nullptr) return Status::kOutOfMemory;
  if (byteLength_ != 0) std::memcpy(memory, bytes_, byteLength_);
  SemiSortedTable copy;
  copy.bytes_ = static_cast<unsigned char*>(memory);
  copy.byteLength_ = byteLength_;
  copy.bucketCount_ = bucketCount_;
  copy.bitsPerEntry_ = bitsPerEntry_;
  copy.bucketBits_ = bucketBits_;
  out = std::move(copy);
  return Status::kOk;
}

void semisort::encodeEntries(unsigned char* bytes, std::uint64_t bitPos, unsigned fingerprintBits, std::uint32_t first,
                             std::uint32_t second, std::uint32_t third, std::uint32_t fourth) noexcept {
  Bucket contents{{first, second, third, fourth}};
  const unsigned bucketBits = 4 * fingerprintBits - 4;
  if (bucketBits <= 57) {
    // The whole bucket assembled in a register, one write.
    bits::write(bytes, bitPos, bucketBits, encodeWindow(contents, fingerprintBits));
    return;
  }
  sortFour(contents.entries);
  const unsigned lowBits = fingerprintBits - 4;
  const std::uint32_t lowMask = (std::uint32_t{1} << lowBits) - 1;
  const std::uint32_t* e = contents.entries;
  const std::uint32_t rank = rankNibbles(e[0] >> lowBits, e[1] >> lowBits, e[2] >> lowBits, e[3] >> lowBits);
  bits::write(bytes, bitPos, kNibbleRankBits, rank);
  for (unsigned s = 0; s < 4; ++s) bits::write(bytes, bitPos + kNibbleRankBits + s * lowBits, lowBits, e[s] & lowMask);
}

semisort::Bucket semisort::decode(const unsigned char* bytes, std::uint64_t bitPos, unsigned fingerprintBits) noexcept {
  // Up to f = 15 (56 bits) a bucket fits the 57 bits one window always holds.
  const unsigned bucketBits = 4 * fingerprintBits - 4;
  if (bucketBits <= 57) return decodeWindow(bits::read(bytes, bitPos, bucketBits), fingerprintBits);
  return decodeFields(bytes, bitPos, fingerprintBits);
}

semisort::Bucket SemiSortedTable::decode(std::uint64_t bucket) const noexcept {
  return semisort::decode(bytes_, bucket * bucketBits_, bitsPerEntry_);
}

bool SemiSortedTable::validatePayload(const unsigned char* bytes, std::size_t byteCount, unsigned fingerprintBits,
                                      std::uint64_t bucketCount, std::uint64_t& nonZeroEntries) noexcept {
  // A payload carries no padding: read it through a padded copy of each
  // bucket so that no load runs past `byteCount`.
  const std::uint64_t bucketBits = bucketBitsFor(fingerprintBits);
  unsigned char scratch[16 + 8 + kTablePaddingBytes];  // a bucket is at most 124 bits, plus a 7-bit offset
  std::uint64_t count = 0;
  for (std::uint64_t i = 0; i < bucketCount; ++i) {
    const std::uint64_t bitPos = i * bucketBits;
    const std::uint64_t firstByte = bitPos >> 3;
    const std::uint64_t endByte = (bitPos + bucketBits + 7) >> 3;
    if (endByte > byteCount) return false;
    std::memset(scratch, 0, sizeof scratch);
    std::memcpy(scratch, bytes + firstByte, static_cast<std::size_t>(endByte - firstByte));
    const std::uint64_t localPos = bitPos & 7;
    if (bits::read(scratch, localPos, kNibbleRankBits) >= kNibbleMultisets) return false;
    const semisort::Bucket b = bucketBits <= 57
                                   ? semisort::decodeWindow(bits::read(scratch, localPos, static_cast<unsigned>(bucketBits)), fingerprintBits)
                                   : semisort::decodeFields(scratch, localPos, fingerprintBits);
    for (unsigned s = 0; s < 4; ++s) {
      if (s > 0 && b.entries[s - 1] > b.entries[s]) return false;  // not in canonical (sorted) order
      count += b.entries[s] != 0 ? 1 : 0;
    }
  }
  nonZeroEntries = count;
  return true;
}

void SemiSortedTable::clear() noexcept {
  if (bytes_ != nullptr) std::memset(bytes_, 0, byteLength_);
}

std::uint64_t SemiSortedTable::occupiedEntries() const noexcept {
  std::uint64_t count = 0;
  for (std::uint64_t i = 0; i < bucketCount_; ++i) {
    const semisort::Bucket b = decode(i);
    for (const std::uint32_t entry : b.entries) count += entry != 0 ? 1 : 0;
  }
  return count;
}

void SemiSortedTable::release() noexcept {
  std::free(bytes_);
  bytes_ = nullptr;
  byteLength_ = 0;
}

}  // namespace cuckoo
