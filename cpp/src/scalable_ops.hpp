#pragma once
// The growable filter's operations (scalable_filter.hpp has the design):
// locating an item, matching slots and tails, evictions, splits and growth,
// with access to the filter's state. scalable_filter.cpp builds the public
// member functions on them.

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "batch_memory.hpp"
#include "cuckoo/bit_io.hpp"
#include "cuckoo/hashing.hpp"
#include "cuckoo/item_batch.hpp"
#include "cuckoo/scalable_filter.hpp"
#include "item_hash.hpp"
#include "once_per_filter.hpp"
#include "reject.hpp"
#include "scalable_sizing.hpp"
#include "scalable_table.hpp"

namespace cuckoo {

// Only scalable_filter.cpp includes this header.
using namespace detail::scalable;

// The operations, with access to the filter's state.
class ScalableCuckooFilter::Ops {
  using SlotValues = detail::SlotValues;
 public:
  struct Located {
    std::uint32_t fingerprint;
    std::uint64_t virtual1;
    std::uint64_t virtual2;
    std::uint64_t bucket1;
    std::uint64_t bucket2;
  };

  static Located locate(const ScalableCuckooFilter& f, const void* item, std::size_t length) noexcept {
    // Numbers from JavaScript and typed arrays are 8 bytes: XXH3's 8-byte path inline.
    const std::uint64_t hash = length == 8 ? detail::hashEightBytes(item, f.params_.seed)
                                           : detail::hashItem(item, length, f.params_.seed);
    Located at;
    at.fingerprint = fingerprintFromHash(hash, f.shape_.fixedBits);
    at.virtual1 = linearVirtualBucket(hash);
    at.virtual2 = at.virtual1 ^ linearOffset(at.fingerprint);
    at.bucket1 = bucketOf(f, at.virtual1);
    at.bucket2 = bucketOf(f, at.virtual2);
    return at;
  }

  // Locates items [first, first + n) of a batch and requests their buckets
  // (batch_memory.hpp): natively each prefetched as it is located; in wasm
  // read together once the block is located, since a read that misses would
  // stall the hashing behind it, where reads issued together overlap.
  static void requestBlock(const ScalableCuckooFilter& f, const ItemBatch& items, std::size_t first, std::size_t n,
                           Located* at) noexcept {
    const BucketRequests requests(f);
    unsigned char seen = 0;
    for (std::size_t k = 0; k < n; ++k) {
      at[k] = locate(f, items.item(first + k), items.length(first + k));
      if constexpr (detail::kPrefetches) {
        requests.request(at[k].bucket1, seen);
        requests.request(at[k].bucket2, seen);
      }
    }
    if constexpr (!detail::kPrefetches) {
      for (std::size_t k = 0; k < n; ++k) {
        requests.request(at[k].bucket1, seen);
        requests.request(at[k].bucket2, seen);
      }
      detail::gTouched = seen;
    }
  }

  // Requests buckets' first bytes (batch_memory.hpp: a prefetch natively, a
  // read folded into `seen` in wasm). The table's address and bucket width
  // are read once, not per bucket.
  struct BucketRequests {
    const unsigned char* bytes;
    std::uint64_t bucketBits;
    explicit BucketRequests(const ScalableCuckooFilter& f) noexcept
        : bytes(f.table_->data()), bucketBits(f.table_->bucketBits()) {}
    void request(std::uint64_t bucket, unsigned char& seen) const noexcept {
      detail::request(bytes + ((bucket * bucketBits) >> 3), seen);
    }
  };

  static std::uint64_t bucketOf(const ScalableCuckooFilter& f, std::uint64_t virtualBucket) noexcept {
    const std::uint64_t half = std::uint64_t{1} << f.shape_.level;
    std::uint64_t bucket = virtualBucket & mask(f.shape_.level + 1);
    if (bucket >= half + f.shape_.splitBucket) bucket -= half;
    return bucket;
  }

