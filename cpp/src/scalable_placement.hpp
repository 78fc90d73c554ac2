#pragma once
// The growable filter's placement and eviction (scalable_filter.hpp has the
// design): a new entry into the emptier of its buckets, an entry out of the
// table back into one, Algorithm 1's relocations when both are full, and the
// stash that keeps an entry no eviction placed. Growing the table is
// scalable_growth.hpp's.

#include <cstdint>
#include <cstdlib>

#include "batch_memory.hpp"
#include "cuckoo/hashing.hpp"
#include "cuckoo/scalable_filter.hpp"
#include "scalable_ops.hpp"
#include "scalable_slot_codec.hpp"
#include "scalable_table.hpp"

namespace cuckoo {

class ScalableCuckooFilter::Placement {
  using ItemLocation = Ops::ItemLocation;
  using SlotValues = detail::SlotValues;
  static constexpr unsigned kSlots = Ops::kSlots;

 public:
  enum class Outcome { kPlaced, kHomeless, kRefused };

  // The buckets an eviction walk wrote, as they were, when the walk must be
  // undoable (the stash cannot take another entry): one record per kick,
  // allocated only then (ready() is false when that fails).
  class WalkLog {
   public:
    explicit WalkLog(std::uint32_t maxKicks) noexcept
        : records_(maxKicks == 0 ? nullptr : static_cast<Record*>(std::malloc(maxKicks * sizeof(Record)))),
          wanted_(maxKicks != 0) {}
    ~WalkLog() { std::free(records_); }
    WalkLog(const WalkLog&) = delete;
    WalkLog& operator=(const WalkLog&) = delete;

    bool ready() const noexcept { return records_ != nullptr || !wanted_; }
    // The log to give a walk: null when none is kept.
    WalkLog* ifKept() noexcept { return records_ != nullptr ? this : nullptr; }
    void push(std::uint64_t bucket, const SlotValues& before) noexcept { records_[count_++] = Record{bucket, before}; }
    // Writes every logged bucket back, the last first.
    void undo(ScalableCuckooFilter& f) const noexcept {
      for (std::uint32_t k = count_; k-- > 0;) f.table_->write(records_[k].bucket, records_[k].before);
    }

   private:
    struct Record {
      std::uint64_t bucket;
      SlotValues before;
    };
    Record* records_;
    bool wanted_;
    std::uint32_t count_ = 0;
  };

  // Places a new item's entry in the emptier of its two buckets: buckets not
  // yet split in this round take the items of twice the hash range of split
  // ones, and choosing the emptier evens the load out. Both full: evictions.
  // kHomeless with the entry no eviction placed in `leftover`; kRefused, with
  // nothing changed, when both buckets hold nothing but copies of the item.
  // With `log`, every bucket the evictions write is logged first.
  static Outcome placeNew(ScalableCuckooFilter& f, const ItemLocation& at, HeldEntry& leftover, WalkLog* log) noexcept {
    const detail::scalable::SlotCodec codec = Ops::codec(f);
    const std::uint32_t first = codec.newEntry(at.fingerprint, at.virtual1, Ops::levelOf(f, at.bucket1));
    const std::uint32_t second = codec.newEntry(at.fingerprint, at.virtual2, Ops::levelOf(f, at.bucket2));
    SlotValues slots1 = f.table_->read(at.bucket1);
    SlotValues slots2 = f.table_->read(at.bucket2);
    const unsigned free1 = freeSlots(slots1);
    const unsigned free2 = freeSlots(slots2);
    if (free1 != 0 && free1 >= free2) return putInto(f, at.bucket1, slots1, first) ? Outcome::kPlaced : Outcome::kHomeless;
    if (free2 != 0) return putInto(f, at.bucket2, slots2, second) ? Outcome::kPlaced : Outcome::kHomeless;
    if (onlyCopies(f, at)) return Outcome::kRefused;
    leftover = (f.prng_.next() & 1) != 0 ? HeldEntry{second, at.bucket2} : HeldEntry{first, at.bucket1};
    return evict(f, leftover, log) ? Outcome::kPlaced : Outcome::kHomeless;
  }

  // Puts an entry out of the table back: its bucket, its other bucket, else evictions.
  static bool placeHeld(ScalableCuckooFilter& f, HeldEntry& held) noexcept {
    if (tryPut(f, held.bucket, held.value)) return true;
    HeldEntry other;
    if (otherPlace(f, held.value, held.bucket, other.value, other.bucket) && tryPut(f, other.bucket, other.value)) {
      return true;
    }
    return evict(f, held, nullptr);
  }

