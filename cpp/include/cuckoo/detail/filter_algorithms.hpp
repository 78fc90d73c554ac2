#pragma once
// The filter's algorithms on any table: a view of its buckets (buckets.hpp),
// their relation (hashing.hpp) and the state beside them. The kernels
// (kernel.hpp) run them on a CuckooFilter's own table; another home of a
// filter's bytes (a Redis string, bindings/redis-module) runs them on its own
// view and makes the same choices.

#include <cstdint>
#include <type_traits>
#include <utility>

#include "cuckoo/detail/any_buckets.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/hashing.hpp"
#include "cuckoo/detail/eviction_walk.hpp"
#include "cuckoo/detail/webassembly_tradeoffs.hpp"

// Natively the algorithms are inlined into each entry point, so that no call
// passes a table view and an item's location through memory; WebAssembly,
// which is downloaded, keeps the smaller code.
#if defined(__wasm__)
#define CUCKOO_INLINE_NATIVELY
#define CUCKOO_OUT_OF_LINE_NATIVELY [[gnu::always_inline]]
#else
#define CUCKOO_INLINE_NATIVELY [[gnu::always_inline]]
#define CUCKOO_OUT_OF_LINE_NATIVELY [[gnu::noinline, gnu::cold]]
#endif

namespace cuckoo::detail {

// The observer of plain inserts: every hook compiles to nothing.
struct SilentObserver {
  void onKick(std::uint32_t, unsigned, std::uint32_t, std::uint32_t, std::uint32_t) noexcept {}
  void onPlaced(std::uint32_t, std::uint32_t) noexcept {}
  void onStashed(std::uint32_t, std::uint32_t) noexcept {}
  void onUndone(std::uint32_t, std::uint32_t) noexcept {}
};

// Whether a view can say where a bucket's bits begin (buckets.hpp's can; a
// Redis string's chunked views cannot).
template <class View, class = void>
struct HasAddress : std::false_type {};
template <class View>
struct HasAddress<View, std::void_t<decltype(std::declval<const View&>().address(std::uint32_t{0}))>> : std::true_type {};

template <class Buckets, class Index>
class FilterAlgorithms {
 public:
  // Algorithm 2, plus the stash.
  // Both buckets are always read and tested, without a branch between them:
  // an item is in either with odds near one half, so a branch would be
  // mispredicted as often. (The generic view tests both in one call.)
  static bool containsIn(const FilterState& state, const Buckets& view, const ItemLocation& where) noexcept {
    if constexpr (std::is_same_v<Buckets, AnyBuckets>) {
      return view.holdsEither(where.primaryBucket, where.alternateBucket, where.fingerprint) || stashHolds(state, where);
    } else {
      const bool inBuckets = (static_cast<unsigned>(view.holds(view.probe(where.primaryBucket), where.fingerprint)) |
                              static_cast<unsigned>(view.holds(view.probe(where.alternateBucket), where.fingerprint))) != 0;
      return inBuckets || stashHolds(state, where);
    }
  }

  static unsigned countIn(const FilterState& state, const Buckets& view, const ItemLocation& where) noexcept {
    unsigned copies = popcount(view.matching(view.probe(where.primaryBucket), where.fingerprint));
    if (where.alternateBucket != where.primaryBucket) {
      copies += popcount(view.matching(view.probe(where.alternateBucket), where.fingerprint));
    }
    return copies + (stashHolds(state, where) ? 1U : 0U);
  }

  // Algorithm 1 on a located item: true when stored (in the stash at worst);
  // false, with nothing changed, when it cannot be placed.
  template <class Observer>
  CUCKOO_INLINE_NATIVELY static bool addIn(FilterState& state, std::uint32_t maxKicks, Buckets view, const Index& relation,
                    const ItemLocation& where, Observer& observer) noexcept {
    const bool placed =
        place(state, maxKicks, view, relation, where.fingerprint, where.primaryBucket, where.alternateBucket, observer);
    state.itemCount += placed ? 1 : 0;
    state.lastAddRefused = !placed;
    return placed;
  }

  // Algorithm 3: removes one copy of the item's fingerprint from its buckets
  // or the stash; a slot freed while the stash is occupied gets the stashed
  // fingerprint a fresh walk. Natively, with the stash empty (nearly always),
  // only the buckets are looked at, in a short inline path, and the rest is
  // out of line: fewer instructions a delete let more deletes' loads overlap
  // out of cache (bench/README.md). WebAssembly keeps one body, which is
  // smaller to download.
  template <class Observer>
  CUCKOO_INLINE_NATIVELY static bool eraseIn(FilterState& state, std::uint32_t maxKicks, Buckets view, const Index& relation,
                      const ItemLocation& where, Observer& observer) noexcept {
    if (!kCompactCode && !state.stash.occupied) {
      if (!removeFromBuckets(view, where)) return false;
      --state.itemCount;
      state.lastAddRefused = false;
      return true;
    }
    return eraseAnyStash(state, maxKicks, view, relation, where, observer);
  }