  static unsigned levelOf(const ScalableCuckooFilter& f, std::uint64_t bucket) noexcept {
    const bool split = bucket < f.shape_.splitBucket || bucket >= (std::uint64_t{1} << f.shape_.level);
    return f.shape_.level + (split ? 1U : 0U);
  }

  static unsigned tailLength(std::uint32_t tail) noexcept { return 31U - static_cast<unsigned>(__builtin_clz(tail)); }

  // The slot value of `fingerprint` in `bucket`, whose virtual number is `virtualBucket`.
  static std::uint32_t valueFor(const ScalableCuckooFilter& f, std::uint32_t fingerprint, std::uint64_t virtualBucket,
                                std::uint64_t bucket) noexcept {
    const unsigned tailBits = f.shape_.tailBits;
    const unsigned level = levelOf(f, bucket);
    const unsigned length = tailBits - 1;
    const auto extra = static_cast<std::uint32_t>((virtualBucket >> level) & mask(length));
    return fingerprint << tailBits | (std::uint32_t{1} << length) | extra;
  }

  static bool matches(const ScalableCuckooFilter& f, std::uint32_t value, std::uint32_t fingerprint,
                      std::uint64_t virtualBucket, unsigned level) noexcept {
    if (value == 0 || (value >> f.shape_.tailBits) != fingerprint) return false;
    const std::uint32_t tail = value & static_cast<std::uint32_t>(mask(f.shape_.tailBits));
    const unsigned length = tailLength(tail);
    return (tail ^ (std::uint32_t{1} << length)) == ((virtualBucket >> level) & mask(length));
  }

  // The matching slots of `bucket` as a bit set.
  static unsigned matchingSlots(const ScalableCuckooFilter& f, std::uint64_t bucket, std::uint32_t fingerprint,
                                std::uint64_t virtualBucket) noexcept {
    const SlotValues slots = f.table_->read(bucket);
    const unsigned level = levelOf(f, bucket);
    unsigned found = 0;
    for (unsigned s = 0; s < kSlots; ++s) {
      found |= (matches(f, slots.value[s], fingerprint, virtualBucket, level) ? 1U : 0U) << s;
    }
    return found;
  }

  // Whether `bucket` holds an entry matching the item: the lookup's path.
  // The fingerprint is compared first; one slot in 2^r passes it, and only
  // then is the tail decoded.
  static bool bucketHolds(const ScalableCuckooFilter& f, std::uint64_t bucket, std::uint32_t fingerprint,
                          std::uint64_t virtualBucket) noexcept {
    const unsigned tailBits = f.shape_.tailBits;
    if (f.params_.semiSort) return matchingSlots(f, bucket, fingerprint, virtualBucket) != 0;
    const unsigned slotBits = f.shape_.slotBits();
    const std::uint64_t bitPos = bucket * 4 * std::uint64_t{slotBits};
    const unsigned char* bytes = f.table_->data();
    for (unsigned s = 0; s < kSlots; ++s) {
      const auto value = static_cast<std::uint32_t>(bits::read(bytes, bitPos + s * slotBits, slotBits));
      if ((value >> tailBits) == fingerprint && matches(f, value, fingerprint, virtualBucket, levelOf(f, bucket))) return true;
    }
    return false;
  }

  static bool containsLocated(const ScalableCuckooFilter& f, const Located& at) noexcept {
    if (bucketHolds(f, at.bucket1, at.fingerprint, at.virtual1)) return true;
    if (bucketHolds(f, at.bucket2, at.fingerprint, at.virtual2)) return true;
    for (unsigned k = 0; k < f.stashCount_; ++k) {
      if (heldMatches(f, f.stash_[k], at)) return true;
    }
    return false;
  }

