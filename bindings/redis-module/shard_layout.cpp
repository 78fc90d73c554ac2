// The layout's rules, as ts/src/redis/layout.ts and header.ts state them.

#include "shard_layout.hpp"

#include <array>
#include <cmath>
#include <cstring>

namespace cuckoo::redis {
namespace {

constexpr char kRootMagic[] = "CKFN";
constexpr char kShardMagic[] = "CKFR";

constexpr char kFilterBytesMagic[] = "CKFW";  // a CuckooFilter's own bytes (FORMAT.md)

std::string quoted(const std::string& key) { return "key '" + key + "'"; }

bool checkPreamble(const unsigned char* bytes, std::size_t length, const char* magic, std::size_t expected,
                   bool exactLength, const std::string& key, Refusal& refusal) {
  for (std::size_t k = 0; k < 4 && k < length; ++k) {
    if (bytes[k] != static_cast<unsigned char>(magic[k])) return refuseForeignBytes(bytes, length, key, refusal);
  }
  if (length <= at::version) return refusal.refuse("TRUNCATED", quoted(key) + " is truncated");
  const unsigned version = bytes[at::version];
  if (version != kFormatVersion && version != kLoggedFormatVersion) {
    return refusal.refuse("UNSUPPORTED_VERSION", quoted(key) + " holds format version " + std::to_string(version) +
                                                     ", this module reads 1 and 2");
  }
  if (length < expected) {
    return refusal.refuse("TRUNCATED", quoted(key) + " is truncated: " + std::to_string(length) + " bytes of " +
                                           std::to_string(expected));
  }
  if (exactLength && length > expected) {
    return refusal.refuse("INCONSISTENT", quoted(key) + " holds " + std::to_string(length) + " bytes, " +
                                              std::to_string(expected) + " expected");
  }
  return true;
}

// Chunks of whole bytes that cover the table exactly, none over 512 MB.
bool chunkingHolds(const FilterLayout& layout) noexcept {
  const std::uint64_t m = layout.params.bucketCount;
  const std::uint64_t zero = layout.chunkZeroBuckets;
  const std::uint64_t later = layout.chunkBuckets;
  const std::uint64_t count = layout.chunkCount;
  const bool oneChunk = count == 1 && zero == m && later == 0;
  const bool several = count > 1 && zero >= 8 && zero % 8 == 0 && zero < m && later >= 8 && later % 8 == 0 &&
                       count == 1 + (m - zero + later - 1) / later;
  if (!oneChunk && !several) return false;
  for (unsigned chunk = 0; chunk < 2 && chunk < count; ++chunk) {
    if (chunkExtent(layout, chunk).bytes > (std::size_t{1} << 29)) return false;
  }
  return true;
}

// jemalloc's size class for `bytes`: 16-byte steps to 128, then 4 classes per doubling.
std::uint64_t sizeClass(std::uint64_t bytes) noexcept {
  if (bytes <= 8) return 8;
  if (bytes <= 128) return (bytes + 15) / 16 * 16;
  const unsigned ceilLog2 = 64 - static_cast<unsigned>(__builtin_clzll(bytes - 1));
  const std::uint64_t step = std::uint64_t{1} << (ceilLog2 - 3);
  return (bytes + step - 1) / step * step;
}

// What Redis allocates for a string of `length` bytes: its sds header, the bytes and a NUL.
std::uint64_t stringAllocation(std::uint64_t length) noexcept {
  const std::uint64_t header = length < 32 ? 1 : length < 256 ? 3 : length < 65536 ? 5 : 9;
  return sizeClass(length + header + 1);
}

constexpr std::array<std::uint16_t, 256> makeCrc16Table() {
  std::array<std::uint16_t, 256> table{};
  for (unsigned index = 0; index < 256; ++index) {
    unsigned crc = index << 8;
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 0x8000) != 0 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[index] = static_cast<std::uint16_t>(crc);
  }
  return table;
}
constexpr std::array<std::uint16_t, 256> kCrc16 = makeCrc16Table();
constexpr unsigned kSlots = 16384;

unsigned crc16(unsigned crc, const char* bytes, std::size_t length) noexcept {
  for (std::size_t k = 0; k < length; ++k) {
    crc = ((crc << 8) & 0xffff) ^ kCrc16[((crc >> 8) ^ static_cast<unsigned char>(bytes[k])) & 0xff];
  }
  return crc;
}

}  // namespace

