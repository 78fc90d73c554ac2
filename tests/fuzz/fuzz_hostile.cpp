// Keys aimed at one pair of buckets, mixed with ordinary ones (issue 26):
// the filter must refuse only items it cannot place, change nothing when it
// does, never lose one, count exactly and round-trip its bytes.
//
// Input: 4 bytes of parameters, then (operation, key) byte pairs:
//   [0] f = 4 + x % 5 (4..8)      [1] m: one of kBucketCounts (hash ids 1 and 2), x / 8 odd: semi-sorted (f >= 5)
//   [2] seed = x % 4              [3] hostile keys in the universe = x % 13
// The universe is 48 keys: the first h of them share one fingerprint and one
// pair of buckets (found by hashing candidates, as an attacker who knows the
// seed would, and kept per parameters), the rest are ordinary.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "byte_reader.hpp"
#include "cuckoo/cuckoo_filter.hpp"
#include "fuzz_check.hpp"

namespace {

using cuckoo::CuckooFilter;
using cuckoo::InsertOutcome;
using cuckoo::Status;

constexpr std::uint64_t kBucketCounts[] = {16, 24, 64, 100};
constexpr unsigned kUniverse = 48;
constexpr unsigned kMostHostile = 12;

enum Operation : unsigned { kInsert, kInsertUnique, kErase, kContains, kCount, kRoundTrip, kOperationCount };

using Key = std::array<std::uint8_t, 9>;

std::vector<std::uint8_t> serialized(const CuckooFilter& filter) {
  std::vector<std::uint8_t> bytes(filter.serializedSize());
  filter.serialize(bytes.data());
  return bytes;
}

Key candidate(std::uint64_t n) {
  Key key{'h'};
  std::memcpy(key.data() + 1, &n, sizeof n);
  return key;
}

// kMostHostile keys sharing the first candidate's fingerprint and pair of buckets.
const std::vector<Key>& hostileKeys(const CuckooFilter& filter) {
  static std::map<std::tuple<unsigned, std::uint64_t, std::uint64_t, bool>, std::vector<Key>> found;
  const cuckoo::FilterParams& p = filter.params();
  std::vector<Key>& keys = found[{p.fingerprintBits, p.bucketCount, p.seed, p.semiSort}];
  if (!keys.empty()) return keys;
  keys.push_back(candidate(0));
  const cuckoo::ItemLocation target = filter.locate(keys[0].data(), keys[0].size());
  for (std::uint64_t n = 1; keys.size() < kMostHostile; ++n) {
    const Key key = candidate(n);
    const cuckoo::ItemLocation at = filter.locate(key.data(), key.size());
    if (at.fingerprint == target.fingerprint &&
        (at.primaryBucket == target.primaryBucket || at.primaryBucket == target.alternateBucket)) {
      keys.push_back(key);
    }
  }
  return keys;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteReader input(data, size);
  cuckoo::FilterParams params;
  params.fingerprintBits = 4 + input.next() % 5;
  const std::uint8_t shape = input.next();
  params.bucketCount = kBucketCounts[shape % std::size(kBucketCounts)];
  params.semiSort = (shape / 8) % 2 == 1 && params.fingerprintBits >= 5;
  params.bucketSize = 4;
  params.seed = input.next() % 4;
  const unsigned hostileCount = input.next() % (kMostHostile + 1);

  CuckooFilter filter;
  FUZZ_REQUIRE(CuckooFilter::create(params, filter) == Status::kOk, "create");
  const std::vector<Key>& hostile = hostileKeys(filter);
  // Key k: hostile for k < hostileCount, else the ordinary item "o" + k.
  const auto keyBytes = [&](unsigned k) {
    if (k < hostileCount) return hostile[k];
    Key ordinary{'o', static_cast<std::uint8_t>(k)};
    return ordinary;
  };
  std::vector<unsigned> copies(kUniverse, 0);
  std::uint64_t stored = 0;

  while (!input.empty()) {
    const unsigned operation = input.next() % kOperationCount;
    const unsigned k = input.next() % kUniverse;
    const Key key = keyBytes(k);
    switch (operation) {
      case kInsert:
      case kInsertUnique: {
        const bool stashWasOccupied = filter.stash().occupied;
        const bool wasReported = filter.contains(key.data(), key.size());
        const std::vector<std::uint8_t> before = serialized(filter);
        const InsertOutcome outcome = operation == kInsert
                                          ? (filter.insert(key.data(), key.size()) ? InsertOutcome::kInserted : InsertOutcome::kFull)
                                          : filter.insertUnique(key.data(), key.size());
        if (outcome == InsertOutcome::kInserted) {
          ++copies[k], ++stored;
          FUZZ_REQUIRE(!filter.isFull(), "key %u added, yet the filter says full", k);
        } else {
          FUZZ_REQUIRE(serialized(filter) == before, "a refused add of key %u changed the filter", k);
          if (outcome == InsertOutcome::kFull) {
            FUZZ_REQUIRE(stashWasOccupied && filter.isFull(), "key %u refused with the stash free", k);
          } else {
            FUZZ_REQUIRE(wasReported, "insertUnique of key %u said present for an unreported key", k);
          }
        }
        break;
      }
      case kErase:
        if (copies[k] == 0) break;
        FUZZ_REQUIRE(filter.erase(key.data(), key.size()), "erase of key %u (%u copies) failed", k, copies[k]);
        --copies[k], --stored;
        break;
      case kContains:
        FUZZ_REQUIRE(copies[k] == 0 || filter.contains(key.data(), key.size()), "false negative for key %u", k);
        break;
      case kCount:
        FUZZ_REQUIRE(filter.count(key.data(), key.size()) >= copies[k], "count of key %u below its %u copies", k, copies[k]);
        break;
      case kRoundTrip: {
        const std::vector<std::uint8_t> bytes = serialized(filter);
        CuckooFilter loaded;
        FUZZ_REQUIRE(CuckooFilter::deserialize(bytes.data(), bytes.size(), loaded) == Status::kOk, "reload");
        FUZZ_REQUIRE(serialized(loaded) == bytes, "a reloaded filter's bytes differ");
        filter = std::move(loaded);
        break;
      }
      default:
        break;
    }
    FUZZ_REQUIRE(filter.itemCount() == stored, "itemCount %llu, %llu stored",
                 static_cast<unsigned long long>(filter.itemCount()), static_cast<unsigned long long>(stored));
  }
  for (unsigned k = 0; k < kUniverse; ++k) {
    const Key key = keyBytes(k);
    FUZZ_REQUIRE(copies[k] == 0 || filter.contains(key.data(), key.size()), "false negative for key %u at the end", k);
  }
  return 0;
}