  static bool heldMatches(const ScalableCuckooFilter& f, const HeldEntry& held, const Located& at) noexcept {
    return (held.bucket == at.bucket1 && matches(f, held.value, at.fingerprint, at.virtual1, levelOf(f, at.bucket1))) ||
           (held.bucket == at.bucket2 && matches(f, held.value, at.fingerprint, at.virtual2, levelOf(f, at.bucket2)));
  }

  // Where an entry of `bucket` goes when evicted: its other bucket and its
  // value there. False when the tail is too short to tell (only for an entry
  // whose tail is spent, in a bucket not yet split, whose other bucket is).
  static bool otherPlace(const ScalableCuckooFilter& f, std::uint32_t value, std::uint64_t bucket,
                         std::uint32_t& otherValue, std::uint64_t& otherBucket) noexcept {
    const unsigned tailBits = f.shape_.tailBits;
    const std::uint32_t fingerprint = value >> tailBits;
    const std::uint32_t tail = value & static_cast<std::uint32_t>(mask(tailBits));
    const unsigned length = tailLength(tail);
    const unsigned level = levelOf(f, bucket);
    const unsigned known = level + length;
    const std::uint64_t virtualKnown = bucket | std::uint64_t{tail ^ (std::uint32_t{1} << length)} << level;
    const std::uint64_t other = (virtualKnown ^ linearOffset(fingerprint)) & mask(known);
    const unsigned L = f.shape_.level;
    if (known <= L && (other & mask(L)) < f.shape_.splitBucket) return false;
    otherBucket = bucketOf(f, other);
    const unsigned otherLevel = levelOf(f, otherBucket);
    const unsigned otherLength = known - otherLevel < tailBits - 1 ? known - otherLevel : tailBits - 1;
    const auto extra = static_cast<std::uint32_t>((other >> otherLevel) & mask(otherLength));
    otherValue = fingerprint << tailBits | (std::uint32_t{1} << otherLength) | extra;
    return true;
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

  // Algorithm 1's relocation loop from `bucket`, which is full, looking one
  // step ahead: a resident whose other bucket has room moves there and the
  // walk ends; only when none has does a random one move on. The table runs
  // near its maximum load all the time (it grows there), where a blind walk
  // is long. The residents' other buckets are requested together before any
  // is read (batch_memory.hpp): in a table beyond the caches each is a miss,
  // and most adds that evict at all look at four of them. Returns false,
  // with the entry left homeless in `held`, when evictions run out.
  static bool evict(ScalableCuckooFilter& f, HeldEntry& held) noexcept {
    const BucketRequests requests(f);
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
      slots.value[(first + victim) & (kSlots - 1)] = held.value;
      f.table_->write(held.bucket, slots);
      held = moved[victim];
      if (tryPut(f, held.bucket, held.value)) return true;
    }
    return false;
  }

  // Puts a held entry back: its bucket, its other bucket, else evictions.
  static bool placeHeld(ScalableCuckooFilter& f, HeldEntry& held) noexcept {
    if (tryPut(f, held.bucket, held.value)) return true;
    HeldEntry other;
    if (otherPlace(f, held.value, held.bucket, other.value, other.bucket) && tryPut(f, other.bucket, other.value)) {
      return true;
    }
    return evict(f, held);
  }

  // Places a new item's entry; false with the homeless entry in `leftover`.
  static unsigned freeSlots(const SlotValues& slots) noexcept {
    unsigned free = 0;
    for (const std::uint32_t value : slots.value) free += value == 0 ? 1 : 0;
    return free;
  }

  // Into the emptier of the two buckets: buckets not yet split in this round
  // take the items of twice the hash range of split ones, and choosing the
  // emptier evens the load out.
  enum class Placement { kPlaced, kHomeless, kRefused };

  // Copies of one item share their two buckets, whatever the table's size:
  // when those buckets hold nothing but copies of it, no growth makes room.
  static bool onlyCopies(const ScalableCuckooFilter& f, const Located& at) noexcept {
    unsigned copies = static_cast<unsigned>(__builtin_popcount(matchingSlots(f, at.bucket1, at.fingerprint, at.virtual1)));
    if (at.bucket2 == at.bucket1) return copies == kSlots;
    copies += static_cast<unsigned>(__builtin_popcount(matchingSlots(f, at.bucket2, at.fingerprint, at.virtual2)));
    return copies == 2 * kSlots;
  }

