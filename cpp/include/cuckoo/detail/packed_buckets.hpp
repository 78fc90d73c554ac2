#pragma once
// The view of a PackedTable's buckets (buckets.hpp has what every view offers).

#include <cstdint>
#include <type_traits>

#include "cuckoo/bit_io.hpp"
#include "cuckoo/detail/bucket_lanes.hpp"
#include "cuckoo/packed_table.hpp"

namespace cuckoo::detail {

// B slots of F bits per bucket, bit-packed (packed_table.hpp); 0 = at run
// time, from the table's PackedShape. A fixed B with F = 0 serves every width
// of that bucket size with the slot loops unrolled.
template <unsigned B, unsigned F>
class PackedBuckets {
  static_assert(B != 0 || F == 0, "a fixed width needs a fixed bucket size");
  static constexpr bool kFixed = F != 0;

 public:
  static constexpr bool kSemiSorted = false;
  static constexpr bool kGeneric = B == 0;

  // The filter's fingerprint width: F, or the one in its parameters.
  template <class Filter>
  static unsigned fingerprintBits(const Filter& filter) noexcept {
    if constexpr (F != 0) return F;
    return filter.params().fingerprintBits;
  }

  PackedBuckets(unsigned char* bytes, const PackedShape& shape) noexcept : bytes_(bytes), shape_(shape) {}

  // Where the bucket's bits begin, to prefetch.
  const unsigned char* address(std::uint32_t bucket) const noexcept {
    return bytes_ + ((std::uint64_t{bucket} * bucketBits()) >> 3);
  }

  [[gnu::always_inline]] unsigned slots() const noexcept {
    if constexpr (B != 0) return B;
    return shape_.slotsPerBucket;
  }
  [[gnu::always_inline]] unsigned bits() const noexcept {
    if constexpr (F != 0) return F;
    return shape_.bitsPerEntry;
  }

  // A loaded bucket: its bits from bit 0 when one load holds it, else only
  // its number (the slots are read one by one when tested). A fixed shape
  // always fits one load, so its probe is the word alone.
  struct ProbeOfAnyShape {
    std::uint64_t word;
    std::uint32_t bucket;
  };
  using Probe = std::conditional_t<kFixed, std::uint64_t, ProbeOfAnyShape>;

  [[gnu::always_inline]] Probe probe(std::uint32_t bucket) const noexcept {
    if constexpr (kFixed) {
      static_assert(fitsOneLoad(B * F), "the fixed shapes are those one load holds");
      return loadBucket(bucket);
    } else {
      if (!oneLoad()) return Probe{0, bucket};
      return Probe{loadBucket(bucket), bucket};
    }
  }

  [[gnu::always_inline]] bool holds(const Probe& p, std::uint32_t fingerprint) const noexcept {
    if constexpr (kFixed) {
      return anyZeroLane(p, fingerprint);
    } else {
      if (!oneLoad()) return slotLoop(p.bucket, fingerprint) != 0;
      return anyZeroLane(p.word, fingerprint);
    }
  }

  // Slots holding `fingerprint`, as a bit set (bit s = slot s); with 0, the empty slots.
  [[gnu::always_inline]] std::uint32_t matching(const Probe& p, std::uint32_t fingerprint) const noexcept {
    std::uint64_t word;
    if constexpr (kFixed) {
      word = p;
    } else {
      if (!oneLoad()) return slotLoop(p.bucket, fingerprint);
      word = p.word;
    }
    const std::uint64_t tops = zeroLaneTops(word, fingerprint);
    std::uint32_t found = 0;
    for (unsigned s = 0; s < slots(); ++s) found |= static_cast<std::uint32_t>((tops >> (s * bits() + bits() - 1)) & 1U) << s;
    return found;
  }

  [[gnu::always_inline]] std::uint32_t read(std::uint32_t bucket, unsigned slot) const noexcept {
    return static_cast<std::uint32_t>(bits::read(bytes_, entryBit(bucket, slot), bits()));
  }
  [[gnu::always_inline]] void write(std::uint32_t bucket, unsigned slot, std::uint32_t value) noexcept {
    bits::write(bytes_, entryBit(bucket, slot), bits(), value);
  }

  // Puts `fingerprint` in the lowest empty slot; false when the bucket is full.
  [[gnu::always_inline]] bool insertIntoEmptySlot(std::uint32_t bucket, std::uint32_t fingerprint) noexcept {
    return replaceFirst(bucket, 0, fingerprint);
  }

  // Empties the lowest slot holding `fingerprint`; false when there is none.
  [[gnu::always_inline]] bool removeOne(std::uint32_t bucket, std::uint32_t fingerprint) noexcept {
    return replaceFirst(bucket, fingerprint, 0);
  }

  // Stores `fingerprint` in `slot` and returns what was there.
  [[gnu::always_inline]] std::uint32_t exchange(std::uint32_t bucket, unsigned slot, std::uint32_t fingerprint) noexcept {
    const std::uint32_t previous = read(bucket, slot);
    write(bucket, slot, fingerprint);
    return previous;
  }

