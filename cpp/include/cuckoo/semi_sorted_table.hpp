#pragma once
// The paper's semi-sorted table (Section 5.2): buckets of 4 entries whose
// fingerprints are kept sorted, so that the 4 most significant bits of the
// entries form a sorted multiset of 4 nibbles. There are C(19, 4) = 3,876 such
// multisets, so a 12-bit rank replaces 16 bits of nibbles: one bit saved per
// entry. The f - 4 low bits of each entry are stored as they are.
//
// Bucket layout, from its first bit (least significant first), f = fingerprintBits:
//   bits [0, 12)                          rank of the sorted nibble multiset
//   bits [12 + s(f-4), 12 + (s+1)(f-4))   low f - 4 bits of sorted entry s, s = 0..3
// Bucket i starts at bit i * (4f - 4). 0 is an empty entry and sorts first.
// FROZEN: serialized semi-sorted filters store exactly this layout.
//
// Slot numbers are positions in sorted order: writing a bucket re-sorts it.

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "cuckoo/bit_io.hpp"
#include "cuckoo/status.hpp"

namespace cuckoo {

inline constexpr unsigned kSemiSortedBucketSize = 4;
inline constexpr unsigned kSemiSortedMinBits = 5;
inline constexpr unsigned kNibbleMultisets = 3876;  // C(16 + 4 - 1, 4)
inline constexpr unsigned kNibbleRankBits = 12;

namespace semisort {

// C(n, k) for n < 19, k <= 4: the ranks of the combinatorial number system.
constexpr std::uint32_t binomial(unsigned n, unsigned k) {
  if (k > n) return 0;
  std::uint32_t result = 1;
  for (unsigned i = 1; i <= k; ++i) result = result * (n - k + i) / i;
  return result;
}

// C(n, k) for n < 19 and k <= 4, as a table: encoding a bucket ranks it on
// every write, and four table reads beat four loops with divisions.
constexpr std::array<std::array<std::uint16_t, 5>, 19> makeBinomialTable() {
  std::array<std::array<std::uint16_t, 5>, 19> table{};
  for (unsigned n = 0; n < 19; ++n)
    for (unsigned k = 0; k <= 4; ++k) table[n][k] = static_cast<std::uint16_t>(binomial(n, k));
  return table;
}
inline constexpr std::array<std::array<std::uint16_t, 5>, 19> kBinomial = makeBinomialTable();

// Rank of the sorted nibbles a <= b <= c <= d: the multiset maps to the strictly
// increasing set {a, b+1, c+2, d+3} of [0, 19), ranked in colexicographic order.
constexpr std::uint32_t rankNibbles(unsigned a, unsigned b, unsigned c, unsigned d) {
  return std::uint32_t{kBinomial[a][1]} + kBinomial[b + 1][2] + kBinomial[c + 2][3] + kBinomial[d + 3][4];
}

// Rank -> the four sorted nibbles packed as a | b << 4 | c << 8 | d << 12.
// 7.6 KiB, small enough to stay in L1 during lookups. Filled when the program
// starts (semi_sorted_ranks.cpp) rather than stored in the binary, which keeps
// it out of the wasm download.
extern const std::array<std::uint16_t, kNibbleMultisets> kUnrank;

struct Bucket {
  std::uint32_t entries[kSemiSortedBucketSize];  // ascending
};

// The four entries of a bucket whose bits start at bit 0 of `word` (4f - 4 of
// them, all valid). `fingerprintBits` is 5 .. 32.
inline Bucket decodeWindow(std::uint64_t word, unsigned fingerprintBits) noexcept {
  const unsigned lowBits = fingerprintBits - 4;
  const std::uint64_t lowMask = (std::uint64_t{1} << lowBits) - 1;
  const std::uint32_t nibbles = kUnrank[word & ((1U << kNibbleRankBits) - 1)];
  const std::uint64_t lows = word >> kNibbleRankBits;
  Bucket b;
  for (unsigned s = 0; s < 4; ++s) {
    b.entries[s] = ((nibbles >> (4 * s)) & 0xF) << lowBits | static_cast<std::uint32_t>((lows >> (s * lowBits)) & lowMask);
  }
  return b;
}

// The same, field by field, for a bucket at `bitPos` of `bytes` too wide for one load.
inline Bucket decodeFields(const unsigned char* bytes, std::uint64_t bitPos, unsigned fingerprintBits) noexcept {
  const unsigned lowBits = fingerprintBits - 4;
  const std::uint32_t nibbles = kUnrank[bits::read(bytes, bitPos, kNibbleRankBits)];
  Bucket b;
  for (unsigned s = 0; s < 4; ++s) {
    const auto low = static_cast<std::uint32_t>(bits::read(bytes, bitPos + kNibbleRankBits + s * lowBits, lowBits));
    b.entries[s] = ((nibbles >> (4 * s)) & 0xF) << lowBits | low;
  }
  return b;
}

// Puts four values in ascending order (a five-comparator sorting network).
inline void sortFour(std::uint32_t (&v)[4]) noexcept {
  const auto order = [&v](int i, int j) {
    const std::uint32_t lo = v[i] < v[j] ? v[i] : v[j];
    const std::uint32_t hi = v[i] < v[j] ? v[j] : v[i];
    v[i] = lo;
    v[j] = hi;
  };
  order(0, 1);
  order(2, 3);
  order(0, 2);
  order(1, 3);
  order(1, 2);
}

// What every view of a semi-sorted table decides on a bucket it decoded
// (detail/semi_sorted_buckets.hpp's, and the Redis module's over its chunk
// strings), so that they make the same choices: the slots holding `value`
// (bit s for slot s); taking an empty entry (false when there is none);
// emptying the first entry holding `value` (false when none does); undoing a
// kick (below).
inline std::uint32_t matchingEntries(const Bucket& b, std::uint32_t value) noexcept {
  return static_cast<std::uint32_t>(b.entries[0] == value) | static_cast<std::uint32_t>(b.entries[1] == value) << 1 |
         static_cast<std::uint32_t>(b.entries[2] == value) << 2 | static_cast<std::uint32_t>(b.entries[3] == value) << 3;
}
inline bool fillEmptyEntry(Bucket& b, std::uint32_t value) noexcept {
  if (b.entries[0] != 0) return false;  // sorted: an empty entry would come first
  b.entries[0] = value;
  return true;
}
inline bool clearEntry(Bucket& b, std::uint32_t value) noexcept {
  for (std::uint32_t& entry : b.entries) {
    if (entry == value) {
      entry = 0;
      return true;
    }
  }
  return false;
}

// Undoes a kick that put `incoming` into `bucket` of `view` in place of
// `displaced`, and returns `incoming`: every view's undoKick. A bucket is
// stored sorted, a multiset, so its slots move when it is written: the kick
// is undone by value, not by slot, and any copy of an equal value serves.
template <class View>
std::uint32_t undoKickByValue(View& view, std::uint32_t bucket, std::uint32_t incoming, std::uint32_t displaced) noexcept {
  view.removeOne(bucket, incoming);
  view.insertIntoEmptySlot(bucket, displaced);
  return incoming;
}

// The bits of a bucket holding `contents` (sorted here), from its first
// bit, for widths whose bucket fits one window (4f - 4 <= 57 bits: f <= 15).
// Inline, so that a view of a fixed width has its shifts and masks as
// constants (buckets.hpp); the others call encode().
[[gnu::always_inline]] inline std::uint64_t encodeWindow(Bucket contents, unsigned fingerprintBits) noexcept {
  sortFour(contents.entries);
  const unsigned lowBits = fingerprintBits - 4;
  const std::uint32_t lowMask = (std::uint32_t{1} << lowBits) - 1;
  const std::uint32_t* e = contents.entries;
  std::uint64_t word = rankNibbles(e[0] >> lowBits, e[1] >> lowBits, e[2] >> lowBits, e[3] >> lowBits);
  for (unsigned s = 0; s < 4; ++s) word |= std::uint64_t{e[s] & lowMask} << (kNibbleRankBits + s * lowBits);
  return word;
}

// Sorts the four entries and stores the bucket at `bitPos` of `bytes`. The
// one copy takes the entries as four values, and encode() hands them over:
// in WebAssembly a Bucket passed by value is a copy in memory, made with
// 64-bit loads from entries just written as 32-bit values, which misses
// store forwarding on every write (PassedStructure, detail/webassembly_tradeoffs.hpp).
void encodeEntries(unsigned char* bytes, std::uint64_t bitPos, unsigned fingerprintBits, std::uint32_t first,
                   std::uint32_t second, std::uint32_t third, std::uint32_t fourth) noexcept;
inline void encode(unsigned char* bytes, std::uint64_t bitPos, unsigned fingerprintBits, const Bucket& contents) noexcept {
  const std::uint32_t* e = contents.entries;
  encodeEntries(bytes, bitPos, fingerprintBits, e[0], e[1], e[2], e[3]);
}
// The bucket at `bitPos` of `bytes` (padded as a table is), by whichever of
// the two decodings above fits its width: one copy for every caller that
// knows the width only at run time.
Bucket decode(const unsigned char* bytes, std::uint64_t bitPos, unsigned fingerprintBits) noexcept;

}  // namespace semisort

class SemiSortedTable {
 public:
  SemiSortedTable() noexcept = default;
  SemiSortedTable(const SemiSortedTable&) = delete;
  SemiSortedTable& operator=(const SemiSortedTable&) = delete;
  SemiSortedTable(SemiSortedTable&& other) noexcept { moveFrom(other); }
  SemiSortedTable& operator=(SemiSortedTable&& other) noexcept {
    if (this != &other) {
      release();
      moveFrom(other);
    }
    return *this;
  }
  ~SemiSortedTable() { release(); }

