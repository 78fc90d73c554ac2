#pragma once
// The cuckoo filter of Fan, Andersen, Kaminsky and Mitzenmacher (CoNEXT 2014):
// partial-key cuckoo hashing over a bit-packed table, with a one-entry victim
// stash so that a failed insert never loses an item, and insert walks that
// are undone when they cannot end, so that one item that cannot be placed
// (nine keys aimed at one pair of buckets) is refused alone.
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
#include "cuckoo/item_batch.hpp"
#include "cuckoo/packed_table.hpp"
#include "cuckoo/prng.hpp"
#include "cuckoo/semi_sorted_table.hpp"
#include "cuckoo/status.hpp"

namespace cuckoo {

inline constexpr unsigned kMinFingerprintBits = 2;
inline constexpr unsigned kMaxFingerprintBits = 32;
inline constexpr std::uint64_t kMaxBucketCount = std::uint64_t{1} << 32;
inline constexpr std::uint32_t kDefaultMaxKicks = 500;
// The false-positive rate of a filter sized for its items when none is
// asked for: 0.1 %. (bindings/facts_exports.cpp's option_default gives it to
// the TypeScript API, and through it to the CLI and the Redis entry.)
inline constexpr double kDefaultFalsePositiveRate = 0.001;
inline constexpr std::uint32_t kMaxKicksLimit = 1'000'000;

struct FilterParams {
  unsigned fingerprintBits = 12;          // f: 2..32
  unsigned bucketSize = 4;                // b: 1, 2, 4 or 8
  std::uint64_t bucketCount = 1 << 16;    // m: 1..2^32 (hashing.hpp: a power of two is hash id 1, any other count hash id 2)
  std::uint32_t maxKicks = kDefaultMaxKicks;  // evictions before the stash takes over
  std::uint64_t seed = 0;                 // seeds the item hash and the eviction PRNG
  // The paper's semi-sorted buckets (Section 5.2): one bit per entry less for
  // the same fingerprint width. Needs bucketSize 4 and fingerprintBits 5..32.
  bool semiSort = false;
  // Items hashed with SipHash-1-3 keyed by the seed (hash ids 4 and 5,
  // hashing.hpp) instead of XXH3: where outsiders choose items and may see
  // answers. Served by the generic kernel.
  bool keyedHash = false;
  // Items of 8 bytes (64-bit keys) hashed by the seeded mix of a key, and
  // fingerprint offsets by one multiplication (hash ids 10 and 11,
  // hashing.hpp; the name is that of the first such ids): faster than XXH3
  // for keys, but whoever knows the seed can choose keys that collide, so not
  // for items outsiders choose. Other lengths hash as with XXH3. Not with
  // keyedHash.
  bool multiplyShiftHash = false;
  // With multiplyShiftHash: which hash of keys. Filters saved with hash ids 6
  // to 9 (format versions 5 and 6) load with theirs; new ones get kSeededMix.
  KeyHash keyHash = KeyHash::kSeededMix;
};

// The false-positive rates of a table of buckets of `bucketSize` slots with
// `fingerprintBits`-bit fingerprints, as stats() reports them for a filter:
// the paper's eq. (5) bound 2b / 2^f, and the rate expected at `loadFactor`,
// 1 - (1 - 2^-f)^(2b * load). For a table not made yet (a sizing; sizing.cpp).
double falsePositiveBound(unsigned bucketSize, unsigned fingerprintBits) noexcept;
double expectedFalsePositiveRate(unsigned bucketSize, unsigned fingerprintBits, double loadFactor) noexcept;

struct FilterStats {
  std::uint64_t itemCount;     // fingerprints stored, stash included
  std::uint64_t stashedCount;  // of them, in the stash: 0 or 1
  std::uint64_t slotCount;     // m * b
  double loadFactor;           // the table's load: (itemCount - stashedCount) / slotCount, at most 1
  std::size_t sizeInBytes;     // the table allocation (payload + padding)
  double bitsPerItem;          // table bits / itemCount (m*b*f, or m*(4f-4) semi-sorted); +inf when empty
  double expectedFalsePositiveRate;  // 1 - (1 - 2^-f)^(2b * load)
  double falsePositiveBound;         // 2b / 2^f, the paper's eq. (5) bound
};

// The homeless fingerprint left over when evictions ran out, with the bucket
// it was last evicted from (its other bucket follows from the relation of
// hashing.hpp).
struct Stash {
  bool occupied = false;
  std::uint32_t fingerprint = 0;
  std::uint32_t bucket = 0;
};

// What adds and deletes change besides the table: the eviction PRNG, the
// stash and the item count, which FORMAT.md stores beside the payload.
struct FilterState {
  SplitMix64 prng;
  Stash stash;
  std::uint64_t itemCount = 0;
  // Whether the most recent add was refused (CuckooFilter::isFull); not stored.
  bool lastAddRefused = false;
};

// Sees each step of an insert (the web demo draws them). Slots are positions
// in the bucket as stored; in a semi-sorted table a bucket is re-sorted after
// every write, so a placed fingerprint's slot is reported by value.
class InsertObserver {
 public:
  // The homeless `incoming` fingerprint displaced `evicted` from `slot` of
  // `bucket`; `evicted` now heads for `nextBucket`, its other bucket (hashing.hpp).
  virtual void onKick(std::uint32_t bucket, unsigned slot, std::uint32_t incoming, std::uint32_t evicted,
                      std::uint32_t nextBucket) = 0;
  // `fingerprint` found an empty slot in `bucket`.
  virtual void onPlaced(std::uint32_t bucket, std::uint32_t fingerprint) = 0;
  // Evictions ran out: `fingerprint`, last evicted from `bucket`, went to the stash.
  virtual void onStashed(std::uint32_t bucket, std::uint32_t fingerprint) = 0;
  // Evictions ran out while the stash was occupied: `fingerprint`, last
  // evicted from `bucket`, had nowhere to go, so every kick reported was
  // undone (the table, stash and PRNG are as before the insert).
  virtual void onUndone(std::uint32_t bucket, std::uint32_t fingerprint) = 0;

