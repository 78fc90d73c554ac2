#pragma once
// The growable filter's growth (scalable_filter.hpp has the design): when the
// table grows (its load, its stash, and the never-fits check that says when
// growing cannot help), how (one bucket split at a time, entries following
// the next bit of their tails), and an insert, which places its item and
// then grows as needed.

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "cuckoo/hashing.hpp"
#include "cuckoo/scalable_filter.hpp"
#include "once_per_filter.hpp"
#include "reject.hpp"
#include "scalable_ops.hpp"
#include "scalable_placement.hpp"
#include "scalable_sizing.hpp"
#include "scalable_slot_codec.hpp"
#include "scalable_table.hpp"

namespace cuckoo {
namespace detail::scalable {

// The observer of plain inserts and merges: every hook compiles to nothing.
struct SilentGrowth {
  void onGrowth(std::uint64_t, std::uint64_t, unsigned) noexcept {}
  void onSplit(std::uint64_t, std::uint64_t, unsigned) noexcept {}
  void onSplitEntry(const GrowthObserver::EntryMove&) noexcept {}
  void onGrown(unsigned) noexcept {}
};

}  // namespace detail::scalable

class ScalableCuckooFilter::Growth {
  using ItemLocation = Ops::ItemLocation;
  using KnownBits = detail::scalable::KnownBits;
  static constexpr unsigned kSlots = Ops::kSlots;

 public:
  // Entries a growth starts with at most: each may be copied to both halves
  // by two splits, and kMaxHeld is what it can carry.
  static constexpr unsigned kGrowAt = kMaxHeld / 4;

  // Entries out of the table that a growth must carry along (the stash).
  struct HeldList {
    HeldEntry* entries;
    unsigned count;
  };

  // An add of an item located earlier, perhaps before the table last grew:
  // its virtual buckets and fingerprint do not change, its buckets may have.
  // `observer` sees every growth it makes.
  template <class Observer>
  static bool insertLocated(ScalableCuckooFilter& f, ItemLocation at, Observer& observer) noexcept {
    at.bucket1 = Ops::bucketOf(f, at.virtual1);
    at.bucket2 = Ops::bucketOf(f, at.virtual2);
    // An entry the evictions leave homeless waits in the stash while it has
    // room (a growth carries kGrowAt entries at most); past that the walk
    // must be undoable, and is undone.
    const bool stashHasRoom = f.stashCount_ < kGrowAt;
    Placement::WalkLog log(stashHasRoom ? 0 : f.params_.maxKicks);
    const SplitMix64 before = f.prng_;
    HeldEntry leftover;
    const Placement::Outcome outcome =
        log.ready() ? Placement::placeNew(f, at, leftover, log.ifKept()) : Placement::Outcome::kRefused;
    if (outcome == Placement::Outcome::kHomeless && !stashHasRoom) {
      log.undo(f);
      f.prng_ = before;
    } else if (outcome != Placement::Outcome::kRefused) {
      if (outcome == Placement::Outcome::kHomeless) Placement::addToStash(f, leftover);
      ++f.itemCount_;
      ++f.entryCount_;
      f.lastAddRefused_ = false;
      // The item is stored (in the stash at worst) whether or not this grows.
      makeRoom(f, observer);
      return true;
    }
    f.lastAddRefused_ = true;
    return false;
  }
  static bool insertLocated(ScalableCuckooFilter& f, ItemLocation at) noexcept {
    detail::scalable::SilentGrowth silent;
    return insertLocated(f, at, silent);
  }

  // Grows while the load is above kMaxLoad, and while the stash holds an
  // entry that growth may place (mayGrowForStash); an entry it may not place
  // stays in the stash. Not while the stash holds more than a growth carries.
  template <class Observer>
  static Status makeRoom(ScalableCuckooFilter& f, Observer& observer) noexcept {
    while (f.stashCount_ <= kGrowAt && (overloaded(f) || (f.stashCount_ != 0 && mayGrowForStash(f, f.itemCount_)))) {
      const Status status = growOnce(f, nextBucketCount(f), observer);
      if (status != Status::kOk) return status;
    }
    return Status::kOk;
  }
  static Status makeRoom(ScalableCuckooFilter& f) noexcept {
    detail::scalable::SilentGrowth silent;
    return makeRoom(f, silent);
  }

  // The bucket count after one growth: `growth` times the buckets, one more at least.
  static std::uint64_t nextBucketCount(const ScalableCuckooFilter& f) noexcept {
    const std::uint64_t buckets = f.table_->bucketCount();
    const std::uint64_t largest = std::uint64_t{1} << kMaxScalableLevel;
    auto target = static_cast<std::uint64_t>(std::ceil(static_cast<double>(buckets) * f.params_.growth));
    if (target <= buckets) target = buckets + 1;
    return target > largest ? largest : target;
  }

