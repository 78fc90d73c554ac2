#pragma once
// A table as patches see it: buckets of `slots` values of `slotBits` bits,
// plain (slot s of bucket i at bits [(i·slots + s)·W, ...)) or semi-sorted
// (FORMAT.md: four values kept ascending, a bucket of 4W − 4 bits), over the
// bytes of a CuckooFilter's table (W = f) or a growable filter's (W = r + T).
// Slot s of a semi-sorted bucket is its s-th value in ascending order. The
// bytes are followed by the tables' padding, so every read and write is one
// 64-bit access (bit_io.hpp).

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cuckoo/bit_io.hpp"
#include "cuckoo/semi_sorted_table.hpp"

namespace cuckoo::detail {

inline constexpr unsigned kMaxPatchSlots = 8;

struct TableView {
  unsigned char* bytes = nullptr;
  std::uint64_t buckets = 0;
  unsigned slots = 0;
  unsigned slotBits = 0;
  bool semiSorted = false;

  std::uint64_t bucketBits() const noexcept {
    return semiSorted ? 4 * std::uint64_t{slotBits} - 4 : std::uint64_t{slots} * slotBits;
  }
  std::uint64_t slotCount() const noexcept { return buckets * slots; }
  std::size_t payloadBytes() const noexcept { return static_cast<std::size_t>((buckets * bucketBits() + 7) / 8); }
  // Two tables of one shape: their bytes compare bucket for bucket.
  bool sameShape(const TableView& other) const noexcept {
    return buckets == other.buckets && slots == other.slots && slotBits == other.slotBits &&
           semiSorted == other.semiSorted;
  }

  void read(std::uint64_t bucket, std::uint32_t* values) const noexcept {
    const std::uint64_t at = bucket * bucketBits();
    if (semiSorted) {
      const semisort::Bucket b = bucketBits() <= 57 ? semisort::decodeWindow(bits::read(bytes, at, static_cast<unsigned>(bucketBits())), slotBits)
                                                    : semisort::decodeFields(bytes, at, slotBits);
      for (unsigned s = 0; s < 4; ++s) values[s] = b.entries[s];
      return;
    }
    for (unsigned s = 0; s < slots; ++s) values[s] = static_cast<std::uint32_t>(bits::read(bytes, at + s * slotBits, slotBits));
  }

  // Semi-sorted values must be ascending: encoding sorts them.
  void write(std::uint64_t bucket, const std::uint32_t* values) noexcept {
    const std::uint64_t at = bucket * bucketBits();
    if (semiSorted) {
      semisort::Bucket b;
      for (unsigned s = 0; s < 4; ++s) b.entries[s] = values[s];
      semisort::encode(bytes, at, slotBits, b);
      return;
    }
    for (unsigned s = 0; s < slots; ++s) bits::write(bytes, at + s * slotBits, slotBits, values[s]);
  }

  // Whether bucket `bucket` holds the same bits here and in `other` (of the same shape).
  bool sameBucket(const TableView& other, std::uint64_t bucket) const noexcept {
    const std::uint64_t width = bucketBits();
    const std::uint64_t at = bucket * width;
    for (std::uint64_t done = 0; done < width; done += 32) {
      const unsigned part = static_cast<unsigned>(width - done < 32 ? width - done : 32);
      if (bits::read(bytes, at + done, part) != bits::read(other.bytes, at + done, part)) return false;
    }
    return true;
  }

  // Whether buckets [8g, 8g + 8), a whole number of bytes, are the same here and in `other`.
  bool sameGroupOfEight(const TableView& other, std::uint64_t group) const noexcept {
    const std::uint64_t width = bucketBits();  // 8 buckets: `width` bytes
    return std::memcmp(bytes + group * width, other.bytes + group * width, static_cast<std::size_t>(width)) == 0;
  }
};

}  // namespace cuckoo::detail
