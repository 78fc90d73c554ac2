#pragma once
// Bloom filters: the baselines of the paper's Section 7 ("BF" and "blk-BF"),
// so that cuckoo filters can be compared against them on the same items and
// the same hash.
//
// Usage:
//   cuckoo::BloomParams params;
//   if (cuckoo::bloomParamsForCapacity(1'000'000, 0.001, params) != cuckoo::Status::kOk) { ... }
//   cuckoo::StandardBloomFilter filter;
//   if (cuckoo::StandardBloomFilter::create(params, filter) != cuckoo::Status::kOk) { ... }
//   filter.insert("apple", 5);
//   bool maybe = filter.contains("apple", 5);   // true: no false negatives
//
// Both filters hash an item once, h = XXH3_64bits_withSeed(item, length, seed)
// (the cuckoo filter's item hash), and derive every probe from that one h.
//
// StandardBloomFilter, m = bitCount (1 .. 2^32), k = hashCount (1 .. 32):
//   h1 = h & 0xFFFFFFFF                 (low 32 bits)
//   h2 = (h >> 32) | 1                  (high 32 bits, forced odd so never 0)
//   position_i = (h1 + i * h2) mod m    for i = 0 .. k-1, in exact integer
//                                       arithmetic (h1 + i*h2 < 2^38: no wrap)
// This is Kirsch and Mitzenmacher's g_i = h1 + i*h2, the paper's [16].
// Positions are exactly uniform when m is a power of two (and then an odd h2
// makes the k positions distinct); otherwise position 0's h1 mod m favours
// some positions by at most a relative m / 2^32, which stays below 0.4 % for
// m <= 2^24; at worst (m near 2^32 / 2.7) it raised the false-positive rate by
// 2 % in a scale model with 16-bit halves. m is capped at 2^32 because h1 < 2^32.
//
// BlockedBloomFilter (Putze, Sanders and Singler, the paper's [22]): blocks of
// 512 bits = 64 bytes = one cache line, B = bitCount / 512 blocks (bitCount
// rounded up to a multiple of 512, at most 2^32, so B <= 2^23):
//   block      = ((h >> 32) * B) >> 32               (the high 32 bits, multiply-shift)
//   g_0        = ((h & 0xFFFFFFFF) | 1) * C mod 2^32  (the low 32 bits, forced odd)
//   g_(i+1)    = g_i * C mod 2^32,                   C = 0x9E3779B9
//   offset_i   = g_i >> 23                           (the top 9 bits: 0 .. 511)
//   position_i = block * 512 + offset_i             for i = 0 .. k-1
// The block and the in-block probes come from disjoint halves of h, so they
// are independent. Forcing g odd keeps every g_i odd, so no item's probes
// collapse onto one bit (0 * C = 0). The in-block probes deliberately do not
// use double hashing: an arithmetic progression a + i*b inside 512 bits
// covers other items' progressions far more often than independent probes
// do, and measured rates (100k items, 10^6+ probes) exceed the Poisson
// mixture of stats() by 23 % at 13 bits per item (k = 9), 3.1x at 20 bits
// (k = 14) and 7x at 24 bits (k = 16) taking the top 9 bits of a 16-bit
// progression; 1.6x, 6.6x and 17x taking it mod 512. The paper's Table 3
// blk-BF rate, 0.43 % at 13 bits, is what the mod 512 form measures here;
// the multiplicative sequence above measures 0.274 % against 0.274 % predicted.
//
// Built without exceptions: construction reports failures through Status;
// operations on a created filter cannot fail.

#include <cstddef>
#include <cstdint>
#include <utility>

#include "cuckoo/item_batch.hpp"
#include "cuckoo/status.hpp"

