#pragma once
// A shard's buckets as they lie in its chunk strings in Redis (BITFIELD order:
// bit p is bit 7 - p % 8 of byte p / 8, every field most significant bit
// first; ts/src/redis/buckets.ts), behind the operations the core's table
// views offer (cpp/src/buckets.hpp), so that the core's kernel runs on them
// and makes exactly the choices a CuckooFilter makes: the lowest slot, the
// same slot exchanged, a semi-sorted bucket kept sorted.
//
// The bytes are changed in place. Before each write a bucket's bytes are
// kept (the journal), which gives the buckets a command wrote (for
// replication and the change log) and the way back when the command meets a
// damaged bucket or chunk after its first write: then the table is put back
// as it was and the command refused, having written nothing. (A bucket
// written twice is in the journal twice: cheaper than a set, on the path every
// add takes; the way back restores the latest first.)
//
// The kernel's calls cannot fail, so a view that meets a damaged chunk or
// bucket records the refusal, and from then on answers without touching
// memory (nothing found, nothing to move); the caller checks the refusal
// after each kernel call.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuckoo/semi_sorted_table.hpp"
#include "refusal.hpp"
#include "shard_layout.hpp"

namespace cuckoo::redis {

inline constexpr unsigned kMaxChunks = 64;

// Bits [bit, bit + width) of `bytes`, width 1 to 64, in BITFIELD order.
std::uint64_t readField(const unsigned char* bytes, std::uint64_t bit, unsigned width) noexcept;

// The same for width + bit % 8 <= 64 with one load, when `room` (the bytes
// from byte bit / 8 to the end of the string) holds 8.
inline std::uint64_t readWord(const unsigned char* bytes, std::uint64_t bit, unsigned width, std::size_t room) noexcept {
  if (room < 8) return readField(bytes, bit, width);
  std::uint64_t word;
  __builtin_memcpy(&word, bytes + (bit >> 3), 8);
  return (__builtin_bswap64(word) << (bit & 7)) >> (64 - width);
}
void writeField(unsigned char* bytes, std::uint64_t bit, unsigned width, std::uint64_t value) noexcept;

// writeField for width + bit % 8 <= 64, with one load and one store when
// `room` (the bytes from byte bit / 8 on) holds 8.
inline void writeWord(unsigned char* bytes, std::uint64_t bit, unsigned width, std::uint64_t value, std::size_t room) noexcept {
  if (room < 8 || width + (bit & 7) > 64) return writeField(bytes, bit, width, value);
  std::uint64_t word;
  __builtin_memcpy(&word, bytes + (bit >> 3), 8);
  const unsigned below = static_cast<unsigned>(64 - (bit & 7) - width);
  const std::uint64_t mask = (width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1) << below;
  word = __builtin_bswap64((__builtin_bswap64(word) & ~mask) | ((value << below) & mask));
  __builtin_memcpy(bytes + (bit >> 3), &word, 8);
}

// Opens a chunk of the shard for the table: its bytes, checked to be the
// chunk's full length, or null with a refusal recorded.
class ChunkSource {
 public:
  virtual unsigned char* openChunk(unsigned chunk) = 0;

 protected:
  ~ChunkSource() = default;
};

// One shard's table across its chunks, and the journal of a command's writes.
class ShardTable {
 public:
  ShardTable(const FilterLayout& layout, ChunkSource& source, Refusal& refusal) noexcept;

  const FilterLayout& layout() const noexcept { return layout_; }
  unsigned bucketBits() const noexcept { return bucketBits_; }
  // A refusal was recorded: from now on the views touch no memory.
  bool failed() const noexcept { return refusal_.refused(); }
  Refusal& refusal() noexcept { return refusal_; }

