#pragma once
// A cuckoo filter that grows as items come, keeping its false-positive rate at
// or below the one asked for however far it grows (hash id 3, FORMAT.md).
//
// The design, in the manner of Apple's taffy filters and of linear hashing:
// - Every item has a 64-bit virtual bucket number V (the low word of its XXH3
//   hash, extended) and a fingerprint of r bits; its other bucket number is
//   V XOR H(fingerprint). The table has m = 2^L + s buckets: virtual number V
//   lives in bucket V mod 2^(L+1) when V mod 2^L < s (the buckets already
//   split in this round), else in V mod 2^L.
// - Growing splits buckets one at a time, in order (linear hashing): bucket s
//   becomes buckets s and 2^L + s, and each entry goes to the one its next
//   bit of V names. The table's memory grows a little at a time, so its load
//   stays near its maximum at any size.
// - For that bit to be known, each slot stores, beside the fingerprint, a tail
//   of up to T - 1 further bits of V, unary-terminated in T bits. A split
//   consumes one tail bit per entry; lookups compare the tail too, so a long
//   tail is as good as a longer fingerprint. An entry whose tail is spent is
//   copied to both halves (one copy is then a harmless extra entry); with T
//   chosen as below such copies are a fraction of a percent of the entries.
// - Older entries have shorter tails, so each round of growth adds about the
//   same share to the false-positive rate (the rate grows with the logarithm
//   of the growth). The slot width W = r + T is chosen at creation for every
//   round up to the largest table (2^30 buckets), from the bound
//   2b · maxLoad · 2 (rounds + 1) · 2^-W <= fpr (scalable_filter.cpp).
//
// Usage:
//   cuckoo::ScalableParams params;       // 100 items at first, fpr 0.001
//   cuckoo::ScalableCuckooFilter filter;
//   if (cuckoo::ScalableCuckooFilter::create(params, filter) != cuckoo::Status::kOk) { ... }
//   for (...) filter.insert(item, length);  // false only when memory runs out

#include <cstddef>
#include <cstdint>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/item_batch.hpp"
#include "cuckoo/prng.hpp"
#include "cuckoo/status.hpp"

namespace cuckoo {

inline constexpr double kDefaultGrowth = 1.2;
// Items the first table holds when no initial capacity is asked for: 28
// buckets, under 300 bytes at the default rate, so that a set that stays
// small costs little; one that does not grows from there with the slot
// width it would have from 1,000.
inline constexpr std::uint64_t kDefaultInitialCapacity = 100;
inline constexpr double kMinGrowth = 1.01;
inline constexpr double kMaxGrowth = 2.0;
// The largest table: 2^30 buckets (about 4 * 10^9 items).
inline constexpr unsigned kMaxScalableLevel = 30;
// Slots per bucket of a growable table; and the share of its slots in use
// past which it grows (or when an insert's evictions run out). The promise
// of the slot width assumes this load (scalable_sizing.hpp).
inline constexpr unsigned kScalableBucketSize = 4;
inline constexpr double kScalableMaxLoad = 0.9;

struct ScalableParams {
  std::uint64_t initialCapacity = kDefaultInitialCapacity;  // items before the first growth: 1 .. 2^32
  double falsePositiveRate = kDefaultFalsePositiveRate;    // kept at every size: 1e-7 .. < 1
  double growth = kDefaultGrowth;        // the table's size grows by this factor each time it grows
  std::uint32_t maxKicks = kDefaultMaxKicks;
  std::uint64_t seed = 0;
  bool semiSort = false;  // semi-sorted buckets (one bit per slot less)
};

// What the table looks like now.
struct ScalableShape {
  unsigned fixedBits = 0;        // r: fingerprint bits, which pick the other bucket
  unsigned tailBits = 0;         // T: the unary-terminated tail of further bucket bits
  unsigned level = 0;            // L: bucket numbers have L or L + 1 bits
  std::uint64_t splitBucket = 0; // s: buckets [0, s) of this round are split
  unsigned initialLevel = 0;     // L when the filter was created (rounds = level - initialLevel)
  std::uint64_t bucketCount() const noexcept { return (std::uint64_t{1} << level) + splitBucket; }
  unsigned slotBits() const noexcept { return fixedBits + tailBits; }
};

struct ScalableStats {
  std::uint64_t itemCount;     // items added and not deleted
  std::uint64_t entryCount;    // stored entries, copies made by splits and the stash included
  std::uint64_t stashedCount;  // of them, in the stash: 0 except while the table cannot grow
  std::uint64_t slotCount;     // 4 * buckets
  double loadFactor;           // the table's load: (entryCount - stashedCount) / slotCount, at most 1
  std::size_t sizeInBytes;     // the table allocation
  double bitsPerItem;          // table bits / itemCount; +inf when empty
  double falsePositiveBound;   // the bound at this size, 2b * maxLoad * 2 (rounds + 1) * 2^-W: at most fpr up to the largest table
};

// Sees each growth an insert makes, split by split (the web demo draws them).
class GrowthObserver {
 public:
  // Where a split sent an entry: kept in the split bucket, moved to its
  // sibling (the tail's next bit), or copied to both (its tail was spent).
  enum class Route : std::uint8_t { kStays = 0, kMoves = 1, kCopied = 2 };
  struct EntryMove {
    std::uint32_t before;  // the slot value before the split (fingerprint << T | tail)
    std::uint32_t after;   // and after it, the bit it followed dropped from the tail
    Route route;
    int lowSlot;   // its slot in the split bucket afterwards (semi-sorted: where it sorts to), -1 if none
    int highSlot;  // its slot in the sibling, -1 if none
    bool held;     // an entry out of the table (the stash), carried along: no slots
  };
  // The table grows from `fromBuckets` to `toBuckets` buckets, carrying
  // `held` entries that wait outside it (an insert whose evictions ran out).
  virtual void onGrowth(std::uint64_t fromBuckets, std::uint64_t toBuckets, unsigned held) = 0;
  // Bucket `bucket` of level `level` splits into itself and `sibling` = 2^level + bucket.
  virtual void onSplit(std::uint64_t bucket, std::uint64_t sibling, unsigned level) = 0;
  // One entry of the split just announced; the split bucket's in slot order, then held ones.
  virtual void onSplitEntry(const EntryMove& move) = 0;
  // The growth is done and the held entries put back where they fit: `stillHeld` did not.
  virtual void onGrown(unsigned stillHeld) = 0;

