#pragma once
// Sizing a filter from what it must hold: `capacity` items at a
// false-positive rate of at most `rate` (the paper's Section 5.1, with any
// bucket count instead of powers of two).
//
// - For each bucket size b (2, 4, 8; semi-sorting needs 4), the bucket count
//   is the smallest m whose tables hold `capacity` items before their first
//   refused add (capacityFor), so bits per item at capacity is f / maxLoad up
//   to the rounding of m.
// - The fingerprint is the smallest f with 2b / 2^f <= rate, the paper's bound
//   at any load, widened if needed until groups of 2b + 1 items sharing both
//   their buckets, which no eviction can place (the paper's eq. (3), the reason
//   f must grow like log n / b), are expected less than once in 10^5 filters.
// - The filter gets the b with the fewest bits per item at capacity, m·b·f /
//   capacity (semi-sorted: f - 1 bits stored per entry).
//
// Usage:
//   cuckoo::FilterParams params;                       // seed, maxKicks, semiSort as wanted
//   if (cuckoo::paramsForCapacity(1'000'000, 0.001, params) == cuckoo::Status::kOk) {
//     cuckoo::CuckooFilter::create(params, filter);    // m = 264,551 buckets of 4, f = 13
//   }

#include <cstdint>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/status.hpp"

namespace cuckoo {

// Parameters for `capacity` items at a false-positive rate of at most
// `falsePositiveRate`, as above. `out.seed`, `out.maxKicks` and `out.semiSort`
// keep the values passed in. The guarantee that `capacity` adds succeed holds
// for the default maxKicks (500) or more.
Status paramsForCapacity(std::uint64_t capacity, double falsePositiveRate, FilterParams& out) noexcept;

// The load a large table (2^20 slots) of buckets of `bucketSize` slots (1, 2,
// 4 or 8) is sized to: what it reaches before its first refused add, less a
// margin: 0.43, 0.84, 0.945, 0.975 (0 for other sizes).
double practicalMaxLoad(unsigned bucketSize) noexcept;

// The load a table of `bucketCount` buckets of `bucketSize` slots is sized
// to: practicalMaxLoad for large tables, less for small ones, which reach a
// lower and more variable load before their first refused add (measured by
// cuckoo_load_curve, bench/README.md).
double maxLoadFor(unsigned bucketSize, std::uint64_t bucketCount) noexcept;

// How many items a table of `bucketCount` buckets of `bucketSize` slots is
// sized to hold: maxLoadFor of its slots, and never fewer than b + 1, which
// any table holds whatever the hashes (one bucket and the stash).
std::uint64_t capacityFor(unsigned bucketSize, std::uint64_t bucketCount) noexcept;

}  // namespace cuckoo
