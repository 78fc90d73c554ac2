// The embind glue between the core's ScalableCuckooFilter and
// ts/src/scalable.ts: creation, statistics and clearing here, the item
// operations from item_calls.hpp (the same as CuckooFilter's).

#include <emscripten/bind.h>

#include <cstdint>

#include "cuckoo/scalable_filter.hpp"
#include "glue.hpp"
#include "item_calls.hpp"

namespace {

using cuckoo::ScalableCuckooFilter;
using glue::Address;
using glue::Handle;
using glue::wholeNumber;

ScalableCuckooFilter& scalableAt(Handle handle) { return glue::filterAt<ScalableCuckooFilter>(handle); }

// `initialCapacity` is a whole number (the TypeScript layer checks it).
int createScalable(double initialCapacity, double falsePositiveRate, double growth, double maxKicks,
                   std::uint32_t seedLow, std::uint32_t seedHigh, bool semiSort, Address outHandle) {
  cuckoo::ScalableParams params;
  params.initialCapacity = wholeNumber<std::uint64_t>(initialCapacity);
  params.falsePositiveRate = falsePositiveRate;
  params.growth = growth;
  params.maxKicks = wholeNumber<std::uint32_t>(maxKicks);
  params.seed = glue::joinSeed(seedLow, seedHigh);
  params.semiSort = semiSort;
  ScalableCuckooFilter filter;
  return glue::adoptIfOk(ScalableCuckooFilter::create(params, filter), std::move(filter), outHandle);
}

int clearScalable(Handle h) { return static_cast<int>(scalableAt(h).clear()); }

// The filter's parameters, shape and statistics, as one JavaScript object.
struct ScalableInfo {
  double itemCount;
  double entryCount;
  double slotCount;
  double loadFactor;
  double byteLength;
  double bitsPerItem;
  double fprBound;
  double bucketCount;
  unsigned fingerprintBits;
  unsigned tailBits;
  unsigned rounds;
  double initialCapacity;
  double fpr;
  double growth;
  unsigned maxKicks;
  std::uint32_t seedLow;
  std::uint32_t seedHigh;
  bool semiSort;
  bool full;
};

ScalableInfo describeScalable(Handle h) {
  const ScalableCuckooFilter& filter = scalableAt(h);
  const cuckoo::ScalableStats s = filter.stats();
  const cuckoo::ScalableParams& p = filter.params();
  const cuckoo::ScalableShape& shape = filter.shape();
  return ScalableInfo{static_cast<double>(s.itemCount),
                      static_cast<double>(s.entryCount),
                      static_cast<double>(s.slotCount),
                      s.loadFactor,
                      static_cast<double>(s.sizeInBytes),
                      s.bitsPerItem,
                      s.falsePositiveBound,
                      static_cast<double>(shape.bucketCount()),
                      shape.fixedBits,
                      shape.tailBits,
                      shape.level - shape.initialLevel,
                      static_cast<double>(p.initialCapacity),
                      p.falsePositiveRate,
                      p.growth,
                      p.maxKicks,
                      static_cast<std::uint32_t>(p.seed),
                      static_cast<std::uint32_t>(p.seed >> 32),
                      p.semiSort,
                      filter.isFull()};
}

}  // namespace

EMSCRIPTEN_BINDINGS(scalable_wasm) {
  using emscripten::function;
  emscripten::value_object<ScalableInfo>("ScalableInfo")
      .field("itemCount", &ScalableInfo::itemCount)
      .field("entryCount", &ScalableInfo::entryCount)
      .field("slotCount", &ScalableInfo::slotCount)
      .field("loadFactor", &ScalableInfo::loadFactor)
      .field("byteLength", &ScalableInfo::byteLength)
      .field("bitsPerItem", &ScalableInfo::bitsPerItem)
      .field("fprBound", &ScalableInfo::fprBound)
      .field("bucketCount", &ScalableInfo::bucketCount)
      .field("fingerprintBits", &ScalableInfo::fingerprintBits)
      .field("tailBits", &ScalableInfo::tailBits)
      .field("rounds", &ScalableInfo::rounds)
      .field("initialCapacity", &ScalableInfo::initialCapacity)
      .field("fpr", &ScalableInfo::fpr)
      .field("growth", &ScalableInfo::growth)
      .field("maxKicks", &ScalableInfo::maxKicks)
      .field("seedLow", &ScalableInfo::seedLow)
      .field("seedHigh", &ScalableInfo::seedHigh)
      .field("semiSort", &ScalableInfo::semiSort)
      .field("full", &ScalableInfo::full);
  function("createScalable", &createScalable);
  function("clearScalable", &clearScalable);
  function("describeScalable", &describeScalable);
  glue::bindItemCalls<ScalableCuckooFilter>("scalable");
}
