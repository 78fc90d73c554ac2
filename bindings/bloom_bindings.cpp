// The embind glue for the Bloom filters of bloom_filter.hpp, in the manner of
// cuckoo_bindings.cpp: filters cross as integer handles, items as (pointer,
// length) into wasm memory the TypeScript layer filled, failures as
// cuckoo::Status values, and results that do not fit a return value through
// out-pointers. Nothing here throws or aborts.
//
// One handle type serves both kinds of Bloom filter, so that ts/src/bloom.ts
// needs one set of functions; the kind is chosen once per call, outside the
// batch loops.

#include <emscripten/bind.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <utility>

#include "cuckoo/bloom_filter.hpp"

namespace {

using cuckoo::BlockedBloomFilter;
using cuckoo::BloomParams;
using cuckoo::StandardBloomFilter;
using cuckoo::Status;
using Handle = std::uintptr_t;
using Address = std::uintptr_t;

// Only the member matching `blocked` owns memory; the other stays empty.
struct BloomBox {
  bool blocked = false;
  StandardBloomFilter standard;
  BlockedBloomFilter blockedFilter;
};

BloomBox& boxAt(Handle handle) { return *reinterpret_cast<BloomBox*>(handle); }
const unsigned char* bytesAt(Address address) { return reinterpret_cast<const unsigned char*>(address); }
const std::uint32_t* offsetsAt(Address offsets) { return reinterpret_cast<const std::uint32_t*>(offsets); }

template <class Use>
auto withFilter(Handle handle, Use&& use) {
  BloomBox& box = boxAt(handle);
  return box.blocked ? use(box.blockedFilter) : use(box.standard);
}

std::uint64_t joinSeed(std::uint32_t low, std::uint32_t high) { return (std::uint64_t{high} << 32) | low; }

// An integer from the TypeScript layer; anything outside [0, 2^64) becomes 0
// so that the conversion is defined and the core rejects it.
std::uint64_t countFromDouble(double value) {
  return value >= 0 && value < 18446744073709551616.0 ? static_cast<std::uint64_t>(value) : 0;
}

int boxFilter(bool blocked, const BloomParams& params, Address outHandle) {
  BloomBox box;
  box.blocked = blocked;
  const Status status = blocked ? BlockedBloomFilter::create(params, box.blockedFilter)
                                : StandardBloomFilter::create(params, box.standard);
  if (status != Status::kOk) return static_cast<int>(status);
  auto* owned = new (std::nothrow) BloomBox(std::move(box));
  if (owned == nullptr) return static_cast<int>(Status::kOutOfMemory);
  const auto handle = static_cast<std::uint32_t>(reinterpret_cast<Handle>(owned));
  std::memcpy(reinterpret_cast<void*>(outHandle), &handle, sizeof handle);
  return static_cast<int>(Status::kOk);
}

int createBloom(bool blocked, double bitCount, unsigned hashCount, std::uint32_t seedLow, std::uint32_t seedHigh,
                Address outHandle) {
  BloomParams params;
  params.bitCount = countFromDouble(bitCount);
  params.hashCount = hashCount;
  params.seed = joinSeed(seedLow, seedHigh);
  return boxFilter(blocked, params, outHandle);
}

int createBloomForCapacity(bool blocked, double capacity, double falsePositiveRate, std::uint32_t seedLow,
                           std::uint32_t seedHigh, Address outHandle) {
  BloomParams params;
  params.seed = joinSeed(seedLow, seedHigh);
  const Status status = cuckoo::bloomParamsForCapacity(countFromDouble(capacity), falsePositiveRate, params);
  return status == Status::kOk ? boxFilter(blocked, params, outHandle) : static_cast<int>(status);
}

void destroyBloom(Handle handle) { delete reinterpret_cast<BloomBox*>(handle); }

bool bloomInsertItem(Handle h, Address item, std::size_t length) {
  return withFilter(h, [&](auto& filter) { return filter.insert(bytesAt(item), length); });
}
bool bloomContainsItem(Handle h, Address item, std::size_t length) {
  return withFilter(h, [&](auto& filter) { return filter.contains(bytesAt(item), length); });
}
// `out` holds hashCount uint32 values.
unsigned bloomProbePositions(Handle h, Address item, std::size_t length, Address out) {
  return withFilter(h, [&](auto& filter) {
    return filter.probePositions(bytesAt(item), length, reinterpret_cast<std::uint32_t*>(out));
  });
}

// Batches, laid out as in cuckoo_bindings.cpp: packed items span
// [offsets[k], offsets[k+1]) of `data`; fixed-width items are `width` bytes
// each. Inserts return how many items set at least one new bit.
unsigned bloomInsertPacked(Handle h, Address data, Address offsets, unsigned count) {
  const std::uint32_t* bounds = offsetsAt(offsets);
  return withFilter(h, [&](auto& filter) {
    unsigned fresh = 0;
    for (unsigned k = 0; k < count; ++k) fresh += filter.insert(bytesAt(data) + bounds[k], bounds[k + 1] - bounds[k]);
    return fresh;
  });
}
void bloomContainsPacked(Handle h, Address data, Address offsets, unsigned count, Address out) {
  const std::uint32_t* bounds = offsetsAt(offsets);
  auto* answers = reinterpret_cast<unsigned char*>(out);
  withFilter(h, [&](auto& filter) {
    for (unsigned k = 0; k < count; ++k) {
      answers[k] = filter.contains(bytesAt(data) + bounds[k], bounds[k + 1] - bounds[k]) ? 1 : 0;
    }
    return 0;
  });
}
unsigned bloomInsertFixed(Handle h, Address data, unsigned width, unsigned count) {
  return withFilter(h, [&](auto& filter) {
    unsigned fresh = 0;
    for (unsigned k = 0; k < count; ++k) fresh += filter.insert(bytesAt(data) + std::size_t{k} * width, width);
    return fresh;
  });
}
void bloomContainsFixed(Handle h, Address data, unsigned width, unsigned count, Address out) {
  auto* answers = reinterpret_cast<unsigned char*>(out);
  withFilter(h, [&](auto& filter) {
    for (unsigned k = 0; k < count; ++k) answers[k] = filter.contains(bytesAt(data) + std::size_t{k} * width, width);
    return 0;
  });
}

double bloomItemCount(Handle h) {
  return withFilter(h, [](auto& filter) { return static_cast<double>(filter.itemCount()); });
}

// Stats and parameters as doubles at `out`, in the order of BloomInfoField in
// ts/src/raw.ts (keep both in step).
void describeBloom(Handle h, Address out) {
  const bool blocked = boxAt(h).blocked;
  withFilter(h, [&](auto& filter) {
    const cuckoo::BloomStats s = filter.stats();
    const std::uint64_t seed = filter.params().seed;
    const double fields[] = {
        static_cast<double>(s.itemCount),
        static_cast<double>(s.bitCount),
        static_cast<double>(s.hashCount),
        static_cast<double>(s.sizeInBytes),
        s.bitsPerItem,
        s.expectedFalsePositiveRate,
        blocked ? 1.0 : 0.0,
        static_cast<double>(static_cast<std::uint32_t>(seed)),
        static_cast<double>(static_cast<std::uint32_t>(seed >> 32)),
    };
    std::memcpy(reinterpret_cast<void*>(out), fields, sizeof fields);
    return 0;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(cuckoo_bloom) {
  using emscripten::function;
  function("createBloom", &createBloom);
  function("createBloomForCapacity", &createBloomForCapacity);
  function("destroyBloom", &destroyBloom);
  function("bloomInsertItem", &bloomInsertItem);
  function("bloomContainsItem", &bloomContainsItem);
  function("bloomProbePositions", &bloomProbePositions);
  function("bloomInsertPacked", &bloomInsertPacked);
  function("bloomContainsPacked", &bloomContainsPacked);
  function("bloomInsertFixed", &bloomInsertFixed);
  function("bloomContainsFixed", &bloomContainsFixed);
  function("bloomItemCount", &bloomItemCount);
  function("describeBloom", &describeBloom);
}
