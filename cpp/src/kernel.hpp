#pragma once
// The filter's operations, written once: its entry points and batches over
// the algorithms of filter_algorithms.hpp (the paper's Algorithms 1 to 3, the
// stash, counting). Kernel<Buckets, Index> compiles them for one table view
// (buckets.hpp) and one bucket layout (hashing.hpp);
// kernels.cpp instantiates them for the shapes that matter most and picks one
// per filter, once, when it is created or loaded (CuckooFilter::kernel_).
//
// Every kernel of a filter's shape makes the same choices in the same order
// (the lowest free slot, the same draws from the eviction PRNG), so that the
// generic kernel and a specialised one leave byte-identical tables: tests
// check it. The batches only reorder memory accesses, never decisions: a block
// of items is hashed and its buckets are loaded (or prefetched) first, then
// the items are handled one by one in order.

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cuckoo/detail/any_buckets.hpp"
#include "batch_memory.hpp"
#include "cuckoo/detail/buckets.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/hashing.hpp"
#include "cuckoo/item_batch.hpp"
#include "cuckoo/detail/filter_algorithms.hpp"
#include "cuckoo/detail/table_access.hpp"
#include "item_hash.hpp"

namespace cuckoo::detail {

// WebAssembly is downloaded, so there the kernels trade a little speed for
// size: the per-item insert and delete are shared out of line by the single
// and batch paths (CUCKOO_SHARED_IN_WASM), and batches of 8-byte items take
// the general batch path. Natively everything is compiled for speed, the
// algorithms inlined into each entry point (filter_algorithms.hpp).
// (kCompactCode: webassembly_tradeoffs.hpp.)
#if defined(__wasm__)
#define CUCKOO_SHARED_IN_WASM [[gnu::noinline]]
#else
#define CUCKOO_SHARED_IN_WASM [[gnu::always_inline]]
#endif

// The items of a batch of 8-byte items: their length is a constant, so the
// hash compiles to XXH3's 8-byte path alone.
struct EightByteItems {
  const unsigned char* data;
  std::size_t count;
  const unsigned char* item(std::size_t k) const noexcept { return data + 8 * k; }
  static constexpr std::size_t length(std::size_t) noexcept { return 8; }
};

template <class Buckets, class Index>
class Kernel : public FilterAlgorithms<Buckets, Index> {
  using Algorithms = FilterAlgorithms<Buckets, Index>;

 public:
  // The algorithms on any table (filter_algorithms.hpp), which the entry
  // points below run on the filter's own.
  using Algorithms::addIn;
  using Algorithms::containsIn;
  using Algorithms::countIn;
  using Algorithms::eraseIn;

  // The entry points of KernelTable: each locates the item and hands its
  // place to the algorithm. The ones on an 8-byte item given as its value
  // (CuckooFilter's key overloads) hash it without reading memory.
  static bool insert(CuckooFilter& f, const void* item, std::size_t length) noexcept {
    SilentObserver silent;
    return insertLocated(f, locate(f, item, length), silent);
  }
  static bool insertKey(CuckooFilter& f, std::uint64_t key) noexcept {
    SilentObserver silent;
    return insertLocated(f, locateKey(f, key), silent);
  }

  static InsertOutcome insertUnique(CuckooFilter& f, const void* item, std::size_t length) noexcept {
    // WebAssembly composes it of two entry points (hashing the item twice)
    // rather than carry a third copy of the lookup.
    if constexpr (kCompactCode) {
      if (contains(f, item, length)) return InsertOutcome::kAlreadyPresent;
      return insert(f, item, length) ? InsertOutcome::kInserted : InsertOutcome::kFull;
    }
    const ItemLocation where = locate(f, item, length);
    if (containsLocated(f, where)) return InsertOutcome::kAlreadyPresent;
    SilentObserver silent;
    return insertLocated(f, where, silent) ? InsertOutcome::kInserted : InsertOutcome::kFull;
  }

