#pragma once
// The growable filter's addressing and lookups (scalable_filter.hpp has the
// design): where an item goes (its fingerprint, virtual buckets and the
// buckets they are in the table's current shape), which level a bucket is
// at, and which of its slots hold an item. Changes to the table are
// scalable_placement.hpp's and scalable_growth.hpp's; slot values are
// scalable_slot_codec.hpp's. scalable_filter.cpp builds the public member
// functions on the three.

#include <cstddef>
#include <cstdint>

#include "batch_memory.hpp"
#include "cuckoo/bit_io.hpp"
#include "cuckoo/hashing.hpp"
#include "cuckoo/item_batch.hpp"
#include "cuckoo/scalable_filter.hpp"
#include "item_hash.hpp"
#include "scalable_sizing.hpp"
#include "scalable_slot_codec.hpp"
#include "scalable_table.hpp"

namespace cuckoo {

class ScalableCuckooFilter::Ops {
 public:
  static constexpr unsigned kSlots = detail::scalable::kSlots;

  // Where an item goes: the growable filter's form of cuckoo::ItemLocation.
  // Its virtual buckets are fixed by its hash; the buckets they are in
  // change as the table grows.
  struct ItemLocation {
    std::uint32_t fingerprint;
    std::uint64_t virtual1;
    std::uint64_t virtual2;
    std::uint64_t bucket1;
    std::uint64_t bucket2;
  };

  static detail::scalable::SlotCodec codec(const ScalableCuckooFilter& f) noexcept {
    return detail::scalable::SlotCodec(f.shape_.tailBits);
  }

  static ItemLocation locate(const ScalableCuckooFilter& f, const void* item, std::size_t length) noexcept {
    // Numbers from JavaScript and typed arrays are 8 bytes: XXH3's 8-byte path inline.
    const std::uint64_t hash = length == 8 ? detail::hashEightBytes(item, f.params_.seed)
                                           : detail::hashItem(item, length, f.params_.seed);
    ItemLocation at;
    at.fingerprint = fingerprintFromHash(hash, f.shape_.fixedBits);
    at.virtual1 = linearVirtualBucket(hash);
    at.virtual2 = at.virtual1 ^ linearOffset(at.fingerprint);
    at.bucket1 = bucketOf(f, at.virtual1);
    at.bucket2 = bucketOf(f, at.virtual2);
    return at;
  }

  // The bucket a virtual bucket number is in: its low level + 1 bits, folded
  // into the lower half when that bucket of the round is not split yet.
  static std::uint64_t bucketOf(const ScalableCuckooFilter& f, std::uint64_t virtualBucket) noexcept {
    const std::uint64_t half = std::uint64_t{1} << f.shape_.level;
    std::uint64_t bucket = virtualBucket & detail::scalable::mask(f.shape_.level + 1);
    if (bucket >= half + f.shape_.splitBucket) bucket -= half;
    return bucket;
  }

  // How many low bits of a virtual bucket number a bucket's number gives.
  static unsigned levelOf(const ScalableCuckooFilter& f, std::uint64_t bucket) noexcept {
    const bool split = bucket < f.shape_.splitBucket || bucket >= (std::uint64_t{1} << f.shape_.level);
    return f.shape_.level + (split ? 1U : 0U);
  }

  // Locates items [first, first + n) of a batch and requests their buckets
  // (batch_memory.hpp): natively each prefetched as it is located; in wasm
  // read together once the block is located, since a read that misses would
  // stall the hashing behind it, where reads issued together overlap.
  static void requestBlock(const ScalableCuckooFilter& f, const ItemBatch& items, std::size_t first, std::size_t n,
                           ItemLocation* at) noexcept {
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

  // The slots of `bucket` that may hold the item's entry for `virtualBucket`, as a bit set.
  static unsigned matchingSlots(const ScalableCuckooFilter& f, std::uint64_t bucket, std::uint32_t fingerprint,
                                std::uint64_t virtualBucket) noexcept {
    const detail::SlotValues slots = f.table_->read(bucket);
    const detail::scalable::SlotCodec slotCodec = codec(f);
    const unsigned level = levelOf(f, bucket);
    unsigned found = 0;
    for (unsigned s = 0; s < kSlots; ++s) {
      found |= (slotCodec.matches(slots.value[s], fingerprint, virtualBucket, level) ? 1U : 0U) << s;
    }
    return found;
  }

  // Whether `bucket` holds an entry matching the item: the lookup's path,
  // which reads a plain bucket's slots one by one and stops at a match.
  static bool bucketHolds(const ScalableCuckooFilter& f, std::uint64_t bucket, std::uint32_t fingerprint,
                          std::uint64_t virtualBucket) noexcept {
    if (f.params_.semiSort) return matchingSlots(f, bucket, fingerprint, virtualBucket) != 0;
    const detail::scalable::SlotCodec slotCodec = codec(f);
    const unsigned slotBits = f.shape_.slotBits();
    const std::uint64_t bitPos = bucket * kSlots * std::uint64_t{slotBits};
    const unsigned char* bytes = f.table_->data();
    for (unsigned s = 0; s < kSlots; ++s) {
      const auto value = static_cast<std::uint32_t>(bits::read(bytes, bitPos + s * slotBits, slotBits));
      if (slotCodec.fingerprintOf(value) == fingerprint &&
          slotCodec.matches(value, fingerprint, virtualBucket, levelOf(f, bucket))) {
        return true;
      }
    }
    return false;
  }

  static bool containsLocated(const ScalableCuckooFilter& f, const ItemLocation& at) noexcept {
    if (bucketHolds(f, at.bucket1, at.fingerprint, at.virtual1)) return true;
    if (bucketHolds(f, at.bucket2, at.fingerprint, at.virtual2)) return true;
    for (unsigned k = 0; k < f.stashCount_; ++k) {
      if (heldMatches(f, f.stash_[k], at)) return true;
    }
    return false;
  }

  // Whether an entry out of the table (the stash) may be the item's.
  static bool heldMatches(const ScalableCuckooFilter& f, const HeldEntry& held, const ItemLocation& at) noexcept {
    const detail::scalable::SlotCodec slotCodec = codec(f);
    return (held.bucket == at.bucket1 &&
            slotCodec.matches(held.value, at.fingerprint, at.virtual1, levelOf(f, at.bucket1))) ||
           (held.bucket == at.bucket2 &&
            slotCodec.matches(held.value, at.fingerprint, at.virtual2, levelOf(f, at.bucket2)));
  }

  // The bits of its virtual bucket number an entry of `bucket` knows.
  static detail::scalable::KnownBits knownOf(const ScalableCuckooFilter& f, std::uint32_t value,
                                             std::uint64_t bucket) noexcept {
    return codec(f).known(value, bucket, levelOf(f, bucket));
  }
};

}  // namespace cuckoo