 protected:
  ~InsertObserver() = default;
};

enum class InsertOutcome : std::uint8_t {
  kInserted = 0,
  kAlreadyPresent = 1,  // only from insertUnique
  kFull = 2,            // the item could not be placed: nothing changed
};

class CuckooFilter;

namespace detail {

template <class Buckets, class Index>
class Kernel;
// Reads and writes a filter's state for patches (cpp/src/patch_access.hpp).
struct PatchAccess;
// Its table as a view of one shape (cuckoo/detail/table_access.hpp).
struct TableAccess;

// The filter's algorithms compiled for one table shape and bucket layout
// (cpp/src/kernel.hpp), chosen once per filter: a specialised kernel for the
// shapes that matter most, the generic one for the rest.
struct KernelTable {
  const char* name;
  bool (*insert)(CuckooFilter&, const void*, std::size_t) noexcept;
  bool (*insertKey)(CuckooFilter&, std::uint64_t) noexcept;
  InsertOutcome (*insertUnique)(CuckooFilter&, const void*, std::size_t) noexcept;
  bool (*insertObserved)(CuckooFilter&, const void*, std::size_t, InsertObserver&) noexcept;
  bool (*contains)(const CuckooFilter&, const void*, std::size_t) noexcept;
  bool (*containsKey)(const CuckooFilter&, std::uint64_t) noexcept;
  bool (*erase)(CuckooFilter&, const void*, std::size_t) noexcept;
  bool (*eraseKey)(CuckooFilter&, std::uint64_t) noexcept;
  unsigned (*count)(const CuckooFilter&, const void*, std::size_t) noexcept;
  bool (*eraseObserved)(CuckooFilter&, const void*, std::size_t, InsertObserver&) noexcept;
  bool (*insertFingerprint)(CuckooFilter&, std::uint32_t fingerprint, std::uint32_t bucket) noexcept;
  std::size_t (*insertMany)(CuckooFilter&, const ItemBatch&) noexcept;
  void (*containsMany)(const CuckooFilter&, const ItemBatch&, unsigned char*) noexcept;
  std::size_t (*eraseMany)(CuckooFilter&, const ItemBatch&) noexcept;
};

// The kernel for a filter of these parameters; the generic one when `generic`.
const KernelTable& kernelFor(const FilterParams& params, bool generic) noexcept;

}  // namespace detail

class CuckooFilter {
  // Defined first: the inline members below deduce their types from it.
  // Every algorithm is written once, for either table; the branch that picks
  // the table is taken once per operation and always predicted.
  template <class Visitor>
  decltype(auto) visitTable(Visitor&& visit) {
    return params_.semiSort ? visit(semiSortedTable_) : visit(packedTable_);
  }
  template <class Visitor>
  decltype(auto) visitTable(Visitor&& visit) const {
    return params_.semiSort ? visit(semiSortedTable_) : visit(packedTable_);
  }

 public:
  CuckooFilter() noexcept = default;
  CuckooFilter(CuckooFilter&&) noexcept = default;
  CuckooFilter& operator=(CuckooFilter&&) noexcept = default;