bool refuseForeignBytes(const unsigned char* bytes, std::size_t length, const std::string& key, Refusal& refusal) {
  if (length > at::version && std::memcmp(bytes, kFilterBytesMagic, 4) == 0) {
    const unsigned version = bytes[at::version];
    return refusal.refuse("BAD_MAGIC", quoted(key) + " holds a CuckooFilter's bytes (format version " +
                                           std::to_string(version) + "), not a Redis filter: " +
                                           (version >= 5 && version <= 7 ? std::string(kNoMultiplyShift)
                                                         : "RedisCuckooFilter.fromBytes makes a Redis filter of them"));
  }
  return refusal.refuse("BAD_MAGIC", quoted(key) + " does not hold a cuckoo-wasm filter (bad magic bytes)");
}

std::uint64_t readBigEndian(const unsigned char* bytes, std::size_t count) noexcept {
  std::uint64_t value = 0;
  for (std::size_t k = 0; k < count; ++k) value = value << 8 | bytes[k];
  return value;
}

void writeBigEndian(unsigned char* bytes, std::size_t count, std::uint64_t value) noexcept {
  for (std::size_t k = count; k-- > 0;) {
    bytes[k] = static_cast<unsigned char>(value);
    value >>= 8;
  }
}

bool decodeFixedHeader(const unsigned char* bytes, std::size_t length, HeaderKind kind, const std::string& key,
                       FilterLayout& out, Refusal& refusal) {
  const bool root = kind == HeaderKind::kRoot;
  if (!checkPreamble(bytes, length, root ? kRootMagic : kShardMagic, root ? kFixedHeaderBytes : kHeaderBytes, root,
                     key, refusal)) {
    return false;
  }
  const auto bad = [&](const char* field) {
    return refusal.refuse("BAD_PARAMETERS", quoted(key) + " has a bad " + field);
  };
  FilterLayout layout;
  const unsigned flags = bytes[at::flags];
  layout.version = bytes[at::version];
  layout.logLength = static_cast<unsigned>(readBigEndian(bytes + at::logLength, 2));
  const bool logged = layout.version == kLoggedFormatVersion;
  if ((flags & ~1U) != 0 || bytes[at::reserved] != 0 || (logged ? layout.logLength == 0 : layout.logLength != 0)) {
    return bad("flag or reserved byte");
  }
  FilterParams& params = layout.params;
  params.semiSort = (flags & 1U) != 0;
  params.fingerprintBits = bytes[at::fingerprintBits];
  params.bucketSize = bytes[at::bucketSize];
  params.bucketCount = readBigEndian(bytes + at::bucketCount, 8);
  params.maxKicks = static_cast<std::uint32_t>(readBigEndian(bytes + at::maxKicks, 4));
  params.seed = readBigEndian(bytes + at::seed, 8);
  if (params.fingerprintBits < kMinFingerprintBits || params.fingerprintBits > kMaxFingerprintBits) {
    return bad("fingerprint width");
  }
  const unsigned b = params.bucketSize;
  if ((b != 1 && b != 2 && b != 4 && b != 8) ||
      (params.semiSort && (b != kSemiSortedBucketSize || params.fingerprintBits < kSemiSortedMinBits))) {
    return bad("bucket size");
  }
  if (params.bucketCount < 1 || params.bucketCount > kMaxBucketCount) return bad("bucket count");
  // Hash ids 1 and 2, or 4 and 5 with the keyed item hash (hashing.hpp);
  // never 6 to 11, which neither the scripts nor this module compute.
  const unsigned hashId = bytes[at::hashId];
  if (hashId >= kHashIdMulShiftV1 && hashId <= kHashIdMix64RangeV1) {
    return refusal.refuse("UNSUPPORTED_VERSION",
                          quoted(key) + " has hash id " + std::to_string(hashId) + ": " + kNoMultiplyShift);
  }
  params.keyedHash = hashId == kHashIdSipHash13V1 || hashId == kHashIdSipHash13RangeV1;
  if (hashId != plainHashId(isPowerOfTwo(params.bucketCount), params.keyedHash)) {
    return bad("hash id for its bucket count");
  }
  if (params.maxKicks > kMaxKicksLimit) return bad("maxKicks");
  if ((params.bucketCount * layout.bucketBits() + 7) / 8 + 7 > (std::uint64_t{1} << 31)) {
    return bad("table size (over 2 GiB)");
  }
  layout.shards = static_cast<unsigned>(readBigEndian(bytes + at::shards, 2));
  layout.chunkCount = static_cast<unsigned>(readBigEndian(bytes + at::chunkCount, 2));
  layout.chunkZeroBuckets = static_cast<std::uint32_t>(readBigEndian(bytes + at::chunkZeroBuckets, 4));
  layout.chunkBuckets = static_cast<std::uint32_t>(readBigEndian(bytes + at::chunkBuckets, 4));
  layout.id = readBigEndian(bytes + at::id, 6);
  layout.position = static_cast<unsigned>(readBigEndian(bytes + at::shard, 2));
  if (layout.shards < 1 || layout.shards > kMaxShards) return bad("shard count");
  if (layout.id == 0) return bad("filter id");
  if (root ? layout.position > kRootBeingCreated : layout.position >= layout.shards) return bad(root ? "state" : "shard index");
  if (!chunkingHolds(layout)) return bad("chunking");
  out = layout;
  return true;
}

