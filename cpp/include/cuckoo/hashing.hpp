#pragma once
// How an item becomes (fingerprint, i1, i2).
//
// THESE LAYOUTS ARE FROZEN. Serialized filters store fingerprints placed by
// these formulas; changing any line below silently breaks every filter ever
// saved. A change needs a new hash id in the byte format (FORMAT.md), never
// an edit.
//
// All layouts share:
//   h        = XXH3_64bits_withSeed(item bytes, length, seed)         (64 bits)
//   hi       = h >> 32,  lo = h & 0xFFFFFFFF                          (32 bits each)
//   fp       = 1 + ((hi * (2^f - 1)) >> 32)       in [1, 2^f - 1]; 0 means "empty"
//   mix32(x) = the 32-bit avalanche below (a bijection, so distinct fingerprints
//              get distinct offsets, as the paper's Section 4 footnote assumes)
//
// Hash id 1 ("xxh3-64-v1"), for a bucket count m that is a power of two:
//   i1       = lo & (m - 1)
//   i2       = i1 XOR (mix32(fp) & (m - 1))
//   XOR with a fixed offset undoes itself, so i1 = i2 XOR (mix32(fp) & (m - 1)).
//   The buckets coincide when mix32(fp) & (m - 1) = 0.
//
// Hash id 2 ("xxh3-64-range-v1"), for any other m (3 .. 2^32 - 1):
//   i1       = (lo * m) >> 32                      multiply-shift: lo scaled to [0, m), no division
//   c        = (mix32(fp) * m) >> 32               the fingerprint's offset, in [0, m)
//   i2       = (c - i1) mod m
//   Reflection about c undoes itself for every m: (c - (c - i1)) mod m = i1.
//   XOR does not: for m not a power of two, i1 XOR offset can be m or more,
//   and reducing it mod m breaks the symmetry, so a fingerprint moved to its
//   other bucket could never be found from there (how the npm bloom-filters
//   cuckoo filter loses items, its issue #68). The buckets coincide when
//   2 * i1 = c (mod m): for odd m exactly one i1 per fingerprint, for even m
//   two when c is even and none when it is odd, so 1/m of items on average,
//   as with XOR.
//
// Hash id 3 ("xxh3-64-linear-v1"), for growable filters (scalable_filter.hpp),
// whose table of m = 2^L + s buckets (0 <= s < 2^L) grows by splitting one
// bucket at a time:
//   V        = lo | mix32(hi) << 32                the item's 64-bit virtual bucket number
//   H(fp)    = mix32(fp) | mix32(fp ^ 0x9e3779b9) << 32
//   V2       = V XOR H(fp)                         the virtual number of its other bucket
//   bucket(V)= V mod 2^(L+1) if that is < m, else V mod 2^L
//   A slot holds fp << T | tail, the tail being the next bits of the virtual
//   number above its bucket's level (L + 1 for buckets split in this round,
//   i.e. below s or from 2^L on, else L), unary-terminated: for e bits x,
//   tail = 2^e + x, e <= T - 1.
//
// Hash ids 4 ("siphash13-v1") and 5 ("siphash13-range-v1"), keyed filters
// (FilterParams::keyedHash): hash ids 1 and 2 with h replaced by
//   h        = SipHash-1-3(item bytes; key k0 = seed, k1 = seed ^ 0x9e3779b97f4a7c15)
// a pseudorandom function of the item under the key, so that answers about
// some items tell nothing of where others go. 4 for a power-of-two m (XOR),
// 5 for any other (reflection). Their shard route is the same keyed hash
// under seed ^ 0x9e3779b97f4a7c15 as its seed, high 32 bits.
//
// Hash ids 6 ("mulshift64-v1") and 7 ("mulshift64-range-v1"), filters of
// 64-bit keys (FilterParams::multiplyShiftHash): hash ids 1 and 2 with the
// hash of an 8-byte item and the fingerprint's offset replaced by
// multiply-shift, a few instructions each where XXH3's path for 8 bytes and
// mix32 take about 30 (bench/README.md, issue 28):
//   aHigh, aLow, bHigh, bLow = the first four outputs of prng.hpp's SplitMix64
//              started at state seed ^ 0xbb67ae8584caa73b
//   A        = aHigh * 2^64 + aLow,  B = bHigh * 2^64 + bLow
//   h        = ((A * key + B) mod 2^128) >> 64    an 8-byte item, key = its bytes read little-endian
//              (the strongly universal multiply-add-shift family)
//   h        = XXH3_64bits_withSeed(item bytes, length, seed)  any other length, as hash id 1
//   fp, i1   as hash ids 1 and 2
//   g(fp)    = fp * 0x9e3779b1 mod 2^32
//   6, m = 2^L:  i2 = i1 XOR (g(fp) >> (32 - L))      (the offset is 0 when L = 0)
//   7, any other m:  c = (g(fp) * m) >> 32,  i2 = (c - i1) mod m
// Both relations undo themselves as ids 1 and 2 do. Not a pseudorandom
// function: someone who knows the seed can choose colliding keys, so keyed
// filters (ids 4 and 5) are for items outsiders choose. Not sharded (the
// Redis paths refuse these ids).
//
// Hash ids 8 ("mulshift64-mixed-v1") and 9 ("mulshift64-mixed-range-v1"):
// ids 6 and 7 with the key mixed first, what multiplyShiftHash gave new
// filters before ids 10 and 11 (now they only load):
//   h        = ((A * mixKey64(key) + B) mod 2^128) >> 64    an 8-byte item
//   mixKey64 = MurmurHash3's 64-bit finalizer, a bijection (below)
// everything else as ids 6 and 7. The mix is there because h above is linear
// in the key: keys in arithmetic progression (sequential ids, timestamps)
// gave ids 6 and 7 cuckoo graphs that refuse adds far below the load a random
// hash reaches (FORMAT.md, version 6).
//
// Hash ids 10 ("mix64-v1") and 11 ("mix64-range-v1"): what multiplyShiftHash
// gives new filters (FilterParams::keyHash; ids 6 to 9 only load), the
// seeded mix alone, without the multiply-add after it:
//   s        = aHigh above, the first output of that SplitMix64
//   h        = mixKey64(key XOR s)    an 8-byte item
// everything else as ids 6 and 7. It fills and keeps its false-positive rate
// as XXH3 does on the structured key sets that stopped ids 6 and 7, in about
// 13 fewer instructions a lookup than ids 8 and 9, and without their 128-bit
// product, which WebAssembly computes from four 32-bit ones (FORMAT.md,
// version 7).
//
// Shard route ("xxh3-64-route-v1", for filters split into S shards, as
// cuckoo-wasm/redis splits one over a Redis Cluster's slots):
//   r        = XXH3_64bits_withSeed(item bytes, length, seed ^ 0x9e3779b97f4a7c15) >> 32
//   shard    = (r * S) >> 32
//   A second hash under another seed: the filter uses its bits for nothing
//   else, so the items of one shard are as random as those of any filter.
//
// Fingerprint and i1 come from disjoint halves of h, so they are independent.
// The fingerprint is drawn by multiply-shift over the 2^f - 1 non-zero values
// rather than by masking and remapping 0, so no value is twice as likely.