 private:
  static unsigned popcount(std::uint32_t v) noexcept { return static_cast<unsigned>(__builtin_popcount(v)); }

  static bool stashHolds(const FilterState& state, const ItemLocation& where) noexcept {
    return state.stash.occupied && state.stash.fingerprint == where.fingerprint &&
           (state.stash.bucket == where.primaryBucket || state.stash.bucket == where.alternateBucket);
  }

  // Empties the lowest slot holding the fingerprint in the first bucket, else
  // in the second. The second bucket is read only when the first lacks it:
  // that reads 1.5 buckets a delete rather than 2, which measured faster (at
  // 2^16 and 2^22 buckets, bench/README.md) than reading both at once and
  // choosing without a branch, though the branch is mispredicted half the time.
  // The second bucket's line is requested (a prefetch, which nothing waits
  // on) before the first is tested: when the branch is predicted "in the
  // first" and the item is in the second, that line is already on its way
  // when the misprediction is found, instead of being requested only then.
  CUCKOO_INLINE_NATIVELY static bool removeFromBuckets(Buckets& view, const ItemLocation& where) noexcept {
#if !defined(__wasm__)  // WebAssembly has no prefetch
    if constexpr (HasAddress<Buckets>::value) __builtin_prefetch(view.address(where.alternateBucket), 1);
#endif
    return view.removeOne(where.primaryBucket, where.fingerprint) || view.removeOne(where.alternateBucket, where.fingerprint);
  }

  // eraseIn whatever the stash holds: natively only with the stash occupied
  // (rare, so out of line), in WebAssembly always (inline there; the
  // structures by reference even so, PassedStructure: webassembly_tradeoffs.hpp).
  template <class Observer>
  CUCKOO_OUT_OF_LINE_NATIVELY static bool eraseAnyStash(FilterState& state, std::uint32_t maxKicks, PassedStructure<Buckets> view,
                                                        PassedStructure<const Index> relation,
                                                        PassedStructure<const ItemLocation> where, Observer& observer) noexcept {
    if (stashHolds(state, where)) {
      state.stash = Stash{};
    } else if (!removeFromBuckets(view, where)) {
      return false;
    } else if (state.stash.occupied) {
      // It may come back to the stash (possibly as a different fingerprint),
      // which is still correct: every item stays in its buckets or the stash.
      reinsertStash(state, maxKicks, view, relation, observer);
    }
    --state.itemCount;
    state.lastAddRefused = false;
    return true;
  }

  // Rare (a delete while the stash is occupied), so kept out of line. The
  // stash is empty during the walk, so it cannot be refused.
  template <class Observer>
  [[gnu::noinline, gnu::cold]] static void reinsertStash(FilterState& state, std::uint32_t maxKicks,
                                                         PassedStructure<Buckets> view, PassedStructure<const Index> relation,
                                                         Observer& observer) noexcept {
    const Stash homeless = state.stash;
    state.stash = Stash{};
    place(state, maxKicks, view, relation, homeless.fingerprint, homeless.bucket,
          relation.alternate(homeless.bucket, homeless.fingerprint), observer);
  }

  // Places `fingerprint`, whose candidate buckets are `primary` and
  // `alternate`: the lowest free slot of either, else evictions. False, with
  // nothing changed, only when evictions run out while the stash is occupied.
  template <class Observer>
  CUCKOO_INLINE_NATIVELY static bool place(FilterState& state, std::uint32_t maxKicks, Buckets& view, const Index& relation,
                    std::uint32_t fingerprint, std::uint32_t primary, std::uint32_t alternate, Observer& observer) noexcept {
    if (view.insertIntoEmptySlot(primary, fingerprint)) {
      observer.onPlaced(primary, fingerprint);
      return true;
    }
    if (alternate != primary && view.insertIntoEmptySlot(alternate, fingerprint)) {
      observer.onPlaced(alternate, fingerprint);
      return true;
    }
    return evictionWalk(state, maxKicks, view, relation, fingerprint, primary, alternate, observer);
  }
};

}  // namespace cuckoo::detail

#undef CUCKOO_INLINE_NATIVELY
#undef CUCKOO_OUT_OF_LINE_NATIVELY
