// The embind glue of cuckoo-wasm/inspect's traces (ts/src/inspect-traces.ts):
// where an item lives, and traces of insert, lookup and delete, so that the
// teaching demo shows the core's own steps and never recomputes them.
//
// As in glue.hpp: filters cross as integer handles and items as (pointer,
// length) into wasm memory the caller filled. Results are JavaScript objects
// (value objects), so that no layout is kept in step by hand. Nothing here
// throws or aborts. Reads of the table are in inspect_table_bindings.cpp, the
// growable filter's in inspect_scalable_bindings.cpp.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>

#include "cuckoo/cuckoo_filter.hpp"
#include "glue.hpp"
#include "inspect_walk.hpp"

namespace {

using namespace inspect;  // this file's own vocabulary (inspect_walk.hpp)
using glue::Address;
using glue::bytesAt;

Location locateItem(Handle h, Address item, std::size_t length) {
  const CuckooFilter& filter = readFilter(h);
  return locationOf(filter, bytesAt(item), length, filter.locate(bytesAt(item), length));
}

struct InsertTrace {
  Location location{};
  bool added = false;
  Walk walk;
};

InsertTrace traceInsert(Handle h, Address item, std::size_t length, unsigned kickCapacity) {
  CuckooFilter& filter = filterAt(h);
  const cuckoo::ItemLocation where = filter.locate(bytesAt(item), length);
  InsertTrace trace;
  trace.location = locationOf(filter, bytesAt(item), length, where);
  WalkRecorder recorder(filter, kickCapacity, where, trace.walk);
  trace.added = filter.insertObserved(bytesAt(item), length, recorder);
  return trace;
}

// Copies of a fingerprint in the item's two buckets, counted as the core's
// count() does (one bucket once when both candidates are the same bucket).
unsigned bucketCopies(std::uint32_t primaryMatches, std::uint32_t alternateMatches, const cuckoo::ItemLocation& where) {
  return popcount(primaryMatches) + (where.alternateBucket != where.primaryBucket ? popcount(alternateMatches) : 0);
}

struct LookupTrace {
  Location location;
  bool found;                      // the core's contains()
  std::uint32_t slotsInI1;         // matching slots of i1, as a bit set
  std::uint32_t slotsInI2;         // matching slots of i2, as a bit set
  std::uint32_t copiesInStash;     // the core's count() less the copies in the buckets
};

LookupTrace traceLookup(Handle h, Address item, std::size_t length) {
  const CuckooFilter& filter = readFilter(h);
  const cuckoo::ItemLocation where = filter.locate(bytesAt(item), length);
  const std::uint32_t primaryMatches = slotsHolding(filter, where.primaryBucket, where.fingerprint);
  const std::uint32_t alternateMatches = slotsHolding(filter, where.alternateBucket, where.fingerprint);
  return LookupTrace{locationOf(filter, bytesAt(item), length, where), filter.contains(bytesAt(item), length), primaryMatches,
                     alternateMatches,
                     filter.count(bytesAt(item), length) - bucketCopies(primaryMatches, alternateMatches, where)};
}

// Where a deleted copy came from.
enum class DeleteSource : std::uint32_t { kNowhere = 0, kBucket = 1, kStash = 2 };

struct DeleteTrace {
  Location location;
  bool deleted = false;
  DeleteSource from = DeleteSource::kNowhere;
  std::uint32_t bucket = 0;  // the bucket and slot the copy left (kNoSlot when from the stash or nowhere)
  std::uint32_t slot = kNoSlot;
  // When the stash was occupied and the delete freed a slot: the walk of the
  // stashed fingerprint, which the core then re-placed (end kNone otherwise).
  Walk stashWalk;
};

// The core names no slot: the erased copy is found from the item's buckets
// before the erase and the rule by which erase picks it.
DeleteTrace traceErase(Handle h, Address item, std::size_t length, unsigned kickCapacity) {
  CuckooFilter& filter = filterAt(h);
  const cuckoo::ItemLocation where = filter.locate(bytesAt(item), length);
  DeleteTrace trace;
  trace.location = locationOf(filter, bytesAt(item), length, where);
  const std::uint32_t primaryBefore = slotsHolding(filter, where.primaryBucket, where.fingerprint);
  const std::uint32_t alternateBefore = slotsHolding(filter, where.alternateBucket, where.fingerprint);
  const cuckoo::Stash stash = filter.stash();
  const cuckoo::ItemLocation stashed{stash.fingerprint, stash.bucket,
                                     stash.occupied ? filter.bucketIndex().alternate(stash.bucket, stash.fingerprint) : 0};
  WalkRecorder recorder(filter, kickCapacity, stashed, trace.stashWalk);
  trace.deleted = filter.eraseObserved(bytesAt(item), length, recorder);
  if (!trace.deleted) return trace;
  if (stash.occupied && trace.stashWalk.end == WalkEnd::kNone) {
    trace.from = DeleteSource::kStash;  // the erase took the stashed copy: no walk
    return trace;
  }
  // A copy left one of the item's buckets: the core's erase empties the first
  // slot holding the fingerprint in i1, else in i2 (removeOne, buckets.hpp).
  // Named from the buckets before, as the stash's walk may refill the slot.
  trace.from = DeleteSource::kBucket;
  const bool fromPrimary = primaryBefore != 0;
  trace.bucket = fromPrimary ? where.primaryBucket : where.alternateBucket;
  trace.slot = static_cast<std::uint32_t>(__builtin_ctz(fromPrimary ? primaryBefore : alternateBefore));
  return trace;
}

}  // namespace

