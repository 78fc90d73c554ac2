// The one out-of-line copy of XXH3-64 (item_hash.hpp).

#include "item_hash.hpp"

namespace cuckoo::detail {

std::uint64_t xxh3WithSeed(const void* data, std::size_t length, std::uint64_t seed) noexcept {
  return XXH3_64bits_withSeed(data, length, seed);
}

}  // namespace cuckoo::detail
