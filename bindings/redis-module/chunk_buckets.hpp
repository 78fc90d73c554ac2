#pragma once
// A shard's buckets as they lie in its chunk strings in Redis (BITFIELD order:
// bit p is bit 7 - p % 8 of byte p / 8, every field most significant bit
// first; ts/src/redis/buckets.ts), behind the operations the core's table
// views offer (cpp/src/buckets.hpp), so that the core's kernel runs on them
// and makes exactly the choices a CuckooFilter makes: the lowest slot, the
// same slot exchanged, a semi-sorted bucket kept sorted.
//
// The bytes are changed in place. Before a bucket's first write its bytes
// are kept (the journal), which gives three things: the buckets a command
// changed (for replication and the change log), whether anything changed at
// all, and the way back when the command meets a damaged bucket or chunk
// after its first write: then the table is put back as it was and the command
// refused, having written nothing.
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
void writeField(unsigned char* bytes, std::uint64_t bit, unsigned width, std::uint64_t value) noexcept;

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
    unsigned chunk = 0;
    if (bucket < zero_) {
      bit = kHeaderBits + std::uint64_t{bucket} * bucketBits_;
    } else {
      const std::uint32_t relative = bucket - zero_;
      chunk = 1 + relative / later_;
      bit = std::uint64_t{relative % later_} * bucketBits_;
    }
    unsigned char* bytes = chunks_[chunk];
    return bytes != nullptr || failed() ? bytes : open(chunk);
  }

  // Keeps the bucket's bytes before its first write in this command.
  void journal(std::uint32_t bucket, const unsigned char* bytes, std::uint64_t bit);

  // Records a damaged bucket.
  [[gnu::cold]] void damaged(std::uint32_t bucket, const char* problem);

  // Puts every journaled bucket back, the latest first.
  void rollback() noexcept;

  // Visits each bucket whose bits the command changed (once, in the order of
  // their first writes): visit(bucket, chunk bytes, first bit). Returns how many.
  template <class Visit>
  std::size_t forEachChanged(Visit&& visit);

  // The chunks opened so far (a chunk's bytes, or null).
  unsigned char* chunk(unsigned index) const noexcept { return chunks_[index]; }

 private:
  static constexpr std::uint64_t kHeaderBits = 8 * kHeaderBytes;
  static constexpr std::size_t kMaxBucketBytes = 33;  // 256 bits at any shift

  struct Saved {
    std::uint32_t bucket;
    unsigned char* at;  // the bucket's first byte
    unsigned length;
    unsigned char original[kMaxBucketBytes];
  };

  [[gnu::cold, gnu::noinline]] unsigned char* open(unsigned chunk) noexcept;
  bool bucketChanged(const Saved& saved) const noexcept;

  const FilterLayout& layout_;
  ChunkSource& source_;
  Refusal& refusal_;
  unsigned bucketBits_;
  std::uint32_t zero_;
  std::uint32_t later_;
  unsigned char* chunks_[kMaxChunks] = {};
  std::vector<Saved> journal_;
  // Journaled buckets: an open-addressing set of bucket + 1, indices into journal_.
  std::vector<std::uint64_t> seen_;
};

template <class Visit>
std::size_t ShardTable::forEachChanged(Visit&& visit) {
  std::size_t changed = 0;
  for (const Saved& saved : journal_) {
    if (!bucketChanged(saved)) continue;
    std::uint64_t bit = 0;
    unsigned char* bytes = locate(saved.bucket, bit);
    visit(saved.bucket, bytes, bit);
    ++changed;
  }
  return changed;
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

  Probe probe(std::uint32_t bucket) const noexcept;
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
  // Writes slot `slot` of a bucket whose probe was taken; false after a failure.
  void write(std::uint32_t bucket, unsigned slot, std::uint32_t value) noexcept;

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
    return static_cast<std::uint32_t>(p.entries[0] == fingerprint) |
           static_cast<std::uint32_t>(p.entries[1] == fingerprint) << 1 |
           static_cast<std::uint32_t>(p.entries[2] == fingerprint) << 2 |
           static_cast<std::uint32_t>(p.entries[3] == fingerprint) << 3;
  }

  bool insertIntoEmptySlot(std::uint32_t bucket, std::uint32_t fingerprint) noexcept;
  bool removeOne(std::uint32_t bucket, std::uint32_t fingerprint) noexcept;
  std::uint32_t exchange(std::uint32_t bucket, unsigned slot, std::uint32_t fingerprint) noexcept;

  // A sorted bucket moves its slots when written: undoing a kick takes the
  // value it brought out again, and puts back the one it displaced.
  std::uint32_t kickRecord(unsigned, std::uint32_t incoming) const noexcept { return incoming; }
  std::uint32_t undoKick(std::uint32_t bucket, std::uint32_t incoming, std::uint32_t fingerprint) noexcept {
    removeOne(bucket, incoming);
    insertIntoEmptySlot(bucket, fingerprint);
    return incoming;
  }

 private:
  // The bucket decoded; false (and a refusal recorded) for a damaged one or chunk.
  bool decode(std::uint32_t bucket, Probe& out) const noexcept;
  void store(std::uint32_t bucket, Probe contents) noexcept;

  ShardTable* table_ = nullptr;
  unsigned bits_ = 0;
};

}  // namespace cuckoo::redis
