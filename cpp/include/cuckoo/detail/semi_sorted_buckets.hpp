#pragma once
// The view of a SemiSortedTable's buckets (buckets.hpp has what every view offers).

#include <cstdint>
#include <type_traits>
#include <utility>

#include "cuckoo/bit_io.hpp"
#include "cuckoo/detail/bucket_lanes.hpp"
#include "cuckoo/semi_sorted_table.hpp"

namespace cuckoo::detail {

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

  // What undoing exchange(bucket, slot, incoming) needs: `incoming` itself
  // (semisort::undoKickByValue).
  std::uint32_t kickRecord(unsigned, std::uint32_t incoming) const noexcept { return incoming; }
  std::uint32_t undoKick(std::uint32_t bucket, std::uint32_t incoming, std::uint32_t fingerprint) noexcept {
    return semisort::undoKickByValue(*this, bucket, incoming, fingerprint);
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
