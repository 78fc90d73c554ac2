// The embind glue of the growable filter's part of cuckoo-wasm/inspect
// (ts/src/inspect-scalable.ts): its linear-hashing shape and copies of its
// slot values, read-only, so that the demo's growth mode shows the core's
// own splits. Handles and addresses as in glue.hpp; nothing here throws.

#include <emscripten/bind.h>

#include <cstdint>

#include "cuckoo/scalable_filter.hpp"
#include "glue.hpp"

namespace {

using glue::Address;
using glue::Handle;

// A growable filter's table: the parts of its linear-hashing shape that
// describeScalable (scalable_bindings.cpp) does not give, and copies of its
// slot values (fingerprint << T | tail), so that the demo can show splits.
struct ScalableShapeInfo {
  unsigned level;
  double splitBucket;
  unsigned initialLevel;
  unsigned stashCount;
};

ScalableShapeInfo scalableShapeOf(Handle h) {
  const auto& filter = glue::objectAt<const cuckoo::ScalableCuckooFilter>(h);
  const cuckoo::ScalableShape& shape = filter.shape();
  return ScalableShapeInfo{shape.level, static_cast<double>(shape.splitBucket), shape.initialLevel, filter.stashCount()};
}

// Growable tables have 4 slots per bucket (ScalableStats::slotCount).
constexpr unsigned kScalableBucketSize = 4;

// The TypeScript layer checks the range.
void readScalableSlots(Handle h, double first, double count, Address out) {
  const auto& filter = glue::objectAt<const cuckoo::ScalableCuckooFilter>(h);
  std::uint32_t* words = glue::wordsAt(out);
  const auto end = static_cast<std::uint64_t>(first + count);
  for (auto bucket = static_cast<std::uint64_t>(first); bucket < end; ++bucket) {
    for (unsigned s = 0; s < kScalableBucketSize; ++s) *words++ = filter.slotValue(bucket, s);
  }
}

}  // namespace

EMSCRIPTEN_BINDINGS(cuckoo_inspect_scalable) {
  using emscripten::function;
  using emscripten::value_object;
  value_object<ScalableShapeInfo>("ScalableShapeInfo")
      .field("level", &ScalableShapeInfo::level)
      .field("splitBucket", &ScalableShapeInfo::splitBucket)
      .field("initialLevel", &ScalableShapeInfo::initialLevel)
      .field("stashCount", &ScalableShapeInfo::stashCount);
  function("inspectScalableShape", &scalableShapeOf);
  function("inspectReadScalableSlots", &readScalableSlots);
}
