// Fuzzer-chosen parameters and operations, checked against an exact multiset.
//
// Input: 13 bytes of parameters, then (operation, key) byte pairs:
//   [0] f = 2 + x % 31   [1] b = 2^(x % 4), or semi-sorted (b = 4, f >= 5) when x >= 0xc0
//   [2] m = 2^(x % 7) when x < 128, else m = 1 + (x - 128) % 96 (any count:
//       hash id 2 unless it is a power of two)
//   [3] maxKicks = x % 64, or the default 500 when x >= 240
//   [4..11] seed (little-endian)   [12] universe = 1 + x % 64 keys
// Keys are small, so the same item is often stored several times, buckets
// fill up and the stash is in play from the first few dozen operations.
//
// Checked after every operation: no false negative for any key inserted and
// not yet erased, itemCount equals the multiset's size and the table's
// occupied slots plus the stash, a failed insert changes nothing and happens
// only while the stash is occupied, erasing a present item succeeds.

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "cuckoo/cuckoo_filter.hpp"
#include "byte_reader.hpp"
#include "fuzz_check.hpp"

namespace {

using cuckoo::CuckooFilter;
using cuckoo::InsertOutcome;
using cuckoo::Status;

enum Operation : unsigned {
  kInsert,
  kInsertAgain,  // a key already present, to pile up copies
  kErasePresent,
  kEraseAbsent,
  kContains,
  kCount,
  kInsertUnique,
  kClear,
  kRoundTrip,
  kClone,
  kOperationCount
};

std::vector<std::uint8_t> serialized(const CuckooFilter& filter) {
  std::vector<std::uint8_t> bytes(filter.serializedSize());
  filter.serialize(bytes.data());
  return bytes;
}

class Model {
 public:
  explicit Model(unsigned universe) : copies_(universe, 0) {}

  unsigned universe() const { return static_cast<unsigned>(copies_.size()); }
  unsigned copies(unsigned key) const { return copies_[key]; }
  std::uint64_t size() const { return size_; }
  void add(unsigned key) { ++copies_[key], ++size_; }
  void remove(unsigned key) { --copies_[key], --size_; }
  void clear() {
    for (unsigned& c : copies_) c = 0;
    size_ = 0;
  }
  // The first key from `start` on (wrapping) with copies == 0 when `present`
  // is false, copies > 0 when true; universe() when there is none.
  unsigned find(unsigned start, bool present) const {
    for (unsigned i = 0; i < universe(); ++i) {
      const unsigned key = (start + i) % universe();
      if ((copies_[key] > 0) == present) return key;
    }
    return universe();
  }

