// The one out-of-line copy of XXH3-64 (item_hash.hpp): the lengths items
// have (up to 128 bytes: keys, numbers, short strings) compiled for speed
// here, longer inputs (long items, the format's checksum) through
// item_hash_long.cpp, compiled for size in WebAssembly. The dispatch is
// XXH3_64bits_withSeed's own, so the hash is the same.

#include "item_hash.hpp"

namespace cuckoo::detail {

std::uint64_t xxh3WithSeed(const void* data, std::size_t length, std::uint64_t seed) noexcept {
  const auto* bytes = static_cast<const xxh_u8*>(data);
  if (length <= 16) return XXH3_len_0to16_64b(bytes, length, XXH3_kSecret, seed);
  if (length <= 128) return XXH3_len_17to128_64b(bytes, length, XXH3_kSecret, sizeof XXH3_kSecret, seed);
  return xxh3LongWithSeed(data, length, seed);
}

#if defined(__wasm__)
std::uint64_t multiplyShiftKey(const MultiplyShiftHash& hash, std::uint64_t key) noexcept { return hash(key); }
#endif

}  // namespace cuckoo::detail
