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
CUCKOO_EXPORT double scalable_load_factor(Handle h) { return filterAt(h).stats().loadFactor; }
CUCKOO_EXPORT std::uint32_t scalable_stashed(Handle h) { return filterAt(h).stashCount(); }
CUCKOO_EXPORT double scalable_byte_length(Handle h) { return static_cast<double>(filterAt(h).stats().sizeInBytes); }
CUCKOO_EXPORT double scalable_bits_per_item(Handle h) { return filterAt(h).stats().bitsPerItem; }
CUCKOO_EXPORT double scalable_fpr_bound(Handle h) { return filterAt(h).stats().falsePositiveBound; }
CUCKOO_EXPORT int scalable_full(Handle h) { return filterAt(h).isFull() ? 1 : 0; }
CUCKOO_EXPORT double scalable_bucket_count(Handle h) { return static_cast<double>(filterAt(h).shape().bucketCount()); }
CUCKOO_EXPORT std::uint32_t scalable_fingerprint_bits(Handle h) { return filterAt(h).shape().fixedBits; }
CUCKOO_EXPORT std::uint32_t scalable_tail_bits(Handle h) { return filterAt(h).shape().tailBits; }
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

// The item calls, the batches and the bytes (item_exports.hpp).
GLUE_ITEM_EXPORTS(scalable, ScalableCuckooFilter)
