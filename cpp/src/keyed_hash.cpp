// SipHash-1-3 (keyed_hash.hpp), written from the algorithm's description:
// four 64-bit lanes started from the key, each 8-byte little-endian word of
// the input mixed in with one round, the last partial word padded with the
// length in its top byte, then three rounds.

#include "keyed_hash.hpp"

#include <cstring>

namespace cuckoo::detail {
namespace {

constexpr std::uint64_t rotl(std::uint64_t x, unsigned bits) noexcept { return x << bits | x >> (64 - bits); }

struct Lanes {
  std::uint64_t v0, v1, v2, v3;
  // SipRound, `count` times (a loop: the downloaded module stays small).
  void rounds(unsigned count) noexcept {
    for (; count != 0; --count) {
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
  }
  void absorb(std::uint64_t word) noexcept {
    v3 ^= word;
    rounds(1);
    v0 ^= word;
  }
};

}  // namespace

std::uint64_t sipHash13(const void* data, std::size_t length, std::uint64_t k0, std::uint64_t k1) noexcept {
  Lanes lanes{k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL, k0 ^ 0x6c7967656e657261ULL,
              k1 ^ 0x7465646279746573ULL};
  const auto* bytes = static_cast<const unsigned char*>(data);
  const std::size_t whole = length & ~std::size_t{7};
  std::uint64_t word;
  for (std::size_t at = 0; at < whole; at += 8) {
    std::memcpy(&word, bytes + at, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word);  // the words are little-endian
#endif
    lanes.absorb(word);
  }
  word = std::uint64_t{length & 0xff} << 56;
  for (std::size_t k = whole; k < length; ++k) word |= std::uint64_t{bytes[k]} << (8 * (k - whole));
  lanes.absorb(word);
  lanes.v2 ^= 0xff;
  lanes.rounds(3);
  return lanes.v0 ^ lanes.v1 ^ lanes.v2 ^ lanes.v3;
}

}  // namespace cuckoo::detail
