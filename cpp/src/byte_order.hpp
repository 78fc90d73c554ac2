#pragma once
// What every version of the byte format (FORMAT.md) shares: the magic, the
// trailing checksum, and integers written byte by byte in little-endian
// order, so that the bytes never depend on the host's layout or padding
// rules and native and wasm32 builds produce identical files.

#include <cstddef>
#include <cstdint>

namespace cuckoo::detail {

inline constexpr unsigned char kFormatMagic[4] = {'C', 'K', 'F', 'W'};
inline constexpr std::size_t kFormatVersionOffset = 4;
inline constexpr std::size_t kFormatChecksumBytes = 8;

inline void putLittleEndian(unsigned char* to, std::uint64_t value, unsigned byteCount) noexcept {
  for (unsigned i = 0; i < byteCount; ++i) to[i] = static_cast<unsigned char>(value >> (8 * i));
}

inline std::uint64_t getLittleEndian(const unsigned char* from, unsigned byteCount) noexcept {
  std::uint64_t value = 0;
  for (unsigned i = 0; i < byteCount; ++i) value |= std::uint64_t{from[i]} << (8 * i);
  return value;
}

}  // namespace cuckoo::detail
