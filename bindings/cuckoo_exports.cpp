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
                                std::uint32_t seedLow, std::uint32_t seedHigh, int semiSort, Address outHandle) {
  cuckoo::FilterParams params;
  params.semiSort = semiSort != 0;
  params.fingerprintBits = wholeNumber<unsigned>(fingerprintBits);
  params.bucketSize = wholeNumber<unsigned>(bucketSize);
  params.bucketCount = wholeNumber<std::uint64_t>(bucketCount);
  params.maxKicks = wholeNumber<std::uint32_t>(maxKicks);
  params.seed = glue::joinSeed(seedLow, seedHigh);
  return glue::adoptMade<CuckooFilter>(outHandle, [&](CuckooFilter& filter) { return CuckooFilter::create(params, filter); });
}

// `capacity` is a safe integer (the TypeScript layer checks it).
CUCKOO_EXPORT int cuckoo_create_for_capacity(double capacity, double falsePositiveRate, double maxKicks,
                                             std::uint32_t seedLow, std::uint32_t seedHigh, int semiSort,
                                             Address outHandle) {
  cuckoo::FilterParams params;
  params.semiSort = semiSort != 0;
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
CUCKOO_EXPORT std::uint32_t cuckoo_seed_low(Handle h) { return static_cast<std::uint32_t>(filterAt(h).params().seed); }
CUCKOO_EXPORT std::uint32_t cuckoo_seed_high(Handle h) {
  return static_cast<std::uint32_t>(filterAt(h).params().seed >> 32);
}
CUCKOO_EXPORT int cuckoo_semi_sort(Handle h) { return filterAt(h).params().semiSort ? 1 : 0; }

// The item calls (item_exports.hpp).
CUCKOO_EXPORT int cuckoo_add(Handle h, Address item, std::uint32_t length) {
  return glue::addBytes<CuckooFilter>(h, item, length);
}
CUCKOO_EXPORT int cuckoo_add_unique(Handle h, Address item, std::uint32_t length) {
  return glue::addUniqueBytes<CuckooFilter>(h, item, length);
}
CUCKOO_EXPORT int cuckoo_has(Handle h, Address item, std::uint32_t length) {
  return glue::hasBytes<CuckooFilter>(h, item, length);
}
CUCKOO_EXPORT int cuckoo_delete(Handle h, Address item, std::uint32_t length) {
  return glue::deleteBytes<CuckooFilter>(h, item, length);
}
CUCKOO_EXPORT std::uint32_t cuckoo_count(Handle h, Address item, std::uint32_t length) {
  return glue::countBytes<CuckooFilter>(h, item, length);
}
CUCKOO_EXPORT int cuckoo_add_number(Handle h, double item) { return glue::addNumber<CuckooFilter>(h, item); }
CUCKOO_EXPORT int cuckoo_add_unique_number(Handle h, double item) {
  return glue::addUniqueNumber<CuckooFilter>(h, item);
}
CUCKOO_EXPORT int cuckoo_has_number(Handle h, double item) { return glue::hasNumber<CuckooFilter>(h, item); }
CUCKOO_EXPORT int cuckoo_delete_number(Handle h, double item) { return glue::deleteNumber<CuckooFilter>(h, item); }
CUCKOO_EXPORT std::uint32_t cuckoo_count_number(Handle h, double item) {
  return glue::countNumber<CuckooFilter>(h, item);
}
CUCKOO_EXPORT std::uint32_t cuckoo_add_packed(Handle h, Address data, Address offsets, std::uint32_t count) {
  return glue::addPacked<CuckooFilter>(h, data, offsets, count);
}
CUCKOO_EXPORT void cuckoo_has_packed(Handle h, Address data, Address offsets, std::uint32_t count, Address out) {
  glue::hasPacked<CuckooFilter>(h, data, offsets, count, out);
}
CUCKOO_EXPORT std::uint32_t cuckoo_delete_packed(Handle h, Address data, Address offsets, std::uint32_t count) {
  return glue::deletePacked<CuckooFilter>(h, data, offsets, count);
}
CUCKOO_EXPORT std::uint32_t cuckoo_add_fixed(Handle h, Address data, std::uint32_t width, std::uint32_t count) {
  return glue::addFixed<CuckooFilter>(h, data, width, count);
}
CUCKOO_EXPORT void cuckoo_has_fixed(Handle h, Address data, std::uint32_t width, std::uint32_t count, Address out) {
  glue::hasFixed<CuckooFilter>(h, data, width, count, out);
}
CUCKOO_EXPORT std::uint32_t cuckoo_delete_fixed(Handle h, Address data, std::uint32_t width, std::uint32_t count) {
  return glue::deleteFixed<CuckooFilter>(h, data, width, count);
}

CUCKOO_EXPORT double cuckoo_serialized_size(Handle h) { return glue::serializedSize<CuckooFilter>(h); }
CUCKOO_EXPORT void cuckoo_serialize(Handle h, Address out) { glue::serializeTo<CuckooFilter>(h, out); }
CUCKOO_EXPORT int cuckoo_deserialize(Address data, std::uint32_t length, Address outHandle) {
  return glue::deserializeFrom<CuckooFilter>(data, length, outHandle);
}
CUCKOO_EXPORT int cuckoo_clone(Handle h, Address outHandle) { return glue::cloneOf<CuckooFilter>(h, outHandle); }
CUCKOO_EXPORT void cuckoo_destroy(Handle h) { glue::destroy<CuckooFilter>(h); }
CUCKOO_EXPORT int cuckoo_merge(Handle h, Handle other) { return glue::mergeInto<CuckooFilter>(h, other); }
