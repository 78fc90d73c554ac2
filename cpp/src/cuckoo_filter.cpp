#include "cuckoo/cuckoo_filter.hpp"

#include <cmath>
#include <utility>

#include "item_hash.hpp"
#include "reject.hpp"

namespace cuckoo {
namespace {

using detail::rejected;

unsigned popcount(std::uint32_t v) noexcept { return static_cast<unsigned>(__builtin_popcount(v)); }

}  // namespace

Status CuckooFilter::validate(const FilterParams& params) noexcept {
  if (params.fingerprintBits < kMinFingerprintBits || params.fingerprintBits > kMaxFingerprintBits) {
    return rejected(Status::kInvalidFingerprintBits);
  }
  if (params.bucketSize != 1 && params.bucketSize != 2 && params.bucketSize != 4 && params.bucketSize != 8) {
    return rejected(Status::kInvalidBucketSize);
  }
  if (params.bucketCount == 0 || params.bucketCount > kMaxBucketCount) {
    return rejected(Status::kInvalidBucketCount);
  }
  if (params.maxKicks > kMaxKicksLimit) return rejected(Status::kInvalidMaxKicks);
  if (params.semiSort &&
      (params.bucketSize != kSemiSortedBucketSize || params.fingerprintBits < kSemiSortedMinBits)) {
    return rejected(Status::kInvalidSemiSortParameters);
  }
  const std::uint64_t bytes = params.semiSort
                                  ? SemiSortedTable::bytesFor(params.fingerprintBits, params.bucketCount)
                                  : PackedTable::bytesFor(params.fingerprintBits, params.bucketSize, params.bucketCount);
  if (bytes == 0) return rejected(Status::kTableTooLarge);
  return Status::kOk;
}

Status CuckooFilter::create(const FilterParams& params, CuckooFilter& out) noexcept {
  const Status valid = validate(params);
  if (valid != Status::kOk) return valid;
  PackedTable packed;
  SemiSortedTable semiSorted;
  const Status allocated =
      params.semiSort ? SemiSortedTable::allocate(params.fingerprintBits, params.bucketCount, semiSorted)
                      : PackedTable::allocate(params.fingerprintBits, params.bucketSize, params.bucketCount, packed);
  if (allocated != Status::kOk) return allocated;
  out.params_ = params;
  out.packedTable_ = std::move(packed);
  out.semiSortedTable_ = std::move(semiSorted);
  out.prng_ = SplitMix64::fromSeed(params.seed);
  out.stash_ = Stash{};
  out.itemCount_ = 0;
  out.index_ = BucketIndex::forCount(params.bucketCount);
  return Status::kOk;
}

Status CuckooFilter::cloneTo(CuckooFilter& out) const noexcept {
  PackedTable packed;
  SemiSortedTable semiSorted;
  const Status copied = params_.semiSort ? semiSortedTable_.copyTo(semiSorted) : packedTable_.copyTo(packed);
  if (copied != Status::kOk) return copied;
  out.params_ = params_;
  out.packedTable_ = std::move(packed);
  out.semiSortedTable_ = std::move(semiSorted);
  out.prng_ = prng_;
  out.stash_ = stash_;
  out.itemCount_ = itemCount_;
  out.index_ = index_;
  return Status::kOk;
}

ItemLocation CuckooFilter::locate(const void* item, std::size_t length) const noexcept {
  return index_.locate(detail::hashItem(item, length, params_.seed), params_.fingerprintBits);
}

namespace {

// The observer of plain inserts: every hook compiles to nothing.
struct SilentObserver {
  void onKick(std::uint32_t, unsigned, std::uint32_t, std::uint32_t, std::uint32_t) noexcept {}
  void onPlaced(std::uint32_t, std::uint32_t) noexcept {}
  void onStashed(std::uint32_t, std::uint32_t) noexcept {}
};

}  // namespace

bool CuckooFilter::insert(const void* item, std::size_t length) noexcept {
  SilentObserver silent;
  return insertLocated(locate(item, length), silent);
}

bool CuckooFilter::insertObserved(const void* item, std::size_t length, InsertObserver& observer) noexcept {
  return insertLocated(locate(item, length), observer);
}

template <class Observer>
bool CuckooFilter::insertLocated(const ItemLocation& where, Observer& observer) noexcept {
  if (stash_.occupied) return false;
  visitTable([&](auto& table) {
    place(table, where.fingerprint, where.primaryBucket, where.alternateBucket, observer);
  });
  ++itemCount_;
  return true;
}

InsertOutcome CuckooFilter::insertUnique(const void* item, std::size_t length) noexcept {
  const ItemLocation where = locate(item, length);
  if (containsLocated(where)) return InsertOutcome::kAlreadyPresent;
  SilentObserver silent;
  return insertLocated(where, silent) ? InsertOutcome::kInserted : InsertOutcome::kFull;
}

template <class Table, class Observer>
void CuckooFilter::place(Table& table, std::uint32_t fingerprint, std::uint32_t primary, std::uint32_t alternate,
                         Observer& observer) noexcept {
  if (table.insertIntoEmptySlot(primary, fingerprint)) {
    observer.onPlaced(primary, fingerprint);
    return;
  }
  if (alternate != primary && table.insertIntoEmptySlot(alternate, fingerprint)) {
    observer.onPlaced(alternate, fingerprint);
    return;
  }
  evictionWalk(table, fingerprint, primary, alternate, observer);
}

// Algorithm 1's relocation loop. Each step swaps the homeless fingerprint with
// a random resident of the current bucket, then tries the evicted one's other
// bucket, which the relation of hashing.hpp gives from the bucket and
// fingerprint alone.
template <class Table, class Observer>
void CuckooFilter::evictionWalk(Table& table, std::uint32_t fingerprint, std::uint32_t primary,
                                std::uint32_t alternate, Observer& observer) noexcept {
  const std::uint64_t slotMask = params_.bucketSize - 1;
  std::uint32_t bucket = (prng_.next() & 1) != 0 ? alternate : primary;
  for (std::uint32_t kick = 0; kick < params_.maxKicks; ++kick) {
    const auto slot = static_cast<unsigned>(prng_.next() & slotMask);
    const std::uint32_t incoming = fingerprint;
    fingerprint = table.exchange(bucket, slot, incoming);
    const std::uint32_t next = index_.alternate(bucket, fingerprint);
    observer.onKick(bucket, slot, incoming, fingerprint, next);
    bucket = next;
    if (table.insertIntoEmptySlot(bucket, fingerprint)) {
      observer.onPlaced(bucket, fingerprint);
      return;
    }
  }
  stash_ = Stash{true, fingerprint, bucket};
  observer.onStashed(bucket, fingerprint);
}

bool CuckooFilter::eraseLocated(const ItemLocation& where) noexcept {
  if (stashHolds(where)) {
    stash_ = Stash{};
    --itemCount_;
    return true;
  }
  const bool removed = visitTable([&](auto& table) {
    return table.removeOne(where.primaryBucket, where.fingerprint) ||
           table.removeOne(where.alternateBucket, where.fingerprint);
  });
  if (!removed) return false;
  --itemCount_;
  reinsertStash();
  return true;
}

// A slot was freed somewhere; give the stashed fingerprint a fresh walk. It
// may come back to the stash (possibly as a different fingerprint), which is
// still correct: every item stays in its buckets or the stash.
void CuckooFilter::reinsertStash() noexcept {
  if (!stash_.occupied) return;
  const Stash homeless = stash_;
  stash_ = Stash{};
  SilentObserver silent;
  visitTable([&](auto& table) {
    place(table, homeless.fingerprint, homeless.bucket,
          index_.alternate(homeless.bucket, homeless.fingerprint), silent);
  });
}

unsigned CuckooFilter::countLocated(const ItemLocation& where) const noexcept {
  const unsigned copies = visitTable([&](const auto& table) {
    unsigned inBuckets = popcount(table.matchingSlots(where.primaryBucket, where.fingerprint));
    if (where.alternateBucket != where.primaryBucket) {
      inBuckets += popcount(table.matchingSlots(where.alternateBucket, where.fingerprint));
    }
    return inBuckets;
  });
  return copies + (stashHolds(where) ? 1U : 0U);
}

void CuckooFilter::clear() noexcept {
  visitTable([](auto& table) { table.clear(); });
  stash_ = Stash{};
  itemCount_ = 0;
  // A cleared filter is byte-identical to a newly created one.
  prng_ = SplitMix64::fromSeed(params_.seed);
}

FilterStats CuckooFilter::stats() const noexcept {
  FilterStats s{};
  s.itemCount = itemCount_;
  s.slotCount = params_.bucketCount * params_.bucketSize;
  s.loadFactor = static_cast<double>(itemCount_) / static_cast<double>(s.slotCount);
  s.sizeInBytes = tableByteLength();
  s.bitsPerItem = itemCount_ == 0 ? HUGE_VAL
                                  : static_cast<double>(visitTable([](const auto& table) { return table.payloadBits(); })) / static_cast<double>(itemCount_);
  const double perSlotMiss = 1.0 - std::ldexp(1.0, -static_cast<int>(params_.fingerprintBits));
  s.expectedFalsePositiveRate = 1.0 - std::pow(perSlotMiss, 2.0 * params_.bucketSize * s.loadFactor);
  s.falsePositiveBound = 2.0 * params_.bucketSize * std::ldexp(1.0, -static_cast<int>(params_.fingerprintBits));
  return s;
}

}  // namespace cuckoo