  // Checks every parameter; kOk when `create` would succeed but for memory.
  static Status validate(const FilterParams& params) noexcept;
  static Status create(const FilterParams& params, CuckooFilter& out) noexcept;
  Status cloneTo(CuckooFilter& out) const noexcept;

  // Algorithm 1. True when the item is stored: in a free slot of either of
  // its buckets, or after evictions. When evictions run out the last evicted
  // fingerprint moves to the stash and the insert still succeeds; when they
  // run out while the stash is occupied, every eviction is undone and the
  // insert returns false, having changed nothing (the table, the stash, the
  // count and the eviction PRNG are as before). So only an item that cannot
  // be placed is refused, and no item is ever lost.
  bool insert(const void* item, std::size_t length) noexcept { return kernel_->insert(*this, item, length); }
  InsertOutcome insertUnique(const void* item, std::size_t length) noexcept {
    return kernel_->insertUnique(*this, item, length);
  }
  // insert(), reporting every step to `observer` (and undone kicks as such). Not in the lean WebAssembly module, whose kernels leave it out
  // (kernels_generic.cpp); its only caller, cuckoo-wasm/inspect, loads the full one.
  bool insertObserved(const void* item, std::size_t length, InsertObserver& observer) noexcept {
    return kernel_->insertObserved(*this, item, length, observer);
  }
  // Algorithm 2, plus the stash.
  bool contains(const void* item, std::size_t length) const noexcept { return kernel_->contains(*this, item, length); }
  // Algorithm 3: removes one copy of the item's fingerprint from its buckets or
  // the stash. Only erase items that were inserted (as with any filter).
  bool erase(const void* item, std::size_t length) noexcept { return kernel_->erase(*this, item, length); }
  // The same three on an integer key: the item whose bytes are the key's 8
  // little-endian bytes (as the JavaScript API takes a number), so that
  // insert(5) and insert(&five, 8) with std::uint64_t five = 5 are one item.
  // The key goes to the hash by value, not through memory.
  bool insert(std::uint64_t key) noexcept { return kernel_->insertKey(*this, key); }
  bool contains(std::uint64_t key) const noexcept { return kernel_->containsKey(*this, key); }
  bool erase(std::uint64_t key) noexcept { return kernel_->eraseKey(*this, key); }
  // erase(); when it frees a slot while the stash is occupied, the walk that
  // re-places the stashed fingerprint goes to `observer` as an insert's would.
  // Not in the lean WebAssembly module, as insertObserved.
  bool eraseObserved(const void* item, std::size_t length, InsertObserver& observer) noexcept {
    return kernel_->eraseObserved(*this, item, length, observer);
  }
  // Copies of the item's fingerprint in its two buckets and the stash (a
  // bucket counted once when both candidates are the same bucket).
  unsigned count(const void* item, std::size_t length) const noexcept { return kernel_->count(*this, item, length); }

  // The batches: the same as the single-item operations on each item in order
  // (the same answers, the same table), with the memory accesses of
  // neighbouring items overlapped. insertMany stops at the first item that is
  // refused and returns how many were added; containsMany writes 1 or 0 per
  // item to `answers`; eraseMany returns how many were found and erased.
  std::size_t insertMany(const ItemBatch& items) noexcept { return kernel_->insertMany(*this, items); }
  void containsMany(const ItemBatch& items, unsigned char* answers) const noexcept {
    kernel_->containsMany(*this, items, answers);
  }
  std::size_t eraseMany(const ItemBatch& items) noexcept { return kernel_->eraseMany(*this, items); }

  void clear() noexcept;

  // Adds every fingerprint of `other`, which must have the same parameters
  // and seed (else the kMerge*Differ status of the first that differs): a
  // fingerprint and its bucket give both its buckets, so no item is needed.
  // kMergeWouldOverfill, with nothing changed, when this filter cannot hold
  // them all; kOutOfMemory when the working copy cannot be allocated.
  Status merge(const CuckooFilter& other) noexcept;

  // Which compiled kernel serves this filter (e.g. "plain b=4 f=12, hash id 1"
  // or "generic"), and a switch to the generic one, so that benchmarks and
  // tests can compare the two on the same filter.
  const char* kernelName() const noexcept { return kernel_->name; }
  void useGenericKernel() noexcept { kernel_ = &detail::kernelFor(params_, true); }

