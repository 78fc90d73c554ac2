#pragma once
// How the batches of both filter classes overlap their memory accesses: a
// block of items is hashed first and its buckets requested, then probed.

#include <cstddef>

namespace cuckoo::detail {

// Items per block of a batch: enough loads in flight to hide the latency of
// a table beyond the caches, few enough that the block's state stays in registers
// and L1.
inline constexpr std::size_t kBatchBlock = 16;

// Natively a batch prefetches each item's buckets as it hashes the block, and
// then probes them; wasm has no prefetch, so there the batch loads the
// buckets of the whole block first (their misses overlap), then compares.
#if defined(__wasm__)
inline constexpr bool kPrefetches = false;
inline void prefetch(const void*) noexcept {}
#else
inline constexpr bool kPrefetches = true;
inline void prefetch(const void* address) noexcept { __builtin_prefetch(address, 1, 3); }
#endif
// Where the bytes a batch touches in wasm go, so that the loads stay.
inline volatile unsigned char gTouched = 0;

// Requests the byte at `address`: a prefetch natively; in wasm a read, whose
// value is folded into `seen` (store `seen` to gTouched once per block).
inline void request(const unsigned char* address, unsigned char& seen) noexcept {
  if constexpr (kPrefetches) {
    prefetch(address);
  } else {
    seen ^= *address;
  }
}

}  // namespace cuckoo::detail
