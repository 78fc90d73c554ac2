#pragma once
// How the batches of both filter classes overlap their memory accesses: a
// block of items is hashed first and its buckets requested, then probed.

#include <cstddef>
#include <cstdint>

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
// In wasm a block's reads ahead pay only for a table well beyond the caches:
// each read holds the reorder buffer until its line arrives, where a prefetch
// would not. hasMany of a Uint32Array, lean module, ns an item without and
// with them: 15 / 17.5 at 2^14 buckets of f = 12, 18 / 21 at 2^19, 22-27 /
// 23-33 at 2^20 (6 MiB), 43-45 / 36-37 at 2^21 (12 MiB), 62 / 53 at 2^22.
inline constexpr std::uint64_t kReadAheadTableBytes = std::uint64_t{8} << 20;

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