  ItemLocation locate(const void* item, std::size_t length) const noexcept;
  // The item's hash under the filter's seed (XXH3-64, SipHash-1-3 when keyed,
  // multiply-shift for an 8-byte item with multiplyShiftHash), from which
  // locate derives everything: for inspection and tests.
  std::uint64_t itemHash(const void* item, std::size_t length) const noexcept;
  // The byte format of FORMAT.md (implemented in serialization.cpp).
  // `serialize` writes exactly serializedSize() bytes. `deserialize` checks
  // every field and the checksum, whatever the input, and reports the first
  // failed check as a kFormat* status (or kTableTooLarge / kOutOfMemory).
  std::size_t serializedSize() const noexcept;
  void serialize(unsigned char* out) const noexcept;
  static Status deserialize(const unsigned char* data, std::size_t length, CuckooFilter& out) noexcept;
  // The checks of deserialize that need only the header: magic, version,
  // parameters and the total length they imply. `header` holds the first
  // min(totalLength, kSerializedHeaderBytes) bytes of a `totalLength`-byte
  // input; kOk means deserialize would go on to the checksum. Lets a caller
  // refuse a bad or oversized input before copying or allocating it.
  static Status checkSerializedHeader(const unsigned char* header, std::size_t totalLength) noexcept;
  static constexpr std::size_t kSerializedHeaderBytes = 64;  // the longest header (format version 2)

  // A filter from its parts, for a table kept elsewhere (cuckoo-wasm/redis
  // keeps it in Redis): `payload` in FORMAT.md's payload layout for `params`,
  // the stash and the item count, checked as deserialize checks them
  // (kFormatTruncated / kFormatInconsistent for a payload of the wrong length,
  // kFormatInconsistent for contents that disagree). The eviction PRNG starts
  // from the seed, as in a new filter.
  static Status fromParts(const FilterParams& params, const unsigned char* payload, std::size_t length,
                          const Stash& stash, std::uint64_t itemCount, CuckooFilter& out) noexcept;
  // The table's payload as FORMAT.md lays it out: the first payloadByteLength()
  // bytes of tableData().
  std::size_t payloadByteLength() const noexcept;
  // Where each item of `items` goes in a table of `params`' bucket count,
  // fingerprint width and seed, without a table: four words per item in `out`,
  // the fingerprint, i1, i2 and the shard route word (hashing.hpp).
  static void locateEach(const FilterParams& params, const ItemBatch& items, std::uint32_t* out) noexcept;

  FilterStats stats() const noexcept;
  const FilterParams& params() const noexcept { return params_; }
  std::uint64_t itemCount() const noexcept { return state_.itemCount; }
  const Stash& stash() const noexcept { return state_.stash; }
  const FilterState& state() const noexcept { return state_; }
  bool semiSorted() const noexcept { return params_.semiSort; }
  // Slot `slot` of `bucket` (0 = empty), for inspection and tests. Bucket and
  // slot must be in range.
  std::uint32_t slotValue(std::uint64_t bucket, unsigned slot) const noexcept {
    return visitTable([&](const auto& table) { return table.read(bucket, slot); });
  }
  // The table's bytes: payload then zero padding.
  const unsigned char* tableData() const noexcept {
    return visitTable([](const auto& table) { return table.data(); });
  }
  std::size_t tableByteLength() const noexcept {
    return visitTable([](const auto& table) { return table.byteLength(); });
  }
  std::uint64_t prngState() const noexcept { return state_.prng.state(); }
  // Hash id 1, 2, 4, 5 or 6 to 11 (hashing.hpp): the bucket relation and the item hash.
  std::uint8_t hashId() const noexcept {
    return plainHashId(index_.powerOfTwo(), params_.keyedHash, params_.multiplyShiftHash, params_.keyHash);
  }
  const BucketIndex& bucketIndex() const noexcept { return index_; }
  // Whether the most recent insert was refused (the item could not be
  // placed); false again after an insert succeeds, an erase or clear(). Not
  // part of the bytes: a filter loaded from them is not full.
  bool isFull() const noexcept { return state_.lastAddRefused; }

 private:
  template <class, class>
  friend class detail::Kernel;
  friend struct detail::PatchAccess;
  friend struct detail::TableAccess;

  // A filter of `params` holding a payload, stash and count already checked.
  static Status restore(const FilterParams& params, const unsigned char* payload, std::size_t payloadBytes,
                        const Stash& stash, std::uint64_t itemCount, std::uint64_t prngState,
                        CuckooFilter& out) noexcept;

  FilterParams params_{};
  PackedTable packedTable_;          // used unless params_.semiSort
  SemiSortedTable semiSortedTable_;  // used when params_.semiSort
  FilterState state_{};
  BucketIndex index_;
  // What the item hash derives from the seed, once (cpp/src/item_hash.hpp's ItemHash).
  std::uint64_t eightByteFlip_ = 0;
  MultiplyShiftHash multiplyShift_{};  // hash ids 6 to 11
  const detail::KernelTable* kernel_ = nullptr;
};

}  // namespace cuckoo
