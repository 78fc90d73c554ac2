#pragma once
// A table's buckets as the filter's algorithms see them
// (filter_algorithms.hpp), over the bytes a PackedTable or SemiSortedTable owns. A view takes its shape as
// template arguments, so that a specialised kernel's masks, strides and
// shifts are constants, or 0 for "known only at run time": the generic
// kernel, which serves every shape.
//
// Every view offers the same operations. A lookup is split in two, so that a
// batch can issue the loads of many items before it compares anything:
// probe(bucket) loads a bucket, holds(probe, fp) and matching(probe, fp) test
// it. Mutations read, change and write one bucket at a time, always choosing
// the lowest slot, so that every view leaves the same bytes.

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "cuckoo/bit_io.hpp"
#include "cuckoo/packed_table.hpp"
#include "cuckoo/semi_sorted_table.hpp"

namespace cuckoo::detail {

inline unsigned lowestSlot(std::uint32_t slotSet) noexcept { return static_cast<unsigned>(__builtin_ctz(slotSet)); }

// A bucket fits one 64-bit load when its bits plus the largest shift its
// start can have inside a byte fit in 64: buckets of w bits start at bit
// offsets i*w mod 8, whose largest value is 8 - gcd(w, 8) (0 for whole bytes).
constexpr bool fitsOneLoad(unsigned bucketBits) noexcept {
  const unsigned alignment = bucketBits % 8 == 0 ? 8 : bucketBits % 4 == 0 ? 4 : bucketBits % 2 == 0 ? 2 : 1;
  return bucketBits + (8 - alignment) % 8 <= 64;
}

// Bit s*f (the lowest bit of every lane) of `slots` lanes of `bits` bits.
constexpr std::uint64_t laneLowBits(unsigned slots, unsigned bits) noexcept {
  std::uint64_t lanes = 0;
  for (unsigned s = 0; s < slots; ++s) lanes |= std::uint64_t{1} << (s * bits);
  return lanes;
}

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
  // any slot matches. (x - ones) & ~x sets a lane's top bit when the lane is
  // zero, and also, through a borrow, in lanes above a zero lane, never
  // without one: for "any", that is exact, in fewer steps than zeroLaneTops.
  [[gnu::always_inline]] bool anyZeroLane(std::uint64_t word, std::uint32_t fingerprint) const noexcept {
    const std::uint64_t x = word ^ (lowBits() * fingerprint);
    return ((x - lowBits()) & ~x & highBits()) != 0;
  }

  // The top bit of the lowest lane of (word XOR fingerprint-in-every-lane)
  // that is zero, with possibly other top bits above it (anyZeroLane's
  // borrow form: a borrow only climbs, so no lane below the lowest zero lane
  // is ever flagged, and that lane always is); 0 when no lane is zero.
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

// Buckets of four sorted entries of F bits whose top nibbles are stored as a
// rank (semi_sorted_table.hpp); F = 0: at run time.
template <unsigned F>
class SemiSortedBuckets {
 public:
  static constexpr bool kSemiSorted = true;
  static constexpr bool kGeneric = F == 0;

  template <class Filter>
  static unsigned fingerprintBits(const Filter& filter) noexcept {
    if constexpr (F != 0) return F;
    return filter.params().fingerprintBits;
  }

  SemiSortedBuckets(unsigned char* bytes, unsigned fingerprintBits) noexcept
      : bytes_(bytes), bits_(F != 0 ? F : fingerprintBits) {}

  const unsigned char* address(std::uint32_t bucket) const noexcept {
    return bytes_ + ((std::uint64_t{bucket} * (4 * bits() - 4)) >> 3);
  }

  [[gnu::always_inline]] unsigned slots() const noexcept { return kSemiSortedBucketSize; }
  [[gnu::always_inline]] unsigned bits() const noexcept {
    if constexpr (F != 0) return F;
    return bits_;
  }

  // A fixed shape probes the bucket still encoded: its four top nibbles and
  // its low bits as loaded. Three in four buckets hold no entry with the
  // fingerprint's top nibble, and for them the low bits are never unpacked.
  struct Encoded {
    std::uint32_t nibbles;  // four 4-bit lanes, ascending
    std::uint64_t lows;     // four (f - 4)-bit lanes, and the bits above them
  };
  using Probe = std::conditional_t<(F != 0), Encoded, semisort::Bucket>;

