// The embind glue of the inspection entry, cuckoo-wasm/inspect
// (ts/src/inspect.ts): where an item lives, traces of insert, lookup and
// delete, and read-only copies of the table and the stash, so that the
// teaching demo shows the core's own numbers and never recomputes them.
//
// As in cuckoo_bindings.cpp (glue.hpp): filters cross as integer handles and
// items as (pointer, length) into wasm memory the caller filled. Results are
// JavaScript objects (value objects), so that no layout is kept in step by
// hand. Nothing here throws or aborts. The growable filter's table is read
// in inspect_scalable_bindings.cpp.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "cuckoo/bloom_filter.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/hashing.hpp"
#include "cuckoo/semi_sorted_table.hpp"
#include "cuckoo/sizing.hpp"
#include "glue.hpp"

namespace {

using cuckoo::CuckooFilter;
using emscripten::val;
using glue::Address;
using glue::bytesAt;
using glue::Handle;

constexpr unsigned kLargestBucketSize = 8;
constexpr std::uint32_t kNoSlot = 0xFFFFFFFFU;

const CuckooFilter& readFilter(Handle handle) { return glue::objectAt<const CuckooFilter>(handle); }
CuckooFilter& filterAt(Handle handle) { return glue::objectAt<CuckooFilter>(handle); }

std::uint32_t fingerprintOffset(const CuckooFilter& filter, std::uint32_t fingerprint) {
  return filter.bucketIndex().offset(fingerprint);
}

struct BucketCopy {
  std::uint32_t slots[kLargestBucketSize] = {};
};

BucketCopy copyBucket(const CuckooFilter& filter, std::uint32_t bucket) {
  BucketCopy copy;
  for (unsigned s = 0; s < filter.params().bucketSize; ++s) copy.slots[s] = filter.slotValue(bucket, s);
  return copy;
}

// Slots of `bucket` holding `fingerprint`, as a bit set (bit s = slot s).
std::uint32_t slotsHolding(const CuckooFilter& filter, std::uint32_t bucket, std::uint32_t fingerprint) {
  std::uint32_t found = 0;
  for (unsigned s = 0; s < filter.params().bucketSize; ++s) {
    if (filter.slotValue(bucket, s) == fingerprint) found |= 1U << s;
  }
  return found;
}

unsigned popcount(std::uint32_t bits) { return static_cast<unsigned>(__builtin_popcount(bits)); }

// The slot of `bucket` that now holds `fingerprint` and did not before. A
// semi-sorted bucket is re-sorted after a write, so there the first slot
// that changed to `fingerprint` is reported, which is where it sorted to.
std::uint32_t slotThatReceived(const CuckooFilter& filter, std::uint32_t bucket, const BucketCopy& before,
                               std::uint32_t fingerprint) {
  std::uint32_t fallback = kNoSlot;
  for (unsigned s = 0; s < filter.params().bucketSize; ++s) {
    const std::uint32_t now = filter.slotValue(bucket, s);
    if (now != fingerprint) continue;
    if (now != before.slots[s]) return s;
    if (fallback == kNoSlot) fallback = s;
  }
  return fallback;
}

// Where an item lives. The hash crosses as two 32-bit halves.
struct Location {
  std::uint32_t hashLow;
  std::uint32_t hashHigh;
  std::uint32_t fingerprint;
  std::uint32_t i1;
  std::uint32_t i2;
  std::uint32_t fingerprintHash;     // mix32(fingerprint)
  std::uint32_t fingerprintHashMod;  // mix32(fingerprint) reduced to [0, m): what relates i1 and i2
  unsigned hashId;                   // which relation (hashing.hpp)
};

// The item's location with the hash it comes from (`item`, `length` the item's bytes).
Location locationOf(const CuckooFilter& filter, const void* item, std::size_t length, const cuckoo::ItemLocation& where) {
  const std::uint64_t hash = filter.itemHash(item, length);
  return Location{static_cast<std::uint32_t>(hash), static_cast<std::uint32_t>(hash >> 32),
                  where.fingerprint,  where.primaryBucket,
                  where.alternateBucket, cuckoo::mix32(where.fingerprint),
                  fingerprintOffset(filter, where.fingerprint), filter.bucketIndex().hashId()};
}

Location locateItem(Handle h, Address item, std::size_t length) {
  const CuckooFilter& filter = readFilter(h);
  return locationOf(filter, bytesAt(item), length, filter.locate(bytesAt(item), length));
}

// One eviction of an insert.
struct Kick {
  std::uint32_t bucket;
  std::uint32_t slot;
  std::uint32_t incoming;
  std::uint32_t evicted;
  std::uint32_t nextBucket;
  std::uint32_t evictedHashMod;  // mix32(evicted) reduced to [0, m), as in Location
};

// How an insert ended: placed in a slot, sent to the stash, or refused (full).
enum class InsertEnd : std::uint32_t { kRefused = 0, kPlaced = 1, kStashed = 2 };

struct InsertTrace {
  Location location{};
  bool added = false;
  std::uint32_t kickCount = 0;
  val kicks = val::array();  // Kick records, at most the caller's capacity
  InsertEnd end = InsertEnd::kRefused;
  std::uint32_t endBucket = 0;
  std::uint32_t endSlot = kNoSlot;  // kNoSlot unless placed
  std::uint32_t endFingerprint = 0;
};

// Records an insert's steps; kicks beyond the capacity are counted, not kept.
class TraceRecorder final : public cuckoo::InsertObserver {
 public:
  TraceRecorder(const CuckooFilter& filter, std::uint32_t capacity, const cuckoo::ItemLocation& where,
                InsertTrace& trace)
      : filter_(filter),
        capacity_(capacity),
        primary_(where.primaryBucket),
        primaryBefore_(copyBucket(filter, where.primaryBucket)),
        alternateBefore_(copyBucket(filter, where.alternateBucket)),
        trace_(trace) {}

