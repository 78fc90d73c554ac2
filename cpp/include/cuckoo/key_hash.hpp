#pragma once
// The hashes of an 8-byte key of a multiplyShiftHash filter (hash ids 6 to
// 11), as C++: which of them a filter has, and their computation. Frozen like
// every layout; hashing.hpp has their definitions beside the other hash ids'
// and builds the bucket relations on top.

#include <cstdint>

#include "cuckoo/prng.hpp"

namespace cuckoo {

// Which hash of 64-bit keys a multiplyShiftHash filter has (FilterParams::keyHash).
enum class KeyHash : std::uint8_t {
  kMultiplyShift,       // hash ids 6 and 7 (format version 5): loaded only
  kMixedMultiplyShift,  // hash ids 8 and 9 (format version 6): loaded only
  kSeededMix,           // hash ids 10 and 11 (format version 7): new filters
};

// MurmurHash3's 64-bit finalizer, a bijection on uint64: what hash ids 8 and
// 9 apply to a key before multiply-shift, and ids 10 and 11 to the key XOR a
// seed word.
constexpr std::uint64_t mixKey64(std::uint64_t key) noexcept {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  key *= 0xc4ceb9fe1a85ec53ULL;
  key ^= key >> 33;
  return key;
}

// Hash ids 6 to 11, the hashes of an 8-byte key, their constants drawn once
// per filter from the seed (the name is the first ids'). Ids 6 and 7 are
// multiply-add-shift, linear in the key, and cuckoo hashing over a linear
// hash fails on structured key sets (sequential integers, multiples,
// timestamps) long before the table is full (FORMAT.md, version 6); ids 8
// and 9 mix the key first; ids 10 and 11 mix the key XOR aHigh and stop
// there (version 7). Ids 6 to 9 stay only for filters saved with them.
inline constexpr std::uint64_t kMultiplyShiftSeedMask = 0xbb67ae8584caa73bULL;
struct MultiplyShiftHash {
  std::uint64_t aHigh, aLow, bHigh, bLow;
  KeyHash form;

  static constexpr MultiplyShiftHash forSeed(std::uint64_t seed, KeyHash form) noexcept {
    SplitMix64 draws(seed ^ kMultiplyShiftSeedMask);
    const std::uint64_t aHigh = draws.next();
    const std::uint64_t aLow = draws.next();
    const std::uint64_t bHigh = draws.next();
    return MultiplyShiftHash{aHigh, aLow, bHigh, draws.next(), form};
  }
  [[gnu::always_inline]] constexpr std::uint64_t operator()(std::uint64_t key) const noexcept {
    if (form == KeyHash::kSeededMix) return hashOf<KeyHash::kSeededMix>(key);
    return form == KeyHash::kMixedMultiplyShift ? hashOf<KeyHash::kMixedMultiplyShift>(key)
                                                : hashOf<KeyHash::kMultiplyShift>(key);
  }
  // The same hash for a caller that knows its filter's ids when compiled: no
  // test of `form`, and fewer fields held in a loop's registers.
  template <KeyHash Form>
  [[gnu::always_inline]] constexpr std::uint64_t hashOf(std::uint64_t key) const noexcept {
    if constexpr (Form == KeyHash::kSeededMix) return mixKey64(key ^ aHigh);
    if constexpr (Form == KeyHash::kMixedMultiplyShift) return multiplyShift(mixKey64(key));
    return multiplyShift(key);
  }
  // Bits 64..127 of A * key + B: the carry out of the low words' product and
  // sum, plus the high words' contribution below 2^128.
  [[gnu::always_inline]] constexpr std::uint64_t multiplyShift(std::uint64_t key) const noexcept {
#if defined(__SIZEOF_INT128__) && !defined(__wasm__)
    __extension__ using Wide = unsigned __int128;
    const Wide low = static_cast<Wide>(aLow) * key + bLow;  // at most 2^128 - 2^64: no overflow
    return static_cast<std::uint64_t>(low >> 64) + aHigh * key + bHigh;
#else
    // WebAssembly has no 64 x 64 -> 128-bit multiply: a 128-bit product there
    // is a call to compiler-rt's __multi3, which measured slower than XXH3's
    // path; four 32 x 32 -> 64-bit products inline give the same bits.
    const std::uint64_t lowWord = aLow * key + bLow;
    const std::uint64_t carry = lowWord < bLow ? 1 : 0;
    return highProduct(aLow, key) + carry + aHigh * key + bHigh;
#endif
  }

  // Bits 64..127 of a * b, from 32-bit halves.
  static constexpr std::uint64_t highProduct(std::uint64_t a, std::uint64_t b) noexcept {
    const std::uint64_t a0 = a & 0xFFFFFFFFU, a1 = a >> 32, b0 = b & 0xFFFFFFFFU, b1 = b >> 32;
    const std::uint64_t cross1 = a0 * b1, cross2 = a1 * b0;
    const std::uint64_t middle = ((a0 * b0) >> 32) + (cross1 & 0xFFFFFFFFU) + (cross2 & 0xFFFFFFFFU);
    return a1 * b1 + (cross1 >> 32) + (cross2 >> 32) + (middle >> 32);
  }
};

}  // namespace cuckoo
