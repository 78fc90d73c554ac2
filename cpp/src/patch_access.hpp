#pragma once
// What patches read and write of a filter beyond its public interface: its
// table as a TableView, its state (stash, counts, eviction PRNG), and its
// serialized header, written by the byte format's own code
// (serialization.cpp, scalable_serialization.cpp) so that FORMAT.md's layout
// is written in one place. A friend of both filter classes.

#include <cstddef>
#include <cstdint>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/scalable_filter.hpp"
#include "patch_table.hpp"
#include "scalable_table.hpp"

namespace cuckoo::detail {

// Everything of a growable filter's state besides its table (its shape never
// changes through a patch).
struct ScalableState {
  ScalableCuckooFilter::HeldEntry stash[ScalableCuckooFilter::kMaxHeld]{};
  unsigned stashCount = 0;
  std::uint64_t itemCount = 0;
  std::uint64_t entryCount = 0;
  std::uint64_t prngState = 0;
};

struct PatchAccess {
  // Bytes [0, H) of the filter's serialized form (FORMAT.md); returns H.
  static std::size_t writeHeader(const CuckooFilter& filter, unsigned char* out) noexcept;
  static std::size_t writeHeader(const ScalableCuckooFilter& filter, unsigned char* out) noexcept;

  // A view of the table; writing through it is for a filter the caller may change.
  static TableView table(const CuckooFilter& filter) noexcept {
    const FilterParams& p = filter.params_;
    return {const_cast<unsigned char*>(filter.tableData()), p.bucketCount, p.semiSort ? 4U : p.bucketSize,
            p.fingerprintBits, p.semiSort};
  }
  static TableView table(const ScalableCuckooFilter& filter) noexcept {
    return {filter.table_->data(), filter.shape_.bucketCount(), 4, filter.shape_.slotBits(), filter.params_.semiSort};
  }

  static FilterState state(const CuckooFilter& filter) noexcept { return filter.state_; }
  // A filter brought to another state is not full: as after a load, its next add decides.
  static void setState(CuckooFilter& filter, const FilterState& state) noexcept {
    filter.state_ = state;
    filter.state_.lastAddRefused = false;
  }

  static ScalableState state(const ScalableCuckooFilter& filter) noexcept {
    ScalableState state;
    for (unsigned k = 0; k < ScalableCuckooFilter::kMaxHeld; ++k) state.stash[k] = filter.stash_[k];
    state.stashCount = filter.stashCount_;
    state.itemCount = filter.itemCount_;
    state.entryCount = filter.entryCount_;
    state.prngState = filter.prng_.state();
    return state;
  }
  static void setState(ScalableCuckooFilter& filter, const ScalableState& state) noexcept {
    for (unsigned k = 0; k < ScalableCuckooFilter::kMaxHeld; ++k) filter.stash_[k] = state.stash[k];
    filter.stashCount_ = state.stashCount;
    filter.itemCount_ = state.itemCount;
    filter.entryCount_ = state.entryCount;
    filter.prng_ = SplitMix64(state.prngState);
  }
};

}  // namespace cuckoo::detail
