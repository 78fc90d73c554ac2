// The rank -> nibbles table of semi-sorted buckets (semi_sorted_table.hpp),
// filled when the program starts. Its own file, compiled for size in
// WebAssembly (cpp/CMakeLists.txt), where the optimizer would otherwise
// evaluate the loop at build time and ship the 7.6 KiB table in the download.

#include "cuckoo/semi_sorted_table.hpp"

namespace cuckoo {
namespace {

std::array<std::uint16_t, kNibbleMultisets> unrankTable() {
  std::array<std::uint16_t, kNibbleMultisets> table{};
  for (unsigned a = 0; a < 16; ++a)
    for (unsigned b = a; b < 16; ++b)
      for (unsigned c = b; c < 16; ++c)
        for (unsigned d = c; d < 16; ++d)
          table[semisort::rankNibbles(a, b, c, d)] = static_cast<std::uint16_t>(a | b << 4 | c << 8 | d << 12);
  return table;
}

}  // namespace

// Nothing reads it during static initialization, so its own dynamic
// initialization order does not matter.
const std::array<std::uint16_t, kNibbleMultisets> semisort::kUnrank = unrankTable();

}  // namespace cuckoo