  static std::uint64_t bucketBitsFor(unsigned fingerprintBits) noexcept { return 4 * fingerprintBits - 4; }
  // Bytes for the shape, or 0 over kMaxTableBytes. fingerprintBits must be 5..32.
  static std::uint64_t bytesFor(unsigned fingerprintBits, std::uint64_t bucketCount) noexcept;
  static Status allocate(unsigned fingerprintBits, std::uint64_t bucketCount, SemiSortedTable& out) noexcept;
  Status copyTo(SemiSortedTable& out) const noexcept;

  // Checks a payload (e.g. from a file) without loading it: every rank below
  // 3,876 and every bucket in sorted order. On success counts the non-zero entries.
  static bool validatePayload(const unsigned char* bytes, std::size_t byteCount, unsigned fingerprintBits,
                              std::uint64_t bucketCount, std::uint64_t& nonZeroEntries) noexcept;

  // The bucket's four entries, ascending; for inspection and tests (the
  // filter's algorithms work through the views of cpp/src/buckets.hpp).
  semisort::Bucket decode(std::uint64_t bucket) const noexcept;
  std::uint32_t read(std::uint64_t bucket, unsigned slot) const noexcept { return decode(bucket).entries[slot]; }

  void clear() noexcept;
  std::uint64_t occupiedEntries() const noexcept;

