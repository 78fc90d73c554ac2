// The exports of ts/src/parts.ts: a filter whose table lives elsewhere
// (cuckoo-wasm/redis keeps it in Redis) hashes its items here and moves its
// table to and from an in-process CuckooFilter.

#include <cstdint>
#include <cstring>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/patch.hpp"
#include "cuckoo/semi_sorted_table.hpp"
#include "cuckoo/sizing.hpp"
#include "glue.hpp"

namespace {

using cuckoo::CuckooFilter;
using glue::Address;
using glue::Handle;
using glue::wholeNumber;

cuckoo::FilterParams shapeOf(double fingerprintBits, double bucketCount, std::uint32_t seedLow, std::uint32_t seedHigh,
                             int flags) {
  cuckoo::FilterParams params;
  params.fingerprintBits = wholeNumber<unsigned>(fingerprintBits);
  params.bucketCount = wholeNumber<std::uint64_t>(bucketCount);
  params.seed = glue::joinSeed(seedLow, seedHigh);
  params.semiSort = glue::semiSortedIn(flags);
  params.keyedHash = glue::keyedHashIn(flags);
  params.multiplyShiftHash = glue::multiplyShiftHashIn(flags);
  return params;
}

}  // namespace

// Four words per item to `out` (CuckooFilter::locateEach); the caller has
// checked the shape (it comes from a filter's params).
CUCKOO_EXPORT void parts_locate_packed(double fingerprintBits, double bucketCount, std::uint32_t seedLow,
                                       std::uint32_t seedHigh, int flags, Address data, Address offsets,
                                       std::uint32_t count, Address out) {
  CuckooFilter::locateEach(shapeOf(fingerprintBits, bucketCount, seedLow, seedHigh, flags),
                           glue::packedBatch(data, offsets, count), glue::wordsAt(out));
}
CUCKOO_EXPORT void parts_locate_fixed(double fingerprintBits, double bucketCount, std::uint32_t seedLow,
                                      std::uint32_t seedHigh, int flags, Address data, std::uint32_t width,
                                      std::uint32_t count, Address out) {
  CuckooFilter::locateEach(shapeOf(fingerprintBits, bucketCount, seedLow, seedHigh, flags),
                           glue::fixedBatch(data, width, count), glue::wordsAt(out));
}

// The filter's parts as nine words at `out`: payload address and length,
// stash occupied, fingerprint and bucket, the item count's low and high
// words, and the eviction PRNG state's.
CUCKOO_EXPORT void parts_of(Handle h, Address out) {
  const CuckooFilter& filter = glue::objectAt<const CuckooFilter>(h);
  std::uint32_t* words = glue::wordsAt(out);
  words[0] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(filter.tableData()));
  words[1] = static_cast<std::uint32_t>(filter.payloadByteLength());
  words[2] = filter.stash().occupied ? 1 : 0;
  words[3] = filter.stash().fingerprint;
  words[4] = filter.stash().bucket;
  words[5] = static_cast<std::uint32_t>(filter.itemCount());
  words[6] = static_cast<std::uint32_t>(filter.itemCount() >> 32);
  words[7] = static_cast<std::uint32_t>(filter.prngState());
  words[8] = static_cast<std::uint32_t>(filter.prngState() >> 32);
}

// A filter of these parameters holding `payload`, the stash, the item count
// and the eviction PRNG state `prngLow | prngHigh << 32` (cuckoo::restoreFilter).
CUCKOO_EXPORT int parts_restore(double fingerprintBits, double bucketSize, double bucketCount, double maxKicks,
                                std::uint32_t seedLow, std::uint32_t seedHigh, int flags, Address payload,
                                double length, int stashOccupied, std::uint32_t stashFingerprint,
                                std::uint32_t stashBucket, double itemCount, std::uint32_t prngLow,
                                std::uint32_t prngHigh, Address outHandle) {
  cuckoo::FilterParams params = shapeOf(fingerprintBits, bucketCount, seedLow, seedHigh, flags);
  params.bucketSize = wholeNumber<unsigned>(bucketSize);
  params.maxKicks = wholeNumber<std::uint32_t>(maxKicks);
  const cuckoo::Stash stash{stashOccupied != 0, stashFingerprint, stashBucket};
  return glue::adoptMade<CuckooFilter>(outHandle, [&](CuckooFilter& filter) {
    return cuckoo::restoreFilter(params, glue::bytesAt(payload), wholeNumber<std::size_t>(length), stash,
                                 wholeNumber<std::uint64_t>(itemCount), glue::joinSeed(prngLow, prngHigh), filter);
  });
}

// Buckets of a filter replaced as a table kept elsewhere reports them
// (cuckoo::replaceBuckets): `count` bucket numbers at `buckets`, their
// contents `stride` bytes apart at `contents`, then the new stash, item count
// and PRNG state. A status; nothing changes unless it is kOk.
CUCKOO_EXPORT int parts_replace_buckets(Handle h, Address buckets, std::uint32_t count, Address contents,
                                        std::uint32_t stride, int stashOccupied, std::uint32_t stashFingerprint,
                                        std::uint32_t stashBucket, double itemCount, std::uint32_t prngLow,
                                        std::uint32_t prngHigh) {
  const cuckoo::Stash stash{stashOccupied != 0, stashFingerprint, stashBucket};
  return static_cast<int>(cuckoo::replaceBuckets(glue::objectAt<CuckooFilter>(h), glue::wordsAt(buckets), count,
                                                 glue::bytesAt(contents), stride, stash,
                                                 wholeNumber<std::uint64_t>(itemCount), glue::joinSeed(prngLow, prngHigh)));
}

// The shape cuckoo_create_for_capacity would make, without making it: four
// words at `out`, fingerprintBits, bucketSize and the bucket count (up to
// 2^32) as two halves, low first.
CUCKOO_EXPORT int parts_size_for(double capacity, double falsePositiveRate, double maxKicks, std::uint32_t seedLow,
                                 std::uint32_t seedHigh, int flags, Address out) {
  cuckoo::FilterParams params;
  params.semiSort = glue::semiSortedIn(flags);
  params.keyedHash = glue::keyedHashIn(flags);
  params.multiplyShiftHash = glue::multiplyShiftHashIn(flags);
  params.maxKicks = wholeNumber<std::uint32_t>(maxKicks);
  params.seed = glue::joinSeed(seedLow, seedHigh);
  const cuckoo::Status status = cuckoo::paramsForCapacity(wholeNumber<std::uint64_t>(capacity), falsePositiveRate, params);
  if (status != cuckoo::Status::kOk) return static_cast<int>(status);
  std::uint32_t* words = glue::wordsAt(out);
  words[0] = params.fingerprintBits;
  words[1] = params.bucketSize;
  words[2] = static_cast<std::uint32_t>(params.bucketCount);
  words[3] = static_cast<std::uint32_t>(params.bucketCount >> 32);
  return static_cast<int>(cuckoo::Status::kOk);
}

// The semi-sorted table's rank -> nibbles map (semisort::kUnrank: 3,876
// uint16, nibble s of the sorted multiset at bits 4s..4s+3) copied to `out`:
// cuckoo-wasm/redis decodes the buckets it reads from Redis with it.
CUCKOO_EXPORT void parts_unrank_table(Address out) {
  std::memcpy(reinterpret_cast<void*>(out), cuckoo::semisort::kUnrank.data(), sizeof cuckoo::semisort::kUnrank);
}
