#pragma once
// The layout cuckoo-wasm/redis stores a filter in (ts/src/redis/layout.ts
// documents it; this is its C++ reading and writing, checked against the
// TypeScript by the tests): a root key holding the filter's parameters, and
// per shard chunk keys {T}:0, {T}:1, ... whose chunk 0 starts with the
// shard's 76-byte header. All integers big-endian.

#include <cstddef>
#include <cstdint>
#include <string>

#include "cuckoo/cuckoo_filter.hpp"
#include "refusal.hpp"

namespace cuckoo::redis {

inline constexpr std::size_t kHeaderBytes = 76;
inline constexpr std::size_t kFixedHeaderBytes = 52;
inline constexpr std::size_t kStateBytes = kHeaderBytes - kFixedHeaderBytes;
inline constexpr unsigned kMaxShards = 1024;
inline constexpr unsigned kRootReady = 0;
inline constexpr unsigned kRootBeingCreated = 1;
// Format 1; format 2 adds the change log (ts/src/redis/CHANGE-LOG.md).
inline constexpr unsigned kFormatVersion = 1;
inline constexpr unsigned kLoggedFormatVersion = 2;
// Records a change log keeps unless RESERVE's LOGLENGTH says otherwise:
// layout.ts's DEFAULT_LOG_LENGTH, RedisCuckooFilter.create's default, so that
// RESERVE makes what create makes (tests/redis-module/commands.test.ts).
inline constexpr unsigned kDefaultLogLength = 1000;

// Byte offsets of the header's fields.
namespace at {
inline constexpr std::size_t magic = 0, version = 4, flags = 5, hashId = 6, fingerprintBits = 7, bucketSize = 8,
                             reserved = 9, chunkCount = 10, maxKicks = 12, seed = 16, bucketCount = 24,
                             chunkZeroBuckets = 32, chunkBuckets = 36, shard = 40, shards = 42, id = 44,
                             logLength = 50, stashFingerprint = 52, stashBucket = 56, itemCount = 60, prng = 68;
}

enum class HeaderKind { kRoot, kShard };

// Why a Redis filter has no hash id 6 to 11 (FORMAT.md versions 5 to 7,
// multiplyShiftHash): the end of each refusal of them, as
// ts/src/redis/layout.ts's MULTIPLY_SHIFT_REFUSAL says it.
inline constexpr const char* kNoMultiplyShift =
    "Redis filters do not support multiplyShiftHash (hash ids 6 to 11, format versions 5 to 7): their scripts, and the "
    "cuckoo module, place items with XXH3 (hash ids 1 and 2) or the keyed hash (keyedHash: 4 and 5) only";

// A filter's shape, shards and chunks, as a root or shard header records them.
struct FilterLayout {
  FilterParams params;
  unsigned version = kFormatVersion;
  unsigned logLength = 0;  // format 2: the records its log keeps at least
  unsigned shards = 1;
  unsigned chunkCount = 1;
  std::uint32_t chunkZeroBuckets = 0;
  std::uint32_t chunkBuckets = 0;
  std::uint64_t id = 0;
  // The root's state (kRootReady, kRootBeingCreated), or the shard's index.
  unsigned position = 0;

  unsigned bucketBits() const noexcept {
    return params.semiSort ? 4 * params.fingerprintBits - 4 : params.bucketSize * params.fingerprintBits;
  }
  unsigned slotsPerBucket() const noexcept { return params.semiSort ? kSemiSortedBucketSize : params.bucketSize; }
};

std::uint64_t readBigEndian(const unsigned char* bytes, std::size_t count) noexcept;
void writeBigEndian(unsigned char* bytes, std::size_t count, std::uint64_t value) noexcept;

// Decodes bytes [0, 52) of a root or shard header of `length` bytes (the
// whole value), checking every field as header.ts does; `key` names it in a
// refusal.
bool decodeFixedHeader(const unsigned char* bytes, std::size_t length, HeaderKind kind, const std::string& key,
                       FilterLayout& out, Refusal& refusal);
// The refusal of a key that holds neither a root nor a shard (BAD_MAGIC):
// naming a CuckooFilter's own bytes (magic CKFW) as such.
bool refuseForeignBytes(const unsigned char* bytes, std::size_t length, const std::string& key, Refusal& refusal);
// Bytes [0, 52) of the root (position: its state) or of shard `position`.
void encodeFixedHeader(const FilterLayout& layout, HeaderKind kind, unsigned char* out) noexcept;

// Buckets [first, first + count) of a chunk, and its length in bytes.
struct ChunkExtent {
  std::uint64_t first;
  std::uint64_t count;
  std::size_t bytes;
};
ChunkExtent chunkExtent(const FilterLayout& layout, unsigned chunk) noexcept;

// The chunking RedisCuckooFilter.create chooses for a shard (planChunks).
struct ChunkPlan {
  std::uint32_t chunkZeroBuckets;
  std::uint32_t chunkBuckets;
  unsigned chunkCount;
};
ChunkPlan planChunks(const FilterParams& params) noexcept;

// The items one of `shards` shards is sized for (shardCapacity).
std::uint64_t shardCapacity(std::uint64_t capacity, unsigned shards) noexcept;

// The Redis Cluster slot of a hash tag (CRC16-XMODEM mod 16384), and the
// hash tag of shard `shard` of `shards` of the filter `name` (shardTag).
unsigned slotOf(const char* tag, std::size_t length) noexcept;
std::string shardTag(const std::string& name, unsigned shard, unsigned shards);
// Whether `key` is named as a shard's chunk 0, {name:shard:salt}:0; its filter's name.
bool parseShardKey(const std::string& key, std::string& name);

}  // namespace cuckoo::redis
