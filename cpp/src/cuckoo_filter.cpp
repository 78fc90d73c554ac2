#include "cuckoo/cuckoo_filter.hpp"

#include <cmath>
#include <utility>

#include "item_hash.hpp"
#include "one_minus_power.hpp"
#include "reject.hpp"

namespace cuckoo {
namespace {

using detail::rejected;

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
  if (params.keyedHash && params.multiplyShiftHash) return rejected(Status::kConflictingHashes);
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
  out.state_ = FilterState{SplitMix64::fromSeed(params.seed), Stash{}, 0, false};
  out.index_ = BucketIndex::forCount(params.bucketCount, params.multiplyShiftHash);
  out.eightByteFlip_ = detail::ItemHash::forSeed(params.seed).eightByteFlip;
  // Drawn only for a filter that hashes with them (hash ids 6 to 11).
  if (params.multiplyShiftHash) out.multiplyShift_ = MultiplyShiftHash::forSeed(params.seed, params.keyHash);
  out.kernel_ = &detail::kernelFor(params, false);
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
  out.state_ = state_;
  out.index_ = index_;
  out.eightByteFlip_ = eightByteFlip_;
  out.multiplyShift_ = multiplyShift_;
  out.kernel_ = kernel_;
  return Status::kOk;
}

ItemLocation CuckooFilter::locate(const void* item, std::size_t length) const noexcept {
  return index_.locate(itemHash(item, length), params_.fingerprintBits);
}

std::uint64_t CuckooFilter::itemHash(const void* item, std::size_t length) const noexcept {
  return detail::ItemHash::forParams(params_, multiplyShift_).ofBytes(item, length);
}

void CuckooFilter::locateEach(const FilterParams& params, const ItemBatch& items, std::uint32_t* out) noexcept {
  const BucketIndex index = BucketIndex::forCount(params.bucketCount, params.multiplyShiftHash);
  const MultiplyShiftHash constants = MultiplyShiftHash::forSeed(params.seed, params.keyHash);
  const detail::ItemHash hash = detail::ItemHash::forParams(params, constants);
  for (std::size_t k = 0; k < items.count; ++k) {
    const unsigned char* item = items.item(k);
    const std::size_t length = items.length(k);
    const ItemLocation where = index.locate(hash.ofBytes(item, length), params.fingerprintBits);
    out[4 * k] = where.fingerprint;
    out[4 * k + 1] = where.primaryBucket;
    out[4 * k + 2] = where.alternateBucket;
    out[4 * k + 3] = routeWord(detail::hashItem(item, length, params.seed ^ kRouteSeedMask, params.keyedHash));
  }
}

void CuckooFilter::clear() noexcept {
  visitTable([](auto& table) { table.clear(); });
  // A cleared filter is byte-identical to a newly created one.
  state_ = FilterState{SplitMix64::fromSeed(params_.seed), Stash{}, 0, false};
}

FilterStats CuckooFilter::stats() const noexcept {
  FilterStats s{};
  s.itemCount = state_.itemCount;
  s.slotCount = params_.bucketCount * params_.bucketSize;
  s.stashedCount = state_.stash.occupied ? 1 : 0;
  s.loadFactor = static_cast<double>(state_.itemCount - s.stashedCount) / static_cast<double>(s.slotCount);
  s.sizeInBytes = tableByteLength();
  s.bitsPerItem = state_.itemCount == 0 ? HUGE_VAL
                                        : static_cast<double>(visitTable([](const auto& table) { return table.payloadBits(); })) /
                                              static_cast<double>(state_.itemCount);
  const double perSlotMatch = std::ldexp(1.0, -static_cast<int>(params_.fingerprintBits));
  s.expectedFalsePositiveRate = 1.0 - detail::oneMinusPower(perSlotMatch, 2.0 * params_.bucketSize * s.loadFactor);
  s.falsePositiveBound = 2.0 * params_.bucketSize * std::ldexp(1.0, -static_cast<int>(params_.fingerprintBits));
  return s;
}

Status CuckooFilter::merge(const CuckooFilter& other) noexcept {
  if (params_.fingerprintBits != other.params_.fingerprintBits) return rejected(Status::kMergeFingerprintBitsDiffer);
  if (params_.bucketSize != other.params_.bucketSize) return rejected(Status::kMergeBucketSizeDiffer);
  if (params_.bucketCount != other.params_.bucketCount) return rejected(Status::kMergeBucketCountDiffer);
  if (params_.seed != other.params_.seed) return rejected(Status::kMergeSeedDiffer);
  if (params_.semiSort != other.params_.semiSort) return rejected(Status::kMergeSemiSortDiffer);
  if (params_.keyedHash != other.params_.keyedHash || params_.multiplyShiftHash != other.params_.multiplyShiftHash ||
      (params_.multiplyShiftHash && params_.keyHash != other.params_.keyHash)) {
    return rejected(Status::kMergeHashDiffers);
  }
  // Into a copy, which replaces this filter only when everything fit.
  CuckooFilter merged;
  const Status copied = cloneTo(merged);
  if (copied != Status::kOk) return copied;
  const auto add = [&merged](std::uint32_t fingerprint, std::uint64_t bucket) {
    return merged.kernel_->insertFingerprint(merged, fingerprint, static_cast<std::uint32_t>(bucket));
  };
  for (std::uint64_t bucket = 0; bucket < params_.bucketCount; ++bucket) {
    for (unsigned slot = 0; slot < params_.bucketSize; ++slot) {
      const std::uint32_t fingerprint = other.slotValue(bucket, slot);
      if (fingerprint != 0 && !add(fingerprint, bucket)) return rejected(Status::kMergeWouldOverfill);
    }
  }
  if (other.state_.stash.occupied && !add(other.state_.stash.fingerprint, other.state_.stash.bucket)) {
    return rejected(Status::kMergeWouldOverfill);
  }
  *this = std::move(merged);
  return Status::kOk;
}

}  // namespace cuckoo