 private:
  std::vector<unsigned> copies_;
  std::uint64_t size_ = 0;
};

struct Item {
  std::array<std::uint8_t, 2> bytes;
  explicit Item(unsigned key) : bytes{{'k', static_cast<std::uint8_t>(key)}} {}
  const void* data() const { return bytes.data(); }
  std::size_t size() const { return bytes.size(); }
};

void checkAgainstModel(const CuckooFilter& filter, const Model& model) {
  const cuckoo::FilterParams& p = filter.params();
  std::uint64_t occupied = filter.stash().occupied ? 1 : 0;
  for (std::uint64_t bucket = 0; bucket < p.bucketCount; ++bucket) {
    for (unsigned slot = 0; slot < p.bucketSize; ++slot) occupied += filter.slotValue(bucket, slot) != 0 ? 1 : 0;
  }
  FUZZ_REQUIRE(filter.itemCount() == model.size(), "itemCount %llu, multiset size %llu",
               static_cast<unsigned long long>(filter.itemCount()), static_cast<unsigned long long>(model.size()));
  FUZZ_REQUIRE(occupied == model.size(), "occupied slots + stash %llu, multiset size %llu",
               static_cast<unsigned long long>(occupied), static_cast<unsigned long long>(model.size()));
  for (unsigned key = 0; key < model.universe(); ++key) {
    if (model.copies(key) == 0) continue;
    const Item item(key);
    FUZZ_REQUIRE(filter.contains(item.data(), item.size()), "false negative for key %u (%u copies)", key, model.copies(key));
    FUZZ_REQUIRE(filter.count(item.data(), item.size()) >= model.copies(key), "count %u below the %u copies of key %u",
                 filter.count(item.data(), item.size()), model.copies(key), key);
  }
}

void insert(CuckooFilter& filter, Model& model, unsigned key) {
  const Item item(key);
  const bool stashWasOccupied = filter.stash().occupied;
  const std::vector<std::uint8_t> before = serialized(filter);
  if (filter.insert(item.data(), item.size())) {
    FUZZ_REQUIRE(!filter.isFull(), "insert of key %u succeeded, yet the filter says full", key);
    model.add(key);
  } else {
    // Refused only when its walk ran out with the stash occupied, and then undone.
    FUZZ_REQUIRE(stashWasOccupied, "insert of key %u failed while the stash was free", key);
    FUZZ_REQUIRE(filter.isFull(), "insert of key %u was refused, yet the filter does not say full", key);
    FUZZ_REQUIRE(serialized(filter) == before, "a failed insert of key %u changed the filter", key);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteReader input(data, size);
  cuckoo::FilterParams params;
  params.fingerprintBits = 2 + input.next() % 31;
  const std::uint8_t shape = input.next();
  params.bucketSize = 1U << (shape % 4);
  params.multiplyShiftHash = (shape & 4) != 0;  // hash ids 6 to 11 for half of the inputs
  params.keyHash = static_cast<cuckoo::KeyHash>(((shape >> 3) & 3) % 3);  // which of them, by the next two bits
  if (shape >= 0xc0) {
    params.semiSort = true;
    params.bucketSize = 4;
    if (params.fingerprintBits < 5) params.fingerprintBits += 3;
  }
  const unsigned countByte = input.next();
  params.bucketCount = countByte < 128 ? std::uint64_t{1} << (countByte % 7) : 1 + (countByte - 128U) % 96;
  const std::uint8_t kicks = input.next();
  params.maxKicks = kicks >= 240 ? cuckoo::kDefaultMaxKicks : kicks % 64;
  params.seed = 0;
  for (unsigned i = 0; i < 8; ++i) params.seed |= std::uint64_t{input.next()} << (8 * i);
  Model model(1 + input.next() % 64);

  CuckooFilter filter;
  FUZZ_REQUIRE(CuckooFilter::create(params, filter) == Status::kOk, "create f=%u b=%u m=%llu semiSort=%d multiplyShift=%d",
               params.fingerprintBits, params.bucketSize, static_cast<unsigned long long>(params.bucketCount),
               params.semiSort, params.multiplyShiftHash);
  const std::vector<std::uint8_t> empty = serialized(filter);

  while (!input.empty()) {
    const unsigned operation = input.next() % kOperationCount;
    const unsigned key = input.next() % model.universe();
    const Item item(key);
    switch (operation) {
      case kInsert:
        insert(filter, model, key);
        break;
      case kInsertAgain: {
        const unsigned present = model.find(key, true);
        insert(filter, model, present < model.universe() ? present : key);
        break;
      }
      case kErasePresent: {
        const unsigned present = model.find(key, true);
        if (present == model.universe()) break;
        const Item victim(present);
        FUZZ_REQUIRE(filter.erase(victim.data(), victim.size()), "erase of present key %u (%u copies) failed", present,
                     model.copies(present));
        model.remove(present);
        break;
      }
      case kEraseAbsent: {
        // Only an absent key the filter also reports absent: erasing a false
        // positive legitimately removes another key's copy.
        const unsigned absent = model.find(key, false);
        if (absent == model.universe()) break;
        const Item stranger(absent);
        if (filter.contains(stranger.data(), stranger.size())) break;
        const std::vector<std::uint8_t> before = serialized(filter);
        FUZZ_REQUIRE(!filter.erase(stranger.data(), stranger.size()), "erase of absent key %u succeeded", absent);
        FUZZ_REQUIRE(serialized(filter) == before, "a failed erase changed the filter");
        break;
      }
      case kContains:
        FUZZ_REQUIRE(model.copies(key) == 0 || filter.contains(item.data(), item.size()), "false negative for key %u", key);
        break;
      case kCount: {
        const unsigned counted = filter.count(item.data(), item.size());
        FUZZ_REQUIRE(counted >= model.copies(key) && counted <= 2 * params.bucketSize + 1, "count %u for %u copies",
                     counted, model.copies(key));
        break;
      }
      case kInsertUnique: {
        const bool stashWasOccupied = filter.stash().occupied;
        const bool wasReported = filter.contains(item.data(), item.size());
        const std::vector<std::uint8_t> before = serialized(filter);
        const InsertOutcome outcome = filter.insertUnique(item.data(), item.size());
        if (outcome == InsertOutcome::kInserted) {
          FUZZ_REQUIRE(!wasReported, "insertUnique inserted key %u, which was reported present", key);
          model.add(key);
        } else {
          FUZZ_REQUIRE(outcome == (wasReported ? InsertOutcome::kAlreadyPresent : InsertOutcome::kFull),
                       "insertUnique of key %u gave %d (reported %d, stash %d)", key, static_cast<int>(outcome),
                       wasReported, stashWasOccupied);
          FUZZ_REQUIRE(wasReported || stashWasOccupied, "insertUnique refused key %u with the stash free", key);
          FUZZ_REQUIRE(serialized(filter) == before, "a refused insertUnique changed the filter");
        }
        break;
      }
      case kClear:
        filter.clear();
        model.clear();
        FUZZ_REQUIRE(serialized(filter) == empty, "clear() differs from a new filter");
        break;
      case kRoundTrip: {
        const std::vector<std::uint8_t> bytes = serialized(filter);
        CuckooFilter loaded;
        const Status status = CuckooFilter::deserialize(bytes.data(), bytes.size(), loaded);
        FUZZ_REQUIRE(status == Status::kOk, "deserialize of serialize() output returned %d", static_cast<int>(status));
        FUZZ_REQUIRE(serialized(loaded) == bytes, "the round trip changed the bytes");
        filter = std::move(loaded);
        break;
      }
      case kClone: {
        CuckooFilter clone;
        FUZZ_REQUIRE(filter.cloneTo(clone) == Status::kOk, "cloneTo");
        FUZZ_REQUIRE(serialized(clone) == serialized(filter), "the clone serializes differently");
        filter = std::move(clone);
        break;
      }
      default:
        break;
    }
    checkAgainstModel(filter, model);
  }
  return 0;
}
