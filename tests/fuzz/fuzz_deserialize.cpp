// Arbitrary bytes into CuckooFilter::deserialize.
//
// Every input is also judged by an independent reading of FORMAT.md's checks
// (expectedStatus below), and the two must agree on the status. What loads
// must keep every invariant of a filter and serialize back to exactly the
// input; a failed load must leave the destination filter as it was.
//
// Built twice from this file: fuzz_deserialize takes the input as it is, so
// nearly every mutation past the header stops at the checksum;
// fuzz_deserialize_checksummed (CUCKOO_FUZZ_FIX_CHECKSUM) first overwrites
// the last 8 bytes with the checksum of the others, so that mutations reach
// the content checks behind it.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "cuckoo/cuckoo_filter.hpp"
#include "fuzz_check.hpp"

#include "format_reading.hpp"
#include "load_check.hpp"

namespace {

using fuzz_format::littleEndian;
using fuzz_format::payloadBits;
using fuzz_format::payloadStatus;
using namespace fuzz_load;  // loadChecked, serialized

using cuckoo::CuckooFilter;
using cuckoo::Status;

constexpr std::size_t kShortestHeaderBytes = 56;  // version 1
constexpr std::uint8_t kFlagSemiSorted = 1U << 0;
constexpr std::uint8_t kFlagStashOccupied = 1U << 1;

std::uint64_t choose(unsigned n, unsigned k) {
  if (k > n) return 0;
  std::uint64_t result = 1;
  for (unsigned i = 1; i <= k; ++i) result = result * (n - k + i) / i;
  return result;
}

// Non-zero entries of a semi-sorted bucket (FORMAT.md, "Semi-sorted payload"),
// or -1 when its rank is out of range or its entries are not ascending. The
// rank is undone greedily in the combinatorial number system.
int semiSortedBucketEntries(const std::uint8_t* payload, std::uint64_t bucket, unsigned f) {
  const std::uint64_t start = bucket * (4 * f - 4);
  std::uint64_t rank = payloadBits(payload, start, 12);
  if (rank >= choose(19, 4)) return -1;
  unsigned strictlyIncreasing[4];
  unsigned below = 19;
  for (int k = 4; k >= 1; --k) {
    unsigned c = below - 1;
    while (choose(c, static_cast<unsigned>(k)) > rank) --c;
    rank -= choose(c, static_cast<unsigned>(k));
    strictlyIncreasing[k - 1] = c;
    below = c;
  }
  int nonZero = 0;
  std::uint64_t previous = 0;
  for (unsigned s = 0; s < 4; ++s) {
    const std::uint64_t nibble = strictlyIncreasing[s] - s;
    const std::uint64_t entry = nibble << (f - 4) | payloadBits(payload, start + 12 + s * (f - 4), f - 4);
    if (entry < previous) return -1;
    previous = entry;
    nonZero += entry != 0 ? 1 : 0;
  }
  return nonZero;
}

// The hash id FORMAT.md pairs with a format version and a bucket count m:
// versions 1 and 2 one each; versions 4 (keyed), 5 (64-bit keys), 6 (64-bit
// keys, mixed) and 7 (64-bit keys, the seeded mix) the XOR relation's for a
// power of two and the reflection's for any other m. 0 for
// no version a CuckooFilter reads.
unsigned hashIdFor(unsigned version, std::uint64_t m) {
  const bool powerOfTwo = m != 0 && (m & (m - 1)) == 0;
  switch (version) {
    case 1: return 1;
    case 2: return 2;
    case 4: return powerOfTwo ? 4 : 5;
    case 5: return powerOfTwo ? 6 : 7;
    case 6: return powerOfTwo ? 8 : 9;
    case 7: return powerOfTwo ? 10 : 11;
    default: return 0;
  }
}

// FORMAT.md's "Checks on load", step by step, as a reader of the document
// would write them. Allocation (step 9) cannot fail for inputs of fuzzing size.
Status expectedStatus(const std::uint8_t* d, std::size_t n) {
  static const std::uint8_t magic[4] = {'C', 'K', 'F', 'W'};
  for (std::size_t i = 0; i < n && i < 4; ++i) {
    if (d[i] != magic[i]) return Status::kFormatBadMagic;
  }
  if (n < 5) return Status::kFormatTruncated;
  const unsigned version = d[4];
  if (version != 1 && version != 2 && (version < 4 || version > 7)) return Status::kFormatUnsupportedVersion;
  // Version 1 stores log2(m) in byte 9; versions 2 and 4 to 7 store m in 8 bytes at 56.
  const std::size_t headerBytes = version == 1 ? 56 : 64;
  if (n < headerBytes) return Status::kFormatTruncated;

  const unsigned flags = d[5];
  const bool semiSorted = (flags & kFlagSemiSorted) != 0;
  const unsigned f = d[7];
  const unsigned b = d[8];
  const std::uint64_t maxKicks = littleEndian(d + 12, 4);
  const std::uint64_t declaredPayload = littleEndian(d + 48, 8);
  std::uint64_t m = 0;
  bool layoutAgrees = false;
  if (version == 1) {
    layoutAgrees = d[6] == 1 && d[9] <= 32 && d[10] == 0 && d[11] == 0;
    m = layoutAgrees ? std::uint64_t{1} << d[9] : 0;
  } else if (version == 2) {
    m = littleEndian(d + 56, 8);
    const bool powerOfTwo = m != 0 && (m & (m - 1)) == 0;
    layoutAgrees = d[6] == 2 && d[9] == 0 && d[10] == 0 && d[11] == 0 && m >= 3 && m < (std::uint64_t{1} << 32) &&
                   !powerOfTwo;
  } else {
    // Versions 4 (keyed), 5 to 7 (64-bit keys): any m from 1 to 2^32; hash id 4, 6, 8 or 10 for a
    // power of two, 5, 7, 9 or 11 for any other.
    m = littleEndian(d + 56, 8);
    layoutAgrees = d[6] == hashIdFor(version, m) && d[9] == 0 && d[10] == 0 && d[11] == 0 && m >= 1 &&
                   m <= (std::uint64_t{1} << 32);
  }
  if ((flags & ~unsigned{kFlagSemiSorted | kFlagStashOccupied}) != 0 || !layoutAgrees || f < 2 || f > 32 ||
      (b != 1 && b != 2 && b != 4 && b != 8) || maxKicks > 1'000'000 || (semiSorted && (b != 4 || f < 5))) {
    return Status::kFormatBadParameters;
  }
  const std::uint64_t usedBits = semiSorted ? m * (4 * f - 4) : m * b * f;
  const std::uint64_t payload = (usedBits + 7) / 8;
  if (declaredPayload != payload) return Status::kFormatBadParameters;
  if (payload + cuckoo::kTablePaddingBytes > cuckoo::kMaxTableBytes) return Status::kTableTooLarge;
  if (const Status tail = payloadStatus(d, n, headerBytes, payload, usedBits); tail != Status::kOk) return tail;

  const std::uint8_t* table = d + headerBytes;
  const bool stashOccupied = (flags & kFlagStashOccupied) != 0;
  const std::uint64_t stashFingerprint = littleEndian(d + 40, 4);
  const std::uint64_t stashBucket = littleEndian(d + 44, 4);
  if (stashOccupied) {
    if (stashFingerprint == 0 || stashFingerprint >= (std::uint64_t{1} << f) || stashBucket >= m) {
      return Status::kFormatInconsistent;
    }
  } else if (stashFingerprint != 0 || stashBucket != 0) {
    return Status::kFormatInconsistent;
  }
  std::uint64_t stored = stashOccupied ? 1 : 0;
  for (std::uint64_t bucket = 0; bucket < m; ++bucket) {
    if (semiSorted) {
      const int entries = semiSortedBucketEntries(table, bucket, f);
      if (entries < 0) return Status::kFormatInconsistent;
      stored += static_cast<unsigned>(entries);
    } else {
      for (unsigned s = 0; s < b; ++s) stored += payloadBits(table, (bucket * b + s) * f, f) != 0 ? 1 : 0;
    }
  }
  if (stored != littleEndian(d + 32, 8)) return Status::kFormatInconsistent;
  return Status::kOk;
}

std::uint64_t occupiedSlots(const CuckooFilter& filter) {
  const cuckoo::FilterParams& p = filter.params();
  std::uint64_t occupied = 0;
  for (std::uint64_t bucket = 0; bucket < p.bucketCount; ++bucket) {
    for (unsigned slot = 0; slot < p.bucketSize; ++slot) occupied += filter.slotValue(bucket, slot) != 0 ? 1 : 0;
  }
  return occupied;
}

// `hashId`: the one the loaded bytes declared, which the filter keeps through
// every operation and clear().
void checkInvariants(const CuckooFilter& filter, unsigned hashId) {
  const cuckoo::FilterParams& p = filter.params();
  const cuckoo::FilterStats s = filter.stats();
  const cuckoo::Stash& stash = filter.stash();
  const std::uint64_t occupied = occupiedSlots(filter);
  const std::uint64_t tableBits =
      p.semiSort ? p.bucketCount * (4 * p.fingerprintBits - 4) : p.bucketCount * p.bucketSize * p.fingerprintBits;
  FUZZ_REQUIRE(filter.itemCount() == occupied + (stash.occupied ? 1 : 0), "itemCount %llu, occupied %llu, stash %d",
               static_cast<unsigned long long>(filter.itemCount()), static_cast<unsigned long long>(occupied),
               stash.occupied ? 1 : 0);
  FUZZ_REQUIRE(!stash.occupied || (stash.fingerprint != 0 && stash.bucket < p.bucketCount), "bad stash entry");
  FUZZ_REQUIRE(s.itemCount == filter.itemCount(), "stats().itemCount");
  FUZZ_REQUIRE(s.slotCount == p.bucketCount * p.bucketSize, "stats().slotCount");
  FUZZ_REQUIRE(s.sizeInBytes == (tableBits + 7) / 8 + cuckoo::kTablePaddingBytes, "stats().sizeInBytes %zu",
               s.sizeInBytes);
  FUZZ_REQUIRE(s.itemCount == 0 || s.bitsPerItem == static_cast<double>(tableBits) / static_cast<double>(s.itemCount),
               "stats().bitsPerItem %f", s.bitsPerItem);
  FUZZ_REQUIRE(s.stashedCount == (stash.occupied ? 1U : 0U), "stats().stashedCount");
  FUZZ_REQUIRE(s.loadFactor == static_cast<double>(s.itemCount - s.stashedCount) / static_cast<double>(s.slotCount),
               "stats().loadFactor");
  FUZZ_REQUIRE(s.loadFactor >= 0 && s.loadFactor <= 1 && s.itemCount <= s.slotCount + 1, "load %f over capacity",
               s.loadFactor);
  FUZZ_REQUIRE(s.itemCount != 0 || std::isinf(s.bitsPerItem), "stats().bitsPerItem %f when empty", s.bitsPerItem);
  FUZZ_REQUIRE(s.expectedFalsePositiveRate >= 0 && s.expectedFalsePositiveRate <= 1, "expected FPR %f",
               s.expectedFalsePositiveRate);
  FUZZ_REQUIRE(s.falsePositiveBound == 2.0 * p.bucketSize / std::ldexp(1.0, static_cast<int>(p.fingerprintBits)),
               "stats().falsePositiveBound");
  FUZZ_REQUIRE(filter.hashId() == hashId, "hash id %u for %llu buckets, not the %u loaded", filter.hashId(),
               static_cast<unsigned long long>(p.bucketCount), hashId);
}

// Operations on a loaded filter, with items cut from the input itself: 4-byte
// items, and 8-byte ones, which hash ids 6 to 11 hash by a hash of keys.
void exercise(CuckooFilter& filter, const std::uint8_t* data, std::size_t size, unsigned hashId) {
  for (const std::size_t length : {std::size_t{4}, std::size_t{8}}) {
    for (std::size_t start = 0; start + length <= size && start < 64; start += length) {
      const std::uint8_t* item = data + start;
      const std::uint64_t countBefore = filter.itemCount();
      const bool stashWasOccupied = filter.stash().occupied;
      const std::vector<std::uint8_t> before = serialized(filter);
      if (filter.insert(item, length)) {
        FUZZ_REQUIRE(filter.contains(item, length), "false negative right after insert");
        FUZZ_REQUIRE(filter.count(item, length) >= 1, "count 0 right after insert");
        FUZZ_REQUIRE(filter.itemCount() == countBefore + 1, "insert did not count the item");
        FUZZ_REQUIRE(filter.erase(item, length), "erase of the item just inserted failed");
        FUZZ_REQUIRE(filter.itemCount() == countBefore, "erase did not uncount the item");
      } else {
        FUZZ_REQUIRE(stashWasOccupied, "insert failed while the stash was free");
        FUZZ_REQUIRE(filter.isFull(), "a refused insert does not say full");
        FUZZ_REQUIRE(serialized(filter) == before, "a failed insert changed the filter");
      }
      FUZZ_REQUIRE(filter.count(item, length) <= 2 * filter.params().bucketSize + 1,
                   "count above two buckets and the stash");
      // Any item, inserted or not: erase finds exactly what contains finds.
      const bool reported = filter.contains(item, length);
      const unsigned copies = filter.count(item, length);
      FUZZ_REQUIRE(reported == (copies > 0), "contains %d but count %u", reported, copies);
      FUZZ_REQUIRE(filter.erase(item, length) == reported, "erase disagrees with contains (%d)", reported);
      FUZZ_REQUIRE(filter.itemCount() == countBefore - (reported ? 1 : 0), "erase miscounted");
      checkInvariants(filter, hashId);
    }
  }
}

void run(const std::uint8_t* data, std::size_t size) {
  // A destination that already holds a filter: a failed load must not touch it.
  CuckooFilter destination;
  cuckoo::FilterParams smallParams;
  smallParams.fingerprintBits = 7;
  smallParams.bucketSize = 2;
  smallParams.bucketCount = 4;
  smallParams.seed = 5;
  FUZZ_REQUIRE(CuckooFilter::create(smallParams, destination) == Status::kOk, "create");
  destination.insert("resident", 8);

  const std::vector<std::uint8_t> written = loadChecked(data, size, expectedStatus(data, size), destination);
  if (written.empty()) return;
  const std::uint64_t storedCount = data[4] == 1 ? std::uint64_t{1} << data[9] : littleEndian(data + 56, 8);
  const unsigned hashId = hashIdFor(data[4], storedCount);
  checkInvariants(destination, hashId);
  FUZZ_REQUIRE(destination.params().bucketCount == storedCount, "bucketCount");
  FUZZ_REQUIRE(destination.params().keyedHash == (data[4] == 4), "keyedHash %d from version %u",
               destination.params().keyedHash ? 1 : 0, data[4]);
  FUZZ_REQUIRE(destination.params().multiplyShiftHash == (data[4] >= 5 && data[4] <= 7), "multiplyShiftHash from version %u",
               data[4]);
  // FORMAT.md: version 5 is multiply-shift alone, 6 the key mixed first, 7 the seeded mix.
  const cuckoo::KeyHash keyHashOfVersion = data[4] == 5   ? cuckoo::KeyHash::kMultiplyShift
                                           : data[4] == 6 ? cuckoo::KeyHash::kMixedMultiplyShift
                                                          : cuckoo::KeyHash::kSeededMix;
  FUZZ_REQUIRE(!destination.params().multiplyShiftHash || destination.params().keyHash == keyHashOfVersion,
               "the hash of keys from version %u", data[4]);
  FUZZ_REQUIRE(destination.semiSorted() == ((data[5] & kFlagSemiSorted) != 0), "semiSort");
  FUZZ_REQUIRE(destination.params().seed == littleEndian(data + 16, 8), "seed");
  FUZZ_REQUIRE(destination.prngState() == littleEndian(data + 24, 8), "PRNG state");

  CuckooFilter clone;
  FUZZ_REQUIRE(destination.cloneTo(clone) == Status::kOk, "cloneTo");
  FUZZ_REQUIRE(serialized(clone) == written, "the clone serializes differently");

  exercise(destination, data, size, hashId);
  // Insert and erase leave the table as they found it only up to eviction
  // moves, so the bytes are not compared here; a clear() must give a fresh filter.
  destination.clear();
  checkInvariants(destination, hashId);
  CuckooFilter fresh;
  FUZZ_REQUIRE(CuckooFilter::create(destination.params(), fresh) == Status::kOk, "create with loaded params");
  FUZZ_REQUIRE(serialized(fresh) == serialized(destination), "clear() differs from a new filter");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz_format::withChecksum(CUCKOO_FUZZ_FIX_CHECKSUM != 0, kShortestHeaderBytes, data, size, run);
  return 0;
}
