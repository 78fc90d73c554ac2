// The embind glue between the core's CuckooFilter and ts/src/filter.ts:
// nothing but argument plumbing (glue.hpp). Fallible calls return a
// cuckoo::Status value and write a new filter's handle to `outHandle`. No
// function here throws or aborts: the TypeScript layer turns statuses into
// typed errors.

#include <emscripten/bind.h>

#include <cstdint>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/item_batch.hpp"
#include "cuckoo/sizing.hpp"
#include "glue.hpp"

namespace {

using cuckoo::CuckooFilter;
using cuckoo::Status;
using glue::Address;
using glue::bytesAt;
using glue::Handle;
using glue::wholeNumber;

CuckooFilter& filterAt(Handle handle) { return glue::objectAt<CuckooFilter>(handle); }

int createFilter(double fingerprintBits, double bucketSize, double bucketCount, double maxKicks,
                 std::uint32_t seedLow, std::uint32_t seedHigh, bool semiSort, Address outHandle) {
  cuckoo::FilterParams params;
  params.semiSort = semiSort;
  params.fingerprintBits = wholeNumber<unsigned>(fingerprintBits);
  params.bucketSize = wholeNumber<unsigned>(bucketSize);
  params.bucketCount = wholeNumber<std::uint64_t>(bucketCount);
  params.maxKicks = wholeNumber<std::uint32_t>(maxKicks);
  params.seed = glue::joinSeed(seedLow, seedHigh);
  CuckooFilter filter;
  return glue::adoptIfOk(CuckooFilter::create(params, filter), std::move(filter), outHandle);
}

// `capacity` is a safe integer (the TypeScript layer checks it).
int createFilterForCapacity(double capacity, double falsePositiveRate, double maxKicks, std::uint32_t seedLow,
                            std::uint32_t seedHigh, bool semiSort, Address outHandle) {
  cuckoo::FilterParams params;
  params.semiSort = semiSort;
  params.maxKicks = wholeNumber<std::uint32_t>(maxKicks);
  params.seed = glue::joinSeed(seedLow, seedHigh);
  Status status = cuckoo::paramsForCapacity(wholeNumber<std::uint64_t>(capacity), falsePositiveRate, params);
  if (status != Status::kOk) return static_cast<int>(status);
  CuckooFilter filter;
  return glue::adoptIfOk(CuckooFilter::create(params, filter), std::move(filter), outHandle);
}

int cloneFilter(Handle handle, Address outHandle) {
  CuckooFilter copy;
  return glue::adoptIfOk(filterAt(handle).cloneTo(copy), std::move(copy), outHandle);
}

void destroyFilter(Handle handle) { delete &filterAt(handle); }

bool insertItem(Handle h, Address item, std::size_t length) { return filterAt(h).insert(bytesAt(item), length); }
// True only when the item was added (not already present, not full).
bool insertUniqueItem(Handle h, Address item, std::size_t length) {
  return filterAt(h).insertUnique(bytesAt(item), length) == cuckoo::InsertOutcome::kInserted;
}
bool containsItem(Handle h, Address item, std::size_t length) { return filterAt(h).contains(bytesAt(item), length); }
bool eraseItem(Handle h, Address item, std::size_t length) { return filterAt(h).erase(bytesAt(item), length); }
unsigned countItem(Handle h, Address item, std::size_t length) { return filterAt(h).count(bytesAt(item), length); }
void clearFilter(Handle h) { filterAt(h).clear(); }

// Batches, in the layouts of glue.hpp, handed to the core's batch kernels
// whole. Inserts stop at the first item that does not fit and return how
// many were stored.
cuckoo::ItemBatch packedBatch(Address data, Address offsets, unsigned count) {
  return cuckoo::ItemBatch::packed(bytesAt(data), glue::wordsAt(offsets), count);
}
cuckoo::ItemBatch fixedBatch(Address data, unsigned width, unsigned count) {
  return cuckoo::ItemBatch::fixed(bytesAt(data), width, count);
}
unsigned char* answersAt(Address out) { return reinterpret_cast<unsigned char*>(out); }

unsigned insertPacked(Handle h, Address data, Address offsets, unsigned count) {
  return static_cast<unsigned>(filterAt(h).insertMany(packedBatch(data, offsets, count)));
}
void containsPacked(Handle h, Address data, Address offsets, unsigned count, Address out) {
  filterAt(h).containsMany(packedBatch(data, offsets, count), answersAt(out));
}
unsigned erasePacked(Handle h, Address data, Address offsets, unsigned count) {
  return static_cast<unsigned>(filterAt(h).eraseMany(packedBatch(data, offsets, count)));
}
unsigned insertFixed(Handle h, Address data, unsigned width, unsigned count) {
  return static_cast<unsigned>(filterAt(h).insertMany(fixedBatch(data, width, count)));
}
void containsFixed(Handle h, Address data, unsigned width, unsigned count, Address out) {
  filterAt(h).containsMany(fixedBatch(data, width, count), answersAt(out));
}
unsigned eraseFixed(Handle h, Address data, unsigned width, unsigned count) {
  return static_cast<unsigned>(filterAt(h).eraseMany(fixedBatch(data, width, count)));
}

// A filter's parameters and statistics, as one JavaScript object.
struct FilterInfo {
  double itemCount;
  double slotCount;
  double loadFactor;
  double byteLength;
  double bitsPerItem;
  double expectedFpr;
  double fprBound;
  unsigned fingerprintBits;
  unsigned bucketSize;
  double bucketCount;
  unsigned maxKicks;
  std::uint32_t seedLow;
  std::uint32_t seedHigh;
  bool full;
  bool semiSort;
};

FilterInfo describeFilter(Handle h) {
  const CuckooFilter& filter = filterAt(h);
  const cuckoo::FilterStats s = filter.stats();
  const cuckoo::FilterParams& p = filter.params();
  return FilterInfo{static_cast<double>(s.itemCount),
                    static_cast<double>(s.slotCount),
                    s.loadFactor,
                    static_cast<double>(s.sizeInBytes),
                    s.bitsPerItem,
                    s.expectedFalsePositiveRate,
                    s.falsePositiveBound,
                    p.fingerprintBits,
                    p.bucketSize,
                    static_cast<double>(p.bucketCount),
                    p.maxKicks,
                    static_cast<std::uint32_t>(p.seed),
                    static_cast<std::uint32_t>(p.seed >> 32),
                    filter.isFull(),
                    p.semiSort};
}

double serializedSize(Handle h) { return static_cast<double>(filterAt(h).serializedSize()); }
void serializeFilter(Handle h, Address out) { filterAt(h).serialize(reinterpret_cast<unsigned char*>(out)); }
int deserializeFilter(Address data, std::size_t length, Address outHandle) {
  CuckooFilter filter;
  return glue::adoptIfOk(CuckooFilter::deserialize(bytesAt(data), length, filter), std::move(filter), outHandle);
}

// The header checks alone, on the first bytes of an input of `totalLength`
// bytes, so that the caller copies a large input into wasm memory only when
// its header holds up. Lengths beyond size_t are clamped (and then refused).
int checkSerializedHeader(Address header, double totalLength) {
  const std::size_t length =
      totalLength >= 0 && totalLength < 4294967295.0 ? static_cast<std::size_t>(totalLength) : ~std::size_t{0};
  return static_cast<int>(CuckooFilter::checkSerializedHeader(bytesAt(header), length));
}

}  // namespace

EMSCRIPTEN_BINDINGS(cuckoo_wasm) {
  using emscripten::function;
  emscripten::value_object<FilterInfo>("FilterInfo")
      .field("itemCount", &FilterInfo::itemCount)
      .field("slotCount", &FilterInfo::slotCount)
      .field("loadFactor", &FilterInfo::loadFactor)
      .field("byteLength", &FilterInfo::byteLength)
      .field("bitsPerItem", &FilterInfo::bitsPerItem)
      .field("expectedFpr", &FilterInfo::expectedFpr)
      .field("fprBound", &FilterInfo::fprBound)
      .field("fingerprintBits", &FilterInfo::fingerprintBits)
      .field("bucketSize", &FilterInfo::bucketSize)
      .field("bucketCount", &FilterInfo::bucketCount)
      .field("maxKicks", &FilterInfo::maxKicks)
      .field("seedLow", &FilterInfo::seedLow)
      .field("seedHigh", &FilterInfo::seedHigh)
      .field("full", &FilterInfo::full)
      .field("semiSort", &FilterInfo::semiSort);
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
}
