#pragma once
// What a patch depends on in each filter class (patch.cpp writes diff and
// apply once, for both): which byte format versions its states are written
// in, which bytes of a serialized header are its state (the rest name the
// filter and must not differ between base and result), how that state is read
// back and checked, and when two filters are two states of one filter.

#include <cstddef>
#include <cstdint>

#include "byte_order.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/scalable_filter.hpp"
#include "patch_access.hpp"
#include "patch_slots.hpp"
#include "reject.hpp"
#include "scalable_slot_codec.hpp"

namespace cuckoo::detail {

// A byte range [first, end) of a serialized header.
struct HeaderRange {
  std::size_t first;
  std::size_t end;
};

template <class Filter>
struct PatchKind;

template <>
struct PatchKind<CuckooFilter> {
  using State = FilterState;
  static constexpr std::uint8_t kStashFlag = 1U << 1;
  // Versions 1, 2, 4 and 5 (FORMAT.md): the flags' stash bit, then PRNG, item count, stash.
  static constexpr HeaderRange kStateRanges[] = {{24, 48}};
  static constexpr std::size_t kFlagsByte = 5;

  static bool writesFormat(std::uint8_t version) noexcept {
    return version == 1 || version == 2 || (version >= 4 && version <= 7);
  }
  static SlotValueRule valueRule(const CuckooFilter&) noexcept { return {}; }

  static Status compatible(const CuckooFilter& a, const CuckooFilter& b) noexcept {
    const FilterParams& p = a.params();
    const FilterParams& q = b.params();
    const bool same = p.fingerprintBits == q.fingerprintBits && p.bucketSize == q.bucketSize &&
                      p.bucketCount == q.bucketCount && p.maxKicks == q.maxKicks && p.seed == q.seed &&
                      p.semiSort == q.semiSort && p.keyedHash == q.keyedHash &&
                      p.multiplyShiftHash == q.multiplyShiftHash &&
                      (!p.multiplyShiftHash || p.keyHash == q.keyHash);
    return same ? Status::kOk : rejected(Status::kPatchFiltersDiffer);
  }

  // The state a result header describes, checked against the filter's shape.
  static Status readState(const unsigned char* header, const CuckooFilter& filter, State& out) noexcept {
    const bool occupied = (header[kFlagsByte] & kStashFlag) != 0;
    out.stash = {occupied, static_cast<std::uint32_t>(getLittleEndian(header + 40, 4)),
                 static_cast<std::uint32_t>(getLittleEndian(header + 44, 4))};
    out.itemCount = getLittleEndian(header + 32, 8);
    out.prng = SplitMix64(getLittleEndian(header + 24, 8));
    const std::uint64_t largest = (std::uint64_t{1} << filter.params().fingerprintBits) - 1;
    const bool stashOk = occupied ? out.stash.fingerprint != 0 && out.stash.fingerprint <= largest &&
                                        out.stash.bucket < filter.params().bucketCount
                                  : out.stash.fingerprint == 0 && out.stash.bucket == 0;
    return stashOk ? Status::kOk : rejected(Status::kFormatInconsistent);
  }

  static std::uint64_t nonEmptySlots(const State& state) noexcept {
    return state.itemCount - (state.stash.occupied ? 1 : 0);
  }
  // The counts agree with the table's non-empty slots after the patch.
  static bool countsAgree(const State& result, std::uint64_t nonEmptyAfter) noexcept {
    return result.itemCount == nonEmptyAfter + (result.stash.occupied ? 1 : 0);
  }
};

template <>
struct PatchKind<ScalableCuckooFilter> {
  using State = ScalableState;
  // Version 3 (FORMAT.md): the stash count, PRNG, item and entry counts, the stash records.
  static constexpr HeaderRange kStateRanges[] = {{11, 12}, {24, 48}, {88, 280}};
  static constexpr std::size_t kFlagsByte = 5;
  static constexpr std::uint8_t kStashFlag = 0;

  static bool writesFormat(std::uint8_t version) noexcept { return version == 3; }
  static SlotValueRule valueRule(const ScalableCuckooFilter& filter) noexcept { return {true, filter.shape().tailBits}; }

  static Status compatible(const ScalableCuckooFilter& a, const ScalableCuckooFilter& b) noexcept {
    const ScalableParams& p = a.params();
    const ScalableParams& q = b.params();
    const bool same = p.initialCapacity == q.initialCapacity && p.falsePositiveRate == q.falsePositiveRate &&
                      p.growth == q.growth && p.maxKicks == q.maxKicks && p.seed == q.seed && p.semiSort == q.semiSort;
    if (!same) return rejected(Status::kPatchFiltersDiffer);
    const bool sameTable = a.shape().level == b.shape().level && a.shape().splitBucket == b.shape().splitBucket;
    return sameTable ? Status::kOk : rejected(Status::kPatchShapeChanged);
  }

  static Status readState(const unsigned char* header, const ScalableCuckooFilter& filter, State& out) noexcept {
    const ScalableShape& shape = filter.shape();
    out.stashCount = header[11];
    out.prngState = getLittleEndian(header + 24, 8);
    out.itemCount = getLittleEndian(header + 32, 8);
    out.entryCount = getLittleEndian(header + 40, 8);
    if (out.stashCount > ScalableCuckooFilter::kMaxHeld || out.itemCount > out.entryCount) {
      return rejected(Status::kFormatInconsistent);
    }
    for (unsigned k = 0; k < ScalableCuckooFilter::kMaxHeld; ++k) {
      const unsigned char* record = header + 88 + 12 * k;
      const ScalableCuckooFilter::HeldEntry held{static_cast<std::uint32_t>(getLittleEndian(record, 4)),
                                                 getLittleEndian(record + 4, 8)};
      const bool ok = k < out.stashCount ? scalable::wellFormed(held.value, shape.slotBits(), shape.tailBits) &&
                                               held.bucket < shape.bucketCount()
                                         : held.value == 0 && held.bucket == 0;
      if (!ok) return rejected(Status::kFormatInconsistent);
      out.stash[k] = held;
    }
    return Status::kOk;
  }

  static std::uint64_t nonEmptySlots(const State& state) noexcept { return state.entryCount - state.stashCount; }
  static bool countsAgree(const State& result, std::uint64_t nonEmptyAfter) noexcept {
    return result.entryCount == nonEmptyAfter + result.stashCount;
  }
};

}  // namespace cuckoo::detail
