#pragma once
// Bit streams of a patch's body, least significant bit first as in the byte
// format's payload (bit j is bit j mod 8 of byte j / 8). The writer's buffer
// and the reader's input are followed by at least 7 readable bytes (a patch
// ends with its 8-byte checksum), so that every access is one 64-bit load
// (bit_io.hpp).

#include <cstdint>

#include "cuckoo/bit_io.hpp"

namespace cuckoo::detail {

// Writes fields into a zeroed buffer from bit `start` on.
class BitWriter {
 public:
  BitWriter(unsigned char* bytes, std::uint64_t start) noexcept : bytes_(bytes), at_(start) {}
  // `width` 0 to 57 bits of `value` (which must fit).
  void put(std::uint64_t value, unsigned width) noexcept {
    if (width != 0) bits::write(bytes_, at_, width, value);
    at_ += width;
  }
  void skip(std::uint64_t count) noexcept { at_ += count; }
  std::uint64_t at() const noexcept { return at_; }

 private:
  unsigned char* bytes_;
  std::uint64_t at_;
};

// Reads fields from bits [start, end); any read past `end` fails, and once
// failed the reader stays failed (its reads return 0).
class BitReader {
 public:
  BitReader(const unsigned char* bytes, std::uint64_t start, std::uint64_t end) noexcept
      : bytes_(bytes), at_(start), end_(end) {}

  std::uint64_t get(unsigned width) noexcept {
    if (failed_ || end_ - at_ < width) {
      failed_ = true;
      return 0;
    }
    const std::uint64_t value = width == 0 ? 0 : bits::read(bytes_, at_, width);
    at_ += width;
    return value;
  }

  // Skips 0 bits up to and including the next 1 bit; returns how many 0 bits
  // it skipped (a unary code), or fails at the end.
  std::uint64_t unary() noexcept {
    std::uint64_t zeros = 0;
    while (!failed_) {
      if (at_ >= end_) {
        failed_ = true;
        break;
      }
      const std::uint64_t left = end_ - at_;
      const unsigned width = left < 57 ? static_cast<unsigned>(left) : 57;
      const std::uint64_t window = bits::read(bytes_, at_, width);
      if (window != 0) {
        const auto skipped = static_cast<unsigned>(__builtin_ctzll(window));
        at_ += skipped + 1;
        return zeros + skipped;
      }
      at_ += width;
      zeros += width;
    }
    return 0;
  }

  bool failed() const noexcept { return failed_; }
  std::uint64_t at() const noexcept { return at_; }

 private:
  const unsigned char* bytes_;
  std::uint64_t at_;
  std::uint64_t end_;
  bool failed_ = false;
};

}  // namespace cuckoo::detail
