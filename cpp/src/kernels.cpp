// The kernels the core is compiled with, and which one serves a filter.
//
// Specialised (constant masks, strides and shifts, and the bucket layout of
// the filter's hash id, 1, 2 or 6 to 11, without a run-time branch), natively:
// - plain b = 4 with f = 8, 12 and 16 (one aligned load per bucket), and b = 4
//   with any other f, which covers what CuckooFilter.create chooses at most
//   rates (f = 10 at 1 %, 13 at 0.1 %, 17 at 0.01 %);
// - plain b = 2, any f;
// - semi-sorted f = 13 (12 bits stored, the space of plain f = 12) and 16.
// WebAssembly carries a subset (below).
// The generic kernel, which decides the shape and the layout at run time,
// serves every other shape, and any filter whose kernel was switched to it
// (CuckooFilter::useGenericKernel) for comparison.

#include "kernel.hpp"
#include "kernel_tables.hpp"

namespace cuckoo::detail {
namespace {

// A specialised kernel compiles the hot operations (add, has, delete, one item
// at a time and in batches) for its shape; the rest (addUnique, counting, the
// demo's observed inserts and deletes, merging) take the generic kernel's
// path (kernels_generic.cpp), which makes the same decisions: this keeps the
// WebAssembly modules small. The tables are filled when the program starts,
// from the generic table, which is a constant.
template <class Buckets, class Index>
KernelTable tableOf(const char* name) {
  using K = Kernel<Buckets, Index>;
  const KernelTable& generic = kGeneric;
  return KernelTable{name,          &K::insert,           &K::insertKey,        generic.insertUnique,
                     generic.insertObserved,              &K::contains,         &K::containsKey,
                     &K::erase,     &K::eraseKey,         generic.count,        generic.eraseObserved,
                     generic.insertFingerprint,           &K::insertMany,       &K::containsMany,
                     &K::eraseMany};
}

// Which specialised kernels this build carries. Natively, every one above.
// WebAssembly is downloaded, so there each module carries fewer (the build
// compiles this file once per module, bindings/CMakeLists.txt):
// - the full module (cuckoo-wasm/inspect and /bloom, the paper's evaluation):
//   plain b = 4 with f = 12 and with any f (which CuckooFilter.create picks at
//   most rates), and semi-sorted f = 13;
// - the lean module of the main entry (CUCKOO_LEAN_KERNELS): none. There the
//   generic kernels serve every filter: specialised ones for b = 4 measured
//   within a few percent of them in wasm (the engine's cost of a call and of
//   hashing dominates), for 2.5 KB (gzip) of a download with a budget;
// each compiled once for every bucket layout (hash ids 1, 2 and 6 to 11: a
// branch on the layout, always predicted, instead of more copies).
#if !defined(__wasm__)
constexpr bool kAllShapes = true;
#else
constexpr bool kAllShapes = false;
#endif
#if defined(CUCKOO_LEAN_KERNELS)
constexpr bool kLean = true;
#else
constexpr bool kLean = false;
#endif

// Each specialised view in its four bucket layouts: hash ids 1 and 6, 8 or 10
// (a power-of-two bucket count) and 2 and 7, 9 or 11, the ones of 64-bit keys
// (6 to 11, which share their bucket relations).
template <class Buckets>
struct Layouts {
  KernelTable powerOfTwo;
  KernelTable anyCount;
  KernelTable multiplyShiftPowerOfTwo;
  KernelTable multiplyShiftAnyCount;
  const KernelTable& forFilter(bool isPowerOfTwo, bool multiplyShift) const noexcept {
    if (multiplyShift) return isPowerOfTwo ? multiplyShiftPowerOfTwo : multiplyShiftAnyCount;
    return isPowerOfTwo ? powerOfTwo : anyCount;
  }
};

// A shape's kernel names, one per hash id of Layouts.
#define CUCKOO_KERNEL_NAMES(shape) shape ", hash id 1", shape ", hash id 2", shape ", hash ids 6, 8 and 10", shape ", hash ids 7, 9 and 11"

// Natively the multiply-shift layouts are compiled only for the shapes the
// full WebAssembly module carries (plain b = 4, f = 12 and any f, and
// semi-sorted f = 13), which serve the filters CuckooFilter.create makes. A
// filter of 64-bit keys of a rarer shape takes the plain b = 4 kernel of any
// f or the generic one: four more copies of every rare shape cost more build
// time than they would gain.
template <class Buckets, bool kMultiplyShiftToo = true>
Layouts<Buckets> layoutsOf(const char* id1, const char* id2, const char* id6, const char* id7) {
  if constexpr (kAllShapes && !kMultiplyShiftToo) {
    return Layouts<Buckets>{tableOf<Buckets, XorIndex>(id1), tableOf<Buckets, RangeIndex>(id2), kGeneric, kGeneric};
  } else if constexpr (kAllShapes) {
    return Layouts<Buckets>{tableOf<Buckets, XorIndex>(id1), tableOf<Buckets, RangeIndex>(id2),
                            tableOf<Buckets, MulXorIndex>(id6), tableOf<Buckets, MulRangeIndex>(id7)};
  } else {
    return Layouts<Buckets>{tableOf<Buckets, BucketIndex>(id1), tableOf<Buckets, BucketIndex>(id2),
                            tableOf<Buckets, BucketIndex>(id6), tableOf<Buckets, BucketIndex>(id7)};
  }
}

const KernelTable& semiSortedKernel(const FilterParams& params, bool powerOfTwo) noexcept {
  const bool multiplyShift = params.multiplyShiftHash;
  static const auto kSemiSorted13 = layoutsOf<SemiSortedBuckets<13>>(CUCKOO_KERNEL_NAMES("semi-sorted f=13"));
  if (params.fingerprintBits == 13) return kSemiSorted13.forFilter(powerOfTwo, multiplyShift);
  if constexpr (kAllShapes) {
    static const auto kSemiSorted16 = layoutsOf<SemiSortedBuckets<16>, false>(CUCKOO_KERNEL_NAMES("semi-sorted f=16"));
    if (params.fingerprintBits == 16 && !multiplyShift) return kSemiSorted16.forFilter(powerOfTwo, false);
  }
  return kGeneric;
}

const KernelTable& plainKernel(const FilterParams& params, bool powerOfTwo) noexcept {
  const bool multiplyShift = params.multiplyShiftHash;
  if constexpr (kAllShapes) {
    static const auto kPlain4x8 = layoutsOf<PackedBuckets<4, 8>, false>(CUCKOO_KERNEL_NAMES("plain b=4 f=8"));
    static const auto kPlain4x16 = layoutsOf<PackedBuckets<4, 16>, false>(CUCKOO_KERNEL_NAMES("plain b=4 f=16"));
    static const auto kPlain2 = layoutsOf<PackedBuckets<2, 0>, false>(CUCKOO_KERNEL_NAMES("plain b=2"));
    if (!multiplyShift) {
      if (params.bucketSize == 2) return kPlain2.forFilter(powerOfTwo, false);
      if (params.bucketSize == 4 && params.fingerprintBits == 8) return kPlain4x8.forFilter(powerOfTwo, false);
      if (params.bucketSize == 4 && params.fingerprintBits == 16) return kPlain4x16.forFilter(powerOfTwo, false);
    }
  }
  if (params.bucketSize != 4) return kGeneric;
  static const auto kPlain4x12 = layoutsOf<PackedBuckets<4, 12>>(CUCKOO_KERNEL_NAMES("plain b=4 f=12"));
  static const auto kPlain4 = layoutsOf<PackedBuckets<4, 0>>(CUCKOO_KERNEL_NAMES("plain b=4"));
  return params.fingerprintBits == 12 ? kPlain4x12.forFilter(powerOfTwo, multiplyShift)
                                      : kPlain4.forFilter(powerOfTwo, multiplyShift);
}

#undef CUCKOO_KERNEL_NAMES

}  // namespace

const KernelTable& kernelFor(const FilterParams& params, bool generic) noexcept {
  // Keyed filters hash with SipHash, which only the generic kernels carry.
  if (generic || kLean || params.keyedHash) return kGeneric;
  const bool powerOfTwo = isPowerOfTwo(params.bucketCount);
  return params.semiSort ? semiSortedKernel(params, powerOfTwo) : plainKernel(params, powerOfTwo);
}

}  // namespace cuckoo::detail