#include <cstddef>
#include <cstdint>

#include "cuckoo/key_hash.hpp"

namespace cuckoo {

// Hash ids written into serialized filters; see the layouts above.
inline constexpr std::uint8_t kHashIdXxh3V1 = 1;
inline constexpr std::uint8_t kHashIdXxh3RangeV1 = 2;
inline constexpr std::uint8_t kHashIdXxh3LinearV1 = 3;
inline constexpr std::uint8_t kHashIdSipHash13V1 = 4;
inline constexpr std::uint8_t kHashIdSipHash13RangeV1 = 5;
inline constexpr std::uint8_t kHashIdMulShiftV1 = 6;
inline constexpr std::uint8_t kHashIdMulShiftRangeV1 = 7;
inline constexpr std::uint8_t kHashIdMulShiftMixedV1 = 8;
inline constexpr std::uint8_t kHashIdMulShiftMixedRangeV1 = 9;
inline constexpr std::uint8_t kHashIdMix64V1 = 10;
inline constexpr std::uint8_t kHashIdMix64RangeV1 = 11;

// The hash id of a plain filter: its bucket relation (XOR for a power-of-two
// bucket count, reflection otherwise) and its item hash (XXH3, keyed, or one
// of the hashes of 8-byte keys).
constexpr std::uint8_t plainHashId(bool powerOfTwo, bool keyed, bool multiplyShift = false,
                                   KeyHash keyHash = KeyHash::kMultiplyShift) noexcept {
  if (multiplyShift && keyHash == KeyHash::kSeededMix) return powerOfTwo ? kHashIdMix64V1 : kHashIdMix64RangeV1;
  if (multiplyShift && keyHash == KeyHash::kMixedMultiplyShift) {
    return powerOfTwo ? kHashIdMulShiftMixedV1 : kHashIdMulShiftMixedRangeV1;
  }
  if (multiplyShift) return powerOfTwo ? kHashIdMulShiftV1 : kHashIdMulShiftRangeV1;
  return keyed ? (powerOfTwo ? kHashIdSipHash13V1 : kHashIdSipHash13RangeV1)
               : (powerOfTwo ? kHashIdXxh3V1 : kHashIdXxh3RangeV1);
}

// A 32-bit avalanche mix (xor-shift / multiply rounds). Bijective on uint32.
constexpr std::uint32_t mix32(std::uint32_t x) noexcept {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Fingerprint of `fingerprintBits` (2..32) bits from a 64-bit item hash; never 0.
constexpr std::uint32_t fingerprintFromHash(std::uint64_t hash, unsigned fingerprintBits) noexcept {
  const std::uint64_t nonZeroValues = (std::uint64_t{1} << fingerprintBits) - 1;
  return static_cast<std::uint32_t>(1 + (((hash >> 32) * nonZeroValues) >> 32));
}

// Hash id 3: an item's virtual bucket number, and the XOR offset of a fingerprint.
constexpr std::uint64_t linearVirtualBucket(std::uint64_t hash) noexcept {
  return (hash & 0xFFFFFFFFULL) | std::uint64_t{mix32(static_cast<std::uint32_t>(hash >> 32))} << 32;
}
constexpr std::uint64_t linearOffset(std::uint32_t fingerprint) noexcept {
  return std::uint64_t{mix32(fingerprint)} | std::uint64_t{mix32(fingerprint ^ 0x9e3779b9U)} << 32;
}

// Hash ids 6 to 11: a fingerprint's offset word, g(fp) above.
constexpr std::uint32_t multiplicativeOffsetWord(std::uint32_t fingerprint) noexcept { return fingerprint * 0x9e3779b1U; }

// The shard route's seed (above), and the route word of a hash under it.
inline constexpr std::uint64_t kRouteSeedMask = 0x9e3779b97f4a7c15ULL;
constexpr std::uint32_t routeWord(std::uint64_t routeHash) noexcept { return static_cast<std::uint32_t>(routeHash >> 32); }

constexpr bool isPowerOfTwo(std::uint64_t v) noexcept { return v != 0 && (v & (v - 1)) == 0; }

// `value` scaled from [0, 2^32) to [0, count): multiply-shift range reduction.
constexpr std::uint32_t scaleToRange(std::uint32_t value, std::uint32_t count) noexcept {
  return static_cast<std::uint32_t>((std::uint64_t{value} * count) >> 32);
}

// Where an item lives: its fingerprint and its two candidate buckets (the
// growable filter's form adds its virtual buckets: scalable_ops.hpp).
struct ItemLocation {
  std::uint32_t fingerprint;
  std::uint32_t primaryBucket;
  std::uint32_t alternateBucket;
};

// Hash id 1, for a power-of-two bucket count.
struct XorIndex {
  static constexpr bool kMultiplyShift = false;
  std::uint32_t mask;  // bucketCount - 1

  [[gnu::always_inline]] constexpr std::uint32_t primary(std::uint64_t hash) const noexcept { return static_cast<std::uint32_t>(hash) & mask; }
  [[gnu::always_inline]] constexpr std::uint32_t offset(std::uint32_t fingerprint) const noexcept { return mix32(fingerprint) & mask; }
  // The partial-key cuckoo relation: the other bucket of a fingerprint stored
  // in `bucket`. Self-inverse: alternate(alternate(i, fp), fp) == i.
  [[gnu::always_inline]] constexpr std::uint32_t alternate(std::uint32_t bucket, std::uint32_t fingerprint) const noexcept {
    return bucket ^ offset(fingerprint);
  }
};

// (c - bucket) mod count, for c and bucket below count, in wrapping 32-bit
// arithmetic: the reflection of hash ids 2 and 7.
[[gnu::always_inline]] constexpr std::uint32_t reflect(std::uint32_t c, std::uint32_t bucket, std::uint32_t count) noexcept {
  return c - bucket + (c < bucket ? count : 0);
}

// Hash id 2, for any other bucket count (3 .. 2^32 - 1).
struct RangeIndex {
  static constexpr bool kMultiplyShift = false;
  std::uint32_t count;  // bucketCount

  [[gnu::always_inline]] constexpr std::uint32_t primary(std::uint64_t hash) const noexcept {
    return scaleToRange(static_cast<std::uint32_t>(hash), count);
  }
  // The reflection point c.
  [[gnu::always_inline]] constexpr std::uint32_t offset(std::uint32_t fingerprint) const noexcept {
    return scaleToRange(mix32(fingerprint), count);
  }
  [[gnu::always_inline]] constexpr std::uint32_t alternate(std::uint32_t bucket, std::uint32_t fingerprint) const noexcept {
    return reflect(offset(fingerprint), bucket, count);
  }
};

// Hash id 6, for a power-of-two bucket count 2^L: the offset is the top L
// bits of g(fp).
struct MulXorIndex {
  static constexpr bool kMultiplyShift = true;
  std::uint32_t mask;  // bucketCount - 1
  unsigned shift;      // 32 - L, so 32 (an offset of 0) for one bucket

  [[gnu::always_inline]] constexpr std::uint32_t primary(std::uint64_t hash) const noexcept { return static_cast<std::uint32_t>(hash) & mask; }
  [[gnu::always_inline]] constexpr std::uint32_t offset(std::uint32_t fingerprint) const noexcept {
    return static_cast<std::uint32_t>(std::uint64_t{multiplicativeOffsetWord(fingerprint)} >> shift);
  }
  [[gnu::always_inline]] constexpr std::uint32_t alternate(std::uint32_t bucket, std::uint32_t fingerprint) const noexcept {
    return bucket ^ offset(fingerprint);
  }
};

// Hash id 7, for any other bucket count: the reflection point is g(fp) scaled.
struct MulRangeIndex {
  static constexpr bool kMultiplyShift = true;
  std::uint32_t count;  // bucketCount

  [[gnu::always_inline]] constexpr std::uint32_t primary(std::uint64_t hash) const noexcept {
    return scaleToRange(static_cast<std::uint32_t>(hash), count);
  }
  [[gnu::always_inline]] constexpr std::uint32_t offset(std::uint32_t fingerprint) const noexcept {
    return scaleToRange(multiplicativeOffsetWord(fingerprint), count);
  }
  [[gnu::always_inline]] constexpr std::uint32_t alternate(std::uint32_t bucket, std::uint32_t fingerprint) const noexcept {
    return reflect(offset(fingerprint), bucket, count);
  }
};

// (Always inlined: the kernels call it once per item, and compilers keep some
// of its instances out of line otherwise.)
template <class Index>
[[gnu::always_inline]] constexpr ItemLocation locateWith(const Index& index, std::uint64_t hash,
                                                         unsigned fingerprintBits) noexcept {
  const std::uint32_t fp = fingerprintFromHash(hash, fingerprintBits);
  const std::uint32_t i1 = index.primary(hash);
  return ItemLocation{fp, i1, index.alternate(i1, fp)};
}

// The bucket layout of a table of `bucketCount` buckets (1 .. 2^32): hash id 1
// for a power of two, hash id 2 for any other count, or with `multiplyShift`
// their multiplicative offsets (ids 6 to 11), chosen at run time. The
// branches between them are taken on members that never change, so they are
// always predicted; the core's specialised kernels use XorIndex, RangeIndex,
// MulXorIndex or MulRangeIndex directly.
class BucketIndex {
 public:
  constexpr BucketIndex() noexcept = default;
  // `bucketCount` must be 1 .. 2^32.
  static constexpr BucketIndex forCount(std::uint64_t bucketCount, bool multiplyShift = false) noexcept {
    BucketIndex index;
    index.powerOfTwo_ = isPowerOfTwo(bucketCount);
    index.multiplyShift_ = multiplyShift;
    index.xor_ = XorIndex{static_cast<std::uint32_t>(bucketCount - 1)};
    index.range_ = RangeIndex{static_cast<std::uint32_t>(bucketCount)};  // unused (0) for 2^32, a power of two
    index.shift_ = 32 - static_cast<unsigned>(__builtin_popcountll(bucketCount - 1));  // 32 - L for m = 2^L
    return index;
  }

  // The id's bucket relation and offset; whether the item hash is XXH3 or
  // keyed (ids 1 and 4) is the filter's to say.
  constexpr std::uint8_t hashId() const noexcept { return plainHashId(powerOfTwo_, false, multiplyShift_); }
  constexpr bool powerOfTwo() const noexcept { return powerOfTwo_; }
  constexpr bool multiplyShift() const noexcept { return multiplyShift_; }
  constexpr const XorIndex& xorIndex() const noexcept { return xor_; }
  constexpr const RangeIndex& rangeIndex() const noexcept { return range_; }
  constexpr MulXorIndex mulXorIndex() const noexcept { return MulXorIndex{xor_.mask, shift_}; }
  constexpr MulRangeIndex mulRangeIndex() const noexcept { return MulRangeIndex{range_.count}; }

  [[gnu::always_inline]] constexpr std::uint32_t primary(std::uint64_t hash) const noexcept {
    return powerOfTwo_ ? xor_.primary(hash) : range_.primary(hash);
  }
  // What a fingerprint's two buckets are related by: the XOR offset (hash ids
  // 1 and 6) or the reflection point c (hash ids 2 and 7).
  // The 32-bit word the offset is taken from: mix32(fp), or g(fp) for hash ids 6 and 7.
  constexpr std::uint32_t offsetWord(std::uint32_t fingerprint) const noexcept {
    return multiplyShift_ ? multiplicativeOffsetWord(fingerprint) : mix32(fingerprint);
  }
  [[gnu::always_inline]] constexpr std::uint32_t offset(std::uint32_t fingerprint) const noexcept {
    if (multiplyShift_) return powerOfTwo_ ? mulXorIndex().offset(fingerprint) : mulRangeIndex().offset(fingerprint);
    return powerOfTwo_ ? xor_.offset(fingerprint) : range_.offset(fingerprint);
  }
  [[gnu::always_inline]] constexpr std::uint32_t alternate(std::uint32_t bucket, std::uint32_t fingerprint) const noexcept {
    const std::uint32_t related = offset(fingerprint);
    return powerOfTwo_ ? bucket ^ related : reflect(related, bucket, range_.count);
  }
  constexpr ItemLocation locate(std::uint64_t hash, unsigned fingerprintBits) const noexcept {
    return locateWith(*this, hash, fingerprintBits);
  }

 private:
  bool powerOfTwo_ = true;
  bool multiplyShift_ = false;
  XorIndex xor_{0};
  RangeIndex range_{0};
  unsigned shift_ = 32;
};

}  // namespace cuckoo