 protected:
  ~GrowthObserver() = default;
};

namespace detail {
class ScalableTable;
}

class ScalableCuckooFilter {
 public:
  ScalableCuckooFilter() noexcept;
  ScalableCuckooFilter(ScalableCuckooFilter&&) noexcept;
  ScalableCuckooFilter& operator=(ScalableCuckooFilter&&) noexcept;
  ~ScalableCuckooFilter();

  static Status validate(const ScalableParams& params) noexcept;
  static Status create(const ScalableParams& params, ScalableCuckooFilter& out) noexcept;
  Status cloneTo(ScalableCuckooFilter& out) const noexcept;

  // Adds the item, growing the table as needed. False, with nothing changed,
  // when the item cannot be placed: a ninth copy of one item (copies share
  // their two buckets of 4 slots at any size, as in every cuckoo filter with
  // b = 4; a fifth while the item's two buckets are one bucket, in small
  // tables); or when evictions run out while the stash holds as many entries
  // as a growth can carry (kMaxHeld / 4), which takes entries that growth
  // does not separate (copies of items, items whose tails are spent, or
  // items aimed at one pair of buckets by someone who knows the seed) or a
  // table that cannot grow (memory, or the largest). Then the walk is undone
  // and the PRNG restored. An entry that waits in the stash is still found
  // and never blocks other adds; the table grows for it while the items
  // fill at least 1/16 of its slots (kMinLoadToGrowForStash), no further.
  bool insert(const void* item, std::size_t length) noexcept;
  // insert(), telling `observer` of every growth it makes (for inspection).
  bool insertObserved(const void* item, std::size_t length, GrowthObserver& observer) noexcept;
  InsertOutcome insertUnique(const void* item, std::size_t length) noexcept;
  bool contains(const void* item, std::size_t length) const noexcept;
  // Removes one copy of the item's entry; only erase items that were added.
  bool erase(const void* item, std::size_t length) noexcept;
  unsigned count(const void* item, std::size_t length) const noexcept;

  std::size_t insertMany(const ItemBatch& items) noexcept;
  void containsMany(const ItemBatch& items, unsigned char* answers) const noexcept;
  std::size_t eraseMany(const ItemBatch& items) noexcept;

  // Adds every entry of `other` (same parameters, seed and table shape, else
  // a kMerge* status naming what differs). Growth makes room, except for
  // copies that no growth separates (as for insert): kMergeWouldOverfill.
  // On any failure nothing changed.
  Status merge(const ScalableCuckooFilter& other) noexcept;

  // Back to the table it was created with, empty.
  Status clear() noexcept;

  ScalableStats stats() const noexcept;
  const ScalableParams& params() const noexcept { return params_; }
  const ScalableShape& shape() const noexcept { return shape_; }
  std::uint64_t itemCount() const noexcept { return itemCount_; }

  // For inspection and tests: the W-bit value of a slot (0 = empty).
  std::uint32_t slotValue(std::uint64_t bucket, unsigned slot) const noexcept;
  // Entries waiting for room: only after the table could not grow (or for
  // the moment of an insert that grows it).
  unsigned stashCount() const noexcept { return stashCount_; }
  // Whether the most recent insert was refused (as CuckooFilter::isFull);
  // not part of the bytes.
  bool isFull() const noexcept { return lastAddRefused_; }

  // The byte format (FORMAT.md, version 3), as CuckooFilter's.
  std::size_t serializedSize() const noexcept;
  void serialize(unsigned char* out) const noexcept;
  static Status deserialize(const unsigned char* data, std::size_t length, ScalableCuckooFilter& out) noexcept;

  // An entry out of the table: its slot value (fingerprint << T | tail) and
  // the bucket its tail is relative to.
  struct HeldEntry {
    std::uint32_t value = 0;
    std::uint64_t bucket = 0;
  };
  // Entries a growth carries at most (a held entry whose tail is spent is
  // copied to both halves of a split, at most twice per growth).
  static constexpr unsigned kMaxHeld = 16;

 private:
  // The operations, in rooms (cpp/src): addressing and lookups, placement and
  // eviction, growth. Nested, so that they reach the state below.
  class Ops;
  class Placement;
  class Growth;

  // The shape create() gives a filter of valid `params`.
  static ScalableShape initialShape(const ScalableParams& params) noexcept;

  ScalableParams params_{};
  ScalableShape shape_{};
  detail::ScalableTable* table_ = nullptr;  // owned
  SplitMix64 prng_;
  HeldEntry stash_[kMaxHeld]{};
  unsigned stashCount_ = 0;
  bool lastAddRefused_ = false;
  std::uint64_t itemCount_ = 0;
  std::uint64_t entryCount_ = 0;
};

}  // namespace cuckoo
