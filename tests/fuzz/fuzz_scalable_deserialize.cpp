// Arbitrary bytes into ScalableCuckooFilter::deserialize (FORMAT.md, "Version
// 3: growable filters").
//
// Every input is also judged by an independent reading of that section's
// checks (expectedStatus below), and the two must agree on the status. What
// loads must keep the invariants the public API can see (entries counted as
// stored, items at most entries, lookups that agree with each other), must
// serialize back to exactly the input, and must take new items and find them
// afterwards; a failed load must leave the destination filter as it was.
//
// Built twice from this file, as fuzz_deserialize: fuzz_scalable_deserialize
// takes the input as it is, so nearly every mutation past the header stops at
// the checksum; fuzz_scalable_deserialize_checksummed
// (CUCKOO_FUZZ_FIX_CHECKSUM) first overwrites the last 8 bytes with the
// checksum of the others, so that mutations reach the content checks.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cuckoo/item_batch.hpp"
#include "cuckoo/scalable_filter.hpp"
#include "fuzz_check.hpp"

#include "format_reading.hpp"
#include "load_check.hpp"

namespace {

using fuzz_format::littleEndian;
using fuzz_format::payloadBits;
using fuzz_format::payloadStatus;
using namespace fuzz_load;  // loadChecked, serialized

using cuckoo::ScalableCuckooFilter;
using cuckoo::ScalableParams;
using cuckoo::Status;

// FORMAT.md's version 3 table.
constexpr std::size_t kHeaderBytes = 280;
constexpr std::size_t kStashAt = 88;
constexpr unsigned kStashRecords = 16;
constexpr std::size_t kStashRecordBytes = 12;
constexpr unsigned kFixedBits = 8;  // r
constexpr std::uint8_t kFlagSemiSorted = 1U << 0;

// The design constants behind create()'s first table (scalable_filter.hpp and
// scalable_sizing.hpp): 4 slots a bucket, growth at 90 % load, tails of at least
// 8 bits, slots of at most 32.
constexpr unsigned kSlots = 4;
constexpr double kMaxLoad = 0.9;
constexpr unsigned kMinSlotBits = kFixedBits + 8;
constexpr unsigned kMaxSlotBits = 32;

double doubleAt(const std::uint8_t* from) {
  const std::uint64_t bits = littleEndian(from, 8);
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// The first table create() makes: enough buckets for the capacity at the
// maximum load, and the narrowest slot whose false-positive bound
// 2b · maxLoad · 2 (rounds + 1) · 2^-W holds for every round of growth up to
// the largest table (32 bits when none does).
struct FirstTable {
  std::uint64_t buckets;
  unsigned level;
  unsigned tailBits;
};

double falsePositiveBound(unsigned slotBits, unsigned rounds) {
  return 2.0 * kSlots * kMaxLoad * 2.0 * (rounds + 1) * std::ldexp(1.0, -static_cast<int>(slotBits));
}

FirstTable firstTable(std::uint64_t capacity, double fpr) {
  FirstTable first{};
  first.buckets = static_cast<std::uint64_t>(std::ceil(static_cast<double>(capacity) / (kSlots * kMaxLoad)));
  if (first.buckets == 0) first.buckets = 1;
  while ((first.buckets >> first.level) > 1) ++first.level;
  unsigned slotBits = kMinSlotBits;
  const unsigned rounds = first.level <= cuckoo::kMaxScalableLevel ? cuckoo::kMaxScalableLevel - first.level : 0;
  while (slotBits < kMaxSlotBits && falsePositiveBound(slotBits, rounds) > fpr) ++slotBits;
  first.tailBits = slotBits - kFixedBits;
  return first;
}

// Ranks of the semi-sorted nibble multisets (FORMAT.md, "Semi-sorted
// payload"): every sorted n0 <= n1 <= n2 <= n3, ranked by the document's
// formula, so that a rank is undone by looking it up.
constexpr unsigned kNibbleRanks = 3876;
struct Nibbles {
  std::uint8_t n[4];
};

std::uint64_t binomial(unsigned n, unsigned k) {
  if (k > n) return 0;
  std::uint64_t result = 1;
  for (unsigned i = 1; i <= k; ++i) result = result * (n - k + i) / i;
  return result;
}

const std::vector<Nibbles>& nibblesByRank() {
  static const std::vector<Nibbles> table = [] {
    std::vector<Nibbles> byRank(kNibbleRanks);
    std::vector<bool> seen(kNibbleRanks, false);
    for (unsigned n3 = 0; n3 < 16; ++n3) {
      for (unsigned n2 = 0; n2 <= n3; ++n2) {
        for (unsigned n1 = 0; n1 <= n2; ++n1) {
          for (unsigned n0 = 0; n0 <= n1; ++n0) {
            const std::uint64_t rank = binomial(n0, 1) + binomial(n1 + 1, 2) + binomial(n2 + 2, 3) + binomial(n3 + 3, 4);
            FUZZ_REQUIRE(rank < kNibbleRanks && !seen[rank], "rank %llu of nibbles %u %u %u %u",
                         static_cast<unsigned long long>(rank), n0, n1, n2, n3);
            seen[rank] = true;
            byRank[rank] = Nibbles{{static_cast<std::uint8_t>(n0), static_cast<std::uint8_t>(n1),
                                    static_cast<std::uint8_t>(n2), static_cast<std::uint8_t>(n3)}};
          }
        }
      }
    }
    return byRank;
  }();
  return table;
}

// A bucket's four slot values, or false when a semi-sorted bucket is not
// well formed (rank out of range, values not ascending).
bool bucketValues(const std::uint8_t* payload, std::uint64_t bucket, unsigned w, bool semiSorted, std::uint32_t values[4]) {
  if (!semiSorted) {
    for (unsigned s = 0; s < kSlots; ++s) values[s] = payloadBits(payload, (bucket * kSlots + s) * w, w);
    return true;
  }
  const std::uint64_t start = bucket * (4 * std::uint64_t{w} - 4);
  const std::uint32_t rank = payloadBits(payload, start, 12);
  if (rank >= kNibbleRanks) return false;
  const Nibbles& nibbles = nibblesByRank()[rank];
  for (unsigned s = 0; s < kSlots; ++s) {
    const std::uint32_t low = payloadBits(payload, start + 12 + s * (w - 4), w - 4);
    values[s] = std::uint32_t{nibbles.n[s]} << (w - 4) | low;
    if (s > 0 && values[s - 1] > values[s]) return false;
  }
  return true;
}

// A stored value: a fingerprint and a tail, neither zero, in W bits.
bool wellFormed(std::uint32_t value, unsigned w, unsigned tailBits) {
  if (w < 32 && (value >> w) != 0) return false;
  return (value >> tailBits) != 0 && (value & ((std::uint32_t{1} << tailBits) - 1)) != 0;
}

// FORMAT.md's "Checks on load" of version 3, in the document's order, as a
// reader of it would write them. Allocation cannot fail for inputs of fuzzing
// size.
Status expectedStatus(const std::uint8_t* d, std::size_t n) {
  static const std::uint8_t magic[4] = {'C', 'K', 'F', 'W'};
  for (std::size_t i = 0; i < n && i < 4; ++i) {
    if (d[i] != magic[i]) return Status::kFormatBadMagic;
  }
  if (n < 5) return Status::kFormatTruncated;
  if (d[4] != 3) return Status::kFormatUnsupportedVersion;
  if (n < kHeaderBytes) return Status::kFormatTruncated;

  if ((d[5] & ~kFlagSemiSorted) != 0 || d[6] != 3) return Status::kFormatBadParameters;
  const bool semiSorted = (d[5] & kFlagSemiSorted) != 0;
  const std::uint64_t capacity = littleEndian(d + 56, 8);
  const double fpr = doubleAt(d + 64);
  const double growth = doubleAt(d + 72);
  const std::uint64_t maxKicks = littleEndian(d + 12, 4);
  // The parameters as create() takes them: any it refuses is 23, except a
  // first table beyond the largest (2^30 buckets), which create() reports as 5.
  if (capacity < 1 || capacity > (std::uint64_t{1} << 32) || !(fpr >= 1e-7 && fpr < 1) ||
      !(growth >= cuckoo::kMinGrowth && growth <= cuckoo::kMaxGrowth) || maxKicks > 1'000'000) {
    return Status::kFormatBadParameters;
  }
  const FirstTable first = firstTable(capacity, fpr);
  if (first.buckets > (std::uint64_t{1} << cuckoo::kMaxScalableLevel)) return Status::kTableTooLarge;

  const unsigned tailBits = d[8];
  const unsigned level = d[9];
  const unsigned stashCount = d[11];
  const std::uint64_t split = littleEndian(d + 48, 8);
  if (d[7] != kFixedBits || d[10] != first.level || tailBits != first.tailBits || level < first.level ||
      level > cuckoo::kMaxScalableLevel || split >= (std::uint64_t{1} << level) ||
      (level == cuckoo::kMaxScalableLevel && split != 0) || (std::uint64_t{1} << level) + split < first.buckets ||
      kFixedBits + tailBits > kMaxSlotBits || stashCount > kStashRecords) {
    return Status::kFormatBadParameters;
  }
  const unsigned w = kFixedBits + tailBits;
  const std::uint64_t m = (std::uint64_t{1} << level) + split;
  const std::uint64_t bucketBits = semiSorted ? 4 * std::uint64_t{w} - 4 : 4 * std::uint64_t{w};
  const std::uint64_t usedBits = m * bucketBits;
  const std::uint64_t payload = (usedBits + 7) / 8;
  if (payload + cuckoo::kTablePaddingBytes > cuckoo::kMaxTableBytes) return Status::kTableTooLarge;
  if (littleEndian(d + 80, 8) != payload) return Status::kFormatBadParameters;

  if (const Status tail = payloadStatus(d, n, kHeaderBytes, payload, usedBits); tail != Status::kOk) return tail;

  const std::uint8_t* table = d + kHeaderBytes;
  std::uint64_t entries = 0;
  for (std::uint64_t bucket = 0; bucket < m; ++bucket) {
    std::uint32_t values[4];
    if (!bucketValues(table, bucket, w, semiSorted, values)) return Status::kFormatInconsistent;
    for (const std::uint32_t value : values) {
      if (value == 0) continue;
      if (!wellFormed(value, w, tailBits)) return Status::kFormatInconsistent;
      ++entries;
    }
  }
  for (unsigned k = 0; k < kStashRecords; ++k) {
    const std::uint8_t* record = d + kStashAt + k * kStashRecordBytes;
    const auto value = static_cast<std::uint32_t>(littleEndian(record, 4));
    const std::uint64_t bucket = littleEndian(record + 4, 8);
    if (k < stashCount ? !wellFormed(value, w, tailBits) || bucket >= m : value != 0 || bucket != 0) {
      return Status::kFormatInconsistent;
    }
  }
  const std::uint64_t entryCount = littleEndian(d + 40, 8);
  if (entryCount != entries + stashCount || littleEndian(d + 32, 8) > entryCount) return Status::kFormatInconsistent;
  return Status::kOk;
}

std::uint64_t occupiedSlots(const ScalableCuckooFilter& filter) {
  std::uint64_t occupied = 0;
  for (std::uint64_t bucket = 0; bucket < filter.shape().bucketCount(); ++bucket) {
    for (unsigned slot = 0; slot < kSlots; ++slot) occupied += filter.slotValue(bucket, slot) != 0 ? 1 : 0;
  }
  return occupied;
}

void checkInvariants(const ScalableCuckooFilter& filter) {
  const cuckoo::ScalableShape& shape = filter.shape();
  const cuckoo::ScalableStats s = filter.stats();
  const std::uint64_t m = shape.bucketCount();
  const unsigned w = shape.slotBits();
  const std::uint64_t tableBits = m * (filter.params().semiSort ? 4 * std::uint64_t{w} - 4 : 4 * std::uint64_t{w});
  const std::uint64_t occupied = occupiedSlots(filter);
  FUZZ_REQUIRE(s.entryCount == occupied + filter.stashCount(), "entryCount %llu, occupied %llu, stash %u",
               static_cast<unsigned long long>(s.entryCount), static_cast<unsigned long long>(occupied),
               filter.stashCount());
  FUZZ_REQUIRE(s.itemCount == filter.itemCount() && s.itemCount <= s.entryCount, "itemCount %llu, entryCount %llu",
               static_cast<unsigned long long>(s.itemCount), static_cast<unsigned long long>(s.entryCount));
  FUZZ_REQUIRE(filter.stashCount() <= kStashRecords, "stash %u",
               filter.stashCount());
  FUZZ_REQUIRE(shape.fixedBits == kFixedBits && w <= kMaxSlotBits && shape.level <= cuckoo::kMaxScalableLevel &&
                   shape.initialLevel <= shape.level && shape.splitBucket < (std::uint64_t{1} << shape.level),
               "shape r=%u T=%u L=%u L0=%u s=%llu", shape.fixedBits, shape.tailBits, shape.level, shape.initialLevel,
               static_cast<unsigned long long>(shape.splitBucket));
  FUZZ_REQUIRE(s.slotCount == kSlots * m, "stats().slotCount");
  FUZZ_REQUIRE(s.stashedCount == filter.stashCount(), "stats().stashedCount");
  FUZZ_REQUIRE(s.loadFactor == static_cast<double>(s.entryCount - s.stashedCount) / static_cast<double>(s.slotCount),
               "stats().loadFactor");
  FUZZ_REQUIRE(s.loadFactor >= 0 && s.loadFactor <= 1, "load %f over capacity", s.loadFactor);
  FUZZ_REQUIRE(s.sizeInBytes == (tableBits + 7) / 8 + cuckoo::kTablePaddingBytes, "stats().sizeInBytes %zu", s.sizeInBytes);
  FUZZ_REQUIRE(s.itemCount == 0 ? std::isinf(s.bitsPerItem)
                                : s.bitsPerItem == static_cast<double>(tableBits) / static_cast<double>(s.itemCount),
               "stats().bitsPerItem %f", s.bitsPerItem);
  // The promise: the rate asked for at every size, unless even 32-bit slots cannot keep it.
  FUZZ_REQUIRE(s.falsePositiveBound == falsePositiveBound(w, shape.level - shape.initialLevel) &&
                   (s.falsePositiveBound <= filter.params().falsePositiveRate || w == kMaxSlotBits),
               "stats().falsePositiveBound %g for fpr %g", s.falsePositiveBound, filter.params().falsePositiveRate);
}

// contains, count and containsMany agree on any item, added or not.
void checkLookups(const ScalableCuckooFilter& filter, const std::uint8_t* data, std::size_t size) {
  constexpr std::uint32_t length = 4;
  const std::size_t count = size / length < 64 ? size / length : 64;
  std::vector<unsigned char> answers(count + 1, 0xAA);
  filter.containsMany(cuckoo::ItemBatch::fixed(data, length, count), answers.data());
  FUZZ_REQUIRE(answers[count] == 0xAA, "containsMany wrote past its %zu answers", count);
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint8_t* item = data + k * length;
    const bool reported = filter.contains(item, length);
    const unsigned copies = filter.count(item, length);
    FUZZ_REQUIRE(reported == (copies > 0), "item %zu: contains %d but count %u", k, reported, copies);
    FUZZ_REQUIRE(answers[k] == (reported ? 1 : 0), "item %zu: containsMany %u, contains %d", k, answers[k], reported);
    FUZZ_REQUIRE(copies <= 2 * kSlots + filter.stashCount(), "item %zu: count %u over two buckets and the stash", k, copies);
  }
}

// The 4-byte items of the input's first 256 bytes the filter reports present.
std::vector<const std::uint8_t*> reportedPresent(const ScalableCuckooFilter& filter, const std::uint8_t* data,
                                                 std::size_t size) {
  std::vector<const std::uint8_t*> present;
  for (std::size_t start = 0; start + 4 <= size && start < 256; start += 4) {
    if (filter.contains(data + start, 4)) present.push_back(data + start);
  }
  return present;
}

// New items into a loaded filter, cut from the input's payload (or header
// when it has none), then all found, then erased again. No add, stored,
// refused or growing the table, loses what the filter held.
void exercise(ScalableCuckooFilter& filter, const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t length = 5;
  const std::size_t from = size > kHeaderBytes + 8 * length ? kHeaderBytes : 0;
  const std::uint64_t itemsBefore = filter.itemCount();
  std::vector<const std::uint8_t*> added;
  for (std::size_t start = from; start + length <= size && added.size() < 8 && start < from + 16 * length;
       start += length) {
    const std::uint8_t* item = data + start;
    const std::uint64_t entriesBefore = filter.stats().entryCount;
    const unsigned copiesBefore = filter.count(item, length);
    const std::vector<std::uint8_t> before = serialized(filter);
    const unsigned stashBefore = filter.stashCount();
    const std::vector<const std::uint8_t*> present = reportedPresent(filter, data, size);
    const bool stored = filter.insert(item, length);
    for (const std::uint8_t* held : present) FUZZ_REQUIRE(filter.contains(held, 4), "an insert lost an item");
    if (stored) {
      FUZZ_REQUIRE(filter.contains(item, length), "false negative right after insert");
      FUZZ_REQUIRE(filter.itemCount() == itemsBefore + added.size() + 1, "insert did not count the item");
      FUZZ_REQUIRE(filter.stats().entryCount > entriesBefore, "insert stored no entry");
      added.push_back(item);
    } else {
      // Refused only for a ninth copy (a fifth when both buckets are one),
      // or when the stash holds what a growth carries; always with nothing
      // changed.
      FUZZ_REQUIRE(copiesBefore >= kSlots || stashBefore >= cuckoo::ScalableCuckooFilter::kMaxHeld / 4,
                   "insert failed (count %u, stash %u)", copiesBefore, stashBefore);
      FUZZ_REQUIRE(filter.isFull(), "a refused insert does not say full");
      FUZZ_REQUIRE(serialized(filter) == before, "a failed insert changed the filter");
    }
    checkInvariants(filter);
  }
  for (const std::uint8_t* item : added) FUZZ_REQUIRE(filter.contains(item, length), "an added item was lost");
  for (std::size_t k = added.size(); k-- > 0;) {
    FUZZ_REQUIRE(filter.erase(added[k], length), "erase of added item %zu failed", k);
    FUZZ_REQUIRE(filter.itemCount() == itemsBefore + k, "erase miscounted");
  }
  checkInvariants(filter);
}

void run(const std::uint8_t* data, std::size_t size) {
  // A destination that already holds a filter: a failed load must not touch it.
  ScalableParams smallParams;
  smallParams.initialCapacity = 3;
  smallParams.falsePositiveRate = 0.1;
  smallParams.seed = 5;
  ScalableCuckooFilter destination;
  FUZZ_REQUIRE(ScalableCuckooFilter::create(smallParams, destination) == Status::kOk, "create");
  destination.insert("resident", 8);

  const std::vector<std::uint8_t> written = loadChecked(data, size, expectedStatus(data, size), destination);
  if (written.empty()) return;
  const ScalableParams& p = destination.params();
  const cuckoo::ScalableShape& shape = destination.shape();
  FUZZ_REQUIRE(p.semiSort == ((data[5] & kFlagSemiSorted) != 0) && p.maxKicks == littleEndian(data + 12, 4) &&
                   p.seed == littleEndian(data + 16, 8) && p.initialCapacity == littleEndian(data + 56, 8) &&
                   p.falsePositiveRate == doubleAt(data + 64) && p.growth == doubleAt(data + 72),
               "params() differ from the header");
  FUZZ_REQUIRE(shape.tailBits == data[8] && shape.level == data[9] && shape.initialLevel == data[10] &&
                   shape.splitBucket == littleEndian(data + 48, 8) && destination.stashCount() == data[11],
               "shape() differs from the header");
  FUZZ_REQUIRE(destination.itemCount() == littleEndian(data + 32, 8) &&
                   destination.stats().entryCount == littleEndian(data + 40, 8),
               "counts differ from the header");
  checkInvariants(destination);
  checkLookups(destination, data, size);

  // The first table of these parameters as create() makes it (no larger than
  // the loaded one, so small): the prediction above must describe it.
  const FirstTable first = firstTable(p.initialCapacity, p.falsePositiveRate);
  ScalableCuckooFilter fresh;
  FUZZ_REQUIRE(ScalableCuckooFilter::create(p, fresh) == Status::kOk, "create with loaded params");
  FUZZ_REQUIRE(fresh.shape().bucketCount() == first.buckets && fresh.shape().level == first.level &&
                   fresh.shape().tailBits == first.tailBits,
               "create() made %llu buckets, T = %u; predicted %llu, T = %u",
               static_cast<unsigned long long>(fresh.shape().bucketCount()), fresh.shape().tailBits,
               static_cast<unsigned long long>(first.buckets), first.tailBits);

  ScalableCuckooFilter clone;
  FUZZ_REQUIRE(destination.cloneTo(clone) == Status::kOk, "cloneTo");
  FUZZ_REQUIRE(serialized(clone) == written, "the clone serializes differently");

  exercise(destination, data, size);
  // Inserts and erases leave the table as they found it only up to eviction
  // moves and growth, so the bytes are not compared here; a clear() must give
  // a fresh filter.
  FUZZ_REQUIRE(destination.clear() == Status::kOk, "clear");
  checkInvariants(destination);
  FUZZ_REQUIRE(serialized(fresh) == serialized(destination), "clear() differs from a new filter");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz_format::withChecksum(CUCKOO_FUZZ_FIX_CHECKSUM != 0, kHeaderBytes, data, size, run);
  return 0;
}
