#pragma once
// What the inspection bindings share (cuckoo-wasm/inspect, ts/src/inspect*.ts):
// where an item lives, copies of a bucket, and the recorder of an eviction
// walk, which an insert and a delete that re-places the stashed fingerprint
// both report. As in glue.hpp, filters cross as integer handles.

#include <emscripten/val.h>

#include <cstdint>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/hashing.hpp"
#include "glue.hpp"

namespace inspect {

using cuckoo::CuckooFilter;
using emscripten::val;
using glue::Handle;

inline constexpr unsigned kLargestBucketSize = 8;
inline constexpr std::uint32_t kNoSlot = 0xFFFFFFFFU;

inline const CuckooFilter& readFilter(Handle handle) { return glue::objectAt<const CuckooFilter>(handle); }
inline CuckooFilter& filterAt(Handle handle) { return glue::objectAt<CuckooFilter>(handle); }

inline std::uint32_t fingerprintOffset(const CuckooFilter& filter, std::uint32_t fingerprint) {
  return filter.bucketIndex().offset(fingerprint);
}

inline unsigned popcount(std::uint32_t bits) { return static_cast<unsigned>(__builtin_popcount(bits)); }

struct BucketCopy {
  std::uint32_t slots[kLargestBucketSize] = {};
};

inline BucketCopy copyBucket(const CuckooFilter& filter, std::uint32_t bucket) {
  BucketCopy copy;
  for (unsigned s = 0; s < filter.params().bucketSize; ++s) copy.slots[s] = filter.slotValue(bucket, s);
  return copy;
}

// Slots of `bucket` holding `fingerprint`, as a bit set (bit s = slot s).
inline std::uint32_t slotsHolding(const CuckooFilter& filter, std::uint32_t bucket, std::uint32_t fingerprint) {
  std::uint32_t found = 0;
  for (unsigned s = 0; s < filter.params().bucketSize; ++s) {
    if (filter.slotValue(bucket, s) == fingerprint) found |= 1U << s;
  }
  return found;
}

// Where an item lives. The hash crosses as two 32-bit halves.
struct Location {
  std::uint32_t hashLow;
  std::uint32_t hashHigh;
  std::uint32_t fingerprint;
  std::uint32_t i1;
  std::uint32_t i2;
  std::uint32_t fingerprintHash;     // the fingerprint's offset word: mix32(fingerprint), or g(fingerprint) for hash ids 6 to 11
  std::uint32_t fingerprintHashMod;  // it reduced to [0, m): what relates i1 and i2
  unsigned hashId;                   // which relation: 1 (XOR, a power-of-two m) or 2 (reflection)
};

// The item's location with the hash it comes from (`item`, `length` the item's bytes).
inline Location locationOf(const CuckooFilter& filter, const void* item, std::size_t length,
                           const cuckoo::ItemLocation& where) {
  const std::uint64_t hash = filter.itemHash(item, length);
  return Location{static_cast<std::uint32_t>(hash), static_cast<std::uint32_t>(hash >> 32),
                  where.fingerprint,  where.primaryBucket,
                  where.alternateBucket, filter.bucketIndex().offsetWord(where.fingerprint),
                  fingerprintOffset(filter, where.fingerprint), filter.bucketIndex().powerOfTwo() ? 1U : 2U};
}

// One eviction of a walk.
struct Kick {
  std::uint32_t bucket;
  std::uint32_t slot;
  std::uint32_t incoming;
  std::uint32_t evicted;
  std::uint32_t nextBucket;
  std::uint32_t evictedHashMod;  // mix32(evicted) reduced to [0, m), as in Location
};

// How a walk ended: placed in a slot, sent to the stash, undone (its kicks
// ran out while the stash was occupied: the insert was refused and changed
// nothing), or none (a delete with nothing to re-place).
enum class WalkEnd : std::uint32_t { kNone = 0, kPlaced = 1, kStashed = 2, kUndone = 3 };

// A fingerprint's way to a slot: the evictions, and where the last homeless
// fingerprint went.
struct Walk {
  std::uint32_t kickCount = 0;
  val kicks = val::array();  // Kick records, at most the caller's capacity
  WalkEnd end = WalkEnd::kNone;
  std::uint32_t endBucket = 0;
  std::uint32_t endSlot = kNoSlot;  // kNoSlot unless placed
  std::uint32_t endFingerprint = 0;
};

// Records a walk of a fingerprint whose candidate buckets are `start`'s;
// kicks beyond the capacity are counted, not kept. The core names no slot
// that received a fingerprint, so the buckets it may go to are copied first.
class WalkRecorder final : public cuckoo::InsertObserver {
 public:
  WalkRecorder(const CuckooFilter& filter, std::uint32_t capacity, const cuckoo::ItemLocation& start, Walk& walk)
      : filter_(filter),
        capacity_(capacity),
        primary_(start.primaryBucket),
        primaryBefore_(copyBucket(filter, start.primaryBucket)),
        alternateBefore_(copyBucket(filter, start.alternateBucket)),
        walk_(walk) {}

  void onKick(std::uint32_t bucket, unsigned slot, std::uint32_t incoming, std::uint32_t evicted,
              std::uint32_t nextBucket) override {
    if (walk_.kickCount < capacity_) {
      walk_.kicks.call<void>("push", Kick{bucket, slot, incoming, evicted, nextBucket, fingerprintOffset(filter_, evicted)});
    }
    ++walk_.kickCount;
    // Taken before the core tries nextBucket, to tell which slot it fills.
    nextBefore_ = copyBucket(filter_, nextBucket);
  }

  void onPlaced(std::uint32_t bucket, std::uint32_t fingerprint) override {
    const BucketCopy& before = walk_.kickCount > 0 ? nextBefore_ : bucket == primary_ ? primaryBefore_ : alternateBefore_;
    finish(WalkEnd::kPlaced, bucket, slotThatReceived(bucket, before, fingerprint), fingerprint);
  }

  void onStashed(std::uint32_t bucket, std::uint32_t fingerprint) override {
    finish(WalkEnd::kStashed, bucket, kNoSlot, fingerprint);
  }

  void onUndone(std::uint32_t bucket, std::uint32_t fingerprint) override {
    finish(WalkEnd::kUndone, bucket, kNoSlot, fingerprint);
  }

 private:
  void finish(WalkEnd end, std::uint32_t bucket, std::uint32_t slot, std::uint32_t fingerprint) {
    walk_.end = end;
    walk_.endBucket = bucket;
    walk_.endSlot = slot;
    walk_.endFingerprint = fingerprint;
  }

  // The slot of `bucket` that now holds `fingerprint` and did not before. A
  // semi-sorted bucket is re-sorted after a write, so there the first slot
  // that changed to `fingerprint` is reported, which is where it sorted to.
  std::uint32_t slotThatReceived(std::uint32_t bucket, const BucketCopy& before, std::uint32_t fingerprint) const {
    std::uint32_t fallback = kNoSlot;
    for (unsigned s = 0; s < filter_.params().bucketSize; ++s) {
      const std::uint32_t now = filter_.slotValue(bucket, s);
      if (now != fingerprint) continue;
      if (now != before.slots[s]) return s;
      if (fallback == kNoSlot) fallback = s;
    }
    return fallback;
  }

  const CuckooFilter& filter_;
  std::uint32_t capacity_;
  std::uint32_t primary_;
  BucketCopy primaryBefore_;
  BucketCopy alternateBefore_;
  BucketCopy nextBefore_;
  Walk& walk_;
};

}  // namespace inspect
