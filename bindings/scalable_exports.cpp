// ScalableCuckooFilter's exports (ts/src/scalable.ts calls them through
// ts/src/core-exports.ts): creation, state and clearing here, the item calls
// and bytes from item_exports.hpp, the same as CuckooFilter's.

#include <cstdint>

#include "cuckoo/scalable_filter.hpp"
#include "glue.hpp"
#include "item_exports.hpp"

namespace {

using cuckoo::ScalableCuckooFilter;
using glue::Address;
using glue::Handle;
using glue::wholeNumber;

const ScalableCuckooFilter& filterAt(Handle handle) { return glue::objectAt<const ScalableCuckooFilter>(handle); }

}  // namespace

// `initialCapacity` is a whole number (the TypeScript layer checks it).
CUCKOO_EXPORT int scalable_create(double initialCapacity, double falsePositiveRate, double growth, double maxKicks,
                                  std::uint32_t seedLow, std::uint32_t seedHigh, int semiSort, Address outHandle) {
  cuckoo::ScalableParams params;
  params.initialCapacity = wholeNumber<std::uint64_t>(initialCapacity);
  params.falsePositiveRate = falsePositiveRate;
  params.growth = growth;
  params.maxKicks = wholeNumber<std::uint32_t>(maxKicks);
  params.seed = glue::joinSeed(seedLow, seedHigh);
  params.semiSort = semiSort != 0;
  return glue::adoptMade<ScalableCuckooFilter>(
      outHandle, [&](ScalableCuckooFilter& filter) { return ScalableCuckooFilter::create(params, filter); });
}

CUCKOO_EXPORT int scalable_clear(Handle h) {
  return static_cast<int>(glue::filterAt<ScalableCuckooFilter>(h).clear());
}

// State, one plain call each.
CUCKOO_EXPORT double scalable_size(Handle h) { return static_cast<double>(filterAt(h).stats().itemCount); }
CUCKOO_EXPORT double scalable_entry_count(Handle h) { return static_cast<double>(filterAt(h).stats().entryCount); }
CUCKOO_EXPORT double scalable_slot_count(Handle h) { return static_cast<double>(filterAt(h).stats().slotCount); }
CUCKOO_EXPORT double scalable_load_factor(Handle h) { return filterAt(h).stats().loadFactor; }
CUCKOO_EXPORT std::uint32_t scalable_stashed(Handle h) { return filterAt(h).stashCount(); }
CUCKOO_EXPORT double scalable_byte_length(Handle h) { return static_cast<double>(filterAt(h).stats().sizeInBytes); }
CUCKOO_EXPORT double scalable_bits_per_item(Handle h) { return filterAt(h).stats().bitsPerItem; }
CUCKOO_EXPORT double scalable_fpr_bound(Handle h) { return filterAt(h).stats().falsePositiveBound; }
CUCKOO_EXPORT int scalable_full(Handle h) { return filterAt(h).isFull() ? 1 : 0; }
CUCKOO_EXPORT double scalable_bucket_count(Handle h) { return static_cast<double>(filterAt(h).shape().bucketCount()); }
CUCKOO_EXPORT std::uint32_t scalable_fingerprint_bits(Handle h) { return filterAt(h).shape().fixedBits; }
CUCKOO_EXPORT std::uint32_t scalable_tail_bits(Handle h) { return filterAt(h).shape().tailBits; }
CUCKOO_EXPORT std::uint32_t scalable_rounds(Handle h) {
  const cuckoo::ScalableShape& shape = filterAt(h).shape();
  return shape.level - shape.initialLevel;
}
CUCKOO_EXPORT double scalable_initial_capacity(Handle h) {
  return static_cast<double>(filterAt(h).params().initialCapacity);
}
CUCKOO_EXPORT double scalable_fpr(Handle h) { return filterAt(h).params().falsePositiveRate; }
CUCKOO_EXPORT double scalable_growth(Handle h) { return filterAt(h).params().growth; }
CUCKOO_EXPORT std::uint32_t scalable_max_kicks(Handle h) { return filterAt(h).params().maxKicks; }
CUCKOO_EXPORT std::uint32_t scalable_seed_low(Handle h) {
  return static_cast<std::uint32_t>(filterAt(h).params().seed);
}
CUCKOO_EXPORT std::uint32_t scalable_seed_high(Handle h) {
  return static_cast<std::uint32_t>(filterAt(h).params().seed >> 32);
}
CUCKOO_EXPORT int scalable_semi_sort(Handle h) { return filterAt(h).params().semiSort ? 1 : 0; }