  // The low `count` bits of the virtual bucket number an entry of `bucket`
  // knows: its bucket's level of them, then its tail's.
  struct Known {
    std::uint64_t bits;
    unsigned count;
  };
  static Known knownOf(const ScalableCuckooFilter& f, std::uint32_t value, std::uint64_t bucket) noexcept {
    const std::uint32_t tail = value & static_cast<std::uint32_t>(mask(f.shape_.tailBits));
    const unsigned length = tailLength(tail);
    const unsigned level = levelOf(f, bucket);
    return {bucket | std::uint64_t{tail ^ (std::uint32_t{1} << length)} << level, level + length};
  }

  // onlyCopies for an entry out of the table (the stash, or one being
  // merged), which knows only some bits of its virtual bucket number: its
  // buckets are full of entries of its fingerprint that agree with it and
  // with each other on every bit they know, so every split sends them all the
  // same way and no growth makes room for it. When both of its buckets are
  // one, that bucket's entries must agree with both of its forms (they are
  // checked as both buckets' entries): entries stored for one virtual bucket
  // leave the other free once a split separates the two.
  CUCKOO_ONCE_PER_FILTER static bool neverFits(const ScalableCuckooFilter& f, const HeldEntry& held) noexcept {
    const std::uint32_t fingerprint = held.value >> f.shape_.tailBits;
    HeldEntry other;
    if (!otherPlace(f, held.value, held.bucket, other.value, other.bucket)) return false;
    Known known[2 * kSlots + 1];
    unsigned count = 0;
    known[count++] = knownOf(f, held.value, held.bucket);
    const std::uint64_t buckets[2] = {held.bucket, other.bucket};
    for (unsigned side = 0; side < 2; ++side) {
      const SlotValues slots = f.table_->read(buckets[side]);
      for (const std::uint32_t value : slots.value) {
        if (value == 0 || (value >> f.shape_.tailBits) != fingerprint) return false;
        Known entry = knownOf(f, value, buckets[side]);
        // The other bucket's entries know bits of the other virtual number.
        if (side == 1) entry.bits = (entry.bits ^ linearOffset(fingerprint)) & mask(entry.count);
        known[count++] = entry;
      }
    }
    // They agree pairwise when they all agree with the one that knows the most.
    Known longest = known[0];
    for (unsigned k = 1; k < count; ++k) longest = known[k].count > longest.count ? known[k] : longest;
    for (unsigned k = 0; k < count; ++k) {
      if (((known[k].bits ^ longest.bits) & mask(known[k].count)) != 0) return false;
    }
    return true;
  }

  CUCKOO_ONCE_PER_FILTER static bool stashNeverFits(const ScalableCuckooFilter& f) noexcept {
    for (unsigned k = 0; k < f.stashCount_; ++k) {
      if (neverFits(f, f.stash_[k])) return true;
    }
    return false;
  }

  static Placement placeNew(ScalableCuckooFilter& f, const Located& at, HeldEntry& leftover) noexcept {
    const std::uint32_t first = valueFor(f, at.fingerprint, at.virtual1, at.bucket1);
    const std::uint32_t second = valueFor(f, at.fingerprint, at.virtual2, at.bucket2);
    SlotValues slots1 = f.table_->read(at.bucket1);
    SlotValues slots2 = f.table_->read(at.bucket2);
    const unsigned free1 = freeSlots(slots1);
    const unsigned free2 = freeSlots(slots2);
    if (free1 != 0 && free1 >= free2) return putInto(f, at.bucket1, slots1, first) ? Placement::kPlaced : Placement::kHomeless;
    if (free2 != 0) return putInto(f, at.bucket2, slots2, second) ? Placement::kPlaced : Placement::kHomeless;
    if (onlyCopies(f, at)) return Placement::kRefused;
    leftover = (f.prng_.next() & 1) != 0 ? HeldEntry{second, at.bucket2} : HeldEntry{first, at.bucket1};
    return evict(f, leftover) ? Placement::kPlaced : Placement::kHomeless;
  }

