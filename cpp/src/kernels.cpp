// The kernels the core is compiled with, and which one serves a filter.
//
// Specialised (constant masks, strides and shifts, and the bucket layout of
// the filter's hash id without a run-time branch), natively:
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
// each compiled once for both bucket layouts (a branch on the layout, always
// predicted, instead of a second copy).
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

// Each specialised view in both bucket layouts: hash id 1 (a power-of-two
// bucket count) and 2.
template <class Buckets>
struct Pair {
  KernelTable powerOfTwo;
  KernelTable anyCount;
  const KernelTable& forCount(bool isPowerOfTwo) const noexcept { return isPowerOfTwo ? powerOfTwo : anyCount; }
};

template <class Buckets>
Pair<Buckets> pairOf(const char* powerOfTwoName, const char* anyCountName) {
  if constexpr (kAllShapes) {
    return Pair<Buckets>{tableOf<Buckets, XorIndex>(powerOfTwoName), tableOf<Buckets, RangeIndex>(anyCountName)};
  } else {
    return Pair<Buckets>{tableOf<Buckets, BucketIndex>(powerOfTwoName), tableOf<Buckets, BucketIndex>(anyCountName)};
  }
}

const KernelTable& semiSortedKernel(const FilterParams& params, bool powerOfTwo) noexcept {
  static const auto kSemiSorted13 =
      pairOf<SemiSortedBuckets<13>>("semi-sorted f=13, hash id 1", "semi-sorted f=13, hash id 2");
  if (params.fingerprintBits == 13) return kSemiSorted13.forCount(powerOfTwo);
  if constexpr (kAllShapes) {
    static const auto kSemiSorted16 = pairOf<SemiSortedBuckets<16>>("semi-sorted f=16, hash id 1", "semi-sorted f=16, hash id 2");
    if (params.fingerprintBits == 16) return kSemiSorted16.forCount(powerOfTwo);
  }
  return kGeneric;
}

const KernelTable& plainKernel(const FilterParams& params, bool powerOfTwo) noexcept {
  if constexpr (kAllShapes) {
    static const auto kPlain4x8 = pairOf<PackedBuckets<4, 8>>("plain b=4 f=8, hash id 1", "plain b=4 f=8, hash id 2");
    static const auto kPlain4x16 = pairOf<PackedBuckets<4, 16>>("plain b=4 f=16, hash id 1", "plain b=4 f=16, hash id 2");
    static const auto kPlain2 = pairOf<PackedBuckets<2, 0>>("plain b=2, hash id 1", "plain b=2, hash id 2");
    if (params.bucketSize == 2) return kPlain2.forCount(powerOfTwo);
    if (params.bucketSize == 4 && params.fingerprintBits == 8) return kPlain4x8.forCount(powerOfTwo);
    if (params.bucketSize == 4 && params.fingerprintBits == 16) return kPlain4x16.forCount(powerOfTwo);
  }
  if (params.bucketSize != 4) return kGeneric;
  static const auto kPlain4x12 = pairOf<PackedBuckets<4, 12>>("plain b=4 f=12, hash id 1", "plain b=4 f=12, hash id 2");
  static const auto kPlain4 = pairOf<PackedBuckets<4, 0>>("plain b=4, hash id 1", "plain b=4, hash id 2");
  return params.fingerprintBits == 12 ? kPlain4x12.forCount(powerOfTwo) : kPlain4.forCount(powerOfTwo);
}

}  // namespace

const KernelTable& kernelFor(const FilterParams& params, bool generic) noexcept {
  // Keyed filters hash with SipHash, which only the generic kernels carry.
  if (generic || kLean || params.keyedHash) return kGeneric;
  const bool powerOfTwo = isPowerOfTwo(params.bucketCount);
  return params.semiSort ? semiSortedKernel(params, powerOfTwo) : plainKernel(params, powerOfTwo);
}

}  // namespace cuckoo::detail