void encodeFixedHeader(const FilterLayout& layout, HeaderKind kind, unsigned char* out) noexcept {
  const FilterParams& params = layout.params;
  std::memset(out, 0, kFixedHeaderBytes);
  std::memcpy(out + at::magic, kind == HeaderKind::kRoot ? kRootMagic : kShardMagic, 4);
  out[at::version] = static_cast<unsigned char>(layout.version);
  out[at::flags] = params.semiSort ? 1 : 0;
  out[at::hashId] = plainHashId(isPowerOfTwo(params.bucketCount), params.keyedHash);
  out[at::fingerprintBits] = static_cast<unsigned char>(params.fingerprintBits);
  out[at::bucketSize] = static_cast<unsigned char>(params.bucketSize);
  writeBigEndian(out + at::chunkCount, 2, layout.chunkCount);
  writeBigEndian(out + at::maxKicks, 4, params.maxKicks);
  writeBigEndian(out + at::seed, 8, params.seed);
  writeBigEndian(out + at::bucketCount, 8, params.bucketCount);
  writeBigEndian(out + at::chunkZeroBuckets, 4, layout.chunkZeroBuckets);
  writeBigEndian(out + at::chunkBuckets, 4, layout.chunkBuckets);
  writeBigEndian(out + at::shard, 2, layout.position);
  writeBigEndian(out + at::shards, 2, layout.shards);
  writeBigEndian(out + at::id, 6, layout.id);
  writeBigEndian(out + at::logLength, 2, layout.logLength);
}

ChunkExtent chunkExtent(const FilterLayout& layout, unsigned chunk) noexcept {
  const std::uint64_t bits = layout.bucketBits();
  const std::uint64_t m = layout.params.bucketCount;
  if (chunk == 0) {
    const std::uint64_t count = layout.chunkZeroBuckets < m ? layout.chunkZeroBuckets : m;
    return {0, count, static_cast<std::size_t>(kHeaderBytes + (count * bits + 7) / 8)};
  }
  const std::uint64_t first = layout.chunkZeroBuckets + std::uint64_t{chunk - 1} * layout.chunkBuckets;
  const std::uint64_t count = layout.chunkBuckets < m - first ? layout.chunkBuckets : m - first;
  return {first, count, static_cast<std::size_t>((count * bits + 7) / 8)};
}