  [[gnu::always_inline]] Probe probe(std::uint32_t bucket) const noexcept {
    const std::uint64_t bitPos = std::uint64_t{bucket} * (4 * bits() - 4);
    if constexpr (F != 0) {
      static_assert(fitsOneLoad(4 * F - 4), "the fixed shapes are those one load holds");
      const std::uint64_t word = bits::window(bytes_, bitPos);
      return Encoded{semisort::kUnrank[word & ((1U << kNibbleRankBits) - 1)], word >> kNibbleRankBits};
    } else {
      return semisort::decode(bytes_, bitPos, bits());
    }
  }
  // holds() needs no slot numbers, only whether one slot's two flags are
  // both set. Multiplying the nibble flags (bit 4s + 3) by kNibbleToLowTops
  // (terms t = 0..3, bit (L - 4)(t + 1), L = F - 4) sends flag s to bit
  // 4s + 3 + (L - 4)(t + 1) by term t: by t = s onto its slot's low flag (bit
  // sL + L - 1), by the others elsewhere. That is exact when no two of the 16
  // products share a bit: nothing carries, and no stray product lands on a
  // low flag, each flag being the landing of its own slot's. It holds for
  // some widths (F = 13 among them), checked here; others gather the slots.
  static constexpr std::uint64_t kNibbleToLowTops = F > 4 + 4 ? laneLowBits(4, F - 8) << (F - 8) : 0;
  static constexpr bool nibblesAlignByOneMultiply() noexcept {
    if constexpr (F <= 4 + 4 || 4 * (F - 4) > 64) {
      return false;
    } else {
      constexpr unsigned kLow = F - 4;
      std::uint64_t terms = 0;
      for (unsigned s = 0; s < 4; ++s) {
        for (unsigned t = 0; t < 4; ++t) {
          const unsigned bit = 4 * s + 3 + (kLow - 4) * (t + 1);
          if (bit >= 64 || (terms >> bit & 1) != 0) return false;
          terms |= std::uint64_t{1} << bit;
        }
      }
      return true;
    }
  }

  [[gnu::always_inline]] bool holds(const Probe& p, std::uint32_t fingerprint) const noexcept {
    if constexpr (F != 0 && nibblesAlignByOneMultiply()) {
      return ((std::uint64_t{nibbleMatches(p, fingerprint)} * kNibbleToLowTops) & lowMatches(p, fingerprint)) != 0;
    } else {
      return matching(p, fingerprint) != 0;
    }
  }
  // Bit s set when slot s holds `fingerprint`.
  [[gnu::always_inline]] std::uint32_t matching(const Probe& p, std::uint32_t fingerprint) const noexcept {
    if constexpr (F != 0) {
      return slotMatches(p, fingerprint);
    } else {
      return semisort::matchingEntries(p, fingerprint);
    }
  }

  [[gnu::always_inline]] std::uint32_t read(std::uint32_t bucket, unsigned slot) const noexcept { return decoded(bucket).entries[slot]; }

  bool insertIntoEmptySlot(std::uint32_t bucket, std::uint32_t fingerprint) noexcept {
    semisort::Bucket b = decoded(bucket);
    if (!semisort::fillEmptyEntry(b, fingerprint)) return false;
    store(bucket, b);
    return true;
  }

  bool removeOne(std::uint32_t bucket, std::uint32_t fingerprint) noexcept {
    semisort::Bucket b = decoded(bucket);
    if (!semisort::clearEntry(b, fingerprint)) return false;
    store(bucket, b);
    return true;
  }

  std::uint32_t exchange(std::uint32_t bucket, unsigned slot, std::uint32_t fingerprint) noexcept {
    semisort::Bucket b = decoded(bucket);
    const std::uint32_t previous = std::exchange(b.entries[slot], fingerprint);
    store(bucket, b);
    return previous;
  }

  // What undoing exchange(bucket, slot, incoming) needs: `incoming` itself.
  // A bucket is stored sorted, a multiset, so its slots move when it is
  // written, and any copy of an equal value serves.
  std::uint32_t kickRecord(unsigned, std::uint32_t incoming) const noexcept { return incoming; }
  // Undoes it, `fingerprint` being what it displaced; returns `incoming`.
  std::uint32_t undoKick(std::uint32_t bucket, std::uint32_t incoming, std::uint32_t fingerprint) noexcept {
    removeOne(bucket, incoming);
    insertIntoEmptySlot(bucket, fingerprint);
    return incoming;
  }