namespace cuckoo {

inline constexpr unsigned kMinBloomHashCount = 1;
inline constexpr unsigned kMaxBloomHashCount = 32;
inline constexpr std::uint64_t kMaxBloomBitCount = std::uint64_t{1} << 32;
inline constexpr unsigned kBloomBlockBits = 512;

struct BloomParams {
  std::uint64_t bitCount = 1 << 16;  // m: 1..2^32 (a blocked filter rounds up to a multiple of 512)
  unsigned hashCount = 7;            // k: 1..32
  std::uint64_t seed = 0;            // seeds the item hash
};

// The k that minimises the false-positive rate at `bitsPerItem` = m / n:
// round(ln 2 * m / n), clamped to [1, 32].
unsigned optimalBloomHashCount(double bitsPerItem) noexcept;

// `totalBits` bits for `expectedItems` items, with the optimal k for them.
// `out.seed` keeps the value passed in.
Status bloomParamsForBits(std::uint64_t expectedItems, std::uint64_t totalBits, BloomParams& out) noexcept;

// ceil(expectedItems * bitsPerItem) bits, with the optimal k for them.
Status bloomParamsForBitsPerItem(std::uint64_t expectedItems, double bitsPerItem, BloomParams& out) noexcept;

// The textbook standard Bloom filter for `capacity` items at false-positive
// rate `falsePositiveRate`: m = ceil(-n ln(rate) / (ln 2)^2), k optimal for m.
// Rounding k to an integer leaves the rate at capacity within 1 % of the
// target for targets up to 0.3 (0.5017 % for 0.5 %), and up to 12 % above it
// for targets near 0.85, where k = 1. A rate that would need more than 32 hash
// functions (below about 2^-32.5) is refused rather than silently missed. A
// blocked filter given these parameters uses the same memory and reaches a
// higher rate (BlockedBloomFilter::stats tells how much).
Status bloomParamsForCapacity(std::uint64_t capacity, double falsePositiveRate, BloomParams& out) noexcept;

// The rate expected of a standard filter of `bitCount` bits and `hashCount`
// hash functions holding `items` items, (1 - e^(-k n / m))^k, as its stats()
// reports it. Also for a filter not made yet (a sizing).
double bloomExpectedFalsePositiveRate(std::uint64_t bitCount, unsigned hashCount, double items) noexcept;

struct BloomStats {
  std::uint64_t itemCount;           // insert calls so far (repeats included)
  std::uint64_t bitCount;            // m, the addressable bits
  unsigned hashCount;                // k
  std::size_t sizeInBytes;           // the bit array's allocation
  double bitsPerItem;                // m / itemCount; +inf when empty
  double expectedFalsePositiveRate;  // see each filter's stats()
};

namespace detail {

// A zeroed array of 64-bit words starting on a 64-byte boundary, so that a
// blocked filter's block is exactly one cache line.
class BloomWords {
 public:
  BloomWords() noexcept = default;
  BloomWords(const BloomWords&) = delete;
  BloomWords& operator=(const BloomWords&) = delete;
  BloomWords(BloomWords&& other) noexcept
      : allocation_(std::exchange(other.allocation_, nullptr)),
        words_(std::exchange(other.words_, nullptr)),
        wordCount_(std::exchange(other.wordCount_, 0)) {}
  BloomWords& operator=(BloomWords&& other) noexcept {
    if (this != &other) {
      release();
      allocation_ = std::exchange(other.allocation_, nullptr);
      words_ = std::exchange(other.words_, nullptr);
      wordCount_ = std::exchange(other.wordCount_, 0);
    }
    return *this;
  }
  ~BloomWords() { release(); }

  // kOutOfMemory when the allocator refuses.
  static Status allocate(std::uint64_t wordCount, BloomWords& out) noexcept;

  bool test(std::uint64_t bit) const noexcept { return (words_[bit >> 6] >> (bit & 63)) & 1U; }
  // True when the bit was 0.
  bool set(std::uint64_t bit) noexcept {
    std::uint64_t& word = words_[bit >> 6];
    const std::uint64_t mask = std::uint64_t{1} << (bit & 63);
    const bool wasClear = (word & mask) == 0;
    word |= mask;
    return wasClear;
  }

  std::uint64_t* data() noexcept { return words_; }
  const std::uint64_t* data() const noexcept { return words_; }
  std::uint64_t wordCount() const noexcept { return wordCount_; }
  std::size_t byteLength() const noexcept { return static_cast<std::size_t>(wordCount_ * 8); }

 private:
  void release() noexcept;

