#pragma once
// Patches between two states of one filter (FORMAT.md, "Patches"): the bytes
// that turn a filter of some state (the base) into another state of the same
// filter (the result), byte for byte, stash, item count and eviction PRNG
// included. A patch names both states by the checksums their serialized bytes
// end with, so that it applies to its base and to nothing else, and it
// carries only the slots that differ: each slot's new value and, as an
// Elias-Fano code, where it is; or, when that would be longer, the result's
// table whole.
//
// Usage:
//   cuckoo::PatchBytes patch;
//   if (cuckoo::diff(older, newer, patch) == cuckoo::Status::kOk) send(patch.data(), patch.size());
//   ...
//   cuckoo::Status applied = cuckoo::applyPatch(copyOfOlder, bytes, length);  // kOk: now equal to newer
//
// Applying checks the patch (its own checksum, then its base against the
// filter), then every value it writes, and after writing the result against
// its checksum; on any failure the filter is left exactly as it was.

#include <cstddef>
#include <cstdint>
#include <utility>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/scalable_filter.hpp"
#include "cuckoo/status.hpp"

namespace cuckoo {

inline constexpr std::uint8_t kPatchFormatVersion = 1;

// A patch's bytes, owned (allocated with malloc: the core never throws).
class PatchBytes {
 public:
  PatchBytes() noexcept = default;
  PatchBytes(const PatchBytes&) = delete;
  PatchBytes& operator=(const PatchBytes&) = delete;
  PatchBytes(PatchBytes&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  PatchBytes& operator=(PatchBytes&& other) noexcept;
  ~PatchBytes();

  // A zeroed buffer of `size` bytes (false when it cannot be allocated).
  bool allocate(std::size_t size) noexcept;
  const unsigned char* data() const noexcept { return data_; }
  unsigned char* data() noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  // Hands the bytes over, to be freed with free(); this object is then empty.
  unsigned char* release() noexcept {
    size_ = 0;
    return std::exchange(data_, nullptr);
  }

 private:
  unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

// The patch from `older` to `newer`, which must be two states of one filter:
// the same parameters and seed (else kPatchFiltersDiffer), and for growable
// filters the same table size (else kPatchShapeChanged: a filter that grew
// is sent whole). kOutOfMemory when the patch cannot be allocated.
Status diff(const CuckooFilter& older, const CuckooFilter& newer, PatchBytes& out) noexcept;
Status diff(const ScalableCuckooFilter& older, const ScalableCuckooFilter& newer, PatchBytes& out) noexcept;

// Applies a patch made by diff(base, result) to `filter`, which then equals
// `result` byte for byte. kPatchWrongBase when `filter` is not in the patch's
// base state (or the patch is for another filter); a kFormat* status for a
// patch that is damaged or does not produce the result it names;
// kOutOfMemory. On any failure `filter` is unchanged.
Status applyPatch(CuckooFilter& filter, const unsigned char* patch, std::size_t length) noexcept;
Status applyPatch(ScalableCuckooFilter& filter, const unsigned char* patch, std::size_t length) noexcept;

// What a patch's header says, read without a filter (after the same checks
// of magic, version, length and checksum as applyPatch makes first).
struct PatchSummary {
  std::uint64_t baseChecksum = 0;    // the last 8 bytes of the base's serialized form, little-endian
  std::uint64_t resultChecksum = 0;  // and of the result's
  std::uint8_t filterFormat = 0;     // the result's byte format version: 1, 2 or 4 (CuckooFilter), 3 (growable)
  bool wholeTable = false;           // the body is the result's table, not its changed slots
  std::uint64_t changedSlots = 0;    // slots the body changes (every slot for a whole table)
};
Status describePatch(const unsigned char* patch, std::size_t length, PatchSummary& out) noexcept;

// The checksum a filter's serialized bytes end with (FORMAT.md), computed
// without serializing: what a patch names its base and result by.
std::uint64_t stateChecksum(const CuckooFilter& filter) noexcept;
std::uint64_t stateChecksum(const ScalableCuckooFilter& filter) noexcept;

// The contents of some buckets, for a table kept elsewhere that reports its
// changes bucket by bucket (cuckoo-wasm/redis's change log): bucket
// `buckets[k]` gets the bucketBits bits at byte k * stride of `contents`, in
// the payload's bit order (FORMAT.md; bucketBits = b*f, or 4f - 4
// semi-sorted), and then the filter's stash, item count and PRNG state are
// `stash`, `itemCount` and `prngState`. Checked before anything is written:
// buckets in range and listed once, their unused bits zero, semi-sorted ranks
// and order valid, and `itemCount` equal to the non-empty slots plus the stash
// afterwards (else kFormatInconsistent, with nothing changed).
Status replaceBuckets(CuckooFilter& filter, const std::uint32_t* buckets, std::size_t count,
                      const unsigned char* contents, std::size_t stride, const Stash& stash, std::uint64_t itemCount,
                      std::uint64_t prngState) noexcept;

// A filter whose state, eviction PRNG included, is given whole (the replica of
// a Redis filter starts from its snapshot): CuckooFilter::fromParts, with
// `prngState` instead of the seed's first state.
Status restoreFilter(const FilterParams& params, const unsigned char* payload, std::size_t length, const Stash& stash,
                     std::uint64_t itemCount, std::uint64_t prngState, CuckooFilter& out) noexcept;

}  // namespace cuckoo
