// The embind glue between the core and ts/: nothing but argument plumbing.
//
// Filters cross the boundary as integer handles (the address of a
// heap-allocated cuckoo::CuckooFilter) and items as (pointer, length) into wasm
// memory that the TypeScript layer filled, so a call converts only numbers.
// Fallible calls return a cuckoo::Status value; results that do not fit a
// return value go to an out-pointer the caller provides. No function here
// throws or aborts: the TypeScript layer turns statuses into typed errors.

#include <emscripten/bind.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <string>

#include "cuckoo/cuckoo_filter.hpp"

namespace {

using cuckoo::CuckooFilter;
using cuckoo::Status;
using Handle = std::uintptr_t;
using Address = std::uintptr_t;

CuckooFilter& filterAt(Handle handle) { return *reinterpret_cast<CuckooFilter*>(handle); }
const unsigned char* bytesAt(Address address) { return reinterpret_cast<const unsigned char*>(address); }

std::uint64_t joinSeed(std::uint32_t low, std::uint32_t high) { return (std::uint64_t{high} << 32) | low; }

// Moves a filter to the heap and writes its handle to `outHandle`.
int adopt(CuckooFilter&& filter, Address outHandle) {
  auto* owned = new (std::nothrow) CuckooFilter(std::move(filter));
  if (owned == nullptr) return static_cast<int>(Status::kOutOfMemory);
  const auto handle = static_cast<std::uint32_t>(reinterpret_cast<Handle>(owned));
  std::memcpy(reinterpret_cast<void*>(outHandle), &handle, sizeof handle);
  return static_cast<int>(Status::kOk);
}

int createFilter(unsigned fingerprintBits, unsigned bucketSize, double bucketCount, unsigned maxKicks,
                 std::uint32_t seedLow, std::uint32_t seedHigh, bool semiSort, Address outHandle) {
  cuckoo::FilterParams params;
  params.semiSort = semiSort;
  params.fingerprintBits = fingerprintBits;
  params.bucketSize = bucketSize;
  // The TypeScript layer passes an integer; anything outside [0, 2^33) is
  // clamped to 0 so that the conversion is defined and the core rejects it.
  params.bucketCount = bucketCount >= 0 && bucketCount < 8589934592.0 ? static_cast<std::uint64_t>(bucketCount) : 0;
  params.maxKicks = maxKicks;
  params.seed = joinSeed(seedLow, seedHigh);
  CuckooFilter filter;
  const Status status = CuckooFilter::create(params, filter);
  return status == Status::kOk ? adopt(std::move(filter), outHandle) : static_cast<int>(status);
}

int createFilterForCapacity(double capacity, double falsePositiveRate, unsigned maxKicks, std::uint32_t seedLow,
                            std::uint32_t seedHigh, bool semiSort, Address outHandle) {
  cuckoo::FilterParams params;
  params.semiSort = semiSort;
  params.maxKicks = maxKicks;
  params.seed = joinSeed(seedLow, seedHigh);
  const auto items = capacity >= 1 && capacity < 1.8e19 ? static_cast<std::uint64_t>(capacity) : 0;
  Status status = cuckoo::paramsForCapacity(items, falsePositiveRate, params);
  if (status != Status::kOk) return static_cast<int>(status);
  CuckooFilter filter;
  status = CuckooFilter::create(params, filter);
  return status == Status::kOk ? adopt(std::move(filter), outHandle) : static_cast<int>(status);
}

int cloneFilter(Handle handle, Address outHandle) {
  CuckooFilter copy;
  const Status status = filterAt(handle).cloneTo(copy);
  return status == Status::kOk ? adopt(std::move(copy), outHandle) : static_cast<int>(status);
}

void destroyFilter(Handle handle) { delete reinterpret_cast<CuckooFilter*>(handle); }

bool insertItem(Handle h, Address item, std::size_t length) { return filterAt(h).insert(bytesAt(item), length); }
int insertUniqueItem(Handle h, Address item, std::size_t length) {
  return static_cast<int>(filterAt(h).insertUnique(bytesAt(item), length));
}
bool containsItem(Handle h, Address item, std::size_t length) { return filterAt(h).contains(bytesAt(item), length); }
bool eraseItem(Handle h, Address item, std::size_t length) { return filterAt(h).erase(bytesAt(item), length); }
unsigned countItem(Handle h, Address item, std::size_t length) { return filterAt(h).count(bytesAt(item), length); }
void clearFilter(Handle h) { filterAt(h).clear(); }

// Batches. Variable-length items are packed back to back in `data`, item k
// spanning [offsets[k], offsets[k+1]); fixed-width items (8-byte integers)
// are `width` bytes each. Both read only memory the caller filled.
const std::uint32_t* offsetsAt(Address offsets) { return reinterpret_cast<const std::uint32_t*>(offsets); }

unsigned insertPacked(Handle h, Address data, Address offsets, unsigned count) {
  const std::uint32_t* bounds = offsetsAt(offsets);
  for (unsigned k = 0; k < count; ++k) {
    if (!filterAt(h).insert(bytesAt(data) + bounds[k], bounds[k + 1] - bounds[k])) return k;
  }
  return count;
}
void containsPacked(Handle h, Address data, Address offsets, unsigned count, Address out) {
  const std::uint32_t* bounds = offsetsAt(offsets);
  auto* answers = reinterpret_cast<unsigned char*>(out);
  for (unsigned k = 0; k < count; ++k) {
    answers[k] = filterAt(h).contains(bytesAt(data) + bounds[k], bounds[k + 1] - bounds[k]) ? 1 : 0;
  }
}
unsigned erasePacked(Handle h, Address data, Address offsets, unsigned count) {
  const std::uint32_t* bounds = offsetsAt(offsets);
  unsigned erased = 0;
  for (unsigned k = 0; k < count; ++k) erased += filterAt(h).erase(bytesAt(data) + bounds[k], bounds[k + 1] - bounds[k]);
  return erased;
}

unsigned insertFixed(Handle h, Address data, unsigned width, unsigned count) {
  for (unsigned k = 0; k < count; ++k) {
    if (!filterAt(h).insert(bytesAt(data) + std::size_t{k} * width, width)) return k;
  }
  return count;
}
void containsFixed(Handle h, Address data, unsigned width, unsigned count, Address out) {
  auto* answers = reinterpret_cast<unsigned char*>(out);
  for (unsigned k = 0; k < count; ++k) answers[k] = filterAt(h).contains(bytesAt(data) + std::size_t{k} * width, width);
}
unsigned eraseFixed(Handle h, Address data, unsigned width, unsigned count) {
  unsigned erased = 0;
  for (unsigned k = 0; k < count; ++k) erased += filterAt(h).erase(bytesAt(data) + std::size_t{k} * width, width);
  return erased;
}

// Stats and parameters as doubles at `out`, in the order of the FilterInfo
// layout in ts/src/raw.ts (keep both in step).
void describeFilter(Handle h, Address out) {
  const CuckooFilter& filter = filterAt(h);
  const cuckoo::FilterStats s = filter.stats();
  const cuckoo::FilterParams& p = filter.params();
  const double fields[] = {
      static_cast<double>(s.itemCount),
      static_cast<double>(s.slotCount),
      s.loadFactor,
      static_cast<double>(s.sizeInBytes),
      s.bitsPerItem,
      s.expectedFalsePositiveRate,
      s.falsePositiveBound,
      static_cast<double>(p.fingerprintBits),
      static_cast<double>(p.bucketSize),
      static_cast<double>(p.bucketCount),
      static_cast<double>(p.maxKicks),
      static_cast<double>(static_cast<std::uint32_t>(p.seed)),
      static_cast<double>(static_cast<std::uint32_t>(p.seed >> 32)),
      filter.isFull() ? 1.0 : 0.0,
      p.semiSort ? 1.0 : 0.0,
  };
  std::memcpy(reinterpret_cast<void*>(out), fields, sizeof fields);
}

double serializedSize(Handle h) { return static_cast<double>(filterAt(h).serializedSize()); }
void serializeFilter(Handle h, Address out) { filterAt(h).serialize(reinterpret_cast<unsigned char*>(out)); }
int deserializeFilter(Address data, std::size_t length, Address outHandle) {
  CuckooFilter filter;
  const Status status = CuckooFilter::deserialize(bytesAt(data), length, filter);
  return status == Status::kOk ? adopt(std::move(filter), outHandle) : static_cast<int>(status);
}

// The header checks alone, on the first bytes of an input of `totalLength`
// bytes, so that the caller copies a large input into wasm memory only when
// its header holds up. Lengths beyond size_t are clamped (and then refused).
int checkSerializedHeader(Address header, double totalLength) {
  const std::size_t length =
      totalLength >= 0 && totalLength < 4294967295.0 ? static_cast<std::size_t>(totalLength) : ~std::size_t{0};
  return static_cast<int>(CuckooFilter::checkSerializedHeader(bytesAt(header), length));
}

std::string statusText(int status) { return cuckoo::statusMessage(static_cast<Status>(status)); }

}  // namespace

EMSCRIPTEN_BINDINGS(cuckoo_wasm) {
  using emscripten::function;
  function("createFilter", &createFilter);
  function("createFilterForCapacity", &createFilterForCapacity);
  function("cloneFilter", &cloneFilter);
  function("destroyFilter", &destroyFilter);
  function("insertItem", &insertItem);
  function("insertUniqueItem", &insertUniqueItem);
  function("containsItem", &containsItem);
  function("eraseItem", &eraseItem);
  function("countItem", &countItem);
  function("clearFilter", &clearFilter);
  function("insertPacked", &insertPacked);
  function("containsPacked", &containsPacked);
  function("erasePacked", &erasePacked);
  function("insertFixed", &insertFixed);
  function("containsFixed", &containsFixed);
  function("eraseFixed", &eraseFixed);
  function("describeFilter", &describeFilter);
  function("serializedSize", &serializedSize);
  function("serializeFilter", &serializeFilter);
  function("deserializeFilter", &deserializeFilter);
  function("checkSerializedHeader", &checkSerializedHeader);
  function("statusText", &statusText);
}
