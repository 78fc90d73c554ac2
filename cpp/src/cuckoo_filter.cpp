#include "cuckoo/cuckoo_filter.hpp"

#include <cmath>
#include <utility>

#include "item_hash.hpp"
#include "reject.hpp"

namespace cuckoo {
namespace {

using detail::rejected;

bool isPowerOfTwo(std::uint64_t v) noexcept { return v != 0 && (v & (v - 1)) == 0; }

unsigned popcount(std::uint32_t v) noexcept { return static_cast<unsigned>(__builtin_popcount(v)); }

}  // namespace

double practicalMaxLoad(unsigned bucketSize) noexcept {
  switch (bucketSize) {
    case 1: return 0.50;
    case 2: return 0.84;
    case 4: return 0.95;
    case 8: return 0.98;
    default: return 0.0;
  }
}

Status paramsForCapacity(std::uint64_t capacity, double falsePositiveRate, FilterParams& out) noexcept {
  if (capacity == 0) return rejected(Status::kInvalidCapacity);
  // Written so that NaN fails too.
  if (!(falsePositiveRate > 0.0 && falsePositiveRate < 1.0)) {
    return rejected(Status::kInvalidFalsePositiveRate);
  }
  // Section 5.1 / Figure 3: the bucket size that minimises bits per item.
  const unsigned bucketSize = falsePositiveRate > 0.002 ? 2 : falsePositiveRate > 0.00001 ? 4 : 8;
  const double bitsNeeded = std::ceil(std::log2(2.0 * bucketSize / falsePositiveRate));
  if (bitsNeeded > kMaxFingerprintBits) return rejected(Status::kFalsePositiveRateTooLow);
  const unsigned fingerprintBits =
      bitsNeeded < kMinFingerprintBits ? kMinFingerprintBits : static_cast<unsigned>(bitsNeeded);

  const double bucketsNeeded =
      std::ceil(static_cast<double>(capacity) / (bucketSize * practicalMaxLoad(bucketSize)));
  if (bucketsNeeded > static_cast<double>(kMaxBucketCount)) return rejected(Status::kTableTooLarge);
  std::uint64_t bucketCount = 1;
  while (static_cast<double>(bucketCount) < bucketsNeeded) bucketCount <<= 1;

  if (PackedTable::bytesFor(fingerprintBits, bucketSize, bucketCount) == 0) {
    return rejected(Status::kTableTooLarge);
  }
  out.fingerprintBits = fingerprintBits;
  out.bucketSize = bucketSize;
  out.bucketCount = bucketCount;
  return Status::kOk;
}

Status CuckooFilter::validate(const FilterParams& params) noexcept {
  if (params.fingerprintBits < kMinFingerprintBits || params.fingerprintBits > kMaxFingerprintBits) {
    return rejected(Status::kInvalidFingerprintBits);
  }
  if (params.bucketSize != 1 && params.bucketSize != 2 && params.bucketSize != 4 && params.bucketSize != 8) {
    return rejected(Status::kInvalidBucketSize);
  }
  if (!isPowerOfTwo(params.bucketCount) || params.bucketCount > kMaxBucketCount) {
    return rejected(Status::kInvalidBucketCount);
  }
  if (params.maxKicks > kMaxKicksLimit) return rejected(Status::kInvalidMaxKicks);
  if (PackedTable::bytesFor(params.fingerprintBits, params.bucketSize, params.bucketCount) == 0) {
    return rejected(Status::kTableTooLarge);
  }
  return Status::kOk;
}

Status CuckooFilter::create(const FilterParams& params, CuckooFilter& out) noexcept {
  const Status valid = validate(params);
  if (valid != Status::kOk) return valid;
  PackedTable table;
  const Status allocated =
      PackedTable::allocate(params.fingerprintBits, params.bucketSize, params.bucketCount, table);
  if (allocated != Status::kOk) return allocated;
  out.params_ = params;
  out.table_ = std::move(table);
  out.prng_ = SplitMix64::fromSeed(params.seed);
  out.stash_ = Stash{};
  out.itemCount_ = 0;
  out.indexMask_ = static_cast<std::uint32_t>(params.bucketCount - 1);
  return Status::kOk;
}

Status CuckooFilter::cloneTo(CuckooFilter& out) const noexcept {
  PackedTable table;
  const Status copied = table_.copyTo(table);
  if (copied != Status::kOk) return copied;
  out.params_ = params_;
  out.table_ = std::move(table);
  out.prng_ = prng_;
  out.stash_ = stash_;
  out.itemCount_ = itemCount_;
  out.indexMask_ = indexMask_;
  return Status::kOk;
}

ItemLocation CuckooFilter::locate(const void* item, std::size_t length) const noexcept {
  return locateHash(detail::hashItem(item, length, params_.seed), params_.fingerprintBits, indexMask_);
}

bool CuckooFilter::insertLocated(const ItemLocation& where) noexcept {
  if (stash_.occupied) return false;
  place(where.fingerprint, where.primaryBucket, where.alternateBucket);
  ++itemCount_;
  return true;
}

InsertOutcome CuckooFilter::insertUnique(const void* item, std::size_t length) noexcept {
  const ItemLocation where = locate(item, length);
  if (containsLocated(where)) return InsertOutcome::kAlreadyPresent;
  return insertLocated(where) ? InsertOutcome::kInserted : InsertOutcome::kFull;
}

void CuckooFilter::place(std::uint32_t fingerprint, std::uint32_t primary, std::uint32_t alternate) noexcept {
  if (table_.insertIntoEmptySlot(primary, fingerprint)) return;
  if (alternate != primary && table_.insertIntoEmptySlot(alternate, fingerprint)) return;
  evictionWalk(fingerprint, primary, alternate);
}

// Algorithm 1's relocation loop. Each step swaps the homeless fingerprint with
// a random resident of the current bucket, then tries the evicted one's other
// bucket, which the XOR relation gives from the bucket and fingerprint alone.
void CuckooFilter::evictionWalk(std::uint32_t fingerprint, std::uint32_t primary,
                                std::uint32_t alternate) noexcept {
  const std::uint64_t slotMask = params_.bucketSize - 1;
  std::uint32_t bucket = (prng_.next() & 1) != 0 ? alternate : primary;
  for (std::uint32_t kick = 0; kick < params_.maxKicks; ++kick) {
    const auto slot = static_cast<unsigned>(prng_.next() & slotMask);
    fingerprint = table_.exchange(bucket, slot, fingerprint);
    bucket = alternateBucket(bucket, fingerprint, indexMask_);
    if (table_.insertIntoEmptySlot(bucket, fingerprint)) return;
  }
  stash_ = Stash{true, fingerprint, bucket};
}

bool CuckooFilter::eraseLocated(const ItemLocation& where) noexcept {
  if (stashHolds(where)) {
    stash_ = Stash{};
    --itemCount_;
    return true;
  }
  if (!table_.removeOne(where.primaryBucket, where.fingerprint) &&
      !table_.removeOne(where.alternateBucket, where.fingerprint)) {
    return false;
  }
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
  place(homeless.fingerprint, homeless.bucket, alternateBucket(homeless.bucket, homeless.fingerprint, indexMask_));
}

unsigned CuckooFilter::countLocated(const ItemLocation& where) const noexcept {
  unsigned copies = popcount(table_.matchingSlots(where.primaryBucket, where.fingerprint));
  if (where.alternateBucket != where.primaryBucket) {
    copies += popcount(table_.matchingSlots(where.alternateBucket, where.fingerprint));
  }
  return copies + (stashHolds(where) ? 1U : 0U);
}

void CuckooFilter::clear() noexcept {
  table_.clear();
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
  s.sizeInBytes = table_.byteLength();
  s.bitsPerItem = itemCount_ == 0 ? HUGE_VAL
                                  : static_cast<double>(table_.payloadBits()) / static_cast<double>(itemCount_);
  const double perSlotMiss = 1.0 - std::ldexp(1.0, -static_cast<int>(params_.fingerprintBits));
  s.expectedFalsePositiveRate = 1.0 - std::pow(perSlotMiss, 2.0 * params_.bucketSize * s.loadFactor);
  s.falsePositiveBound = 2.0 * params_.bucketSize * std::ldexp(1.0, -static_cast<int>(params_.fingerprintBits));
  return s;
}

}  // namespace cuckoo