  static bool insertObserved(CuckooFilter& f, const void* item, std::size_t length, InsertObserver& observer) noexcept {
    return insertLocated(f, locate(f, item, length), observer);
  }

  static bool contains(const CuckooFilter& f, const void* item, std::size_t length) noexcept {
    // Natively the 8-byte path needs no call, so it runs without a stack
    // frame; other lengths go through XXH3's dispatch in a function of their own.
    if (kSpecialised && length == 8) return containsKey(f, ItemHash::keyOf(item));
    return containsAnyLength(f, item, length);
  }
  static bool containsKey(const CuckooFilter& f, std::uint64_t key) noexcept {
    return containsLocated(f, locateKey(f, key));
  }

  static bool erase(CuckooFilter& f, const void* item, std::size_t length) noexcept {
    SilentObserver silent;
    return eraseLocated(f, locate(f, item, length), silent);
  }
  static bool eraseKey(CuckooFilter& f, std::uint64_t key) noexcept {
    SilentObserver silent;
    return eraseLocated(f, locateKey(f, key), silent);
  }

  // erase(), the walk that re-places a stashed fingerprint told to `observer`.
  static bool eraseObserved(CuckooFilter& f, const void* item, std::size_t length, InsertObserver& observer) noexcept {
    return eraseLocated(f, locate(f, item, length), observer);
  }

  static unsigned count(const CuckooFilter& f, const void* item, std::size_t length) noexcept {
    return countIn(f.state_, buckets(f), locate(f, item, length));
  }

  // Adds a fingerprint found in `bucket` of another filter of the same shape
  // and seed (CuckooFilter::merge): its two buckets follow from the two.
  // False, with nothing changed, when it cannot be placed.
  static bool insertFingerprint(CuckooFilter& f, std::uint32_t fingerprint, std::uint32_t bucket) noexcept {
    SilentObserver silent;
    return insertLocated(f, ItemLocation{fingerprint, bucket, index(f).alternate(bucket, fingerprint)}, silent);
  }

  static void containsMany(const CuckooFilter& f, const ItemBatch& batch, unsigned char* answers) noexcept {
    if (!kCompactCode && isEightByte(batch)) return containsEach(f, EightByteItems{batch.data, batch.count}, answers);
    containsEach(f, batch, answers);
  }
  static std::size_t insertMany(CuckooFilter& f, const ItemBatch& batch) noexcept {
    if (!kCompactCode && isEightByte(batch)) return insertEach(f, EightByteItems{batch.data, batch.count});
    return insertEach(f, batch);
  }
  static std::size_t eraseMany(CuckooFilter& f, const ItemBatch& batch) noexcept {
    if (!kCompactCode && isEightByte(batch)) return eraseEach(f, EightByteItems{batch.data, batch.count});
    return eraseEach(f, batch);
  }

 private:
  [[gnu::noinline]] static bool containsAnyLength(const CuckooFilter& f, const void* item, std::size_t length) noexcept {
    return containsLocated(f, locate(f, item, length));
  }

  static bool isEightByte(const ItemBatch& batch) noexcept { return batch.offsets == nullptr && batch.width == 8; }

  [[gnu::always_inline]] static Buckets buckets(const CuckooFilter& f) noexcept { return TableAccess::buckets<Buckets>(f); }
  static Index index(const CuckooFilter& f) noexcept { return TableAccess::index<Index>(f); }

  // Whether this kernel is compiled for one shape; the generic kernel decides
  // everything at run time, the item's length included.
  static constexpr bool kSpecialised = !Buckets::kGeneric;