// The item calls (item_exports.hpp).
CUCKOO_EXPORT int scalable_add(Handle h, Address item, std::uint32_t length) {
  return glue::addBytes<ScalableCuckooFilter>(h, item, length);
}
CUCKOO_EXPORT int scalable_add_unique(Handle h, Address item, std::uint32_t length) {
  return glue::addUniqueBytes<ScalableCuckooFilter>(h, item, length);
}
CUCKOO_EXPORT int scalable_has(Handle h, Address item, std::uint32_t length) {
  return glue::hasBytes<ScalableCuckooFilter>(h, item, length);
}
CUCKOO_EXPORT int scalable_delete(Handle h, Address item, std::uint32_t length) {
  return glue::deleteBytes<ScalableCuckooFilter>(h, item, length);
}
CUCKOO_EXPORT std::uint32_t scalable_count(Handle h, Address item, std::uint32_t length) {
  return glue::countBytes<ScalableCuckooFilter>(h, item, length);
}
CUCKOO_EXPORT int scalable_add_number(Handle h, double item) { return glue::addNumber<ScalableCuckooFilter>(h, item); }
CUCKOO_EXPORT int scalable_add_unique_number(Handle h, double item) {
  return glue::addUniqueNumber<ScalableCuckooFilter>(h, item);
}
CUCKOO_EXPORT int scalable_has_number(Handle h, double item) { return glue::hasNumber<ScalableCuckooFilter>(h, item); }
CUCKOO_EXPORT int scalable_delete_number(Handle h, double item) {
  return glue::deleteNumber<ScalableCuckooFilter>(h, item);
}
CUCKOO_EXPORT std::uint32_t scalable_count_number(Handle h, double item) {
  return glue::countNumber<ScalableCuckooFilter>(h, item);
}
CUCKOO_EXPORT std::uint32_t scalable_add_packed(Handle h, Address data, Address offsets, std::uint32_t count) {
  return glue::addPacked<ScalableCuckooFilter>(h, data, offsets, count);
}
CUCKOO_EXPORT void scalable_has_packed(Handle h, Address data, Address offsets, std::uint32_t count, Address out) {
  glue::hasPacked<ScalableCuckooFilter>(h, data, offsets, count, out);
}
CUCKOO_EXPORT std::uint32_t scalable_delete_packed(Handle h, Address data, Address offsets, std::uint32_t count) {
  return glue::deletePacked<ScalableCuckooFilter>(h, data, offsets, count);
}
CUCKOO_EXPORT std::uint32_t scalable_add_fixed(Handle h, Address data, std::uint32_t width, std::uint32_t count) {
  return glue::addFixed<ScalableCuckooFilter>(h, data, width, count);
}
CUCKOO_EXPORT void scalable_has_fixed(Handle h, Address data, std::uint32_t width, std::uint32_t count, Address out) {
  glue::hasFixed<ScalableCuckooFilter>(h, data, width, count, out);
}
CUCKOO_EXPORT std::uint32_t scalable_delete_fixed(Handle h, Address data, std::uint32_t width, std::uint32_t count) {
  return glue::deleteFixed<ScalableCuckooFilter>(h, data, width, count);
}

CUCKOO_EXPORT double scalable_serialized_size(Handle h) { return glue::serializedSize<ScalableCuckooFilter>(h); }
CUCKOO_EXPORT void scalable_serialize(Handle h, Address out) { glue::serializeTo<ScalableCuckooFilter>(h, out); }
CUCKOO_EXPORT int scalable_deserialize(Address data, std::uint32_t length, Address outHandle) {
  return glue::deserializeFrom<ScalableCuckooFilter>(data, length, outHandle);
}
CUCKOO_EXPORT int scalable_clone(Handle h, Address outHandle) {
  return glue::cloneOf<ScalableCuckooFilter>(h, outHandle);
}
CUCKOO_EXPORT void scalable_destroy(Handle h) { glue::destroy<ScalableCuckooFilter>(h); }
CUCKOO_EXPORT int scalable_merge(Handle h, Handle other) { return glue::mergeInto<ScalableCuckooFilter>(h, other); }