  // Where an entry of `bucket` goes when evicted: its other bucket and its
  // value there. False when the tail is too short to tell (only for an entry
  // whose tail is spent, in a bucket not yet split, whose other bucket is).
  static bool otherPlace(const ScalableCuckooFilter& f, std::uint32_t value, std::uint64_t bucket,
                         std::uint32_t& otherValue, std::uint64_t& otherBucket) noexcept {
    const detail::scalable::SlotCodec codec = Ops::codec(f);
    const std::uint32_t fingerprint = codec.fingerprintOf(value);
    const detail::scalable::KnownBits here = Ops::knownOf(f, value, bucket);
    const detail::scalable::KnownBits there{(here.bits ^ linearOffset(fingerprint)) & detail::scalable::mask(here.count),
                                            here.count};
    const unsigned level = f.shape_.level;
    if (there.count <= level && (there.bits & detail::scalable::mask(level)) < f.shape_.splitBucket) return false;
    otherBucket = Ops::bucketOf(f, there.bits);
    otherValue = codec.entry(fingerprint, there, Ops::levelOf(f, otherBucket));
    return true;
  }

  // Tries to put every stashed entry into the table; the ones that find no room stay.
  static void placeStash(ScalableCuckooFilter& f) noexcept {
    unsigned kept = 0;
    for (unsigned k = 0; k < f.stashCount_; ++k) {
      HeldEntry held = f.stash_[k];
      if (!placeHeld(f, held)) f.stash_[kept++] = held;
    }
    f.stashCount_ = kept;
  }

  static void addToStash(ScalableCuckooFilter& f, const HeldEntry& held) noexcept { f.stash_[f.stashCount_++] = held; }

  static void removeFromStash(ScalableCuckooFilter& f, unsigned index) noexcept {
    f.stash_[index] = f.stash_[--f.stashCount_];
    f.stash_[f.stashCount_] = HeldEntry{};
  }

 private:
  static unsigned freeSlots(const SlotValues& slots) noexcept {
    unsigned free = 0;
    for (const std::uint32_t value : slots.value) free += value == 0 ? 1 : 0;
    return free;
  }

  // Puts `value` in the first empty slot of `slots`, read from `bucket`.
  static bool putInto(ScalableCuckooFilter& f, std::uint64_t bucket, SlotValues& slots, std::uint32_t value) noexcept {
    for (std::uint32_t& slot : slots.value) {
      if (slot == 0) {
        slot = value;
        f.table_->write(bucket, slots);
        return true;
      }
    }
    return false;
  }

  static bool tryPut(ScalableCuckooFilter& f, std::uint64_t bucket, std::uint32_t value) noexcept {
    SlotValues slots = f.table_->read(bucket);
    return putInto(f, bucket, slots, value);
  }

  // Copies of one item share their two buckets, whatever the table's size:
  // when those buckets hold nothing but copies of it, no growth makes room.
  static bool onlyCopies(const ScalableCuckooFilter& f, const ItemLocation& at) noexcept {
    unsigned copies = static_cast<unsigned>(__builtin_popcount(Ops::matchingSlots(f, at.bucket1, at.fingerprint, at.virtual1)));
    if (at.bucket2 == at.bucket1) return copies == kSlots;
    copies += static_cast<unsigned>(__builtin_popcount(Ops::matchingSlots(f, at.bucket2, at.fingerprint, at.virtual2)));
    return copies == 2 * kSlots;
  }

  // Algorithm 1's relocation loop from `bucket`, which is full, looking one
  // step ahead: a resident whose other bucket has room moves there and the
  // walk ends; only when none has does a random one move on. The table runs
  // near its maximum load all the time (it grows there), where a blind walk
  // is long. The residents' other buckets are requested together before any
  // is read (batch_memory.hpp): in a table beyond the caches each is a miss,
  // and most adds that evict at all look at four of them. Returns false,
  // with the entry left homeless in `held`, when evictions run out; `log`,
  // if any, then holds every bucket the walk changed, as it was.
  static bool evict(ScalableCuckooFilter& f, HeldEntry& held, WalkLog* log) noexcept {
    const Ops::BucketRequests requests(f);
    unsigned char seen = 0;
    for (std::uint32_t kick = 0; kick < f.params_.maxKicks; ++kick) {
      SlotValues slots = f.table_->read(held.bucket);
      const auto first = static_cast<unsigned>(f.prng_.next() & (kSlots - 1));
      HeldEntry moved[kSlots];
      bool movable[kSlots];
      for (unsigned i = 0; i < kSlots; ++i) {
        const unsigned slot = (first + i) & (kSlots - 1);
        movable[i] = otherPlace(f, slots.value[slot], held.bucket, moved[i].value, moved[i].bucket);
        if (movable[i]) requests.request(moved[i].bucket, seen);
      }
      if constexpr (!detail::kPrefetches) detail::gTouched = seen;
      for (unsigned i = 0; i < kSlots; ++i) {
        const unsigned slot = (first + i) & (kSlots - 1);
        if (movable[i] && tryPut(f, moved[i].bucket, moved[i].value)) {
          slots.value[slot] = held.value;
          f.table_->write(held.bucket, slots);
          return true;
        }
      }
      unsigned victim = 0;
      while (victim < kSlots && !movable[victim]) ++victim;
      if (victim == kSlots) return false;
      if (log != nullptr) log->push(held.bucket, slots);
      slots.value[(first + victim) & (kSlots - 1)] = held.value;
      f.table_->write(held.bucket, slots);
      held = moved[victim];
      if (tryPut(f, held.bucket, held.value)) return true;
    }
    return false;
  }
};

}  // namespace cuckoo
