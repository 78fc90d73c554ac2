// The embind glue for the Bloom filters of bloom_filter.hpp, in the manner of
// the plain exports (glue.hpp): filters cross as integer handles, items as
// (pointer, length) into wasm memory the TypeScript layer filled, failures as
// cuckoo::Status values. Nothing here throws or aborts.
//
// One handle type serves both kinds of Bloom filter, so that ts/src/bloom.ts
// needs one set of functions; the kind is chosen once per call, and a batch
// is handed to the core's batch operations whole.

#include <emscripten/bind.h>

#include <cstddef>
#include <cstdint>

#include "cuckoo/bloom_filter.hpp"
#include "glue.hpp"

namespace {

using cuckoo::BlockedBloomFilter;
using cuckoo::BloomParams;
using cuckoo::StandardBloomFilter;
using cuckoo::Status;
using glue::Address;
using glue::bytesAt;
using glue::Handle;

// Only the member matching `blocked` owns memory; the other stays empty.
struct BloomBox {
  bool blocked = false;
  StandardBloomFilter standard;
  BlockedBloomFilter blockedFilter;
};

BloomBox& boxAt(Handle handle) { return glue::objectAt<BloomBox>(handle); }

template <class Use>
auto withFilter(Handle handle, Use&& use) {
  BloomBox& box = boxAt(handle);
  return box.blocked ? use(box.blockedFilter) : use(box.standard);
}

int boxFilter(bool blocked, const BloomParams& params, Address outHandle) {
  return glue::adoptMade<BloomBox>(outHandle, [&](BloomBox& box) {
    box.blocked = blocked;
    return blocked ? BlockedBloomFilter::create(params, box.blockedFilter) : StandardBloomFilter::create(params, box.standard);
  });
}

int createBloom(bool blocked, double bitCount, double hashCount, std::uint32_t seedLow, std::uint32_t seedHigh,
                Address outHandle) {
  BloomParams params;
  params.bitCount = glue::wholeNumber<std::uint64_t>(bitCount);
  params.hashCount = glue::wholeNumber<unsigned>(hashCount);
  params.seed = glue::joinSeed(seedLow, seedHigh);
  return boxFilter(blocked, params, outHandle);
}

// `capacity` is a safe integer (the TypeScript layer checks it).
int createBloomForCapacity(bool blocked, double capacity, double falsePositiveRate, std::uint32_t seedLow,
                           std::uint32_t seedHigh, Address outHandle) {
  BloomParams params;
  params.seed = glue::joinSeed(seedLow, seedHigh);
  const Status status =
      cuckoo::bloomParamsForCapacity(glue::wholeNumber<std::uint64_t>(capacity), falsePositiveRate, params);
  return status == Status::kOk ? boxFilter(blocked, params, outHandle) : static_cast<int>(status);
}

void destroyBloom(Handle handle) { delete &boxAt(handle); }

bool bloomInsertItem(Handle h, Address item, std::size_t length) {
  return withFilter(h, [&](auto& filter) { return filter.insert(bytesAt(item), length); });
}
bool bloomContainsItem(Handle h, Address item, std::size_t length) {
  return withFilter(h, [&](auto& filter) { return filter.contains(bytesAt(item), length); });
}
// `out` holds hashCount uint32 values.
unsigned bloomProbePositions(Handle h, Address item, std::size_t length, Address out) {
  return withFilter(h, [&](auto& filter) { return filter.probePositions(bytesAt(item), length, glue::wordsAt(out)); });
}

// Batches, in the layouts of glue.hpp. Inserts return how many items set at
// least one new bit.
unsigned insertBatch(Handle h, const cuckoo::ItemBatch& items) {
  return withFilter(h, [&](auto& filter) { return static_cast<unsigned>(filter.insertMany(items)); });
}
void containsBatch(Handle h, const cuckoo::ItemBatch& items, Address out) {
  withFilter(h, [&](auto& filter) {
    filter.containsMany(items, reinterpret_cast<unsigned char*>(out));
    return 0;
  });
}

unsigned bloomInsertPacked(Handle h, Address data, Address offsets, unsigned count) {
  return insertBatch(h, glue::packedBatch(data, offsets, count));
}
void bloomContainsPacked(Handle h, Address data, Address offsets, unsigned count, Address out) {
  containsBatch(h, glue::packedBatch(data, offsets, count), out);
}
unsigned bloomInsertFixed(Handle h, Address data, unsigned width, unsigned count) {
  return insertBatch(h, glue::fixedBatch(data, width, count));
}
void bloomContainsFixed(Handle h, Address data, unsigned width, unsigned count, Address out) {
  containsBatch(h, glue::fixedBatch(data, width, count), out);
}

double bloomItemCount(Handle h) {
  return withFilter(h, [](auto& filter) { return static_cast<double>(filter.itemCount()); });
}

// A Bloom filter's parameters and statistics, as one JavaScript object.
struct BloomInfo {
  double itemCount;
  double bitCount;
  unsigned hashCount;
  double byteLength;
  double bitsPerItem;
  double expectedFpr;
  bool blocked;
  std::uint32_t seedLow;
  std::uint32_t seedHigh;
};

BloomInfo describeBloom(Handle h) {
  const bool blocked = boxAt(h).blocked;
  return withFilter(h, [&](auto& filter) {
    const cuckoo::BloomStats s = filter.stats();
    const std::uint64_t seed = filter.params().seed;
    return BloomInfo{static_cast<double>(s.itemCount),
                     static_cast<double>(s.bitCount),
                     s.hashCount,
                     static_cast<double>(s.sizeInBytes),
                     s.bitsPerItem,
                     s.expectedFalsePositiveRate,
                     blocked,
                     static_cast<std::uint32_t>(seed),
                     static_cast<std::uint32_t>(seed >> 32)};
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(cuckoo_bloom) {
  using emscripten::function;
  emscripten::value_object<BloomInfo>("BloomInfo")
      .field("itemCount", &BloomInfo::itemCount)
      .field("bitCount", &BloomInfo::bitCount)
      .field("hashCount", &BloomInfo::hashCount)
      .field("byteLength", &BloomInfo::byteLength)
      .field("bitsPerItem", &BloomInfo::bitsPerItem)
      .field("expectedFpr", &BloomInfo::expectedFpr)
      .field("blocked", &BloomInfo::blocked)
      .field("seedLow", &BloomInfo::seedLow)
      .field("seedHigh", &BloomInfo::seedHigh);
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
