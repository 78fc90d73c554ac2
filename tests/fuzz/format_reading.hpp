#pragma once
// The deserialize fuzzers' own reading of FORMAT.md, independent of the core:
// little-endian fields, the checksum, payload bits read one at a time, and
// the _checksummed builds' rewrite of an input's checksum.

#include <cstddef>
#include <cstdint>
#include <vector>

#define XXH_INLINE_ALL
#include "xxhash.h"

#include "cuckoo/status.hpp"

// The _checksummed builds define it as 1 (CMakeLists.txt): withChecksum's
// fixChecksum.
#ifndef CUCKOO_FUZZ_FIX_CHECKSUM
#define CUCKOO_FUZZ_FIX_CHECKSUM 0
#endif

namespace fuzz_format {

inline constexpr std::size_t kChecksumBytes = 8;

inline std::uint64_t littleEndian(const std::uint8_t* from, unsigned byteCount) {
  std::uint64_t value = 0;
  for (unsigned i = 0; i < byteCount; ++i) value |= std::uint64_t{from[i]} << (8 * i);
  return value;
}

inline std::uint64_t checksumOf(const std::uint8_t* data, std::size_t length) {
  return XXH3_64bits_withSeed(data, length, 0);
}

// Bits [first, first + count) of a payload, bit by bit: deliberately not the
// core's word-at-a-time code.
inline std::uint32_t payloadBits(const std::uint8_t* payload, std::uint64_t first, unsigned count) {
  std::uint32_t value = 0;
  for (unsigned i = 0; i < count; ++i) {
    const std::uint64_t bit = first + i;
    value |= static_cast<std::uint32_t>((payload[bit / 8] >> (bit % 8)) & 1U) << i;
  }
  return value;
}

// What every format version requires of the bytes after its header, in the
// order the core checks it: exactly the payload and the checksum, the
// checksum right, and the payload's unused last bits 0. kOk when all hold.
inline cuckoo::Status payloadStatus(const std::uint8_t* d, std::size_t n, std::size_t headerBytes,
                                    std::uint64_t payload, std::uint64_t usedBits) {
  if (n < headerBytes + payload + kChecksumBytes) return cuckoo::Status::kFormatTruncated;
  if (n > headerBytes + payload + kChecksumBytes) return cuckoo::Status::kFormatInconsistent;
  if (checksumOf(d, headerBytes + payload) != littleEndian(d + headerBytes + payload, 8)) {
    return cuckoo::Status::kFormatChecksumMismatch;
  }
  const std::uint8_t* table = d + headerBytes;
  if (usedBits % 8 != 0 && (table[payload - 1] >> (usedBits % 8)) != 0) return cuckoo::Status::kFormatInconsistent;
  return cuckoo::Status::kOk;
}

// Runs `run` on the input; when `fixChecksum` and the input holds at least
// `shortest` bytes, on a copy whose last 8 bytes are the checksum of the
// rest, so that mutations reach the content checks behind it.
template <class Run>
void withChecksum(bool fixChecksum, std::size_t shortest, const std::uint8_t* data, std::size_t size, Run run) {
  if (fixChecksum && size >= shortest + kChecksumBytes) {
    std::vector<std::uint8_t> fixed(data, data + size);
    const std::uint64_t checksum = checksumOf(fixed.data(), size - kChecksumBytes);
    for (unsigned i = 0; i < 8; ++i) fixed[size - kChecksumBytes + i] = static_cast<std::uint8_t>(checksum >> (8 * i));
    run(fixed.data(), fixed.size());
  } else {
    run(data, size);
  }
}

}  // namespace fuzz_format
