#pragma once
// What the bucket views (buckets.hpp) share: lanes of fingerprints in a
// 64-bit word, and which buckets one load holds.

#include <cstdint>

namespace cuckoo::detail {

inline unsigned lowestSlot(std::uint32_t slotSet) noexcept { return static_cast<unsigned>(__builtin_ctz(slotSet)); }

// A bucket fits one 64-bit load when its bits plus the largest shift its
// start can have inside a byte fit in 64: buckets of w bits start at bit
// offsets i*w mod 8, whose largest value is 8 - gcd(w, 8) (0 for whole bytes).
constexpr bool fitsOneLoad(unsigned bucketBits) noexcept {
  const unsigned alignment = bucketBits % 8 == 0 ? 8 : bucketBits % 4 == 0 ? 4 : bucketBits % 2 == 0 ? 2 : 1;
  return bucketBits + (8 - alignment) % 8 <= 64;
}

// Bit s*f (the lowest bit of every lane) of `slots` lanes of `bits` bits.
constexpr std::uint64_t laneLowBits(unsigned slots, unsigned bits) noexcept {
  std::uint64_t lanes = 0;
  for (unsigned s = 0; s < slots; ++s) lanes |= std::uint64_t{1} << (s * bits);
  return lanes;
}

}  // namespace cuckoo::detail