  // One growth, carrying the stash along, then the stash put back where it fits.
  template <class Observer>
  static Status growOnce(ScalableCuckooFilter& f, std::uint64_t target, Observer& observer) noexcept {
    HeldList held{f.stash_, f.stashCount_};
    const Status status = growTo(f, target, held, observer);
    f.stashCount_ = held.count;
    if (status != Status::kOk) return status;
    Placement::placeStash(f);
    observer.onGrown(f.stashCount_);
    return status;
  }
  static Status growOnce(ScalableCuckooFilter& f, std::uint64_t target) noexcept {
    detail::scalable::SilentGrowth silent;
    return growOnce(f, target, silent);
  }

  // Whether a growth may be made for the stash of `f`, which holds `items`
  // items (kMinLoadToGrowForStash has why): the growth must carry the stash
  // (each entry may be copied by two splits), and the items must fill the
  // table enough that growth, not its entries, is what they lack.
  CUCKOO_ONCE_PER_FILTER static bool mayGrowForStash(const ScalableCuckooFilter& f, std::uint64_t items) noexcept {
    if (f.stashCount_ == 0) return true;
    if (f.stashCount_ > kGrowAt || stashNeverFits(f)) return false;
    const std::uint64_t buckets = f.table_->bucketCount();
    return buckets < detail::scalable::kSmallTableBuckets ||
           static_cast<double>(items) >= detail::scalable::kMinLoadToGrowForStash * static_cast<double>(buckets * kSlots);
  }

  // Whether no growth can make room for an entry out of the table (the
  // stash, or one being merged), which knows only some bits of its virtual
  // bucket number: its buckets are full of entries of its fingerprint that
  // agree with it and with each other on every bit they know, so every
  // split sends them all the same way. When both of its buckets are one,
  // that bucket's entries must agree with both of its forms (they are
  // checked as both buckets' entries): entries stored for one virtual
  // bucket leave the other free once a split separates the two.
  CUCKOO_ONCE_PER_FILTER static bool neverFits(const ScalableCuckooFilter& f, const HeldEntry& held) noexcept {
    const std::uint32_t fingerprint = Ops::codec(f).fingerprintOf(held.value);
    HeldEntry other;
    if (!Placement::otherPlace(f, held.value, held.bucket, other.value, other.bucket)) return false;
    KnownBits known[2 * kSlots + 1];
    unsigned count = 0;
    known[count++] = Ops::knownOf(f, held.value, held.bucket);
    const std::uint64_t buckets[2] = {held.bucket, other.bucket};
    for (unsigned side = 0; side < 2; ++side) {
      const detail::SlotValues slots = f.table_->read(buckets[side]);
      for (const std::uint32_t value : slots.value) {
        if (value == 0 || Ops::codec(f).fingerprintOf(value) != fingerprint) return false;
        KnownBits entry = Ops::knownOf(f, value, buckets[side]);
        // The other bucket's entries know bits of the other virtual number.
        if (side == 1) entry.bits = (entry.bits ^ linearOffset(fingerprint)) & detail::scalable::mask(entry.count);
        known[count++] = entry;
      }
    }
    // They agree pairwise when they all agree with the one that knows the most.
    KnownBits longest = known[0];
    for (unsigned k = 1; k < count; ++k) longest = known[k].count > longest.count ? known[k] : longest;
    for (unsigned k = 0; k < count; ++k) {
      if (((known[k].bits ^ longest.bits) & detail::scalable::mask(known[k].count)) != 0) return false;
    }
    return true;
  }

 private:
  static bool overloaded(const ScalableCuckooFilter& f) noexcept {
    const double slots = static_cast<double>(f.table_->bucketCount() * kSlots);
    return static_cast<double>(f.entryCount_) > detail::scalable::kMaxLoad * slots;
  }

  CUCKOO_ONCE_PER_FILTER static bool stashNeverFits(const ScalableCuckooFilter& f) noexcept {
    for (unsigned k = 0; k < f.stashCount_; ++k) {
      if (neverFits(f, f.stash_[k])) return true;
    }
    return false;
  }

  // Grows the table to `target` buckets. The one allocation comes first, so
  // a failure changes nothing.
  template <class Observer>
  static Status growTo(ScalableCuckooFilter& f, std::uint64_t target, HeldList& held, Observer& observer) noexcept {
    const std::uint64_t from = f.table_->bucketCount();
    if (target <= from) return detail::rejected(Status::kTableTooLarge);
    const Status status = f.table_->resize(target);
    if (status != Status::kOk) return status;
    observer.onGrowth(from, target, held.count);
    while (f.shape_.bucketCount() < target) splitNext(f, held, observer);
    return Status::kOk;
  }

