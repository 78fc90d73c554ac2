#pragma once
// The item hash (hash id 1 in hashing.hpp). Private to the core's sources so
// that xxhash.h, which CMake copies into the build tree, never leaks into the
// public headers. XXH_INLINE_ALL makes XXH3 inline here and keeps native and
// wasm builds on the same code path, so both give identical hashes.

#include <cstddef>
#include <cstdint>

#define XXH_INLINE_ALL
#include "xxhash.h"

#include "keyed_hash.hpp"

namespace cuckoo::detail {

// XXH3-64 of any length, out of line (item_hash.cpp): the item hash and the
// format's checksum share one copy of XXH3's length dispatch, compiled for
// speed even where the code around it is compiled for size (the WebAssembly
// modules), and of its long-input loop (item_hash_long.cpp).
std::uint64_t xxh3WithSeed(const void* data, std::size_t length, std::uint64_t seed) noexcept;
// XXH3-64 of more than 128 bytes.
std::uint64_t xxh3LongWithSeed(const void* data, std::size_t length, std::uint64_t seed) noexcept;

inline std::uint64_t hashItem(const void* data, std::size_t length, std::uint64_t seed) noexcept {
  return xxh3WithSeed(data, length, seed);
}

// hashItem of an 8-byte item (a number from JavaScript, an element of a
// typed array): the path XXH3_64bits_withSeed takes for 4 to 8 bytes, called
// directly, so that it inlines into the kernels instead of a call through
// XXH3's length dispatch, which compilers keep out of line. The hash vectors
// of FORMAT.md (tests/cpp/test_hashing.cpp) check that it is the same hash.
[[gnu::always_inline]] inline std::uint64_t hashEightBytes(const void* data, std::uint64_t seed) noexcept {
  return XXH3_len_4to8_64b(static_cast<const xxh_u8*>(data), 8, XXH3_kSecret, seed);
}

// The item hash of a filter with or without a keyed hash (hashing.hpp: hash
// ids 1 and 2, or 4 and 5).
inline std::uint64_t hashItem(const void* data, std::size_t length, std::uint64_t seed, bool keyed) noexcept {
  return keyed ? keyedItemHash(data, length, seed) : hashItem(data, length, seed);
}

// The serialized format's checksum (FORMAT.md): XXH3-64 with seed 0. Frozen
// with format version 1, independently of the item hash's id.
inline std::uint64_t formatChecksum(const unsigned char* data, std::size_t length) noexcept {
  return xxh3WithSeed(data, length, 0);
}

}  // namespace cuckoo::detail