  // The bytes of the chunk holding `bucket`, and the bucket's first bit there;
  // null when the chunk cannot be used.
  unsigned char* locate(std::uint32_t bucket, std::uint64_t& bit) noexcept {
    std::size_t room = 0;
    return locate(bucket, bit, room);
  }
  // The same, and `room`: the chunk's bytes from the bucket's first byte on.
  unsigned char* locate(std::uint32_t bucket, std::uint64_t& bit, std::size_t& room) noexcept {
    unsigned chunk = 0;
    if (bucket < zero_) {
      bit = kHeaderBits + std::uint64_t{bucket} * bucketBits_;
    } else {
      const std::uint32_t relative = bucket - zero_;
      chunk = 1 + relative / later_;
      bit = std::uint64_t{relative % later_} * bucketBits_;
    }
    unsigned char* bytes = chunks_[chunk];
    if (bytes == nullptr && !failed()) bytes = open(chunk);
    room = lengths_[chunk] - (bit >> 3);
    return bytes;
  }

  // Asks for the bucket's first bytes ahead of use, when its chunk is open
  // (opening one is left to its first use, which may refuse it).
  void prefetch(std::uint32_t bucket) const noexcept {
    unsigned chunk = 0;
    std::uint64_t bit = kHeaderBits + std::uint64_t{bucket} * bucketBits_;
    if (bucket >= zero_) {
      const std::uint32_t relative = bucket - zero_;
      chunk = 1 + relative / later_;
      bit = std::uint64_t{relative % later_} * bucketBits_;
    }
    if (chunks_[chunk] == nullptr) return;
    // GCC 12 drops a prefetch whose address came through this division (seen
    // in the code it made): the address goes through memory first.
    const unsigned char* volatile address = chunks_[chunk] + (bit >> 3);
    __builtin_prefetch(address, 1, 3);
  }

  // Keeps the bucket's bytes before a write.
  void journal(std::uint32_t bucket, const unsigned char* bytes, std::uint64_t bit);

  // Records a damaged bucket.
  [[gnu::cold]] void damaged(std::uint32_t bucket, const char* problem);

  // Puts every journaled bucket back, the latest first.
  void rollback() noexcept;

  // Visits each journaled write, in order: visit(bucket, chunk bytes, first bit).
  template <class Visit>
  void forEachWritten(Visit&& visit);

  // The chunks opened so far (a chunk's bytes, or null).
  unsigned char* chunk(unsigned index) const noexcept { return chunks_[index]; }

 private:
  static constexpr std::uint64_t kHeaderBits = 8 * kHeaderBytes;
  static constexpr std::size_t kMaxBucketBytes = 33;  // 256 bits at any shift

  struct Saved {
    std::uint32_t bucket;
    unsigned char* chunk;
    std::uint64_t bit;  // the bucket's first bit in its chunk
    unsigned length;    // bytes from its first byte to its last
    unsigned char original[kMaxBucketBytes];
  };

  [[gnu::cold, gnu::noinline]] unsigned char* open(unsigned chunk) noexcept;

  const FilterLayout& layout_;
  ChunkSource& source_;
  Refusal& refusal_;
  unsigned bucketBits_;
  std::uint32_t zero_;
  std::uint32_t later_;
  unsigned char* chunks_[kMaxChunks] = {};
  std::size_t lengths_[kMaxChunks] = {};
  std::vector<Saved> journal_;
};

template <class Visit>
void ShardTable::forEachWritten(Visit&& visit) {
  for (const Saved& saved : journal_) visit(saved.bucket, saved.chunk, saved.bit);
}

// b slots of f bits per bucket.
class PlainChunkBuckets {
 public:
  static constexpr bool kSemiSorted = false;
  static constexpr bool kGeneric = true;
  static constexpr unsigned kMaxSlots = 8;

  struct Probe {
    std::uint32_t slot[kMaxSlots];
  };

  PlainChunkBuckets() noexcept = default;
  explicit PlainChunkBuckets(ShardTable& table) noexcept
      : table_(&table), slots_(table.layout().params.bucketSize), bits_(table.layout().params.fingerprintBits) {}

