// SipHash-1-3 (keyed_hash.hpp), written from the algorithm's description:
// four 64-bit lanes started from the key, each 8-byte little-endian word of
// the input mixed in with one round, the last partial word padded with the
// length in its top byte, then three rounds.

#include "keyed_hash.hpp"

namespace cuckoo::detail {
namespace {

constexpr std::uint64_t rotl(std::uint64_t x, unsigned bits) noexcept { return x << bits | x >> (64 - bits); }

struct Lanes {
  std::uint64_t v0, v1, v2, v3;
  void round() noexcept {
    v0 += v1;
    v1 = rotl(v1, 13) ^ v0;
    v0 = rotl(v0, 32);
    v2 += v3;
    v3 = rotl(v3, 16) ^ v2;
    v0 += v3;
    v3 = rotl(v3, 21) ^ v0;
    v2 += v1;
    v1 = rotl(v1, 17) ^ v2;
    v2 = rotl(v2, 32);
  }
  void absorb(std::uint64_t word) noexcept {
    v3 ^= word;
    round();
    v0 ^= word;
  }
};

std::uint64_t littleEndianWord(const unsigned char* bytes, std::size_t count) noexcept {
  std::uint64_t word = 0;
  for (std::size_t i = 0; i < count; ++i) word |= std::uint64_t{bytes[i]} << (8 * i);
  return word;
}

}  // namespace

std::uint64_t sipHash13(const void* data, std::size_t length, std::uint64_t k0, std::uint64_t k1) noexcept {
  Lanes lanes{k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL, k0 ^ 0x6c7967656e657261ULL,
              k1 ^ 0x7465646279746573ULL};
  const auto* bytes = static_cast<const unsigned char*>(data);
  const std::size_t whole = length & ~std::size_t{7};
  for (std::size_t at = 0; at < whole; at += 8) lanes.absorb(littleEndianWord(bytes + at, 8));
  lanes.absorb(littleEndianWord(bytes + whole, length - whole) | std::uint64_t{length & 0xff} << 56);
  lanes.v2 ^= 0xff;
  lanes.round();
  lanes.round();
  lanes.round();
  return lanes.v0 ^ lanes.v1 ^ lanes.v2 ^ lanes.v3;
}

}  // namespace cuckoo::detail
