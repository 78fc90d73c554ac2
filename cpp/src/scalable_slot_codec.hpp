#pragma once
// The growable filter's slot values: encoded and decoded here and nowhere
// else. A slot of W = r + T bits holds an entry as fingerprint << T | tail.
// The tail is a marker bit 1 followed by `length` bits of the entry's
// virtual bucket number, the ones just above its bucket's level (the bucket
// number itself gives the bits below). A new entry keeps T - 1 of them; each
// split of its bucket moves the lowest into the bucket number, until none
// is left and the entry's tail is spent. An empty slot is 0: an entry's
// marker bit never is.

#include <cstdint>

#include "scalable_sizing.hpp"

namespace cuckoo::detail::scalable {

// The low `count` bits of an entry's virtual bucket number that it knows:
// its bucket's level of them, then its tail's.
struct KnownBits {
  std::uint64_t bits;
  unsigned count;
};

// An entry after a split of its bucket: its new value, and whether it goes
// to the new sibling bucket, or (its tail spent) to both.
struct SplitEntry {
  std::uint32_t value;
  bool toSibling;
  bool toBoth;
};

class SlotCodec {
 public:
  explicit SlotCodec(unsigned tailBits) noexcept
      : tailBits_(tailBits), tailMask_(static_cast<std::uint32_t>(mask(tailBits))) {}

  std::uint32_t fingerprintOf(std::uint32_t value) const noexcept { return value >> tailBits_; }

  // How many bits of its virtual bucket number the entry's tail holds.
  unsigned tailLength(std::uint32_t value) const noexcept { return lengthOf(tailOf(value)); }

  // An entry of `fingerprint` in a bucket at `level`, knowing `known`: as
  // many of its bits above the level as its tail has room for.
  std::uint32_t entry(std::uint32_t fingerprint, const KnownBits& known, unsigned level) const noexcept {
    const unsigned room = tailBits_ - 1;
    const unsigned length = known.count - level < room ? known.count - level : room;
    return encode(fingerprint, static_cast<std::uint32_t>((known.bits >> level) & mask(length)), length);
  }

  // A new entry for the virtual bucket `virtualBucket`, whose bits it knows all of.
  std::uint32_t newEntry(std::uint32_t fingerprint, std::uint64_t virtualBucket, unsigned level) const noexcept {
    const unsigned length = tailBits_ - 1;
    return encode(fingerprint, static_cast<std::uint32_t>((virtualBucket >> level) & mask(length)), length);
  }

  // Whether `value`, in a bucket at `level`, may be the entry of an item of
  // `fingerprint` for `virtualBucket`: the fingerprint is equal and every bit
  // its tail knows agrees. The fingerprint is compared first; one slot in 2^r
  // passes, and only then is the tail decoded.
  bool matches(std::uint32_t value, std::uint32_t fingerprint, std::uint64_t virtualBucket,
               unsigned level) const noexcept {
    if (value == 0 || fingerprintOf(value) != fingerprint) return false;
    const std::uint32_t tail = tailOf(value);
    const unsigned length = lengthOf(tail);
    return (tail ^ (std::uint32_t{1} << length)) == ((virtualBucket >> level) & mask(length));
  }

  KnownBits known(std::uint32_t value, std::uint64_t bucket, unsigned level) const noexcept {
    const std::uint32_t tail = tailOf(value);
    const unsigned length = lengthOf(tail);
    return {bucket | std::uint64_t{tail ^ (std::uint32_t{1} << length)} << level, level + length};
  }

  // A split of its bucket gives the entry one more bit of bucket number:
  // the lowest of its tail, which says which half it goes to.
  SplitEntry split(std::uint32_t value) const noexcept {
    const std::uint32_t tail = tailOf(value);
    const unsigned length = lengthOf(tail);
    if (length == 0) return {value, false, true};
    const std::uint32_t bits = tail ^ (std::uint32_t{1} << length);
    return {encode(fingerprintOf(value), bits >> 1, length - 1), (bits & 1U) != 0, false};
  }

 private:
  std::uint32_t tailOf(std::uint32_t value) const noexcept { return value & tailMask_; }
  // The marker is the tail's highest 1.
  static unsigned lengthOf(std::uint32_t tail) noexcept { return 31U - static_cast<unsigned>(__builtin_clz(tail)); }
  std::uint32_t encode(std::uint32_t fingerprint, std::uint32_t bits, unsigned length) const noexcept {
    return fingerprint << tailBits_ | (std::uint32_t{1} << length) | bits;
  }

  unsigned tailBits_;
  std::uint32_t tailMask_;
};

// A stored slot value is well formed: a non-zero fingerprint above a non-zero
// tail (its marker bit), in `slotBits` bits of which the low `tailBits` are the tail.
inline bool wellFormed(std::uint32_t value, unsigned slotBits, unsigned tailBits) noexcept {
  if (slotBits < 32 && (value >> slotBits) != 0) return false;
  return (value >> tailBits) != 0 && (value & static_cast<std::uint32_t>(mask(tailBits))) != 0;
}

}  // namespace cuckoo::detail::scalable
