// The generic kernels: they decide the table's shape and bucket layout at run
// time, so they serve every shape no specialised kernel is compiled for, any
// filter switched to them (CuckooFilter::useGenericKernel), and the rarer
// operations a specialised kernel leaves to them (kernels.cpp). Their own
// file, so that the lean WebAssembly module can compile them for size while
// its specialised kernel stays compiled for speed (cpp/CMakeLists.txt).

#include "kernel.hpp"
#include "kernel_tables.hpp"

namespace cuckoo::detail {
namespace {

// The lean WebAssembly module has no caller of observed inserts and deletes
// (only cuckoo-wasm/inspect traces them, in the full module): it leaves them out.
#if defined(CUCKOO_LEAN_KERNELS)
template <class K>
constexpr auto kObservedInsert = nullptr;
template <class K>
constexpr auto kObservedErase = nullptr;
#else
template <class K>
constexpr auto kObservedInsert = &K::insertObserved;
template <class K>
constexpr auto kObservedErase = &K::eraseObserved;
#endif

template <class Buckets>
constexpr KernelTable genericTable() {
  using K = Kernel<Buckets, BucketIndex>;
  return KernelTable{"generic",        &K::insert,       &K::insertKey,     &K::insertUnique, kObservedInsert<K>,
                     &K::contains,     &K::containsKey,  &K::erase,         &K::eraseKey,     &K::count,
                     kObservedErase<K>, &K::insertFingerprint, &K::insertMany, &K::containsMany, &K::eraseMany};
}

}  // namespace

// Constant (constexpr), so initialized before kernels.cpp's tables copy from them.
constexpr KernelTable kGenericPacked = genericTable<PackedBuckets<0, 0>>();
constexpr KernelTable kGenericSemiSorted = genericTable<SemiSortedBuckets<0>>();

}  // namespace cuckoo::detail
