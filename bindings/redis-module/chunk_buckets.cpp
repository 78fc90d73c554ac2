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
  if (bytes != nullptr) lengths_[chunk] = chunkExtent(layout_, chunk).bytes;
  return bytes;
}

void ShardTable::journal(std::uint32_t bucket, const unsigned char* bytes, std::uint64_t bit) {
  Saved& saved = journal_.emplace_back();
  saved.bucket = bucket;
  saved.chunk = const_cast<unsigned char*>(bytes);
  saved.bit = bit;
  saved.length = static_cast<unsigned>(((bit & 7) + bucketBits_ + 7) / 8);
  std::memcpy(saved.original, bytes + (bit >> 3), saved.length);
}

void ShardTable::damaged(std::uint32_t bucket, const char* problem) {
  refusal_.refuse("INCONSISTENT",
                  "bucket " + std::to_string(bucket) + " of shard " + std::to_string(layout_.position) + " " + problem);
}

void ShardTable::rollback() noexcept {
  for (std::size_t k = journal_.size(); k-- > 0;) {
    std::memcpy(journal_[k].chunk + (journal_[k].bit >> 3), journal_[k].original, journal_[k].length);
  }
}

// ---- Plain buckets.

PlainChunkBuckets::Place PlainChunkBuckets::placeOf(std::uint32_t bucket) const noexcept {
  Place place{nullptr, 0, 0};
  place.bytes = table_->locate(bucket, place.bit, place.room);
  return place;
}

PlainChunkBuckets::Probe PlainChunkBuckets::decode(const Place& place) const noexcept {
  Probe p{};
  if (place.bytes == nullptr) return p;
  const unsigned width = slots_ * bits_;
  if (width <= 64) {
    const std::uint64_t word = width <= 57 ? readWord(place.bytes, place.bit, width, place.room) : readField(place.bytes, place.bit, width);
    const std::uint64_t mask = lowMask(bits_);
    for (unsigned s = 0; s < slots_; ++s) p.slot[s] = static_cast<std::uint32_t>(word >> ((slots_ - 1 - s) * bits_) & mask);
  } else {
    for (unsigned s = 0; s < slots_; ++s) p.slot[s] = static_cast<std::uint32_t>(readField(place.bytes, place.bit + s * bits_, bits_));
  }
  return p;
}

void PlainChunkBuckets::write(std::uint32_t bucket, const Place& place, unsigned slot, std::uint32_t value) noexcept {
  if (place.bytes == nullptr) return;
  table_->journal(bucket, place.bytes, place.bit);
  const std::uint64_t bit = place.bit + std::uint64_t{slot} * bits_;
  writeWord(place.bytes, bit, bits_, value, place.room - ((bit >> 3) - (place.bit >> 3)));
}

bool PlainChunkBuckets::insertIntoEmptySlot(std::uint32_t bucket, std::uint32_t fingerprint) noexcept {
  const Place place = placeOf(bucket);
  const std::uint32_t empty = matching(decode(place), 0);
  if (empty == 0) return false;
  write(bucket, place, static_cast<unsigned>(__builtin_ctz(empty)), fingerprint);
  return true;
}

bool PlainChunkBuckets::removeOne(std::uint32_t bucket, std::uint32_t fingerprint) noexcept {
  const Place place = placeOf(bucket);
  const std::uint32_t found = matching(decode(place), fingerprint);
  if (found == 0) return false;
  write(bucket, place, static_cast<unsigned>(__builtin_ctz(found)), 0);
  return true;
}

std::uint32_t PlainChunkBuckets::exchange(std::uint32_t bucket, unsigned slot, std::uint32_t fingerprint) noexcept {
  const Place place = placeOf(bucket);
  const std::uint32_t previous = decode(place).slot[slot];
  write(bucket, place, slot, fingerprint);
  return previous;
}

// ---- Semi-sorted buckets.

bool SemiSortedChunkBuckets::decode(std::uint32_t bucket, Probe& out) const noexcept {
  out = Probe{};
  std::uint64_t bit = 0;
  std::size_t room = 0;
  const unsigned char* bytes = table_->locate(bucket, bit, room);
  if (bytes == nullptr) return false;
  // The rank, then the four low parts: from one word when the bucket fits one.
  const unsigned lowBits = bits_ - 4;
  const unsigned width = kNibbleRankBits + 4 * lowBits;
  const std::uint64_t word = width <= 57 ? readWord(bytes, bit, width, room) : 0;
  const auto field = [&](unsigned offset, unsigned fieldWidth) {
    if (width <= 57) return (word >> (width - offset - fieldWidth)) & lowMask(fieldWidth);
    return readField(bytes, bit + offset, fieldWidth);
  };
  const auto rank = static_cast<unsigned>(field(0, kNibbleRankBits));
  if (rank >= kNibbleMultisets) {
    table_->damaged(bucket, ("has rank " + std::to_string(rank) + ", which names no bucket").c_str());
    return false;
  }
  const std::uint32_t nibbles = semisort::kUnrank[rank];
  Probe decoded;
  for (unsigned s = 0; s < 4; ++s) {
    const auto low = static_cast<std::uint32_t>(field(kNibbleRankBits + s * lowBits, lowBits));
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
  if (!semisort::fillEmptyEntry(b, fingerprint)) return false;
  store(bucket, b);
  return true;
}

bool SemiSortedChunkBuckets::removeOne(std::uint32_t bucket, std::uint32_t fingerprint) noexcept {
  Probe b;
  if (!decode(bucket, b) || !semisort::clearEntry(b, fingerprint)) return false;
  store(bucket, b);
  return true;
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
