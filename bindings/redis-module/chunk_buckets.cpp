// The chunk views' operations, each the same decision as its counterpart in
// cpp/src/buckets.hpp, on bits in BITFIELD order.

#include "chunk_buckets.hpp"

#include <cstring>
#include <string>

namespace cuckoo::redis {
namespace {

__extension__ typedef unsigned __int128 Wide;

// The bytes holding bits [shift, shift + width) from `p`, gathered into one number.
inline Wide gather(const unsigned char* p, unsigned count) noexcept {
  Wide value = 0;
  for (unsigned k = 0; k < count; ++k) value = value << 8 | p[k];
  return value;
}

inline std::uint64_t lowMask(unsigned width) noexcept {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

}  // namespace

std::uint64_t readField(const unsigned char* bytes, std::uint64_t bit, unsigned width) noexcept {
  const unsigned char* p = bytes + (bit >> 3);
  const unsigned total = static_cast<unsigned>(bit & 7) + width;
  const unsigned count = (total + 7) / 8;
  return static_cast<std::uint64_t>(gather(p, count) >> (8 * count - total)) & lowMask(width);
}

void writeField(unsigned char* bytes, std::uint64_t bit, unsigned width, std::uint64_t value) noexcept {
  unsigned char* p = bytes + (bit >> 3);
  const unsigned total = static_cast<unsigned>(bit & 7) + width;
  const unsigned count = (total + 7) / 8;
  const unsigned below = 8 * count - total;
  const Wide mask = Wide{lowMask(width)} << below;
  Wide word = (gather(p, count) & ~mask) | (Wide{value & lowMask(width)} << below);
  for (unsigned k = count; k-- > 0;) {
    p[k] = static_cast<unsigned char>(word);
    word >>= 8;
  }
}

ShardTable::ShardTable(const FilterLayout& layout, ChunkSource& source, Refusal& refusal) noexcept
    : layout_(layout),
      source_(source),
      refusal_(refusal),
      bucketBits_(layout.bucketBits()),
      zero_(layout.chunkZeroBuckets),
      later_(layout.chunkBuckets == 0 ? 1 : layout.chunkBuckets) {}

unsigned char* ShardTable::open(unsigned chunk) noexcept {
  unsigned char* bytes = source_.openChunk(chunk);
  chunks_[chunk] = bytes;
  return bytes;
}

void ShardTable::journal(std::uint32_t bucket, const unsigned char* bytes, std::uint64_t bit) {
  if (seen_.empty()) seen_.assign(64, 0);
  const std::uint64_t key = std::uint64_t{bucket} + 1;
  std::size_t mask = seen_.size() - 1;
  std::size_t slot = (bucket * 0x9e3779b97f4a7c15ULL) >> 40 & mask;
  while (seen_[slot] != 0) {
    if (seen_[slot] == key) return;
    slot = (slot + 1) & mask;
  }
  seen_[slot] = key;
  Saved saved;
  saved.bucket = bucket;
  saved.at = const_cast<unsigned char*>(bytes) + (bit >> 3);
  saved.length = static_cast<unsigned>(((bit & 7) + bucketBits_ + 7) / 8);
  std::memcpy(saved.original, saved.at, saved.length);
  journal_.push_back(saved);
  if (2 * journal_.size() > seen_.size()) {
    // Grow the set: every journaled bucket again, in a table twice the size.
    seen_.assign(2 * seen_.size(), 0);
    mask = seen_.size() - 1;
    for (const Saved& each : journal_) {
      std::size_t at = (each.bucket * 0x9e3779b97f4a7c15ULL) >> 40 & mask;
      while (seen_[at] != 0) at = (at + 1) & mask;
      seen_[at] = std::uint64_t{each.bucket} + 1;
    }
  }
}

void ShardTable::damaged(std::uint32_t bucket, const char* problem) {
  refusal_.refuse("INCONSISTENT",
                  "bucket " + std::to_string(bucket) + " of shard " + std::to_string(layout_.position) + " " + problem);
}

void ShardTable::rollback() noexcept {
  for (std::size_t k = journal_.size(); k-- > 0;) std::memcpy(journal_[k].at, journal_[k].original, journal_[k].length);
}

bool ShardTable::bucketChanged(const Saved& saved) const noexcept {
  std::uint64_t bit = 0;
  unsigned char* bytes = const_cast<ShardTable*>(this)->locate(saved.bucket, bit);
  const unsigned shift = static_cast<unsigned>(bit & 7);
  const unsigned trailing = 8 * saved.length - shift - bucketBits_;
  for (unsigned k = 0; k < saved.length; ++k) {
    unsigned difference = static_cast<unsigned>(bytes[(bit >> 3) + k] ^ saved.original[k]);
    if (k == 0) difference &= 0xffU >> shift;
    if (k + 1 == saved.length) difference &= (0xffU << trailing) & 0xffU;
    if (difference != 0) return true;
  }
  return false;
}

// ---- Plain buckets.

PlainChunkBuckets::Probe PlainChunkBuckets::probe(std::uint32_t bucket) const noexcept {
  Probe p{};
  std::uint64_t bit = 0;
  const unsigned char* bytes = table_->locate(bucket, bit);
  if (bytes == nullptr) return p;
  const unsigned width = slots_ * bits_;
  if (width <= 64) {
    const std::uint64_t word = readField(bytes, bit, width);
    const std::uint64_t mask = lowMask(bits_);
    for (unsigned s = 0; s < slots_; ++s) p.slot[s] = static_cast<std::uint32_t>(word >> ((slots_ - 1 - s) * bits_) & mask);
  } else {
    for (unsigned s = 0; s < slots_; ++s) p.slot[s] = static_cast<std::uint32_t>(readField(bytes, bit + s * bits_, bits_));
  }
  return p;
}

void PlainChunkBuckets::write(std::uint32_t bucket, unsigned slot, std::uint32_t value) noexcept {
  std::uint64_t bit = 0;
  unsigned char* bytes = table_->locate(bucket, bit);
  if (bytes == nullptr) return;
  table_->journal(bucket, bytes, bit);
  writeField(bytes, bit + std::uint64_t{slot} * bits_, bits_, value);
}

bool PlainChunkBuckets::insertIntoEmptySlot(std::uint32_t bucket, std::uint32_t fingerprint) noexcept {
  const std::uint32_t empty = matching(probe(bucket), 0);
  if (empty == 0) return false;
  write(bucket, static_cast<unsigned>(__builtin_ctz(empty)), fingerprint);
  return true;
}

bool PlainChunkBuckets::removeOne(std::uint32_t bucket, std::uint32_t fingerprint) noexcept {
  const std::uint32_t found = matching(probe(bucket), fingerprint);
  if (found == 0) return false;
  write(bucket, static_cast<unsigned>(__builtin_ctz(found)), 0);
  return true;
}

std::uint32_t PlainChunkBuckets::exchange(std::uint32_t bucket, unsigned slot, std::uint32_t fingerprint) noexcept {
  const std::uint32_t previous = probe(bucket).slot[slot];
  write(bucket, slot, fingerprint);
  return previous;
}

// ---- Semi-sorted buckets.

bool SemiSortedChunkBuckets::decode(std::uint32_t bucket, Probe& out) const noexcept {
  out = Probe{};
  std::uint64_t bit = 0;
  const unsigned char* bytes = table_->locate(bucket, bit);
  if (bytes == nullptr) return false;
  const auto rank = static_cast<unsigned>(readField(bytes, bit, kNibbleRankBits));
  if (rank >= kNibbleMultisets) {
    table_->damaged(bucket, ("has rank " + std::to_string(rank) + ", which names no bucket").c_str());
    return false;
  }
  const unsigned lowBits = bits_ - 4;
  const std::uint32_t nibbles = semisort::kUnrank[rank];
  Probe decoded;
  for (unsigned s = 0; s < 4; ++s) {
    const auto low = static_cast<std::uint32_t>(readField(bytes, bit + kNibbleRankBits + s * lowBits, lowBits));
    decoded.entries[s] = ((nibbles >> (4 * s)) & 0xFU) << lowBits | low;
  }
  if (decoded.entries[0] > decoded.entries[1] || decoded.entries[1] > decoded.entries[2] ||
      decoded.entries[2] > decoded.entries[3]) {
    table_->damaged(bucket, "is not in sorted order");
    return false;
  }
  out = decoded;
  return true;
}

SemiSortedChunkBuckets::Probe SemiSortedChunkBuckets::probe(std::uint32_t bucket) const noexcept {
  Probe p;
  decode(bucket, p);
  return p;
}

void SemiSortedChunkBuckets::store(std::uint32_t bucket, Probe contents) noexcept {
  std::uint64_t bit = 0;
  unsigned char* bytes = table_->locate(bucket, bit);
  if (bytes == nullptr) return;
  table_->journal(bucket, bytes, bit);
  semisort::sortFour(contents.entries);
  const unsigned lowBits = bits_ - 4;
  const auto nibble = [&](unsigned s) { return contents.entries[s] >> lowBits; };
  writeField(bytes, bit, kNibbleRankBits, semisort::rankNibbles(nibble(0), nibble(1), nibble(2), nibble(3)));
  for (unsigned s = 0; s < 4; ++s) {
    writeField(bytes, bit + kNibbleRankBits + s * lowBits, lowBits, contents.entries[s] & lowMask(lowBits));
  }
}

bool SemiSortedChunkBuckets::insertIntoEmptySlot(std::uint32_t bucket, std::uint32_t fingerprint) noexcept {
  Probe b;
  if (!decode(bucket, b)) return true;  // refused: end the walk, the command is undone
  if (b.entries[0] != 0) return false;  // sorted: an empty entry would come first
  b.entries[0] = fingerprint;
  store(bucket, b);
  return true;
}

bool SemiSortedChunkBuckets::removeOne(std::uint32_t bucket, std::uint32_t fingerprint) noexcept {
  Probe b;
  if (!decode(bucket, b)) return false;
  for (std::uint32_t& entry : b.entries) {
    if (entry == fingerprint) {
      entry = 0;
      store(bucket, b);
      return true;
    }
  }
  return false;
}

std::uint32_t SemiSortedChunkBuckets::exchange(std::uint32_t bucket, unsigned slot, std::uint32_t fingerprint) noexcept {
  Probe b;
  if (!decode(bucket, b)) return fingerprint;
  const std::uint32_t previous = b.entries[slot];
  b.entries[slot] = fingerprint;
  store(bucket, b);
  return previous;
}

}  // namespace cuckoo::redis
