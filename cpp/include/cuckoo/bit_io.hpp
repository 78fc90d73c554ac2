#pragma once
// Little-endian bit-field access to byte arrays, shared by the tables.
// Every table keeps kTablePaddingBytes of zeros after its payload so that a
// field starting anywhere in the payload can be read with one 64-bit load.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace cuckoo {

inline constexpr std::size_t kTablePaddingBytes = 7;

// Largest table the core will allocate: far beyond any real filter natively,
// and 2 GiB where pointers are 32-bit (wasm32), so sizes never overflow size_t.
inline constexpr std::uint64_t kMaxTableBytes =
    sizeof(void*) >= 8 ? (std::uint64_t{1} << 40) : (std::uint64_t{1} << 31);

namespace bits {

// Little-endian hosts only (checked in packed_table.cpp).
inline std::uint64_t load64(const unsigned char* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void store64(unsigned char* p, std::uint64_t v) noexcept { std::memcpy(p, &v, sizeof v); }

// The 64 bits starting at bit `bitPos`, of which the low 57 are always valid.
inline std::uint64_t window(const unsigned char* bytes, std::uint64_t bitPos) noexcept {
  return load64(bytes + (bitPos >> 3)) >> (bitPos & 7);
}

// A field of `width` (1..57) bits at `bitPos`.
inline std::uint64_t read(const unsigned char* bytes, std::uint64_t bitPos, unsigned width) noexcept {
  return window(bytes, bitPos) & ((std::uint64_t{1} << width) - 1);
}

// Overwrites a field of `width` (1..57) bits at `bitPos` with `value` (which must fit).
inline void write(unsigned char* bytes, std::uint64_t bitPos, unsigned width, std::uint64_t value) noexcept {
  unsigned char* p = bytes + (bitPos >> 3);
  const unsigned shift = static_cast<unsigned>(bitPos & 7);
  const std::uint64_t mask = ((std::uint64_t{1} << width) - 1) << shift;
  store64(p, (load64(p) & ~mask) | (value << shift));
}

}  // namespace bits
}  // namespace cuckoo
