// XXH3-64 of inputs longer than 128 bytes (item_hash.cpp dispatches here):
// rare for items, and in WebAssembly compiled for size (cpp/CMakeLists.txt),
// where XXH3's unrolled long-input loops are most of its code.

#include "item_hash.hpp"

namespace cuckoo::detail {

std::uint64_t xxh3LongWithSeed(const void* data, std::size_t length, std::uint64_t seed) noexcept {
  return XXH3_64bits_withSeed(data, length, seed);
}

}  // namespace cuckoo::detail