ChunkPlan planChunks(const FilterParams& params) noexcept {
  constexpr std::uint64_t kMaxChunkBytes = std::uint64_t{1} << 28;
  constexpr std::uint64_t kMaxChunks = 64;
  constexpr std::uint64_t kKeyBytes = 72;
  const std::uint64_t bits = params.semiSort ? 4 * params.fingerprintBits - 4 : params.bucketSize * params.fingerprintBits;
  const std::uint64_t m = params.bucketCount;
  const std::uint64_t tableBytes = (m * bits + 7) / 8;
  const double budget = 1.03 * static_cast<double>(tableBytes + 7) + 256;
  // The fewest chunks within budget (then the least memory); else the least memory.
  // Ties keep the first plan, as the TypeScript's stable sort does.
  ChunkPlan withinBudget{};
  std::uint64_t withinCost = 0;
  ChunkPlan cheapest{};
  std::uint64_t cheapestCost = 0;
  bool anyWithin = false;
  bool any = false;
  const auto consider = [&](ChunkPlan plan, std::uint64_t cost) {
    if (!any || cost < cheapestCost) cheapest = plan, cheapestCost = cost;
    any = true;
    if (static_cast<double>(cost) > budget) return;
    if (!anyWithin || plan.chunkCount < withinBudget.chunkCount ||
        (plan.chunkCount == withinBudget.chunkCount && cost < withinCost)) {
      withinBudget = plan;
      withinCost = cost;
    }
    anyWithin = true;
  };
  if (kHeaderBytes + tableBytes <= kMaxChunkBytes) {
    consider({static_cast<std::uint32_t>(m), 0, 1}, stringAllocation(kHeaderBytes + tableBytes) + kKeyBytes);
  }
  // Groups of 8 buckets end on a byte boundary, so every chunk starts on one.
  const std::uint64_t headerBuckets = 8 * ((kHeaderBytes + bits - 1) / bits);
  for (unsigned power = 12; power <= 28; ++power) {
    for (unsigned quarter = 0; quarter < 4; ++quarter) {
      const std::uint64_t size = (std::uint64_t{1} << power) + quarter * (std::uint64_t{1} << (power - 2));
      if (size > kMaxChunkBytes) continue;
      const std::uint64_t chunkBuckets = 8 * ((size - 10) / bits);
      if (chunkBuckets < headerBuckets + 8) continue;
      const std::uint64_t chunkZeroBuckets = chunkBuckets - headerBuckets;
      if (chunkZeroBuckets >= m) continue;
      const std::uint64_t chunkCount = 1 + (m - chunkZeroBuckets + chunkBuckets - 1) / chunkBuckets;
      if (chunkCount > kMaxChunks) continue;
      const std::uint64_t lastBuckets = m - chunkZeroBuckets - (chunkCount - 2) * chunkBuckets;
      const std::uint64_t cost = stringAllocation(kHeaderBytes + chunkZeroBuckets * bits / 8) +
                                 (chunkCount - 2) * stringAllocation(chunkBuckets * bits / 8) +
                                 stringAllocation((lastBuckets * bits + 7) / 8) + chunkCount * kKeyBytes;
      consider({static_cast<std::uint32_t>(chunkZeroBuckets), static_cast<std::uint32_t>(chunkBuckets),
                static_cast<unsigned>(chunkCount)},
               cost);
    }
  }
  return anyWithin ? withinBudget : cheapest;
}

std::uint64_t shardCapacity(std::uint64_t capacity, unsigned shards) noexcept {
  if (shards == 1) return capacity;
  const double mean = static_cast<double>(capacity) / shards;
  const double sized = std::ceil(mean + 6 * std::sqrt(mean * (1 - 1.0 / shards)) + 6);
  return static_cast<double>(capacity) < sized ? capacity : static_cast<std::uint64_t>(sized);
}

unsigned slotOf(const char* tag, std::size_t length) noexcept { return crc16(0, tag, length) % kSlots; }

std::string shardTag(const std::string& name, unsigned shard, unsigned shards) {
  const unsigned first = static_cast<unsigned>(std::uint64_t{shard} * kSlots / shards);
  const unsigned end = static_cast<unsigned>(std::uint64_t{shard + 1} * kSlots / shards);
  std::string tag = name + ":" + std::to_string(shard) + ":";
  const std::size_t prefix = tag.size();
  const unsigned prefixCrc = crc16(0, tag.data(), prefix);
  for (unsigned salt = 0;; ++salt) {
    tag.resize(prefix);
    tag += std::to_string(salt);
    const unsigned slot = crc16(prefixCrc, tag.data() + prefix, tag.size() - prefix) % kSlots;
    if (slot >= first && slot < end) return tag;
  }
}

}  // namespace cuckoo::redis

namespace cuckoo::redis {

bool parseShardKey(const std::string& key, std::string& name) {
  if (key.size() < 9 || key.front() != '{' || key.compare(key.size() - 3, 3, "}:0") != 0) return false;
  const std::string tag = key.substr(1, key.size() - 4);
  const std::size_t saltColon = tag.rfind(':');
  if (saltColon == std::string::npos || saltColon == 0) return false;
  const std::size_t shardColon = tag.rfind(':', saltColon - 1);
  if (shardColon == std::string::npos || shardColon == 0) return false;
  const auto digits = [&](std::size_t from, std::size_t to) {
    if (from == to) return false;
    for (std::size_t k = from; k < to; ++k) {
      if (tag[k] < '0' || tag[k] > '9') return false;
    }
    return true;
  };
  if (!digits(shardColon + 1, saltColon) || !digits(saltColon + 1, tag.size())) return false;
  name = tag.substr(0, shardColon);
  return true;
}

}  // namespace cuckoo::redis
