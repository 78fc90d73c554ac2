#pragma once
// The keyed item hash of hash ids 4 and 5 (hashing.hpp): SipHash-1-3 of the
// item bytes under a key made from the filter's seed. Unlike XXH3, which is
// fast but not built to keep its seed secret from whoever sees its outputs,
// SipHash is a pseudorandom function: answers about some items tell nothing
// about where other items go without the key.

#include <cstddef>
#include <cstdint>

namespace cuckoo::detail {

// SipHash-1-3 (Aumasson and Bernstein: one compression round per word, three
// finalization rounds) of `length` bytes under the key (k0, k1).
std::uint64_t sipHash13(const void* data, std::size_t length, std::uint64_t k0, std::uint64_t k1) noexcept;

// The key's second word, from the seed (FORMAT.md, hash ids 4 and 5).
inline constexpr std::uint64_t kKeyedHashSecondWordMask = 0x9e3779b97f4a7c15ULL;

inline std::uint64_t keyedItemHash(const void* data, std::size_t length, std::uint64_t seed) noexcept {
  return sipHash13(data, length, seed, seed ^ kKeyedHashSecondWordMask);
}

}  // namespace cuckoo::detail
