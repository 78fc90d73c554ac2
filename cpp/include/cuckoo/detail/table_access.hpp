#pragma once
// A filter's table as the view of one shape (buckets.hpp) and its bucket
// relation as one of hashing.hpp's indexes: what the kernels
// (cpp/src/kernel.hpp) and the typed entry (cuckoo/key_filter_view.hpp) run
// the algorithms of filter_algorithms.hpp on.

#include <type_traits>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/detail/any_buckets.hpp"
#include "cuckoo/detail/buckets.hpp"
#include "cuckoo/hashing.hpp"

namespace cuckoo::detail {

struct TableAccess {
  template <class Buckets>
  [[gnu::always_inline]] static Buckets buckets(const CuckooFilter& f) noexcept {
    if constexpr (std::is_same_v<Buckets, AnyBuckets>) {
      return AnyBuckets(PackedBuckets<0, 0>(const_cast<unsigned char*>(f.packedTable_.data()), f.packedTable_.shape()),
                        SemiSortedBuckets<0>(const_cast<unsigned char*>(f.semiSortedTable_.data()), f.params_.fingerprintBits),
                        f.params_.semiSort);
    } else if constexpr (Buckets::kSemiSorted) {
      return Buckets(const_cast<unsigned char*>(f.semiSortedTable_.data()), f.params_.fingerprintBits);
    } else {
      return Buckets(const_cast<unsigned char*>(f.packedTable_.data()), f.packedTable_.shape());
    }
  }

  template <class Index>
  [[gnu::always_inline]] static Index index(const CuckooFilter& f) noexcept {
    if constexpr (std::is_same_v<Index, XorIndex>) {
      return f.index_.xorIndex();
    } else if constexpr (std::is_same_v<Index, RangeIndex>) {
      return f.index_.rangeIndex();
    } else if constexpr (std::is_same_v<Index, MulXorIndex>) {
      return f.index_.mulXorIndex();
    } else if constexpr (std::is_same_v<Index, MulRangeIndex>) {
      return f.index_.mulRangeIndex();
    } else {
      return f.index_;
    }
  }

  static FilterState& state(CuckooFilter& f) noexcept { return f.state_; }
  static const FilterState& state(const CuckooFilter& f) noexcept { return f.state_; }
  static const MultiplyShiftHash& multiplyShift(const CuckooFilter& f) noexcept { return f.multiplyShift_; }
};

}  // namespace cuckoo::detail
