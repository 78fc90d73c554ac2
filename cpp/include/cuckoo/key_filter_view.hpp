#pragma once
// The typed entry to a filter of 64-bit keys whose shape the caller knows
// when compiling: insert, contains and erase of a key, inlined into the
// caller's loop. A CuckooFilter's own calls reach a kernel chosen when the
// filter was made, through a pointer, and reload the filter's fields on every
// call; a loop of lookups over this view keeps them in registers. (A loop of
// inserts or deletes still reloads them after each store into the table,
// which the compiler cannot tell from a store into the filter.) The view is
// the same filter: it makes the choices of the filter's own kernel (the same
// algorithms, filter_algorithms.hpp) and the two can be used in turn.
//
//   cuckoo::FilterParams params;
//   params.bucketCount = 1 << 20;         // a power of two
//   params.multiplyShiftHash = true;      // hash ids 10 and 11: the hash the view inlines
//   cuckoo::CuckooFilter filter;
//   cuckoo::CuckooFilter::create(params, filter);
//   if (auto keys = cuckoo::KeyFilterView<12>::of(filter)) {  // b = 4, f = 12, plain
//     for (std::uint64_t key : incoming) keys->insert(key);
//     bool maybe = keys->contains(42);
//   }
//
// Only for what it is compiled for: multiplyShiftHash, a power-of-two bucket
// count, bucketSize 4, `FingerprintBits` and `SemiSorted` as the filter's, and
// `Form` as the filter's hash of keys: KeyHash::kSeededMix for every filter
// made now (hash ids 10 and 11), the others for filters loaded with hash ids
// 6 to 9. of() gives nothing for any other filter, whose own calls serve it as
// fast as its kernel can. The view holds a pointer: the filter must outlive
// it and stay where it is.

#include <cstdint>
#include <optional>
#include <type_traits>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/detail/buckets.hpp"
#include "cuckoo/detail/filter_algorithms.hpp"
#include "cuckoo/detail/table_access.hpp"
#include "cuckoo/hashing.hpp"

namespace cuckoo {

template <unsigned FingerprintBits, bool SemiSorted = false, KeyHash Form = KeyHash::kSeededMix>
class KeyFilterView {
  using Buckets = std::conditional_t<SemiSorted, detail::SemiSortedBuckets<FingerprintBits>,
                                     detail::PackedBuckets<4, FingerprintBits>>;
  using Algorithms = detail::FilterAlgorithms<Buckets, MulXorIndex>;
  using Access = detail::TableAccess;

 public:
  // Whether `filter` is one this view is compiled for.
  static bool fits(const CuckooFilter& filter) noexcept {
    const FilterParams& p = filter.params();
    return p.multiplyShiftHash && p.keyHash == Form && isPowerOfTwo(p.bucketCount) &&
           p.bucketSize == 4 && p.fingerprintBits == FingerprintBits && p.semiSort == SemiSorted;
  }
  static std::optional<KeyFilterView> of(CuckooFilter& filter) noexcept {
    if (!fits(filter)) return std::nullopt;
    return KeyFilterView(filter);
  }

  // As CuckooFilter::insert(key), contains(key) and erase(key).
  bool insert(std::uint64_t key) noexcept {
    detail::SilentObserver silent;
    return Algorithms::addIn(Access::state(*filter_), filter_->params().maxKicks, buckets(), index(), locate(key),
                             silent);
  }
  bool contains(std::uint64_t key) const noexcept {
    return Algorithms::containsIn(Access::state(*filter_), buckets(), locate(key));
  }
  bool erase(std::uint64_t key) noexcept {
    detail::SilentObserver silent;
    return Algorithms::eraseIn(Access::state(*filter_), filter_->params().maxKicks, buckets(), index(), locate(key),
                               silent);
  }

 private:
  explicit KeyFilterView(CuckooFilter& filter) noexcept : filter_(&filter) {}

  Buckets buckets() const noexcept { return Access::buckets<Buckets>(*filter_); }
  MulXorIndex index() const noexcept { return Access::index<MulXorIndex>(*filter_); }
  ItemLocation locate(std::uint64_t key) const noexcept {
    return locateWith(index(), Access::multiplyShift(*filter_).template hashOf<Form>(key), FingerprintBits);
  }

  CuckooFilter* filter_;
};

}  // namespace cuckoo