  [[gnu::always_inline]] static ItemHash itemHash(const CuckooFilter& f) noexcept {
    return ItemHash{f.params_.seed, f.eightByteFlip_, keyedOf(f), multiplyShiftOf(f), &f.multiplyShift_};
  }
  // Whether the filter hashes with the keyed hash: never for a specialised
  // kernel (kernelFor gives keyed filters the generic one), so there the
  // test compiles away.
  [[gnu::always_inline]] static bool keyedOf(const CuckooFilter& f) noexcept {
    return !kSpecialised && f.params_.keyedHash;
  }
  // Whether 8-byte items hash as keys (multiplyShiftHash, hash ids 6 to 11): a
  // constant for a kernel compiled for one bucket layout, read from the
  // filter by one that decides the layout at run time.
  [[gnu::always_inline]] static bool multiplyShiftOf(const CuckooFilter& f) noexcept {
    if constexpr (std::is_same_v<Index, BucketIndex>) {
      return f.params_.multiplyShiftHash;
    } else {
      return Index::kMultiplyShift;
    }
  }
  // Where an item goes (hashing.hpp), inlined everywhere: in WebAssembly a
  // call would pass the hash and the location through memory.
  [[gnu::always_inline]] static ItemLocation locate(const CuckooFilter& f, const void* item, std::size_t length) noexcept {
    return locateHashed(index(f), itemHash(f), Buckets::fingerprintBits(f), item, length);
  }
  [[gnu::always_inline]] static ItemLocation locateKey(const CuckooFilter& f, std::uint64_t key) noexcept {
    return locateWith(index(f), itemHash(f).ofKey(key), Buckets::fingerprintBits(f));
  }
  // The hash and `fingerprintBits` (a constant in a specialised kernel) as
  // values, so that a batch loop keeps them in registers. An 8-byte item (a
  // number from JavaScript, an element of a typed array) takes the hash's
  // path for a key in a specialised kernel and in every kernel's batches
  // (numbers from JavaScript come in batches as 8-byte items: through XXH3's
  // length dispatch, a batch of them cost more than as many calls); a single
  // 8-byte item takes XXH3's dispatch in the generic kernel, whose code so
  // stays smaller (single numbers reach it as keys).
  [[gnu::always_inline]] static ItemLocation locateHashed(const Index& index, const ItemHash& hash, unsigned fingerprintBits,
                                                          const void* item, std::size_t length, bool batched = false) noexcept {
    const std::uint64_t h =
        (kSpecialised || batched) && length == 8 ? hash.ofKey(ItemHash::keyOf(item)) : hash.ofBytes(item, length);
    return locateWith(index, h, fingerprintBits);
  }

  // The algorithms on the filter's own table; in WebAssembly the insert and
  // the delete are shared by the entry points above and the batches.
  [[gnu::always_inline]] static bool containsLocated(const CuckooFilter& f, const ItemLocation& where) noexcept {
    return containsIn(f.state_, buckets(f), where);
  }
  template <class Observer>
  [[gnu::always_inline]] static bool insertLocated(CuckooFilter& f, const ItemLocation& where, Observer& observer) noexcept {
    return insertAt(f, where.fingerprint, where.primaryBucket, where.alternateBucket, observer);
  }
  template <class Observer>
  [[gnu::always_inline]] static bool eraseLocated(CuckooFilter& f, const ItemLocation& where, Observer& observer) noexcept {
    return eraseAt(f, where.fingerprint, where.primaryBucket, where.alternateBucket, observer);
  }
  // The shared copies take the place as three values: in WebAssembly a
  // structure passed by reference is written to memory by the caller and
  // read back by the callee.
  template <class Observer>
  CUCKOO_SHARED_IN_WASM static bool insertAt(CuckooFilter& f, std::uint32_t fingerprint, std::uint32_t primary,
                                             std::uint32_t alternate, Observer& observer) noexcept {
    return addIn(f.state_, f.params_.maxKicks, buckets(f), index(f), ItemLocation{fingerprint, primary, alternate}, observer);
  }
  template <class Observer>
  CUCKOO_SHARED_IN_WASM static bool eraseAt(CuckooFilter& f, std::uint32_t fingerprint, std::uint32_t primary,
                                            std::uint32_t alternate, Observer& observer) noexcept {
    return eraseIn(f.state_, f.params_.maxKicks, buckets(f), index(f), ItemLocation{fingerprint, primary, alternate}, observer);
  }

