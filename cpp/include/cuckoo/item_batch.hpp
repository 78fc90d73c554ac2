#pragma once
// Many items in one buffer, for the batch operations of CuckooFilter and the
// Bloom filters: either `count` items of `width` bytes each, back to back (the
// 8-byte integers of a typed array), or `count` items packed back to back,
// item k spanning [offsets[k], offsets[k + 1]) of `data` (strings, byte
// arrays). The batch only points at memory the caller owns.

#include <cstddef>
#include <cstdint>

namespace cuckoo {

struct ItemBatch {
  const unsigned char* data = nullptr;
  const std::uint32_t* offsets = nullptr;  // null: fixed width
  std::uint32_t width = 0;
  std::size_t count = 0;

  static ItemBatch fixed(const void* data, std::uint32_t width, std::size_t count) noexcept {
    return ItemBatch{static_cast<const unsigned char*>(data), nullptr, width, count};
  }
  // `offsets` holds count + 1 entries.
  static ItemBatch packed(const void* data, const std::uint32_t* offsets, std::size_t count) noexcept {
    return ItemBatch{static_cast<const unsigned char*>(data), offsets, 0, count};
  }

  const unsigned char* item(std::size_t k) const noexcept {
    return offsets != nullptr ? data + offsets[k] : data + k * width;
  }
  std::size_t length(std::size_t k) const noexcept {
    return offsets != nullptr ? std::size_t{offsets[k + 1]} - offsets[k] : width;
  }
};

}  // namespace cuckoo