  static bool needsRoom(const ScalableCuckooFilter& f) noexcept {
    const double slots = static_cast<double>(f.table_->bucketCount() * kSlots);
    return f.stashCount_ != 0 || static_cast<double>(f.entryCount_) > kMaxLoad * slots;
  }

  // Entries out of the table that a growth must carry along (the stash).
  struct HeldList {
    HeldEntry* entries;
    unsigned count;
  };

  // Splits the next bucket of the round in two. Entries, and the held ones,
  // follow their next bit; an entry whose tail is spent is copied to both
  // halves (a held one too: a growth starts with kMaxHeld / 4 held entries at
  // most, mayGrowForStash, and splits one bucket twice at most).
  static void splitNext(ScalableCuckooFilter& f, HeldList& held) noexcept {
    const std::uint64_t bucket = f.shape_.splitBucket;
    const std::uint64_t sibling = (std::uint64_t{1} << f.shape_.level) + bucket;
    const unsigned tailBits = f.shape_.tailBits;
    const auto route = [&](std::uint32_t value, bool& toSibling, bool& copy) -> std::uint32_t {
      const std::uint32_t tail = value & static_cast<std::uint32_t>(mask(tailBits));
      const unsigned length = tailLength(tail);
      copy = length == 0;
      if (copy) return value;
      const std::uint32_t extra = tail ^ (std::uint32_t{1} << length);
      toSibling = (extra & 1U) != 0;
      return (value >> tailBits) << tailBits | (std::uint32_t{1} << (length - 1)) | (extra >> 1);
    };
    const SlotValues slots = f.table_->read(bucket);
    SlotValues low{};
    SlotValues high{};
    unsigned lowCount = 0;
    unsigned highCount = 0;
    for (const std::uint32_t value : slots.value) {
      if (value == 0) continue;
      bool toSibling = false;
      bool copy = false;
      const std::uint32_t moved = route(value, toSibling, copy);
      if (copy) {
        low.value[lowCount++] = moved;
        high.value[highCount++] = moved;
        ++f.entryCount_;
      } else if (toSibling) {
        high.value[highCount++] = moved;
      } else {
        low.value[lowCount++] = moved;
      }
    }
    f.table_->write(bucket, low);
    f.table_->write(sibling, high);
    const unsigned heldBefore = held.count;
    for (unsigned k = 0; k < heldBefore; ++k) {
      HeldEntry& entry = held.entries[k];
      if (entry.bucket != bucket) continue;
      bool toSibling = false;
      bool copy = false;
      entry.value = route(entry.value, toSibling, copy);
      if (copy && held.count < kMaxHeld) {
        held.entries[held.count++] = HeldEntry{entry.value, sibling};
        ++f.entryCount_;
      }
      if (toSibling) entry.bucket = sibling;
    }
    if (++f.shape_.splitBucket == (std::uint64_t{1} << f.shape_.level)) {
      ++f.shape_.level;
      f.shape_.splitBucket = 0;
    }
  }

  // The bucket count after one growth: `growth` times the buckets, one more at least.
  static std::uint64_t nextBucketCount(const ScalableCuckooFilter& f) noexcept {
    const std::uint64_t buckets = f.table_->bucketCount();
    const std::uint64_t largest = std::uint64_t{1} << kMaxScalableLevel;
    auto target = static_cast<std::uint64_t>(std::ceil(static_cast<double>(buckets) * f.params_.growth));
    if (target <= buckets) target = buckets + 1;
    return target > largest ? largest : target;
  }