  void* allocation_ = nullptr;  // what calloc returned; words_ is it rounded up to 64 bytes
  std::uint64_t* words_ = nullptr;
  std::uint64_t wordCount_ = 0;
};

}  // namespace detail

class StandardBloomFilter {
 public:
  StandardBloomFilter() noexcept = default;
  StandardBloomFilter(StandardBloomFilter&&) noexcept = default;
  StandardBloomFilter& operator=(StandardBloomFilter&&) noexcept = default;

  // kInvalidBloomBitCount or kInvalidBloomHashCount; kOk when `create` would
  // succeed but for memory.
  static Status validate(const BloomParams& params) noexcept;
  static Status create(const BloomParams& params, StandardBloomFilter& out) noexcept;

  // Sets the item's k bits. True when at least one was 0, i.e. the item was
  // certainly new; false for a repeat or an item that was a false positive.
  // Either way the item counts in itemCount().
  bool insert(const void* item, std::size_t length) noexcept;
  bool contains(const void* item, std::size_t length) const noexcept;
  // Writes the item's k bit positions (in probe order, repeats possible) to
  // `out`, which must hold hashCount() values; returns hashCount().
  unsigned probePositions(const void* item, std::size_t length, std::uint32_t* out) const noexcept;

  // The batches, for callers that cross a boundary once per batch (the
  // WebAssembly exports): the single-item calls on each item in order, with
  // the same answers and the same bits. insertMany returns how many items set
  // at least one new bit; containsMany writes 1 or 0 per item to `answers`.
  std::size_t insertMany(const ItemBatch& items) noexcept;
  void containsMany(const ItemBatch& items, unsigned char* answers) const noexcept;

  // The same on an item hash computed elsewhere (benchmarks, tests).
  bool insertHash(std::uint64_t hash) noexcept {
    ++itemCount_;
    bool changed = false;
    forEachPosition(hash, [&](std::uint64_t position) {
      changed |= words_.set(position);
      return true;
    });
    return changed;
  }
  bool containsHash(std::uint64_t hash) const noexcept {
    return forEachPosition(hash, [&](std::uint64_t position) { return words_.test(position); });
  }
  unsigned probePositionsOfHash(std::uint64_t hash, std::uint32_t* out) const noexcept {
    forEachPosition(hash, [&](std::uint64_t position) {
      *out++ = static_cast<std::uint32_t>(position);
      return true;
    });
    return params_.hashCount;
  }

  bool testBit(std::uint64_t position) const noexcept { return words_.test(position); }
  // The bit array: bit p is bit (p mod 64) of word p / 64.
  const std::uint64_t* words() const noexcept { return words_.data(); }

  // expectedFalsePositiveRate = (1 - e^(-k n / m))^k with n = itemCount.
  BloomStats stats() const noexcept;
  const BloomParams& params() const noexcept { return params_; }
  std::uint64_t itemCount() const noexcept { return itemCount_; }
  std::uint64_t bitCount() const noexcept { return params_.bitCount; }
  unsigned hashCount() const noexcept { return params_.hashCount; }
  // ceil(m / 64) 64-bit words: the bits past m are never set.
  std::size_t sizeInBytes() const noexcept { return words_.byteLength(); }

 private:
  // Calls visit(position) for each probe in order until it returns false;
  // returns whether every call returned true. (h1 + i*h2) mod m is computed
  // incrementally as p += h2 mod m, so two divisions serve all k probes.
  template <class Visit>
  bool forEachPosition(std::uint64_t hash, Visit&& visit) const noexcept {
    const std::uint64_t m = params_.bitCount;
    std::uint64_t position = (hash & 0xFFFFFFFFU) % m;
    const std::uint64_t step = ((hash >> 32) | 1U) % m;
    for (unsigned i = 0; i < params_.hashCount; ++i) {
      if (!visit(position)) return false;
      position += step;
      if (position >= m) position -= m;
    }
    return true;
  }

  BloomParams params_{};
  detail::BloomWords words_;
  std::uint64_t itemCount_ = 0;
};

class BlockedBloomFilter {
 public:
  BlockedBloomFilter() noexcept = default;
  BlockedBloomFilter(BlockedBloomFilter&&) noexcept = default;
  BlockedBloomFilter& operator=(BlockedBloomFilter&&) noexcept = default;

