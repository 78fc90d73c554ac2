#pragma once
// The cuckoo filter of Fan, Andersen, Kaminsky and Mitzenmacher (CoNEXT 2014):
// partial-key cuckoo hashing over a bit-packed table, with a one-entry victim
// stash so that a failed insert never loses an item.
//
// Usage:
//   cuckoo::CuckooFilter filter;
//   cuckoo::FilterParams params;           // f=12, b=4, m=2^16, 500 kicks, seed 0
//   if (cuckoo::CuckooFilter::create(params, filter) != cuckoo::Status::kOk) { ... }
//   filter.insert("apple", 5);
//   bool maybe = filter.contains("apple", 5);   // true: no false negatives
//
// Built without exceptions: construction reports failures through Status and
// never aborts, and no operation on a created filter can fail other than by
// returning false.

#include <cstddef>
#include <cstdint>

#include "cuckoo/hashing.hpp"
#include "cuckoo/packed_table.hpp"
#include "cuckoo/prng.hpp"
#include "cuckoo/status.hpp"

namespace cuckoo {

inline constexpr unsigned kMinFingerprintBits = 2;
inline constexpr unsigned kMaxFingerprintBits = 32;
inline constexpr std::uint64_t kMaxBucketCount = std::uint64_t{1} << 32;
inline constexpr std::uint32_t kDefaultMaxKicks = 500;
inline constexpr std::uint32_t kMaxKicksLimit = 1'000'000;

struct FilterParams {
  unsigned fingerprintBits = 12;          // f: 2..32
  unsigned bucketSize = 4;                // b: 1, 2, 4 or 8
  std::uint64_t bucketCount = 1 << 16;    // m: a power of two, 1..2^32
  std::uint32_t maxKicks = kDefaultMaxKicks;  // evictions before the stash takes over
  std::uint64_t seed = 0;                 // seeds the item hash and the eviction PRNG
};

// Parameters for `capacity` items at a false-positive rate of at most
// `falsePositiveRate`, following the paper's Section 5.1: the space-optimal
// bucket size for the rate, f = ceil(log2(2b / rate)), and the smallest
// power-of-two bucket count that holds `capacity` items below the practical
// maximum load for b. `out.seed` and `out.maxKicks` keep the values passed in.
Status paramsForCapacity(std::uint64_t capacity, double falsePositiveRate, FilterParams& out) noexcept;

// Highest load factor a bucket size reaches in practice with two hash
// choices (0.5, 0.84, 0.95, 0.98 for b = 1, 2, 4, 8), the sizing margin.
double practicalMaxLoad(unsigned bucketSize) noexcept;

struct FilterStats {
  std::uint64_t itemCount;     // fingerprints stored, stash included
  std::uint64_t slotCount;     // m * b
  double loadFactor;           // itemCount / slotCount
  std::size_t sizeInBytes;     // the table allocation (payload + padding)
  double bitsPerItem;          // m*b*f / itemCount, the paper's eq. (4); +inf when empty
  double expectedFalsePositiveRate;  // 1 - (1 - 2^-f)^(2b * load)
  double falsePositiveBound;         // 2b / 2^f, the paper's eq. (5) bound
};

// The homeless fingerprint left over when evictions ran out, with the bucket
// it was last evicted from (its other bucket follows from the XOR relation).
struct Stash {
  bool occupied = false;
  std::uint32_t fingerprint = 0;
  std::uint32_t bucket = 0;
};

enum class InsertOutcome : std::uint8_t {
  kInserted = 0,
  kAlreadyPresent = 1,  // only from insertUnique
  kFull = 2,            // the stash is occupied: nothing changed
};

class CuckooFilter {
 public:
  CuckooFilter() noexcept = default;
  CuckooFilter(CuckooFilter&&) noexcept = default;
  CuckooFilter& operator=(CuckooFilter&&) noexcept = default;

  // Checks every parameter; kOk when `create` would succeed but for memory.
  static Status validate(const FilterParams& params) noexcept;
  static Status create(const FilterParams& params, CuckooFilter& out) noexcept;
  Status cloneTo(CuckooFilter& out) const noexcept;

  // Algorithm 1. True when the item is stored. When evictions run out the last
  // evicted fingerprint moves to the stash and the insert still succeeds; from
  // then on inserts return false and change nothing until an erase frees room.
  bool insert(const void* item, std::size_t length) noexcept { return insertLocated(locate(item, length)); }
  InsertOutcome insertUnique(const void* item, std::size_t length) noexcept;
  // Algorithm 2, plus the stash.
  bool contains(const void* item, std::size_t length) const noexcept {
    return containsLocated(locate(item, length));
  }
  // Algorithm 3: removes one copy of the item's fingerprint from its buckets or
  // the stash. Only erase items that were inserted (as with any filter).
  bool erase(const void* item, std::size_t length) noexcept { return eraseLocated(locate(item, length)); }
  // Copies of the item's fingerprint in its two buckets and the stash (a
  // bucket counted once when both candidates are the same bucket).
  unsigned count(const void* item, std::size_t length) const noexcept {
    return countLocated(locate(item, length));
  }
  void clear() noexcept;

  ItemLocation locate(const void* item, std::size_t length) const noexcept;
  // The byte format of FORMAT.md (implemented in serialization.cpp).
  // `serialize` writes exactly serializedSize() bytes. `deserialize` checks
  // every field and the checksum, whatever the input, and reports the first
  // failed check as a kFormat* status (or kTableTooLarge / kOutOfMemory).
  std::size_t serializedSize() const noexcept;
  void serialize(unsigned char* out) const noexcept;
  static Status deserialize(const unsigned char* data, std::size_t length, CuckooFilter& out) noexcept;

  FilterStats stats() const noexcept;
  const FilterParams& params() const noexcept { return params_; }
  std::uint64_t itemCount() const noexcept { return itemCount_; }
  const Stash& stash() const noexcept { return stash_; }
  const PackedTable& table() const noexcept { return table_; }
  std::uint64_t prngState() const noexcept { return prng_.state(); }
  std::uint32_t indexMask() const noexcept { return indexMask_; }
  bool isFull() const noexcept { return stash_.occupied; }

 private:
  bool insertLocated(const ItemLocation& where) noexcept;
  bool containsLocated(const ItemLocation& where) const noexcept {
    return table_.contains(where.primaryBucket, where.fingerprint) ||
           table_.contains(where.alternateBucket, where.fingerprint) || stashHolds(where);
  }
  bool eraseLocated(const ItemLocation& where) noexcept;
  unsigned countLocated(const ItemLocation& where) const noexcept;

  bool stashHolds(const ItemLocation& where) const noexcept {
    return stash_.occupied && stash_.fingerprint == where.fingerprint &&
           (stash_.bucket == where.primaryBucket || stash_.bucket == where.alternateBucket);
  }
  // Places `fingerprint` whose candidate buckets are `bucket` and its
  // alternate, evicting as needed; a leftover fingerprint goes to the stash.
  void place(std::uint32_t fingerprint, std::uint32_t primary, std::uint32_t alternate) noexcept;
  void evictionWalk(std::uint32_t fingerprint, std::uint32_t primary, std::uint32_t alternate) noexcept;
  void reinsertStash() noexcept;

  FilterParams params_{};
  PackedTable table_;
  SplitMix64 prng_;
  Stash stash_{};
  std::uint64_t itemCount_ = 0;
  std::uint32_t indexMask_ = 0;
};

}  // namespace cuckoo