  // Grows the table to `target` buckets. The one allocation comes first, so
  // a failure changes nothing.
  static Status growTo(ScalableCuckooFilter& f, std::uint64_t target, HeldList& held) noexcept {
    if (target <= f.table_->bucketCount()) return detail::rejected(Status::kTableTooLarge);
    const Status status = f.table_->resize(target);
    if (status != Status::kOk) return status;
    while (f.shape_.bucketCount() < target) splitNext(f, held);
    return Status::kOk;
  }

  // One growth, carrying the stash along, then the stash put back where it fits.
  static Status growOnce(ScalableCuckooFilter& f, std::uint64_t target) noexcept {
    HeldList held{f.stash_, f.stashCount_};
    const Status status = growTo(f, target, held);
    f.stashCount_ = held.count;
    if (status == Status::kOk) placeStash(f);
    return status;
  }

  // Whether a growth may be made for the stash of `f`, which holds `items`
  // items (kMinLoadToGrowForStash has why): the growth must carry the stash
  // (each entry may be copied by two splits), and the items must fill the
  // table enough that growth, not its entries, is what they lack.
  CUCKOO_ONCE_PER_FILTER static bool mayGrowForStash(const ScalableCuckooFilter& f, std::uint64_t items) noexcept {
    if (f.stashCount_ == 0) return true;
    if (f.stashCount_ > kMaxHeld / 4 || stashNeverFits(f)) return false;
    const std::uint64_t buckets = f.table_->bucketCount();
    return buckets < kSmallTableBuckets ||
           static_cast<double>(items) >= kMinLoadToGrowForStash * static_cast<double>(buckets * kSlots);
  }

  // Grows until the stash is empty and the load is below kMaxLoad; without
  // growing, kMergeWouldOverfill when growth cannot place the stash
  // (mayGrowForStash).
  static Status makeRoom(ScalableCuckooFilter& f) noexcept {
    while (needsRoom(f)) {
      if (!mayGrowForStash(f, f.itemCount_)) return detail::rejected(Status::kMergeWouldOverfill);
      const Status status = growOnce(f, nextBucketCount(f));
      if (status != Status::kOk) return status;
    }
    return Status::kOk;
  }

  // Tries to put every stashed entry into the table; the ones that find no
  // room stay.
  static void placeStash(ScalableCuckooFilter& f) noexcept {
    unsigned kept = 0;
    for (unsigned k = 0; k < f.stashCount_; ++k) {
      HeldEntry held = f.stash_[k];
      if (!placeHeld(f, held)) f.stash_[kept++] = held;
    }
    f.stashCount_ = kept;
  }

  static void addToStash(ScalableCuckooFilter& f, const HeldEntry& held) noexcept { f.stash_[f.stashCount_++] = held; }

  // An add of an item located earlier, perhaps before the table last grew:
  // its virtual buckets and fingerprint do not change, its buckets may have.
  static bool insertLocated(ScalableCuckooFilter& f, Located at) noexcept {
    // A stash left by a failed growth: room first, else the filter is full.
    if (f.stashCount_ != 0 && (makeRoom(f) != Status::kOk || f.stashCount_ != 0)) return false;
    at.bucket1 = bucketOf(f, at.virtual1);
    at.bucket2 = bucketOf(f, at.virtual2);
    HeldEntry leftover;
    const Placement placement = placeNew(f, at, leftover);
    if (placement == Placement::kRefused) return false;
    if (placement == Placement::kHomeless) addToStash(f, leftover);
    ++f.itemCount_;
    ++f.entryCount_;
    // The item is stored (in the stash at worst) whether or not this succeeds.
    makeRoom(f);
    return true;
  }

  static void removeFromStash(ScalableCuckooFilter& f, unsigned index) noexcept {
    f.stash_[index] = f.stash_[--f.stashCount_];
    f.stash_[f.stashCount_] = HeldEntry{};
  }
};

}  // namespace cuckoo