  static Status validate(const BloomParams& params) noexcept;
  // params.bitCount is rounded up to a multiple of 512; params() reports the
  // rounded value.
  static Status create(const BloomParams& params, BlockedBloomFilter& out) noexcept;

  // As StandardBloomFilter's.
  bool insert(const void* item, std::size_t length) noexcept;
  bool contains(const void* item, std::size_t length) const noexcept;
  unsigned probePositions(const void* item, std::size_t length, std::uint32_t* out) const noexcept;
  std::size_t insertMany(const ItemBatch& items) noexcept;
  void containsMany(const ItemBatch& items, unsigned char* answers) const noexcept;

  // A probe pattern is assembled as a 512-bit mask first, so that insert and
  // lookup touch the block's eight words once each, without branches per probe.
  bool insertHash(std::uint64_t hash) noexcept {
    ++itemCount_;
    std::uint64_t mask[kWordsPerBlock];
    std::uint64_t* block = words_.data() + blockOf(hash) * kWordsPerBlock;
    buildMask(hash, mask);
    std::uint64_t added = 0;
    for (unsigned w = 0; w < kWordsPerBlock; ++w) {
      added |= mask[w] & ~block[w];
      block[w] |= mask[w];
    }
    return added != 0;
  }
  bool containsHash(std::uint64_t hash) const noexcept {
    std::uint64_t mask[kWordsPerBlock];
    const std::uint64_t* block = words_.data() + blockOf(hash) * kWordsPerBlock;
    buildMask(hash, mask);
    std::uint64_t missing = 0;
    for (unsigned w = 0; w < kWordsPerBlock; ++w) missing |= mask[w] & ~block[w];
    return missing == 0;
  }
  unsigned probePositionsOfHash(std::uint64_t hash, std::uint32_t* out) const noexcept {
    const std::uint64_t base = blockOf(hash) * kBloomBlockBits;
    std::uint32_t g = firstProbeState(hash);
    for (unsigned i = 0; i < params_.hashCount; ++i) {
      g *= kProbeMultiplier;
      out[i] = static_cast<std::uint32_t>(base + (g >> 23));
    }
    return params_.hashCount;
  }

  bool testBit(std::uint64_t position) const noexcept { return words_.test(position); }
  // The bit array: bit p is bit (p mod 64) of word p / 64.
  const std::uint64_t* words() const noexcept { return words_.data(); }

  // expectedFalsePositiveRate averages a 512-bit standard filter's rate over
  // the Poisson(n / B) number of items in the queried block:
  //   sum_j P(j) * (1 - (1 - 1/512)^(k j))^k   (Putze et al., Section 3),
  // which exceeds the standard filter's rate at the same m because crowded
  // blocks answer "present" far more often than sparse ones answer "absent".
  BloomStats stats() const noexcept;
  const BloomParams& params() const noexcept { return params_; }
  std::uint64_t itemCount() const noexcept { return itemCount_; }
  std::uint64_t bitCount() const noexcept { return params_.bitCount; }
  unsigned hashCount() const noexcept { return params_.hashCount; }
  std::uint64_t blockCount() const noexcept { return params_.bitCount / kBloomBlockBits; }
  std::size_t sizeInBytes() const noexcept { return words_.byteLength(); }

 private:
  static constexpr unsigned kWordsPerBlock = kBloomBlockBits / 64;
  static constexpr std::uint32_t kProbeMultiplier = 0x9E3779B9U;

  std::uint64_t blockOf(std::uint64_t hash) const noexcept { return ((hash >> 32) * blockCount()) >> 32; }
  static std::uint32_t firstProbeState(std::uint64_t hash) noexcept { return static_cast<std::uint32_t>(hash) | 1U; }

  void buildMask(std::uint64_t hash, std::uint64_t (&mask)[kWordsPerBlock]) const noexcept {
    for (std::uint64_t& word : mask) word = 0;
    std::uint32_t g = firstProbeState(hash);
    for (unsigned i = 0; i < params_.hashCount; ++i) {
      g *= kProbeMultiplier;
      const std::uint32_t offset = g >> 23;
      mask[offset >> 6] |= std::uint64_t{1} << (offset & 63);
    }
  }

  BloomParams params_{};
  detail::BloomWords words_;
  std::uint64_t itemCount_ = 0;
};

}  // namespace cuckoo
