// The embind glue of the growable filter's part of cuckoo-wasm/inspect
// (ts/src/inspect-scalable.ts, inspect-growth.ts): its linear-hashing shape,
// copies of its slot values, and an add traced split by split, so that the
// demo's growth mode shows the core's own splits and derives none. Handles
// and addresses as in glue.hpp; nothing here throws.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>

#include "cuckoo/scalable_filter.hpp"
#include "glue.hpp"

namespace {

using glue::Address;
using glue::Handle;

// A growable filter's table: the parts of its linear-hashing shape that the
// plain getters (scalable_exports.cpp) do not give, the entries it stores
// (what only inspection shows, so the lean module has no export of it), and
// copies of its slot values (fingerprint << T | tail), so that the demo can
// show splits.
struct ScalableShapeInfo {
  unsigned level;
  double splitBucket;
  unsigned initialLevel;
  unsigned stashCount;
  double entryCount;
};

ScalableShapeInfo scalableShapeOf(Handle h) {
  const auto& filter = glue::objectAt<const cuckoo::ScalableCuckooFilter>(h);
  const cuckoo::ScalableShape& shape = filter.shape();
  return ScalableShapeInfo{shape.level, static_cast<double>(shape.splitBucket), shape.initialLevel, filter.stashCount(),
                           static_cast<double>(filter.stats().entryCount)};
}

// The TypeScript layer checks the range.
void readScalableSlots(Handle h, double first, double count, Address out) {
  const auto& filter = glue::objectAt<const cuckoo::ScalableCuckooFilter>(h);
  std::uint32_t* words = glue::wordsAt(out);
  const auto end = static_cast<std::uint64_t>(first + count);
  for (auto bucket = static_cast<std::uint64_t>(first); bucket < end; ++bucket) {
    for (unsigned s = 0; s < cuckoo::kScalableBucketSize; ++s) *words++ = filter.slotValue(bucket, s);
  }
}

using emscripten::val;
using Route = cuckoo::GrowthObserver::Route;

// One entry of a split, and the split: values as the table stores them.
struct SplitMove {
  std::uint32_t before;
  std::uint32_t after;
  Route route;
  int lowSlot;
  int highSlot;
  bool held;
};

struct GrowthStep {
  double fromBuckets = 0;
  double toBuckets = 0;
  unsigned held = 0;           // entries waiting outside the table that the growth carried
  unsigned stillHeld = 0;      // of them, the ones the grown table could not take back
  val splits = val::array();  // { bucket, sibling, level, moves: SplitMove[] }
};

struct GrowthTrace {
  bool added = false;
  val growths = val::array();  // GrowthStep[]
};

// Builds the trace's JavaScript objects as the core reports each event.
class GrowthRecorder final : public cuckoo::GrowthObserver {
 public:
  explicit GrowthRecorder(val& growths) : growths_(growths) {}

  void onGrowth(std::uint64_t fromBuckets, std::uint64_t toBuckets, unsigned held) override {
    growth_ = GrowthStep{static_cast<double>(fromBuckets), static_cast<double>(toBuckets), held, 0, val::array()};
  }
  void onSplit(std::uint64_t bucket, std::uint64_t sibling, unsigned level) override {
    split_ = val::object();
    split_.set("bucket", static_cast<double>(bucket));
    split_.set("sibling", static_cast<double>(sibling));
    split_.set("level", level);
    split_.set("moves", val::array());
    growth_.splits.call<void>("push", split_);
  }
  void onSplitEntry(const EntryMove& move) override {
    split_["moves"].call<void>("push", SplitMove{move.before, move.after, move.route, move.lowSlot, move.highSlot, move.held});
  }
  void onGrown(unsigned stillHeld) override {
    growth_.stillHeld = stillHeld;
    growths_.call<void>("push", growth_);
  }

 private:
  val& growths_;
  GrowthStep growth_;
  val split_ = val::object();
};

GrowthTrace traceGrowingInsert(Handle h, Address item, std::size_t length) {
  auto& filter = glue::objectAt<cuckoo::ScalableCuckooFilter>(h);
  GrowthTrace trace{false, val::array()};
  GrowthRecorder recorder(trace.growths);
  trace.added = filter.insertObserved(glue::bytesAt(item), length, recorder);
  return trace;
}

}  // namespace

EMSCRIPTEN_BINDINGS(cuckoo_inspect_scalable) {
  using emscripten::enum_;
  using emscripten::function;
  using emscripten::value_object;
  value_object<ScalableShapeInfo>("ScalableShapeInfo")
      .field("level", &ScalableShapeInfo::level)
      .field("splitBucket", &ScalableShapeInfo::splitBucket)
      .field("initialLevel", &ScalableShapeInfo::initialLevel)
      .field("stashCount", &ScalableShapeInfo::stashCount)
      .field("entryCount", &ScalableShapeInfo::entryCount);
  enum_<Route>("SplitRoute")
      .value("stays", Route::kStays)
      .value("moves", Route::kMoves)
      .value("copied", Route::kCopied);
  value_object<SplitMove>("SplitMove")
      .field("before", &SplitMove::before)
      .field("after", &SplitMove::after)
      .field("route", &SplitMove::route)
      .field("lowSlot", &SplitMove::lowSlot)
      .field("highSlot", &SplitMove::highSlot)
      .field("held", &SplitMove::held);
  value_object<GrowthStep>("GrowthStep")
      .field("fromBuckets", &GrowthStep::fromBuckets)
      .field("toBuckets", &GrowthStep::toBuckets)
      .field("held", &GrowthStep::held)
      .field("stillHeld", &GrowthStep::stillHeld)
      .field("splits", &GrowthStep::splits);
  value_object<GrowthTrace>("GrowthTrace")
      .field("added", &GrowthTrace::added)
      .field("growths", &GrowthTrace::growths);
  // The core's rules the growth mode draws by (scalable_sizing.hpp).
  emscripten::constant("scalableMaxLoad", cuckoo::kScalableMaxLoad);
  emscripten::constant("scalableBucketSize", cuckoo::kScalableBucketSize);
  function("inspectScalableShape", &scalableShapeOf);
  function("inspectTraceGrowingInsert", &traceGrowingInsert);
  function("inspectReadScalableSlots", &readScalableSlots);
}
