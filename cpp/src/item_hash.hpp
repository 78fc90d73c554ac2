#pragma once
// The item hash (hash id 1 in hashing.hpp). Private to the core's sources so
// that xxhash.h, which CMake copies into the build tree, never leaks into the
// public headers. XXH_INLINE_ALL makes XXH3 inline here and keeps native and
// wasm builds on the same code path, so both give identical hashes.

#include <cstddef>
#include <cstdint>

#define XXH_INLINE_ALL
#include "xxhash.h"

namespace cuckoo::detail {

inline std::uint64_t hashItem(const void* data, std::size_t length, std::uint64_t seed) noexcept {
  return XXH3_64bits_withSeed(data, length, seed);
}

// The serialized format's checksum (FORMAT.md): XXH3-64 with seed 0. Frozen
// with format version 1, independently of the item hash's id.
inline std::uint64_t formatChecksum(const unsigned char* data, std::size_t length) noexcept {
  return XXH3_64bits_withSeed(data, length, 0);
}

}  // namespace cuckoo::detail
