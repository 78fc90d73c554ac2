#pragma once
// The deterministic generator that picks eviction victims.
//
// Insert (Algorithm 1 of the paper) needs random choices; they come from this
// SplitMix64 sequence, seeded from the filter seed and stored in serialized
// filters, so that one seed and one sequence of operations produce the same
// table bytes on every platform (native x86-64, wasm32, ...). Integer-only
// arithmetic keeps it platform-independent. FROZEN like hashing.hpp.

#include <cstdint>

namespace cuckoo {

class SplitMix64 {
 public:
  constexpr SplitMix64() noexcept = default;
  constexpr explicit SplitMix64(std::uint64_t state) noexcept : state_(state) {}

  // Starting state for a filter: the seed offset by a constant so that seed 0
  // does not start the sequence at state 0.
  static constexpr SplitMix64 fromSeed(std::uint64_t seed) noexcept {
    return SplitMix64(seed ^ 0x6a09e667f3bcc909ULL);
  }

  constexpr std::uint64_t next() noexcept {
    state_ += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  constexpr std::uint64_t state() const noexcept { return state_; }

 private:
  std::uint64_t state_ = 0;
};

}  // namespace cuckoo
