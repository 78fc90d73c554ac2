#pragma once
// The byte format of FORMAT.md restated for the tests that write, read and
// corrupt serialized filters: field offsets, field access, and checksums
// recomputed with xxHash itself, so that none of it comes from the code under test.

#include <cstddef>
#include <cstdint>
#include <vector>

#define XXH_INLINE_ALL
#include "xxhash.h"

#include "cuckoo/cuckoo_filter.hpp"

namespace cuckoo::testing {

using Bytes = std::vector<unsigned char>;

constexpr std::size_t kVersionAt = 4;
constexpr std::size_t kFlagsAt = 5;
constexpr std::size_t kHashIdAt = 6;
constexpr std::size_t kFingerprintBitsAt = 7;
constexpr std::size_t kBucketSizeAt = 8;
constexpr std::size_t kLog2BucketCountAt = 9;
constexpr std::size_t kReservedAt = 10;
constexpr std::size_t kMaxKicksAt = 12;
constexpr std::size_t kSeedAt = 16;
constexpr std::size_t kPrngStateAt = 24;
constexpr std::size_t kItemCountAt = 32;
constexpr std::size_t kStashFingerprintAt = 40;
constexpr std::size_t kStashBucketAt = 44;
constexpr std::size_t kPayloadLengthAt = 48;
constexpr std::size_t kHeaderBytes = 56;  // version 1
constexpr std::size_t kChecksumBytes = 8;
// Version 2 (a bucket count that is not a power of two): bytes 9 to 11 are
// reserved and the count follows the version 1 fields.
constexpr std::size_t kReservedV2At = 9;
constexpr std::size_t kBucketCountV2At = 56;
constexpr std::size_t kHeaderBytesV2 = 64;
constexpr std::uint8_t kSemiSortedFlag = 1;
constexpr std::uint8_t kStashFlag = 2;

inline Bytes serialized(const CuckooFilter& filter) {
  Bytes bytes(filter.serializedSize());
  filter.serialize(bytes.data());
  return bytes;
}

inline Status deserializeInto(const Bytes& bytes, CuckooFilter& out) {
  return CuckooFilter::deserialize(bytes.data(), bytes.size(), out);
}

// Fields are little-endian.
inline std::uint64_t readField(const Bytes& bytes, std::size_t at, unsigned width) {
  std::uint64_t value = 0;
  for (unsigned i = 0; i < width; ++i) value |= std::uint64_t{bytes.at(at + i)} << (8 * i);
  return value;
}

inline void writeField(Bytes& bytes, std::size_t at, std::uint64_t value, unsigned width) {
  for (unsigned i = 0; i < width; ++i) bytes.at(at + i) = static_cast<unsigned char>(value >> (8 * i));
}

inline std::uint64_t independentChecksum(const Bytes& bytes, std::size_t checkedBytes) {
  return XXH3_64bits_withSeed(bytes.data(), checkedBytes, 0);
}

// Makes a deliberately edited buffer pass the checksum again, so that the
// checks behind the checksum get exercised.
inline void reseal(Bytes& bytes) {
  const std::size_t checked = bytes.size() - kChecksumBytes;
  writeField(bytes, checked, independentChecksum(bytes, checked), 8);
}

}  // namespace cuckoo::testing