  unsigned fingerprintBits() const noexcept { return bitsPerEntry_; }
  unsigned bucketSize() const noexcept { return kSemiSortedBucketSize; }
  std::uint64_t bucketCount() const noexcept { return bucketCount_; }
  std::uint64_t payloadBits() const noexcept { return bucketCount_ * bucketBits_; }
  std::size_t payloadBytes() const noexcept { return static_cast<std::size_t>((payloadBits() + 7) / 8); }
  std::size_t byteLength() const noexcept { return byteLength_; }
  const unsigned char* data() const noexcept { return bytes_; }
  unsigned char* data() noexcept { return bytes_; }

 private:
  void release() noexcept;
  void moveFrom(SemiSortedTable& other) noexcept {
    bytes_ = std::exchange(other.bytes_, nullptr);
    byteLength_ = std::exchange(other.byteLength_, 0);
    bucketCount_ = other.bucketCount_;
    bitsPerEntry_ = other.bitsPerEntry_;
    bucketBits_ = other.bucketBits_;
  }

  unsigned char* bytes_ = nullptr;
  std::size_t byteLength_ = 0;
  std::uint64_t bucketCount_ = 0;
  unsigned bitsPerEntry_ = 0;
  unsigned bucketBits_ = 0;
};

}  // namespace cuckoo
