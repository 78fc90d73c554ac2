#pragma once
// Algorithm 1's relocation loop, the part of an insert that kicks
// (filter_algorithms.hpp calls it when both candidate buckets are full), and
// what it keeps to undo itself when it must not end in the stash.

#include <cstdint>
#include <cstdlib>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/prng.hpp"
#include "cuckoo/detail/webassembly_tradeoffs.hpp"

namespace cuckoo::detail {

// What an eviction walk keeps to undo itself, when it must be undoable (the
// stash is occupied): per kick, its bucket and what the view needs to undo it
// (kickRecord, undoKick); the fingerprints follow back from the walk's end.
class KickLog {
 public:
  // Room for `maxKicks` kicks: on the stack for the default and below, else
  // allocated; ready() is false when that fails.
  explicit KickLog(std::uint32_t maxKicks) noexcept
      : records_(maxKicks <= kLocal ? local_
                                    : static_cast<std::uint64_t*>(std::malloc(std::size_t{maxKicks} * sizeof(std::uint64_t)))) {}
  ~KickLog() {
    if (records_ != local_) std::free(records_);
  }
  KickLog(const KickLog&) = delete;
  KickLog& operator=(const KickLog&) = delete;

  bool ready() const noexcept { return records_ != nullptr; }
  void push(std::uint32_t bucket, std::uint32_t record) noexcept {
    records_[count_++] = std::uint64_t{bucket} << 32 | record;
  }
  std::uint32_t count() const noexcept { return count_; }
  std::uint32_t bucket(std::uint32_t kick) const noexcept { return static_cast<std::uint32_t>(records_[kick] >> 32); }
  std::uint32_t record(std::uint32_t kick) const noexcept { return static_cast<std::uint32_t>(records_[kick]); }

 private:
  static constexpr std::uint32_t kLocal = kDefaultMaxKicks;
  std::uint64_t local_[kLocal];
  std::uint64_t* records_;
  std::uint32_t count_ = 0;
};

// Algorithm 1's relocation loop, from a bucket drawn between the two
// candidates. Each step swaps the homeless fingerprint with a random
// resident of the current bucket, then tries the evicted one's other
// bucket, which the relation of hashing.hpp gives from the bucket and
// fingerprint alone. When the kicks run out with the stash free, the last
// homeless fingerprint goes there. With the stash occupied (rare: both
// buckets full while the stash is in use) the walk must be undoable: then
// every kick is undone from the last (putting back, in its bucket, the
// fingerprint it displaced in place of the one it brought), the PRNG
// restored, and the walk returns false having changed nothing. (Natively
// the view and the relation by value: taking their address would keep them
// in memory in the inserts that call this. PassedStructure:
// webassembly_tradeoffs.hpp.)
template <class Buckets, class Index, class Observer>
[[gnu::noinline]] bool evictionWalk(FilterState& state, std::uint32_t maxKicks, PassedStructure<Buckets> view,
                                   PassedStructure<const Index> relation,
                                   std::uint32_t fingerprint, std::uint32_t primary, std::uint32_t alternate,
                                   Observer& observer) noexcept {
  const bool undoable = state.stash.occupied;
  KickLog log(undoable ? maxKicks : 0);
  if (!log.ready()) return false;
  const SplitMix64 before = state.prng;
  std::uint32_t bucket = (state.prng.next() & 1) != 0 ? alternate : primary;
  const std::uint64_t slotMask = view.slots() - 1;
  for (std::uint32_t kick = 0; kick < maxKicks; ++kick) {
    const auto slot = static_cast<unsigned>(state.prng.next() & slotMask);
    const std::uint32_t incoming = fingerprint;
    fingerprint = view.exchange(bucket, slot, incoming);
    if (undoable) log.push(bucket, view.kickRecord(slot, incoming));
    const std::uint32_t next = relation.alternate(bucket, fingerprint);
    observer.onKick(bucket, slot, incoming, fingerprint, next);
    bucket = next;
    if (view.insertIntoEmptySlot(bucket, fingerprint)) {
      observer.onPlaced(bucket, fingerprint);
      return true;
    }
  }
  if (!undoable) {
    state.stash = Stash{true, fingerprint, bucket};
    observer.onStashed(bucket, fingerprint);
    return true;
  }
  observer.onUndone(bucket, fingerprint);
  for (std::uint32_t kick = log.count(); kick-- > 0;) {
    fingerprint = view.undoKick(log.bucket(kick), log.record(kick), fingerprint);
  }
  state.prng = before;
  return false;
}

}  // namespace cuckoo::detail
