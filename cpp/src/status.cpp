#include "cuckoo/status.hpp"

namespace cuckoo {

const char* filterStatusMessage(Status status) noexcept {
  switch (status) {
    case Status::kOk: return "ok";
    case Status::kInvalidFingerprintBits: return "fingerprintBits must be an integer from 2 to 32";
    case Status::kInvalidBucketSize: return "bucketSize must be 1, 2, 4 or 8";
    case Status::kInvalidBucketCount: return "bucketCount must be an integer from 1 to 2^32";
    case Status::kInvalidMaxKicks: return "maxKicks must be an integer from 0 to 1000000";
    case Status::kTableTooLarge:
      return "the table would exceed the maximum table size (2 GiB for a cuckoo filter in WebAssembly, 1 TiB "
             "natively; 2^32 bits for a Bloom filter): ask for a smaller capacity or shape";
    case Status::kOutOfMemory: return "not enough memory for the table";
    case Status::kInvalidCapacity: return "capacity must be at least 1";
    case Status::kInvalidFalsePositiveRate: return "fpr must be greater than 0 and less than 1";
    case Status::kFalsePositiveRateTooLow: return "the false-positive rate is too low: it would need fingerprints wider than 32 bits";
    case Status::kInvalidSemiSortParameters:
      return "semiSort needs bucketSize 4 and fingerprintBits from 5 to 32";
    case Status::kConflictingHashes:
      return "keyedHash and multiplyShiftHash cannot both be true: a filter hashes its items one way";
    case Status::kFormatBadMagic: return "not a cuckoo-wasm filter: bad magic bytes";
    case Status::kFormatUnsupportedVersion: return "unsupported format version";
    case Status::kFormatTruncated: return "the data is truncated";
    case Status::kFormatBadParameters: return "the stored parameters are invalid";
    case Status::kFormatChecksumMismatch: return "checksum mismatch: the data is corrupted";
    case Status::kFormatInconsistent: return "the stored contents are inconsistent with the parameters";
    case Status::kInvalidGrowth: return "growth must be a number from 1.01 to 2";
    case Status::kInvalidInitialCapacity: return "initialCapacity must be an integer from 1 to 2^32";
    case Status::kMergeFingerprintBitsDiffer: return "the filters cannot be merged: their fingerprintBits differ";
    case Status::kMergeBucketSizeDiffer: return "the filters cannot be merged: their bucketSize differs";
    case Status::kMergeBucketCountDiffer: return "the filters cannot be merged: their bucketCount differs";
    case Status::kMergeSeedDiffer: return "the filters cannot be merged: their seed differs";
    case Status::kMergeSemiSortDiffer: return "the filters cannot be merged: one is semi-sorted and the other is not";
    case Status::kMergeShapeDiffers:
      return "the filters cannot be merged: their fpr, initialCapacity or current table size differ";
    case Status::kMergeWouldOverfill: return "the filter cannot hold the other filter's items: nothing was changed";
    case Status::kMergeHashDiffers:
      return "the filters cannot be merged: they hash items differently (XXH3, keyed or multiply-shift)";
    // patchStatusMessage has these (status.hpp says why).
    case Status::kPatchWrongBase:
    case Status::kPatchFiltersDiffer:
    case Status::kPatchShapeChanged: break;
    // statusMessage has these (status.hpp says why).
    case Status::kSemiSortRateOutOfRange:
    case Status::kInvalidBloomBitCount:
    case Status::kInvalidBloomHashCount:
    case Status::kInvalidBitsPerItem:
    case Status::kBloomFalsePositiveRateTooLow: break;
  }
  return "unknown status";
}

const char* statusMessage(Status status) noexcept {
  switch (status) {
    case Status::kSemiSortRateOutOfRange:
      return "semiSort needs bucketSize 4, which is the space-optimal choice only for false-positive rates above "
             "0.00001 and up to 0.002; use semiSort: false for this rate";
    case Status::kInvalidBloomBitCount: return "bitCount must be an integer from 1 to 2^32";
    case Status::kInvalidBloomHashCount: return "hashCount must be an integer from 1 to 32";
    case Status::kInvalidBitsPerItem: return "bits per item must be a positive finite number";
    case Status::kBloomFalsePositiveRateTooLow: return "the false-positive rate is too low for a Bloom filter: it would need more than 32 hash functions";
    default: return filterStatusMessage(status);
  }
}

}  // namespace cuckoo
