#pragma once
// Shared helpers for the core tests: deterministic keys and filters.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/bloom_filter.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/prng.hpp"

namespace cuckoo::testing {

// Items are 8-byte little-endian integers, like the TypeScript layer's numbers.
inline bool insertKey(CuckooFilter& f, std::uint64_t key) { return f.insert(&key, sizeof key); }
inline bool containsKey(const CuckooFilter& f, std::uint64_t key) { return f.contains(&key, sizeof key); }
inline bool eraseKey(CuckooFilter& f, std::uint64_t key) { return f.erase(&key, sizeof key); }
inline unsigned countKey(const CuckooFilter& f, std::uint64_t key) { return f.count(&key, sizeof key); }

// A filter of any kind made by its create(), which the test expects to succeed.
template <class Filter, class Params>
Filter createdFilter(const Params& params) {
  Filter filter;
  EXPECT_EQ(Filter::create(params, filter), Status::kOk);
  return filter;
}

inline CuckooFilter makeFilter(unsigned fingerprintBits, unsigned bucketSize, std::uint64_t bucketCount,
                               std::uint64_t seed = 1, std::uint32_t maxKicks = kDefaultMaxKicks,
                               bool semiSort = false) {
  return createdFilter<CuckooFilter>(FilterParams{fingerprintBits, bucketSize, bucketCount, maxKicks, seed, semiSort});
}

// The bytes of a CuckooFilter or ScalableCuckooFilter (FORMAT.md).
template <class Filter>
std::vector<unsigned char> bytesOf(const Filter& filter) {
  std::vector<unsigned char> bytes(filter.serializedSize());
  filter.serialize(bytes.data());
  return bytes;
}

// A StandardBloomFilter or BlockedBloomFilter.
template <class Filter>
Filter makeBloom(std::uint64_t bitCount, unsigned hashCount, std::uint64_t seed = 1) {
  return createdFilter<Filter>(BloomParams{bitCount, hashCount, seed});
}

// Inserts distinct keys base, base+1, ... until the first insert returns false.
// Returns the keys that were stored.
inline std::vector<std::uint64_t> fillToFirstFailure(CuckooFilter& f, std::uint64_t base) {
  std::vector<std::uint64_t> stored;
  for (std::uint64_t key = base;; ++key) {
    if (!insertKey(f, key)) break;
    stored.push_back(key);
  }
  return stored;
}

// Fraction of `probes` keys from a range never inserted that the filter reports.
inline double measuredFalsePositiveRate(const CuckooFilter& f, std::uint64_t probes) {
  std::uint64_t positives = 0;
  const std::uint64_t base = std::uint64_t{1} << 62;  // disjoint from every inserted range
  for (std::uint64_t k = 0; k < probes; ++k) positives += containsKey(f, base + k) ? 1 : 0;
  return static_cast<double>(positives) / static_cast<double>(probes);
}

// A snapshot of everything that defines a filter's state.
struct Snapshot {
  std::vector<unsigned char> table;
  std::uint64_t prngState;
  std::uint64_t itemCount;
  bool stashOccupied;
  std::uint32_t stashFingerprint;
  std::uint32_t stashBucket;
  bool operator==(const Snapshot& o) const {
    return table == o.table && prngState == o.prngState && itemCount == o.itemCount &&
           stashOccupied == o.stashOccupied && stashFingerprint == o.stashFingerprint &&
           stashBucket == o.stashBucket;
  }
};

inline Snapshot snapshot(const CuckooFilter& f) {
  return Snapshot{std::vector<unsigned char>(f.tableData(), f.tableData() + f.tableByteLength()), f.prngState(),
                  f.itemCount(),
                  f.stash().occupied, f.stash().fingerprint, f.stash().bucket};
}

}  // namespace cuckoo::testing