  // Whether a batch in WebAssembly reads each block's buckets ahead: only
  // for a table beyond the caches (batch_memory.hpp).
  static bool readsAhead(const CuckooFilter& f) noexcept {
    return !kPrefetches && f.tableByteLength() >= kReadAheadTableBytes;
  }

  // The places of items [first, first + n) of a batch, and their buckets
  // requested before any is tested, so that the block's reads overlap:
  // natively each bucket's first cache line is prefetched while the rest of
  // the block is hashed. WebAssembly has no prefetch, so there the block's
  // buckets are read once it is hashed, by every kernel (the generic view
  // computes an address inline: any_buckets.hpp), when the table is large
  // enough for the overlap to pay (readsAhead, once per batch).
  template <class Items>
  static void locateBlock(const CuckooFilter& f, const Index& relation, const Buckets& view, const Items& items,
                          std::size_t first, std::size_t n, bool readAhead, ItemLocation* where) noexcept {
    const Index layout = relation;
    const ItemHash hash = itemHash(f);
    const unsigned fingerprintBits = Buckets::fingerprintBits(f);
    unsigned char seen = 0;
    for (std::size_t k = 0; k < n; ++k) {
      where[k] = locateHashed(layout, hash, fingerprintBits, items.item(first + k), items.length(first + k), true);
      if constexpr (kPrefetches) {
        request(view.address(where[k].primaryBucket), seen);
        request(view.address(where[k].alternateBucket), seen);
      }
    }
    if constexpr (!kPrefetches) {
      if (!readAhead) return;
      for (std::size_t k = 0; k < n; ++k) {
        request(view.address(where[k].primaryBucket), seen);
        request(view.address(where[k].alternateBucket), seen);
      }
      gTouched = seen;
    }
  }

  template <class Items>
  static void containsEach(const CuckooFilter& f, const Items& items, unsigned char* answers) noexcept {
    const Buckets view = buckets(f);
    const Index relation = index(f);
    const bool readAhead = readsAhead(f);
    ItemLocation where[kBatchBlock];
    for (std::size_t base = 0; base < items.count; base += kBatchBlock) {
      const std::size_t n = items.count - base < kBatchBlock ? items.count - base : kBatchBlock;
      locateBlock(f, relation, view, items, base, n, readAhead, where);
      for (std::size_t k = 0; k < n; ++k) answers[base + k] = containsIn(f.state_, view, where[k]) ? 1 : 0;
    }
  }

  // Adds items in order until one is refused; returns how many were added.
  template <class Items>
  static std::size_t insertEach(CuckooFilter& f, const Items& items) noexcept {
    Buckets view = buckets(f);
    const Index relation = index(f);
    const bool readAhead = readsAhead(f);
    ItemLocation where[kBatchBlock];
    SilentObserver silent;
    for (std::size_t base = 0; base < items.count; base += kBatchBlock) {
      const std::size_t n = items.count - base < kBatchBlock ? items.count - base : kBatchBlock;
      locateBlock(f, relation, view, items, base, n, readAhead, where);
      for (std::size_t k = 0; k < n; ++k) {
        if (!insertLocated(f, where[k], silent)) return base + k;
      }
    }
    return items.count;
  }

  // Erases one copy of each item; returns how many were found.
  template <class Items>
  static std::size_t eraseEach(CuckooFilter& f, const Items& items) noexcept {
    Buckets view = buckets(f);
    const Index relation = index(f);
    const bool readAhead = readsAhead(f);
    ItemLocation where[kBatchBlock];
    std::size_t erased = 0;
    for (std::size_t base = 0; base < items.count; base += kBatchBlock) {
      const std::size_t n = items.count - base < kBatchBlock ? items.count - base : kBatchBlock;
      locateBlock(f, relation, view, items, base, n, readAhead, where);
      SilentObserver silent;
      for (std::size_t k = 0; k < n; ++k) erased += eraseLocated(f, where[k], silent) ? 1 : 0;
    }
    return erased;
  }
};

}  // namespace cuckoo::detail

#undef CUCKOO_SHARED_IN_WASM