 private:
  // Bit 4s + 3 set when slot s's top nibble is the fingerprint's: a lane of
  // the difference is zero exactly when neither its low three bits nor its top
  // bit are set.
  [[gnu::always_inline]] static std::uint32_t nibbleMatches(const Encoded& p, std::uint32_t fingerprint) noexcept {
    const std::uint32_t difference = p.nibbles ^ ((fingerprint >> (F - 4)) * 0x1111U);
    return ~(((difference & 0x7777U) + 0x7777U) | difference) & 0x8888U;
  }
  // Bit s(F - 4) + F - 5, the top of lane s, set when slot s's low bits are
  // the fingerprint's: as nibbleMatches, on lanes of F - 4 bits.
  [[gnu::always_inline]] static std::uint64_t lowMatches(const Encoded& p, std::uint32_t fingerprint) noexcept {
    constexpr unsigned kLow = F - 4;
    constexpr std::uint64_t kLanes = laneLowBits(4, kLow);
    constexpr std::uint64_t kTops = kLanes << (kLow - 1);
    constexpr std::uint64_t kAll = (std::uint64_t{1} << (4 * kLow)) - 1;
    const std::uint64_t difference = (p.lows ^ (kLanes * (fingerprint & ((1U << kLow) - 1)))) & kAll;
    return ~(((difference & (kAll & ~kTops)) + (kAll & ~kTops)) | difference) & kTops;
  }
  // The slots whose nibble and low bits both match, bit s each, without a
  // branch (the nibble test alone leaves a candidate in one bucket in four,
  // so a branch on it would be mispredicted that often). Each test's four
  // flags are gathered to four adjacent bits by one multiplication, which
  // sends flag s to bit K + s (and its other copies elsewhere, no two terms
  // on one bit, so nothing carries).
  [[gnu::always_inline]] static std::uint32_t slotMatches(const Encoded& p, std::uint32_t fingerprint) noexcept {
    constexpr unsigned kLow = F - 4;
    // Flags at 0, 4, 8, 12 -> 9 .. 12; at 0, L, 2L, 3L -> 3L - 3 .. 3L.
    constexpr std::uint64_t kNibbleGather = 1 | 1 << 3 | 1 << 6 | 1 << 9;
    constexpr std::uint64_t kLowGather = std::uint64_t{1} | std::uint64_t{1} << (kLow - 1) |
                                         std::uint64_t{1} << (2 * kLow - 2) | std::uint64_t{1} << (3 * kLow - 3);
    const std::uint32_t nibbles = static_cast<std::uint32_t>((std::uint64_t{nibbleMatches(p, fingerprint) >> 3} * kNibbleGather) >> 9);
    const auto lows = static_cast<std::uint32_t>(((lowMatches(p, fingerprint) >> (kLow - 1)) * kLowGather) >> (3 * kLow - 3));
    return nibbles & lows & 0xFU;
  }

  // A fixed width decodes inline; the generic view calls the one copy.
  [[gnu::always_inline]] semisort::Bucket decoded(std::uint32_t bucket) const noexcept {
    const std::uint64_t bitPos = std::uint64_t{bucket} * (4 * bits() - 4);
    if constexpr (F == 0) return semisort::decode(bytes_, bitPos, bits());
    return semisort::decodeWindow(bits::window(bytes_, bitPos), bits());
  }
  // A fixed width encodes inline; the generic view calls the one copy.
  [[gnu::always_inline]] void store(std::uint32_t bucket, semisort::Bucket contents) noexcept {
    const std::uint64_t bitPos = std::uint64_t{bucket} * (4 * bits() - 4);
    if constexpr (F == 0) {
      semisort::encode(bytes_, bitPos, bits(), contents);
    } else {
      bits::write(bytes_, bitPos, 4 * F - 4, semisort::encodeWindow(contents, F));
    }
  }

  unsigned char* bytes_;
  unsigned bits_;
};

}  // namespace cuckoo::detail
