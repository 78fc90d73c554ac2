#pragma once
// How an item becomes (fingerprint, i1, i2).
//
// THIS LAYOUT IS FROZEN. Serialized filters store fingerprints placed by these
// formulas; changing any line below silently breaks every filter ever saved.
// A change needs a new hash id in the byte format (FORMAT.md), never an edit.
//
// Hash id 1 ("xxh3-64-v1"):
//   h        = XXH3_64bits_withSeed(item bytes, length, seed)         (64 bits)
//   hi       = h >> 32,  lo = h & 0xFFFFFFFF                          (32 bits each)
//   fp       = 1 + ((hi * (2^f - 1)) >> 32)       in [1, 2^f - 1]; 0 means "empty"
//   i1       = lo & (m - 1)                        m = bucket count, a power of two
//   i2       = i1 XOR (mix32(fp) & (m - 1))
//   mix32(x) = the 32-bit avalanche below (a bijection, so distinct fingerprints
//              get distinct offsets, as the paper's Section 4 footnote assumes)
//
// Fingerprint and i1 come from disjoint halves of h, so they are independent.
// The fingerprint is drawn by multiply-shift over the 2^f - 1 non-zero values
// rather than by masking and remapping 0, so no value is twice as likely.

#include <cstddef>
#include <cstdint>

namespace cuckoo {

// Hash-id written into serialized filters; see the layout above.
inline constexpr std::uint8_t kHashIdXxh3V1 = 1;

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

// First candidate bucket from a 64-bit item hash. `indexMask` is bucketCount - 1.
constexpr std::uint32_t primaryBucketFromHash(std::uint64_t hash, std::uint32_t indexMask) noexcept {
  return static_cast<std::uint32_t>(hash) & indexMask;
}

// The partial-key cuckoo relation: the other bucket of a fingerprint stored in
// `bucket`. Self-inverse: alternateBucket(alternateBucket(i, fp), fp) == i.
constexpr std::uint32_t alternateBucket(std::uint32_t bucket, std::uint32_t fingerprint,
                                        std::uint32_t indexMask) noexcept {
  return bucket ^ (mix32(fingerprint) & indexMask);
}

// Where an item lives: its fingerprint and its two candidate buckets.
struct ItemLocation {
  std::uint64_t hash;
  std::uint32_t fingerprint;
  std::uint32_t primaryBucket;
  std::uint32_t alternateBucket;
};

constexpr ItemLocation locateHash(std::uint64_t hash, unsigned fingerprintBits,
                                  std::uint32_t indexMask) noexcept {
  const std::uint32_t fp = fingerprintFromHash(hash, fingerprintBits);
  const std::uint32_t i1 = primaryBucketFromHash(hash, indexMask);
  return ItemLocation{hash, fp, i1, alternateBucket(i1, fp, indexMask)};
}

}  // namespace cuckoo