  // What undoing exchange(bucket, slot, incoming) needs: the slot (which
  // fingerprint sat where matters to the bytes).
  std::uint32_t kickRecord(unsigned slot, std::uint32_t) const noexcept { return slot; }
  // Undoes it, `fingerprint` being what it displaced; returns `incoming`.
  std::uint32_t undoKick(std::uint32_t bucket, std::uint32_t record, std::uint32_t fingerprint) noexcept {
    return exchange(bucket, static_cast<unsigned>(record), fingerprint);
  }

  // Whether a bucket fits one 64-bit load (then a probe holds its bits).
  [[gnu::always_inline]] bool oneLoad() const noexcept {
    if constexpr (kFixed) return fitsOneLoad(B * F);
    return shape_.oneLoad;
  }

 private:
  [[gnu::always_inline]] unsigned bucketBits() const noexcept { return slots() * bits(); }
  [[gnu::always_inline]] std::uint64_t bucketMask() const noexcept {
    if constexpr (kFixed) return B * F >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (B * F)) - 1;
    return shape_.bucketMask;
  }
  [[gnu::always_inline]] std::uint64_t lowBits() const noexcept {
    if constexpr (kFixed) return laneLowBits(B, F);
    return shape_.laneLowBits;
  }
  [[gnu::always_inline]] std::uint64_t highBits() const noexcept {
    if constexpr (kFixed) return laneLowBits(B, F) << (F - 1);
    return shape_.laneHighBits;
  }
  [[gnu::always_inline]] std::uint64_t entryBit(std::uint32_t bucket, unsigned slot) const noexcept {
    return (std::uint64_t{bucket} * slots() + slot) * bits();
  }

  // Writes `value` over the lowest slot holding `wanted`; false when none
  // does. A bucket of one load is changed in the 64 bits it was read from:
  // the lane found holds `wanted`, so XOR with (wanted ^ value) at the lane's
  // first bit leaves `value` there and every other bit as it was (no slot
  // number, no mask). A wider bucket takes the slot from the bit set of
  // matching slots.
  [[gnu::always_inline]] bool replaceFirst(std::uint32_t bucket, std::uint32_t wanted, std::uint32_t value) noexcept {
    if (oneLoad()) {
      const std::uint64_t bitPos = std::uint64_t{bucket} * bucketBits();
      unsigned char* const at = bytes_ + (bitPos >> 3);
      const auto shift = static_cast<unsigned>(bitPos & 7);
      const std::uint64_t loaded = bits::load64(at);
      const std::uint64_t tops = lowestZeroLaneTop(loaded >> shift, wanted);
      if (tops == 0) return false;
      const unsigned laneStart = static_cast<unsigned>(__builtin_ctzll(tops)) - (bits() - 1);
      bits::store64(at, loaded ^ (std::uint64_t{wanted ^ value} << (shift + laneStart)));
      return true;
    }
    const std::uint32_t found = slotLoop(bucket, wanted);
    if (found == 0) return false;
    write(bucket, lowestSlot(found), value);
    return true;
  }

  // The bucket's bits from bit 0; the bits above them belong to the next
  // bucket, and every test below ignores them (a borrow or carry only climbs).
  [[gnu::always_inline]] std::uint64_t loadBucket(std::uint32_t bucket) const noexcept {
    return bits::window(bytes_, std::uint64_t{bucket} * bucketBits());
  }

  // Whether any lane of (word XOR fingerprint-in-every-lane) is zero, i.e.
  // any slot matches.
  [[gnu::always_inline]] bool anyZeroLane(std::uint64_t word, std::uint32_t fingerprint) const noexcept {
    return lowestZeroLaneTop(word, fingerprint) != 0;
  }

  // The top bit of the lowest zero lane of (word XOR fingerprint-in-every-
  // lane), with possibly other top bits above it; 0 when no lane is zero.
  // (x - ones) & ~x sets a lane's top bit when the lane is zero, and also,
  // through a borrow, in lanes above a zero lane, never below the lowest one
  // (a borrow only climbs): exact for "any" and for "the lowest", in fewer
  // steps than zeroLaneTops.
  [[gnu::always_inline]] std::uint64_t lowestZeroLaneTop(std::uint64_t word, std::uint32_t fingerprint) const noexcept {
    const std::uint64_t x = word ^ (lowBits() * fingerprint);
    return (x - lowBits()) & ~x & highBits();
  }

  // All lanes compared at once: a lane of (word XOR fingerprint-in-every-lane)
  // is zero exactly where the slot matches; adding the low-bits mask carries
  // into a lane's top bit unless its low bits are all zero, which isolates
  // zero lanes exactly (no borrow crosses lanes, unlike (x - ones) & ~x).
  [[gnu::always_inline]] std::uint64_t zeroLaneTops(std::uint64_t word, std::uint32_t fingerprint) const noexcept {
    const std::uint64_t x = (word ^ (lowBits() * fingerprint)) & bucketMask();
    const std::uint64_t low = bucketMask() & ~highBits();
    return ~(((x & low) + low) | x | low) & highBits();
  }

  [[gnu::always_inline]] std::uint32_t slotLoop(std::uint32_t bucket, std::uint32_t fingerprint) const noexcept {
    std::uint32_t found = 0;
    for (unsigned s = 0; s < slots(); ++s) found |= static_cast<std::uint32_t>(read(bucket, s) == fingerprint) << s;
    return found;
  }

  unsigned char* bytes_;
  const PackedShape& shape_;
};

}  // namespace cuckoo::detail