  void onKick(std::uint32_t bucket, unsigned slot, std::uint32_t incoming, std::uint32_t evicted,
              std::uint32_t nextBucket) override {
    if (trace_.kickCount < capacity_) {
      trace_.kicks.call<void>("push", Kick{bucket, slot, incoming, evicted, nextBucket, fingerprintOffset(filter_, evicted)});
    }
    ++trace_.kickCount;
    // Taken before the core tries nextBucket, to tell which slot it fills.
    nextBefore_ = copyBucket(filter_, nextBucket);
  }

  void onPlaced(std::uint32_t bucket, std::uint32_t fingerprint) override {
    const BucketCopy& before = trace_.kickCount > 0 ? nextBefore_ : bucket == primary_ ? primaryBefore_ : alternateBefore_;
    finish(InsertEnd::kPlaced, bucket, slotThatReceived(filter_, bucket, before, fingerprint), fingerprint);
  }

  void onStashed(std::uint32_t bucket, std::uint32_t fingerprint) override {
    finish(InsertEnd::kStashed, bucket, kNoSlot, fingerprint);
  }

 private:
  void finish(InsertEnd end, std::uint32_t bucket, std::uint32_t slot, std::uint32_t fingerprint) {
    trace_.end = end;
    trace_.endBucket = bucket;
    trace_.endSlot = slot;
    trace_.endFingerprint = fingerprint;
  }

