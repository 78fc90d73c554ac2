#pragma once
// The growable filter's constants and sizing (scalable_filter.hpp has the
// design): slots per bucket, the load that triggers growth, the fixed
// fingerprint and the shortest tail, the false-positive bound that fixes the
// slot width at creation, and the first table's bucket count.

#include <cmath>
#include <cstdint>

#include "cuckoo/scalable_filter.hpp"

namespace cuckoo::detail::scalable {

inline constexpr unsigned kSlots = kScalableBucketSize;
inline constexpr double kMaxLoad = kScalableMaxLoad;
// r: enough distinct offsets that evictions reach high loads at any size.
inline constexpr unsigned kFixedBits = 8;
// T at least: tails that outlast 7 rounds of growth, so that entries copied
// to both halves of a split stay under 1 % however far the filter grows.
inline constexpr unsigned kMinTailBits = 8;
inline constexpr unsigned kMaxSlotBits = 32;
// A homeless entry grows the table only while the items fill at least this
// share of its slots (one item per 4 buckets), or while the table has fewer
// than kSmallTableBuckets buckets. Growth places an entry by splitting the
// buckets around it, which cannot separate it from copies of itself nor from
// entries whose tails are spent (a split copies those to both halves, so
// growing for them makes more of them); growing for such an entry went on to
// the largest table. Items that are not copies find room long before the
// load falls this low (after a growth by kMaxGrowth it is kMaxLoad / 2);
// items added several times each may need tables well below kMaxLoad, as
// their copies crowd shared buckets, and get them down to this load.
inline constexpr double kMinLoadToGrowForStash = 1.0 / 16;
inline constexpr std::uint64_t kSmallTableBuckets = 256;
inline constexpr double kMinFalsePositiveRate = 1e-7;

inline std::uint64_t mask(unsigned bits) noexcept { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

// A lookup compares 2b slots; a slot matches a stranger with odds
// 2^-(W - 1 - the bits its tail has lost). Entries lose a bit per split of
// their bucket: in a round of growth about half of the new entries lose one,
// and each older round has lost one more from as many entries as all later
// rounds added, so every round adds about the same to the false-positive rate:
// measured, 2 + 1.65 * rounds times 2b * load * 2^-W; the bound takes
// 2 * (rounds + 1). A round's share never shrinks afterwards (its entries
// lose bits as fast as the table grows), so the width is chosen once, for all
// the rounds the filter can grow: up to the largest table.
inline double falsePositiveBoundFor(unsigned slotBits, unsigned rounds) noexcept {
  return 2.0 * kSlots * kMaxLoad * 2.0 * (rounds + 1) * std::ldexp(1.0, -static_cast<int>(slotBits));
}

// The narrowest slot whose bound holds after `rounds` rounds; exact
// arithmetic (ldexp, products), so native and wasm builds agree on every width.
// It runs once per filter: kept a loop, which clang unrolled into 16 tests
// and 16 calls of ldexp even where it optimizes for size.
inline unsigned slotBitsFor(double falsePositiveRate, unsigned rounds) noexcept {
  unsigned bits = kFixedBits + kMinTailBits;
#pragma GCC unroll 1
  for (; bits < kMaxSlotBits; ++bits) {
    if (!(falsePositiveBoundFor(bits, rounds) > falsePositiveRate)) break;
  }
  return bits;
}

// The first table: enough buckets for `capacity` items at kMaxLoad.
inline std::uint64_t initialBucketsFor(std::uint64_t capacity) noexcept {
  const auto buckets = static_cast<std::uint64_t>(std::ceil(static_cast<double>(capacity) / (kSlots * kMaxLoad)));
  return buckets < 1 ? 1 : buckets;
}

inline unsigned floorLog2(std::uint64_t v) noexcept { return 63U - static_cast<unsigned>(__builtin_clzll(v)); }

}  // namespace cuckoo::detail::scalable
