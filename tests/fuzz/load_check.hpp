#pragma once
// What both deserialize fuzzers check of a load, for either filter class:
// the status their own reading of FORMAT.md predicts, a refused input leaving
// the destination untouched, and an accepted one written back byte for byte.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cuckoo/status.hpp"
#include "fuzz_check.hpp"

namespace fuzz_load {

template <class Filter>
std::vector<std::uint8_t> serialized(const Filter& filter) {
  std::vector<std::uint8_t> bytes(filter.serializedSize());
  filter.serialize(bytes.data());
  return bytes;
}

// Loads the input into `destination`, which already holds a filter, and
// checks it as above. Returns what the loaded filter serializes to, the input
// itself; empty when the input was refused (no filter serializes to nothing).
template <class Filter>
std::vector<std::uint8_t> loadChecked(const std::uint8_t* data, std::size_t size, cuckoo::Status expected,
                                      Filter& destination) {
  const std::vector<std::uint8_t> destinationBefore = serialized(destination);
  const cuckoo::Status status = Filter::deserialize(data, size, destination);
  FUZZ_REQUIRE(status == expected, "deserialize returned status %d, FORMAT.md says %d (length %zu)",
               static_cast<int>(status), static_cast<int>(expected), size);
  if (status != cuckoo::Status::kOk) {
    FUZZ_REQUIRE(serialized(destination) == destinationBefore, "a failed load changed the destination filter");
    return {};
  }
  FUZZ_REQUIRE(destination.serializedSize() == size, "serializedSize %zu for an input of %zu bytes",
               destination.serializedSize(), size);
  std::vector<std::uint8_t> written = serialized(destination);
  FUZZ_REQUIRE(std::memcmp(written.data(), data, size) == 0, "serialize() does not reproduce the loaded bytes");
  return written;
}

}  // namespace fuzz_load