  unsigned slots() const noexcept { return slots_; }

  Probe probe(std::uint32_t bucket) const noexcept { return decode(placeOf(bucket)); }
  bool holds(const Probe& p, std::uint32_t fingerprint) const noexcept { return matching(p, fingerprint) != 0; }
  std::uint32_t matching(const Probe& p, std::uint32_t fingerprint) const noexcept {
    std::uint32_t found = 0;
    for (unsigned s = 0; s < slots_; ++s) found |= static_cast<std::uint32_t>(p.slot[s] == fingerprint) << s;
    return found;
  }

  bool insertIntoEmptySlot(std::uint32_t bucket, std::uint32_t fingerprint) noexcept;
  bool removeOne(std::uint32_t bucket, std::uint32_t fingerprint) noexcept;
  std::uint32_t exchange(std::uint32_t bucket, unsigned slot, std::uint32_t fingerprint) noexcept;

  std::uint32_t kickRecord(unsigned slot, std::uint32_t) const noexcept { return slot; }
  std::uint32_t undoKick(std::uint32_t bucket, std::uint32_t record, std::uint32_t fingerprint) noexcept {
    return exchange(bucket, static_cast<unsigned>(record), fingerprint);
  }

 private:
  // Where a bucket's bits are: null bytes after a failure.
  struct Place {
    unsigned char* bytes;
    std::uint64_t bit;
    std::size_t room;
  };
  Place placeOf(std::uint32_t bucket) const noexcept;
  Probe decode(const Place& place) const noexcept;
  // Writes slot `slot` of the bucket at `place` (nothing after a failure).
  void write(std::uint32_t bucket, const Place& place, unsigned slot, std::uint32_t value) noexcept;

  ShardTable* table_ = nullptr;
  unsigned slots_ = 1;
  unsigned bits_ = 0;
};

// Four sorted entries per bucket: a 12-bit rank of their top nibbles, then
// their four low parts (semi_sorted_table.hpp).
class SemiSortedChunkBuckets {
 public:
  static constexpr bool kSemiSorted = true;
  static constexpr bool kGeneric = true;

  using Probe = semisort::Bucket;

  SemiSortedChunkBuckets() noexcept = default;
  explicit SemiSortedChunkBuckets(ShardTable& table) noexcept
      : table_(&table), bits_(table.layout().params.fingerprintBits) {}

  unsigned slots() const noexcept { return kSemiSortedBucketSize; }

  Probe probe(std::uint32_t bucket) const noexcept;
  bool holds(const Probe& p, std::uint32_t fingerprint) const noexcept { return matching(p, fingerprint) != 0; }
  std::uint32_t matching(const Probe& p, std::uint32_t fingerprint) const noexcept {
    return semisort::matchingEntries(p, fingerprint);
  }

  bool insertIntoEmptySlot(std::uint32_t bucket, std::uint32_t fingerprint) noexcept;
  bool removeOne(std::uint32_t bucket, std::uint32_t fingerprint) noexcept;
  std::uint32_t exchange(std::uint32_t bucket, unsigned slot, std::uint32_t fingerprint) noexcept;

  // A sorted bucket's kick is undone by value (semisort::undoKickByValue).
  std::uint32_t kickRecord(unsigned, std::uint32_t incoming) const noexcept { return incoming; }
  std::uint32_t undoKick(std::uint32_t bucket, std::uint32_t incoming, std::uint32_t fingerprint) noexcept {
    return semisort::undoKickByValue(*this, bucket, incoming, fingerprint);
  }

 private:
  // The bucket decoded; false (and a refusal recorded) for a damaged one or chunk.
  bool decode(std::uint32_t bucket, Probe& out) const noexcept;
  void store(std::uint32_t bucket, Probe contents) noexcept;

  ShardTable* table_ = nullptr;
  unsigned bits_ = 0;
};

}  // namespace cuckoo::redis
