// CuckooFilter's exports (ts/src/filter.ts calls them through
// ts/src/core-exports.ts): creation, state, the item calls of
// item_exports.hpp, the bytes. Nothing but argument plumbing. Fallible calls
// return a cuckoo::Status value and write a new filter's handle to
// `outHandle`; nothing here throws or aborts: the TypeScript layer turns
// statuses into typed errors.

#include <cstdint>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/sizing.hpp"
#include "glue.hpp"
#include "item_exports.hpp"

namespace {

using cuckoo::CuckooFilter;
using cuckoo::Status;
using glue::Address;
using glue::Handle;
using glue::wholeNumber;

const CuckooFilter& filterAt(Handle handle) { return glue::objectAt<const CuckooFilter>(handle); }

}  // namespace

CUCKOO_EXPORT int cuckoo_create(double fingerprintBits, double bucketSize, double bucketCount, double maxKicks,
                                std::uint32_t seedLow, std::uint32_t seedHigh, int flags, Address outHandle) {
  cuckoo::FilterParams params;
  params.semiSort = glue::semiSortedIn(flags);
  params.keyedHash = glue::keyedHashIn(flags);
  params.multiplyShiftHash = glue::multiplyShiftHashIn(flags);
  params.fingerprintBits = wholeNumber<unsigned>(fingerprintBits);
  params.bucketSize = wholeNumber<unsigned>(bucketSize);
  params.bucketCount = wholeNumber<std::uint64_t>(bucketCount);
  params.maxKicks = wholeNumber<std::uint32_t>(maxKicks);
  params.seed = glue::joinSeed(seedLow, seedHigh);
  return glue::adoptMade<CuckooFilter>(outHandle, [&](CuckooFilter& filter) { return CuckooFilter::create(params, filter); });
}

// `capacity` is a safe integer (the TypeScript layer checks it).
CUCKOO_EXPORT int cuckoo_create_for_capacity(double capacity, double falsePositiveRate, double maxKicks,
                                             std::uint32_t seedLow, std::uint32_t seedHigh, int flags,
                                             Address outHandle) {
  cuckoo::FilterParams params;
  params.semiSort = glue::semiSortedIn(flags);
  params.keyedHash = glue::keyedHashIn(flags);
  params.multiplyShiftHash = glue::multiplyShiftHashIn(flags);
  params.maxKicks = wholeNumber<std::uint32_t>(maxKicks);
  params.seed = glue::joinSeed(seedLow, seedHigh);
  const Status status = cuckoo::paramsForCapacity(wholeNumber<std::uint64_t>(capacity), falsePositiveRate, params);
  if (status != Status::kOk) return static_cast<int>(status);
  return glue::adoptMade<CuckooFilter>(outHandle, [&](CuckooFilter& filter) { return CuckooFilter::create(params, filter); });
}

// The header checks alone, on the first bytes of an input of `totalLength`
// bytes, so that the caller copies a large input into wasm memory only when
// its header holds up. Lengths beyond size_t are clamped (and then refused).
CUCKOO_EXPORT int cuckoo_check_header(Address header, double totalLength) {
  const std::size_t length =
      totalLength >= 0 && totalLength < 4294967295.0 ? static_cast<std::size_t>(totalLength) : ~std::size_t{0};
  return static_cast<int>(CuckooFilter::checkSerializedHeader(glue::bytesAt(header), length));
}

CUCKOO_EXPORT void cuckoo_clear(Handle h) { glue::filterAt<CuckooFilter>(h).clear(); }

// State, one plain call each: a getter costs one call and no object.
CUCKOO_EXPORT double cuckoo_size(Handle h) { return static_cast<double>(filterAt(h).itemCount()); }
CUCKOO_EXPORT double cuckoo_slot_count(Handle h) { return static_cast<double>(filterAt(h).stats().slotCount); }
CUCKOO_EXPORT double cuckoo_load_factor(Handle h) { return filterAt(h).stats().loadFactor; }
CUCKOO_EXPORT std::uint32_t cuckoo_stashed(Handle h) { return filterAt(h).stash().occupied ? 1 : 0; }
CUCKOO_EXPORT double cuckoo_byte_length(Handle h) { return static_cast<double>(filterAt(h).stats().sizeInBytes); }
CUCKOO_EXPORT double cuckoo_bits_per_item(Handle h) { return filterAt(h).stats().bitsPerItem; }
CUCKOO_EXPORT double cuckoo_expected_fpr(Handle h) { return filterAt(h).stats().expectedFalsePositiveRate; }
CUCKOO_EXPORT double cuckoo_fpr_bound(Handle h) { return filterAt(h).stats().falsePositiveBound; }
CUCKOO_EXPORT int cuckoo_full(Handle h) { return filterAt(h).isFull() ? 1 : 0; }
CUCKOO_EXPORT std::uint32_t cuckoo_fingerprint_bits(Handle h) { return filterAt(h).params().fingerprintBits; }
CUCKOO_EXPORT std::uint32_t cuckoo_bucket_size(Handle h) { return filterAt(h).params().bucketSize; }
CUCKOO_EXPORT double cuckoo_bucket_count(Handle h) { return static_cast<double>(filterAt(h).params().bucketCount); }
CUCKOO_EXPORT std::uint32_t cuckoo_max_kicks(Handle h) { return filterAt(h).params().maxKicks; }
CUCKOO_EXPORT std::uint32_t cuckoo_hash_id(Handle h) { return filterAt(h).hashId(); }
CUCKOO_EXPORT std::uint32_t cuckoo_seed_low(Handle h) { return static_cast<std::uint32_t>(filterAt(h).params().seed); }
CUCKOO_EXPORT std::uint32_t cuckoo_seed_high(Handle h) {
  return static_cast<std::uint32_t>(filterAt(h).params().seed >> 32);
}
CUCKOO_EXPORT int cuckoo_semi_sort(Handle h) { return filterAt(h).params().semiSort ? 1 : 0; }

// The item calls, the batches and the bytes (item_exports.hpp).
GLUE_ITEM_EXPORTS(cuckoo, CuckooFilter)
