#pragma once
// The item hash (hash id 1 in hashing.hpp). Private to the core's sources so
// that xxhash.h, which CMake copies into the build tree, never leaks into the
// public headers. XXH_INLINE_ALL makes XXH3 inline here and keeps native and
// wasm builds on the same code path, so both give identical hashes.

#include <cstddef>
#include <cstdint>

#define XXH_INLINE_ALL
#include "xxhash.h"

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/hashing.hpp"
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

// The hash of a key of a multiplyShiftHash filter (hash ids 6 to 11):
// inlined natively, one out-of-line copy in WebAssembly (item_hash.cpp), whose
// four-product form (ids 6 to 9) would otherwise be compiled into every entry
// point of the downloaded module.
#if defined(__wasm__)
std::uint64_t multiplyShiftKey(const MultiplyShiftHash& hash, std::uint64_t key) noexcept;
#else
[[gnu::always_inline]] inline std::uint64_t multiplyShiftKey(const MultiplyShiftHash& hash, std::uint64_t key) noexcept {
  return hash(key);
}
#endif

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

// The item hash of one filter: XXH3-64 under its seed (hash ids 1 and 2),
// with what XXH3's path for 8 bytes derives from the seed computed once per
// filter rather than once per item, the keyed hash (hash ids 4 and 5), or
// a hash of keys for 8-byte items (hash ids 6 to 11). An 8-byte item is also
// taken as its value, `key`, whose little-endian bytes it is, so that a key
// needs no trip through memory. tests/cpp/test_hashing.cpp checks it against
// XXH3, tests/cpp/test_mulshift_hash.cpp against FORMAT.md's vectors.
struct ItemHash {
  std::uint64_t seed;
  std::uint64_t eightByteFlip;  // XXH3_len_4to8_64b's bitflip for `seed`
  bool keyed;
  bool multiplyShifted = false;
  // The filter's constants (CuckooFilter::multiplyShift_), by address: a
  // kernel's entry points copy no 32 bytes per call.
  const MultiplyShiftHash* multiplyShift = nullptr;

  static ItemHash forSeed(std::uint64_t seed, bool keyed = false) noexcept {
    // XXH3_kSecret's words at bytes 8 and 16, XORed (a constant, so that
    // WebAssembly's create() carries no reads of the secret).
    constexpr std::uint64_t kSecretWords = 0xc73ab174c5ecd5a2ULL;
    const std::uint64_t mixedSeed = seed ^ (std::uint64_t{__builtin_bswap32(static_cast<std::uint32_t>(seed))} << 32);
    return ItemHash{seed, kSecretWords - mixedSeed, keyed};
  }
  // The hash of a filter of `params` whose multiply-shift constants are `constants`.
  static ItemHash forParams(const FilterParams& params, const MultiplyShiftHash& constants) noexcept {
    ItemHash hash = forSeed(params.seed, params.keyedHash);
    hash.multiplyShifted = params.multiplyShiftHash;
    hash.multiplyShift = &constants;
    return hash;
  }

  std::uint64_t ofBytes(const void* item, std::size_t length) const noexcept {
    if (multiplyShifted && length == 8) return multiplyShiftKey(*multiplyShift, keyOf(item));
    return hashItem(item, length, seed, keyed);
  }
  // XXH3_len_4to8_64b of the key's 8 bytes: it reads them as two 32-bit
  // halves and puts the first above the second, a rotation of the key.
  [[gnu::always_inline]] std::uint64_t ofKey(std::uint64_t key) const noexcept {
    if (keyed) return keyedItemHash(&key, sizeof key, seed);
    if (multiplyShifted) return multiplyShiftKey(*multiplyShift, key);
    return XXH3_rrmxmx(XXH_rotl64(key, 32) ^ eightByteFlip, 8);
  }
  [[gnu::always_inline]] static std::uint64_t keyOf(const void* item) noexcept { return XXH_readLE64(item); }
};

// The serialized format's checksum (FORMAT.md): XXH3-64 with seed 0. Frozen
// with format version 1, independently of the item hash's id.
inline std::uint64_t formatChecksum(const unsigned char* data, std::size_t length) noexcept {
  return xxh3WithSeed(data, length, 0);
}

}  // namespace cuckoo::detail
