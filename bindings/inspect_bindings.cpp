// The embind glue of the inspection entry, cuckoo-wasm/inspect
// (ts/src/inspect.ts): where an item lives, traces of insert, lookup and
// delete, and read-only copies of the table and the stash, so that the
// teaching demo shows the core's own numbers and never recomputes them.
//
// As in cuckoo_bindings.cpp: filters cross as integer handles, items as
// (pointer, length) into wasm memory the caller filled, and every result goes
// to an out-pointer the caller provides, of a size fixed by the caller. Nothing
// here allocates, throws or aborts. Layouts are mirrored by ts/src/inspect.ts.

#include <emscripten/bind.h>

#include <cstdint>

#include "cuckoo/bloom_filter.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/hashing.hpp"
#include "cuckoo/semi_sorted_table.hpp"

namespace {

using cuckoo::CuckooFilter;
using Handle = std::uintptr_t;
using Address = std::uintptr_t;

constexpr unsigned kLargestBucketSize = 8;
constexpr std::uint32_t kNoSlot = 0xFFFFFFFFU;

const CuckooFilter& readFilter(Handle handle) { return *reinterpret_cast<const CuckooFilter*>(handle); }
CuckooFilter& filterAt(Handle handle) { return *reinterpret_cast<CuckooFilter*>(handle); }
const unsigned char* bytesAt(Address address) { return reinterpret_cast<const unsigned char*>(address); }
std::uint32_t* wordsAt(Address address) { return reinterpret_cast<std::uint32_t*>(address); }

std::uint32_t fingerprintOffset(const CuckooFilter& filter, std::uint32_t fingerprint) {
  return cuckoo::mix32(fingerprint) & filter.indexMask();
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

// Location layout, 7 words: hash low, hash high, fingerprint, i1, i2,
// mix32(fingerprint), mix32(fingerprint) & (m - 1).
constexpr unsigned kLocationWords = 7;

cuckoo::ItemLocation writeLocation(const CuckooFilter& filter, Address item, std::size_t length, std::uint32_t* out) {
  const cuckoo::ItemLocation where = filter.locate(bytesAt(item), length);
  out[0] = static_cast<std::uint32_t>(where.hash);
  out[1] = static_cast<std::uint32_t>(where.hash >> 32);
  out[2] = where.fingerprint;
  out[3] = where.primaryBucket;
  out[4] = where.alternateBucket;
  out[5] = cuckoo::mix32(where.fingerprint);
  out[6] = fingerprintOffset(filter, where.fingerprint);
  return where;
}

void locateItem(Handle h, Address item, std::size_t length, Address out) {
  writeLocation(readFilter(h), item, length, wordsAt(out));
}

// Records an insert's steps. Kicks go to the caller's buffer, 6 words each:
// bucket, slot, incoming, evicted, nextBucket, mix32(evicted) & (m - 1); those
// beyond its capacity are counted but not written.
class TraceRecorder final : public cuckoo::InsertObserver {
 public:
  enum End : std::uint32_t { kRefused = 0, kPlaced = 1, kStashed = 2 };

  TraceRecorder(const CuckooFilter& filter, std::uint32_t* kicks, std::uint32_t capacity,
                const cuckoo::ItemLocation& where)
      : filter_(filter),
        kicks_(kicks),
        capacity_(capacity),
        primary_(where.primaryBucket),
        primaryBefore_(copyBucket(filter, where.primaryBucket)),
        alternateBefore_(copyBucket(filter, where.alternateBucket)) {}

  void onKick(std::uint32_t bucket, unsigned slot, std::uint32_t incoming, std::uint32_t evicted,
              std::uint32_t nextBucket) override {
    if (kickCount_ < capacity_) {
      std::uint32_t* record = kicks_ + std::size_t{kickCount_} * 6;
      record[0] = bucket;
      record[1] = slot;
      record[2] = incoming;
      record[3] = evicted;
      record[4] = nextBucket;
      record[5] = fingerprintOffset(filter_, evicted);
    }
    ++kickCount_;
    // Taken before the core tries nextBucket, to tell which slot it fills.
    nextBefore_ = copyBucket(filter_, nextBucket);
  }

  void onPlaced(std::uint32_t bucket, std::uint32_t fingerprint) override {
    const BucketCopy& before = kickCount_ > 0 ? nextBefore_ : bucket == primary_ ? primaryBefore_ : alternateBefore_;
    finish(kPlaced, bucket, slotThatReceived(filter_, bucket, before, fingerprint), fingerprint);
  }

  void onStashed(std::uint32_t bucket, std::uint32_t fingerprint) override {
    finish(kStashed, bucket, kNoSlot, fingerprint);
  }

  // Summary layout, 5 words: kick count, end (End), end bucket, end slot
  // (kNoSlot unless placed), end fingerprint.
  void writeSummary(std::uint32_t* out) const {
    out[0] = kickCount_;
    out[1] = end_;
    out[2] = endBucket_;
    out[3] = endSlot_;
    out[4] = endFingerprint_;
  }

 private:
  void finish(End end, std::uint32_t bucket, std::uint32_t slot, std::uint32_t fingerprint) {
    end_ = end;
    endBucket_ = bucket;
    endSlot_ = slot;
    endFingerprint_ = fingerprint;
  }

  const CuckooFilter& filter_;
  std::uint32_t* kicks_;
  std::uint32_t capacity_;
  std::uint32_t primary_;
  BucketCopy primaryBefore_;
  BucketCopy alternateBefore_;
  BucketCopy nextBefore_;
  std::uint32_t kickCount_ = 0;
  End end_ = kRefused;
  std::uint32_t endBucket_ = 0;
  std::uint32_t endSlot_ = kNoSlot;
  std::uint32_t endFingerprint_ = 0;
};

// Out layout: the location (7 words), then added (0/1), then the summary.
bool traceInsert(Handle h, Address item, std::size_t length, Address kicks, unsigned kickCapacity, Address out) {
  CuckooFilter& filter = filterAt(h);
  std::uint32_t* words = wordsAt(out);
  const cuckoo::ItemLocation where = writeLocation(filter, item, length, words);
  TraceRecorder recorder(filter, wordsAt(kicks), kickCapacity, where);
  const bool added = filter.insertObserved(bytesAt(item), length, recorder);
  words[kLocationWords] = added ? 1 : 0;
  recorder.writeSummary(words + kLocationWords + 1);
  return added;
}

// Copies of a fingerprint in the item's two buckets, counted as the core's
// count() does (one bucket once when both candidates are the same bucket).
unsigned bucketCopies(std::uint32_t primaryMatches, std::uint32_t alternateMatches, const cuckoo::ItemLocation& where) {
  return popcount(primaryMatches) + (where.alternateBucket != where.primaryBucket ? popcount(alternateMatches) : 0);
}

// Out layout: the location (7 words), then found (the core's contains), the
// matching slots of i1 and of i2 as bit sets, and the copies in the stash
// (the core's count() less the copies in the buckets).
bool traceLookup(Handle h, Address item, std::size_t length, Address out) {
  const CuckooFilter& filter = readFilter(h);
  std::uint32_t* words = wordsAt(out);
  const cuckoo::ItemLocation where = writeLocation(filter, item, length, words);
  const bool found = filter.contains(bytesAt(item), length);
  const std::uint32_t primaryMatches = slotsHolding(filter, where.primaryBucket, where.fingerprint);
  const std::uint32_t alternateMatches = slotsHolding(filter, where.alternateBucket, where.fingerprint);
  words[kLocationWords] = found ? 1 : 0;
  words[kLocationWords + 1] = primaryMatches;
  words[kLocationWords + 2] = alternateMatches;
  words[kLocationWords + 3] =
      filter.count(bytesAt(item), length) - bucketCopies(primaryMatches, alternateMatches, where);
  return found;
}

// Out layout: the location (7 words), then deleted (0/1), where the copy came
// from (0 nowhere, 1 a bucket, 2 the stash), its bucket and slot (kNoSlot
// when from the stash or nowhere), and whether the stash was occupied and
// the freed slot let the core re-place the stashed fingerprint (silently: the
// core reports no steps of that walk, so later buckets may have changed too).
//
// The core names no slot, so it is found by comparing the item's buckets and
// the stash before and after: a bucket that lost a copy of the fingerprint,
// else the stash if it lost one.
bool traceErase(Handle h, Address item, std::size_t length, Address out) {
  CuckooFilter& filter = filterAt(h);
  std::uint32_t* words = wordsAt(out);
  const cuckoo::ItemLocation where = writeLocation(filter, item, length, words);
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

  enum From : std::uint32_t { kNowhere = 0, kBucket = 1, kStash = 2 };
  From from = kNowhere;
  std::uint32_t bucket = 0;
  std::uint32_t slot = kNoSlot;
  if (deleted) {
    const auto lostFrom = [&](std::uint32_t b, std::uint32_t before, std::uint32_t after) {
      if (popcount(after) >= popcount(before)) return false;
      const std::uint32_t gone = before & ~after;
      from = kBucket;
      bucket = b;
      slot = static_cast<std::uint32_t>(__builtin_ctz(gone != 0 ? gone : before));
      return true;
    };
    if (!lostFrom(where.primaryBucket, primaryBefore, primaryAfter) &&
        !lostFrom(where.alternateBucket, alternateBefore, alternateAfter)) {
      if (stashCopiesAfter < stashCopiesBefore) {
        from = kStash;
      } else {
        // The re-placed stash fingerprint refilled the bucket: the copy came
        // from the first bucket that held one.
        from = kBucket;
        bucket = primaryBefore != 0 ? where.primaryBucket : where.alternateBucket;
        slot = static_cast<std::uint32_t>(__builtin_ctz(primaryBefore != 0 ? primaryBefore : alternateBefore));
      }
    }
  }
  words[kLocationWords] = deleted ? 1 : 0;
  words[kLocationWords + 1] = from;
  words[kLocationWords + 2] = bucket;
  words[kLocationWords + 3] = slot;
  words[kLocationWords + 4] = stashWasOccupied && from == kBucket ? 1 : 0;
  return deleted;
}

// Copies slots of buckets [first, first + count) to `out`, bucket by bucket
// (count * b words; 0 = empty). The caller keeps the range inside the table.
void readSlots(Handle h, unsigned first, unsigned count, Address out) {
  const CuckooFilter& filter = readFilter(h);
  const unsigned b = filter.params().bucketSize;
  std::uint32_t* words = wordsAt(out);
  for (std::uint64_t bucket = first; bucket < std::uint64_t{first} + count; ++bucket) {
    for (unsigned s = 0; s < b; ++s) *words++ = filter.slotValue(bucket, s);
  }
}

// Out layout, 4 words: occupied (0/1), fingerprint, the bucket it was last
// evicted from, and that bucket's alternate for the fingerprint.
void readStash(Handle h, Address out) {
  const CuckooFilter& filter = readFilter(h);
  const cuckoo::Stash& stash = filter.stash();
  std::uint32_t* words = wordsAt(out);
  words[0] = stash.occupied ? 1 : 0;
  words[1] = stash.fingerprint;
  words[2] = stash.bucket;
  words[3] = stash.occupied ? cuckoo::alternateBucket(stash.bucket, stash.fingerprint, filter.indexMask()) : 0;
}

std::uint32_t alternateBucketOf(Handle h, std::uint32_t bucket, std::uint32_t fingerprint) {
  return cuckoo::alternateBucket(bucket, fingerprint, readFilter(h).indexMask());
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

double practicalMaxLoadOf(unsigned bucketSize) { return cuckoo::practicalMaxLoad(bucketSize); }
unsigned optimalBloomHashCountFor(double bitsPerItem) { return cuckoo::optimalBloomHashCount(bitsPerItem); }

}  // namespace

EMSCRIPTEN_BINDINGS(cuckoo_inspect) {
  using emscripten::function;
  function("inspectLocate", &locateItem);
  function("inspectTraceInsert", &traceInsert);
  function("inspectTraceLookup", &traceLookup);
  function("inspectTraceErase", &traceErase);
  function("inspectReadSlots", &readSlots);
  function("inspectReadStash", &readStash);
  function("inspectAlternateBucket", &alternateBucketOf);
  function("inspectMix32", &mix32Of);
  function("inspectTableBits", &tableBits);
  function("inspectPracticalMaxLoad", &practicalMaxLoadOf);
  function("inspectOptimalBloomHashCount", &optimalBloomHashCountFor);
}