  // Splits the next bucket of the round in two. Entries, and the held ones,
  // follow their next bit; an entry whose tail is spent is copied to both
  // halves (a held one too: a growth starts with kMaxHeld / 4 held entries at
  // most, mayGrowForStash, and splits one bucket twice at most).
  template <class Observer>
  static void splitNext(ScalableCuckooFilter& f, HeldList& held, Observer& observer) noexcept {
    const std::uint64_t bucket = f.shape_.splitBucket;
    const std::uint64_t sibling = (std::uint64_t{1} << f.shape_.level) + bucket;
    observer.onSplit(bucket, sibling, f.shape_.level);
    const detail::scalable::SlotCodec codec = Ops::codec(f);
    const detail::SlotValues slots = f.table_->read(bucket);
    detail::SlotValues low{};
    detail::SlotValues high{};
    unsigned lowCount = 0;
    unsigned highCount = 0;
    for (const std::uint32_t value : slots.value) {
      if (value == 0) continue;
      const detail::scalable::SplitEntry moved = codec.split(value);
      if (moved.toBoth) {
        low.value[lowCount++] = moved.value;
        high.value[highCount++] = moved.value;
        ++f.entryCount_;
      } else if (moved.toSibling) {
        high.value[highCount++] = moved.value;
      } else {
        low.value[lowCount++] = moved.value;
      }
    }
    f.table_->write(bucket, low);
    f.table_->write(sibling, high);
    if constexpr (!std::is_same_v<Observer, detail::scalable::SilentGrowth>) reportSplit(f, observer, bucket, sibling, slots);
    const unsigned heldBefore = held.count;
    for (unsigned k = 0; k < heldBefore; ++k) {
      HeldEntry& entry = held.entries[k];
      if (entry.bucket != bucket) continue;
      const detail::scalable::SplitEntry moved = codec.split(entry.value);
      observer.onSplitEntry({entry.value, moved.value, routeOf(moved), -1, -1, true});
      entry.value = moved.value;
      if (moved.toBoth && held.count < kMaxHeld) {
        held.entries[held.count++] = HeldEntry{entry.value, sibling};
        ++f.entryCount_;
      }
      if (moved.toSibling) entry.bucket = sibling;
    }
    if (++f.shape_.splitBucket == (std::uint64_t{1} << f.shape_.level)) {
      ++f.shape_.level;
      f.shape_.splitBucket = 0;
    }
  }

  static GrowthObserver::Route routeOf(const detail::scalable::SplitEntry& moved) noexcept {
    using Route = GrowthObserver::Route;
    return moved.toBoth ? Route::kCopied : moved.toSibling ? Route::kMoves : Route::kStays;
  }

  // Tells `observer` where a split put each entry the bucket held `before`,
  // by the slots the two buckets now show: a semi-sorted bucket is stored
  // sorted, so an entry's slot is where its value sorts to.
  template <class Observer>
  static void reportSplit(const ScalableCuckooFilter& f, Observer& observer, std::uint64_t bucket,
                          std::uint64_t sibling, const detail::SlotValues& before) noexcept {
    using Route = GrowthObserver::Route;
    const detail::scalable::SlotCodec codec = Ops::codec(f);
    const detail::SlotValues low = f.table_->read(bucket);
    const detail::SlotValues high = f.table_->read(sibling);
    unsigned lowTaken = 0;  // slots already reported, as bit sets: copies share a value
    unsigned highTaken = 0;
    for (const std::uint32_t value : before.value) {
      if (value == 0) continue;
      const detail::scalable::SplitEntry moved = codec.split(value);
      const Route route = routeOf(moved);
      const int lowSlot = route != Route::kMoves ? claimSlot(low, moved.value, lowTaken) : -1;
      const int highSlot = route != Route::kStays ? claimSlot(high, moved.value, highTaken) : -1;
      observer.onSplitEntry({value, moved.value, route, lowSlot, highSlot, false});
    }
  }

  static int claimSlot(const detail::SlotValues& slots, std::uint32_t value, unsigned& taken) noexcept {
    for (unsigned s = 0; s < kSlots; ++s) {
      if ((taken >> s & 1U) == 0 && slots.value[s] == value) {
        taken |= 1U << s;
        return static_cast<int>(s);
      }
    }
    return -1;
  }
};

}  // namespace cuckoo