  const CuckooFilter& filter_;
  std::uint32_t capacity_;
  std::uint32_t primary_;
  BucketCopy primaryBefore_;
  BucketCopy alternateBefore_;
  BucketCopy nextBefore_;
  InsertTrace& trace_;
};

InsertTrace traceInsert(Handle h, Address item, std::size_t length, unsigned kickCapacity) {
  CuckooFilter& filter = filterAt(h);
  const cuckoo::ItemLocation where = filter.locate(bytesAt(item), length);
  InsertTrace trace;
  trace.location = locationOf(filter, bytesAt(item), length, where);
  TraceRecorder recorder(filter, kickCapacity, where, trace);
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
  bool deleted;
  DeleteSource from;
  std::uint32_t bucket;  // the bucket and slot the copy left (kNoSlot when from the stash or nowhere)
  std::uint32_t slot;
  // The stash was occupied and the freed slot let the core re-place the
  // stashed fingerprint (silently: the core reports no steps of that walk, so
  // later buckets may have changed too).
  bool stashReinserted;
};

// The core names no slot, so it is found by comparing the item's buckets and
// the stash before and after: a bucket that lost a copy of the fingerprint,
// else the stash if it lost one.
DeleteTrace traceErase(Handle h, Address item, std::size_t length) {
  CuckooFilter& filter = filterAt(h);
  const cuckoo::ItemLocation where = filter.locate(bytesAt(item), length);
  const std::uint32_t primaryBefore = slotsHolding(filter, where.primaryBucket, where.fingerprint);
  const std::uint32_t alternateBefore = slotsHolding(filter, where.alternateBucket, where.fingerprint);
  const bool stashWasOccupied = filter.stash().occupied;
  const unsigned stashCopiesBefore =
      filter.count(bytesAt(item), length) - bucketCopies(primaryBefore, alternateBefore, where);

  const bool deleted = filter.erase(bytesAt(item), length);

  const std::uint32_t primaryAfter = slotsHolding(filter, where.primaryBucket, where.fingerprint);
  const std::uint32_t alternateAfter = slotsHolding(filter, where.alternateBucket, where.fingerprint);
  const unsigned stashCopiesAfter =
      filter.count(bytesAt(item), length) - bucketCopies(primaryAfter, alternateAfter, where);

  DeleteSource from = DeleteSource::kNowhere;
  std::uint32_t bucket = 0;
  std::uint32_t slot = kNoSlot;
  if (deleted) {
    const auto lostFrom = [&](std::uint32_t b, std::uint32_t before, std::uint32_t after) {
      if (popcount(after) >= popcount(before)) return false;
      const std::uint32_t gone = before & ~after;
      from = DeleteSource::kBucket;
      bucket = b;
      slot = static_cast<std::uint32_t>(__builtin_ctz(gone != 0 ? gone : before));
      return true;
    };
    if (!lostFrom(where.primaryBucket, primaryBefore, primaryAfter) &&
        !lostFrom(where.alternateBucket, alternateBefore, alternateAfter)) {
      if (stashCopiesAfter < stashCopiesBefore) {
        from = DeleteSource::kStash;
      } else {
        // The re-placed stash fingerprint refilled the bucket: the copy came
        // from the first bucket that held one.
        from = DeleteSource::kBucket;
        bucket = primaryBefore != 0 ? where.primaryBucket : where.alternateBucket;
        slot = static_cast<std::uint32_t>(__builtin_ctz(primaryBefore != 0 ? primaryBefore : alternateBefore));
      }
    }
  }
  return DeleteTrace{locationOf(filter, bytesAt(item), length, where), deleted, from, bucket, slot,
                     stashWasOccupied && from == DeleteSource::kBucket};
}

// Copies slots of buckets [first, first + count) to `out`, bucket by bucket
// (count * b words; 0 = empty). The caller keeps the range inside the table.
void readSlots(Handle h, unsigned first, unsigned count, Address out) {
  const CuckooFilter& filter = readFilter(h);
  const unsigned b = filter.params().bucketSize;
  std::uint32_t* words = glue::wordsAt(out);
  for (std::uint64_t bucket = first; bucket < std::uint64_t{first} + count; ++bucket) {
    for (unsigned s = 0; s < b; ++s) *words++ = filter.slotValue(bucket, s);
  }
}

struct StashInfo {
  bool occupied;
  std::uint32_t fingerprint;      // 0 when empty
  std::uint32_t bucket;           // the bucket it was last evicted from
  std::uint32_t alternateBucket;  // and that bucket's alternate for it
};

StashInfo readStash(Handle h) {
  const CuckooFilter& filter = readFilter(h);
  const cuckoo::Stash& stash = filter.stash();
  return StashInfo{stash.occupied, stash.fingerprint, stash.bucket,
                   stash.occupied ? filter.bucketIndex().alternate(stash.bucket, stash.fingerprint) : 0};
}

std::uint32_t alternateBucketOf(Handle h, std::uint32_t bucket, std::uint32_t fingerprint) {
  return readFilter(h).bucketIndex().alternate(bucket, fingerprint);
}
std::uint32_t mix32Of(std::uint32_t value) { return cuckoo::mix32(value); }

// Bits of table payload, without padding: what a Bloom filter of the same
// memory gets.
double tableBits(Handle h) {
  const cuckoo::FilterParams& p = readFilter(h).params();
  const std::uint64_t bitsPerBucket =
      p.semiSort ? cuckoo::SemiSortedTable::bucketBitsFor(p.fingerprintBits) : std::uint64_t{p.bucketSize} * p.fingerprintBits;
  return static_cast<double>(p.bucketCount * bitsPerBucket);
}

// The kernel serving a filter, and a switch to the generic one for comparing speeds.
std::string kernelNameOf(Handle h) { return readFilter(h).kernelName(); }
void useGenericKernel(Handle h) { glue::objectAt<CuckooFilter>(h).useGenericKernel(); }

double practicalMaxLoadOf(unsigned bucketSize) { return cuckoo::practicalMaxLoad(bucketSize); }
unsigned optimalBloomHashCountFor(double bitsPerItem) { return cuckoo::optimalBloomHashCount(bitsPerItem); }

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
  enum_<InsertEnd>("InsertEnd")
      .value("refused", InsertEnd::kRefused)
      .value("placed", InsertEnd::kPlaced)
      .value("stashed", InsertEnd::kStashed);
  value_object<InsertTrace>("InsertTrace")
      .field("location", &InsertTrace::location)
      .field("added", &InsertTrace::added)
      .field("kickCount", &InsertTrace::kickCount)
      .field("kicks", &InsertTrace::kicks)
      .field("end", &InsertTrace::end)
      .field("endBucket", &InsertTrace::endBucket)
      .field("endSlot", &InsertTrace::endSlot)
      .field("endFingerprint", &InsertTrace::endFingerprint);
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
      .field("stashReinserted", &DeleteTrace::stashReinserted);
  value_object<StashInfo>("StashInfo")
      .field("occupied", &StashInfo::occupied)
      .field("fingerprint", &StashInfo::fingerprint)
      .field("bucket", &StashInfo::bucket)
      .field("alternateBucket", &StashInfo::alternateBucket);
  emscripten::constant("noSlot", kNoSlot);
  function("inspectLocate", &locateItem);
  function("inspectTraceInsert", &traceInsert);
  function("inspectTraceLookup", &traceLookup);
  function("inspectTraceErase", &traceErase);
  function("inspectReadSlots", &readSlots);
  function("inspectReadStash", &readStash);
  function("inspectAlternateBucket", &alternateBucketOf);
  function("inspectMix32", &mix32Of);
  function("inspectTableBits", &tableBits);
  function("inspectKernelName", &kernelNameOf);
  function("inspectUseGenericKernel", &useGenericKernel);
  function("inspectPracticalMaxLoad", &practicalMaxLoadOf);
  function("inspectOptimalBloomHashCount", &optimalBloomHashCountFor);
}