EMSCRIPTEN_BINDINGS(cuckoo_inspect) {
  using emscripten::enum_;
  using emscripten::function;
  using emscripten::value_object;
  value_object<Location>("Location")
      .field("hashLow", &Location::hashLow)
      .field("hashHigh", &Location::hashHigh)
      .field("fingerprint", &Location::fingerprint)
      .field("i1", &Location::i1)
      .field("i2", &Location::i2)
      .field("fingerprintHash", &Location::fingerprintHash)
      .field("fingerprintHashMod", &Location::fingerprintHashMod)
      .field("hashId", &Location::hashId);
  value_object<Kick>("Kick")
      .field("bucket", &Kick::bucket)
      .field("slot", &Kick::slot)
      .field("incoming", &Kick::incoming)
      .field("evicted", &Kick::evicted)
      .field("nextBucket", &Kick::nextBucket)
      .field("evictedHashMod", &Kick::evictedHashMod);
  enum_<WalkEnd>("WalkEnd")
      .value("none", WalkEnd::kNone)
      .value("placed", WalkEnd::kPlaced)
      .value("stashed", WalkEnd::kStashed)
      .value("undone", WalkEnd::kUndone);
  value_object<Walk>("Walk")
      .field("kickCount", &Walk::kickCount)
      .field("kicks", &Walk::kicks)
      .field("end", &Walk::end)
      .field("endBucket", &Walk::endBucket)
      .field("endSlot", &Walk::endSlot)
      .field("endFingerprint", &Walk::endFingerprint);
  value_object<InsertTrace>("InsertTrace")
      .field("location", &InsertTrace::location)
      .field("added", &InsertTrace::added)
      .field("walk", &InsertTrace::walk);
  value_object<LookupTrace>("LookupTrace")
      .field("location", &LookupTrace::location)
      .field("found", &LookupTrace::found)
      .field("slotsInI1", &LookupTrace::slotsInI1)
      .field("slotsInI2", &LookupTrace::slotsInI2)
      .field("copiesInStash", &LookupTrace::copiesInStash);
  enum_<DeleteSource>("DeleteSource")
      .value("nowhere", DeleteSource::kNowhere)
      .value("bucket", DeleteSource::kBucket)
      .value("stash", DeleteSource::kStash);
  value_object<DeleteTrace>("DeleteTrace")
      .field("location", &DeleteTrace::location)
      .field("deleted", &DeleteTrace::deleted)
      .field("from", &DeleteTrace::from)
      .field("bucket", &DeleteTrace::bucket)
      .field("slot", &DeleteTrace::slot)
      .field("stashWalk", &DeleteTrace::stashWalk);
  emscripten::constant("noSlot", kNoSlot);
  function("inspectLocate", &locateItem);
  function("inspectTraceInsert", &traceInsert);
  function("inspectTraceLookup", &traceLookup);
  function("inspectTraceErase", &traceErase);
}
