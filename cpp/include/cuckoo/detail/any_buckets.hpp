#pragma once
// Either table's buckets, the table chosen at run time: the view of the
// generic kernel (kernels_generic.cpp), which so serves plain and semi-sorted
// filters with one copy of the algorithms. In WebAssembly that copy is most
// of what the lean module's kernels weigh (a second one, for semi-sorted
// tables alone, was 1.8 KB of its download, gzipped); each operation here is
// a call to the table's own generic view (buckets.hpp), so that neither
// view's code is copied into every algorithm either. Natively the operations
// are inlined.
//
// A probe is the bucket's number: the table is read when it is tested.
// (The batches request a block's buckets before testing any: kernel.hpp.)

#include <cstdint>

#include "cuckoo/detail/buckets.hpp"

#if defined(__wasm__)
#define CUCKOO_ANY_BUCKETS_CALL [[gnu::noinline]]
#else
#define CUCKOO_ANY_BUCKETS_CALL [[gnu::always_inline]]
#endif

namespace cuckoo::detail {

class AnyBuckets {
 public:
  // The algorithms' choices that depend on the table are the plain ones
  // (filter_algorithms.hpp: both buckets tested); they serve semi-sorted buckets alike.
  static constexpr bool kSemiSorted = false;
  static constexpr bool kGeneric = true;
  using Probe = std::uint32_t;

  template <class Filter>
  static unsigned fingerprintBits(const Filter& filter) noexcept {
    return filter.params().fingerprintBits;
  }

  AnyBuckets(PackedBuckets<0, 0> packed, SemiSortedBuckets<0> semiSorted, bool isSemiSorted) noexcept
      : packed_(packed), semiSorted_(semiSorted), isSemiSorted_(isSemiSorted) {}

  // Inline in WebAssembly too, unlike the operations below: a batch computes
  // two addresses an item to read its block's buckets ahead (kernel.hpp).
  const unsigned char* address(std::uint32_t bucket) const noexcept {
    return isSemiSorted_ ? semiSorted_.address(bucket) : packed_.address(bucket);
  }
  unsigned slots() const noexcept { return isSemiSorted_ ? semiSorted_.slots() : packed_.slots(); }

  Probe probe(std::uint32_t bucket) const noexcept { return bucket; }
  CUCKOO_ANY_BUCKETS_CALL bool holds(Probe bucket, std::uint32_t fingerprint) const noexcept {
    return isSemiSorted_ ? semiSorted_.holds(semiSorted_.probe(bucket), fingerprint)
                         : packed_.holds(packed_.probe(bucket), fingerprint);
  }
  // Whether either bucket holds the fingerprint: a lookup's two tests in one
  // call (in WebAssembly a call per bucket cost more than the test), for
  // plain buckets of one 64-bit load (those of b = 4 up to f = 14, which
  // CuckooFilter.create chooses at every rate down to 10^-4): both read,
  // then both tested. Other tables test bucket by bucket.
  CUCKOO_ANY_BUCKETS_CALL bool holdsEither(std::uint32_t first, std::uint32_t second, std::uint32_t fingerprint) const noexcept {
    if (isSemiSorted_ || !packed_.oneLoad()) return holds(first, fingerprint) || holds(second, fingerprint);
    const PackedBuckets<0, 0>::Probe a = packed_.probe(first), b = packed_.probe(second);
    return (static_cast<unsigned>(packed_.holds(a, fingerprint)) | static_cast<unsigned>(packed_.holds(b, fingerprint))) != 0;
  }
  CUCKOO_ANY_BUCKETS_CALL std::uint32_t matching(Probe bucket, std::uint32_t fingerprint) const noexcept {
    return isSemiSorted_ ? semiSorted_.matching(semiSorted_.probe(bucket), fingerprint)
                         : packed_.matching(packed_.probe(bucket), fingerprint);
  }

  CUCKOO_ANY_BUCKETS_CALL bool insertIntoEmptySlot(std::uint32_t bucket, std::uint32_t fingerprint) noexcept {
    return isSemiSorted_ ? semiSorted_.insertIntoEmptySlot(bucket, fingerprint)
                         : packed_.insertIntoEmptySlot(bucket, fingerprint);
  }
  CUCKOO_ANY_BUCKETS_CALL bool removeOne(std::uint32_t bucket, std::uint32_t fingerprint) noexcept {
    return isSemiSorted_ ? semiSorted_.removeOne(bucket, fingerprint) : packed_.removeOne(bucket, fingerprint);
  }
  CUCKOO_ANY_BUCKETS_CALL std::uint32_t exchange(std::uint32_t bucket, unsigned slot, std::uint32_t fingerprint) noexcept {
    return isSemiSorted_ ? semiSorted_.exchange(bucket, slot, fingerprint) : packed_.exchange(bucket, slot, fingerprint);
  }
  std::uint32_t kickRecord(unsigned slot, std::uint32_t incoming) const noexcept {
    return isSemiSorted_ ? semiSorted_.kickRecord(slot, incoming) : packed_.kickRecord(slot, incoming);
  }
  CUCKOO_ANY_BUCKETS_CALL std::uint32_t undoKick(std::uint32_t bucket, std::uint32_t record, std::uint32_t fingerprint) noexcept {
    return isSemiSorted_ ? semiSorted_.undoKick(bucket, record, fingerprint) : packed_.undoKick(bucket, record, fingerprint);
  }

 private:
  PackedBuckets<0, 0> packed_;
  SemiSortedBuckets<0> semiSorted_;
  bool isSemiSorted_;
};

}  // namespace cuckoo::detail

#undef CUCKOO_ANY_BUCKETS_CALL
