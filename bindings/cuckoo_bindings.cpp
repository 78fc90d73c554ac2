// The embind glue between the core's CuckooFilter and ts/src/filter.ts:
// nothing but argument plumbing (glue.hpp; the item operations, shared with
// the growable filter, in item_calls.hpp). Fallible calls return a
// cuckoo::Status value and write a new filter's handle to `outHandle`. No
// function here throws or aborts: the TypeScript layer turns statuses into
// typed errors.

#include <emscripten/bind.h>

#include <cstdint>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/item_batch.hpp"
#include "cuckoo/sizing.hpp"
#include "glue.hpp"
#include "item_calls.hpp"

namespace {

using cuckoo::CuckooFilter;
using cuckoo::Status;
using glue::Address;
using glue::bytesAt;
using glue::Handle;
using glue::wholeNumber;

CuckooFilter& filterAt(Handle handle) { return glue::filterAt<CuckooFilter>(handle); }

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

void clearFilter(Handle h) { filterAt(h).clear(); }

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
  glue::bindItemCalls<CuckooFilter>("cuckoo");
  function("clearFilter", &clearFilter);
  function("describeFilter", &describeFilter);
  function("checkSerializedHeader", &checkSerializedHeader);
}
