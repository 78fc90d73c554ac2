// The generic kernel: it decides the table (plain or semi-sorted,
// any_buckets.hpp), its shape and its bucket layout at run time, so it serves
// every shape no specialised kernel is compiled for, any filter switched to
// it (CuckooFilter::useGenericKernel), and the rarer operations a specialised
// kernel leaves to it (kernels.cpp). Its own file, so that the lean
// WebAssembly module can compile it for size (cpp/CMakeLists.txt).

#include "cuckoo/detail/any_buckets.hpp"
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

constexpr KernelTable genericTable() {
  using K = Kernel<AnyBuckets, BucketIndex>;
  return KernelTable{"generic",        &K::insert,       &K::insertKey,     &K::insertUnique, kObservedInsert<K>,
                     &K::contains,     &K::containsKey,  &K::erase,         &K::eraseKey,     &K::count,
                     kObservedErase<K>, &K::insertFingerprint, &K::insertMany, &K::containsMany, &K::eraseMany};
}

}  // namespace

// Constant (constexpr), so initialized before kernels.cpp's tables copy from it.
constexpr KernelTable kGeneric = genericTable();

}  // namespace cuckoo::detail
