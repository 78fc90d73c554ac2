#pragma once
// Status codes returned by every fallible operation of the core.
//
// The core is built without exceptions, so each error surfaces as one of these
// values. The numeric values are part of the public contract: the bindings
// forward them unchanged and the TypeScript layer maps them to typed errors
// with a `.code`, so a value must never be renumbered or reused.

#include <cstdint>

namespace cuckoo {

enum class Status : std::uint8_t {
  kOk = 0,

  // Construction parameters.
  kInvalidFingerprintBits = 1,  // fingerprintBits outside the supported range
  kInvalidBucketSize = 2,       // bucketSize not 1, 2, 4 or 8
  kInvalidBucketCount = 3,      // bucketCount zero or > 2^32
  kInvalidMaxKicks = 4,         // maxKicks above kMaxKicksLimit
  kTableTooLarge = 5,           // the table would exceed kMaxTableBytes
  kOutOfMemory = 6,             // the allocator refused the table

  // Sizing from (capacity, false-positive rate).
  kInvalidCapacity = 7,         // capacity is zero
  kInvalidFalsePositiveRate = 8,  // rate not strictly between 0 and 1
  kFalsePositiveRateTooLow = 9,   // would need a fingerprint wider than 32 bits

  // Semi-sorting (Section 5.2 of the paper).
  kInvalidSemiSortParameters = 10,  // semiSort needs bucketSize 4 and fingerprintBits 5..32
  kSemiSortRateOutOfRange = 11,     // no longer returned: semi-sorted sizing takes any rate; the number stays taken
  kConflictingHashes = 12,          // keyedHash and multiplyShiftHash both asked for

  // Deserialization (see FORMAT.md).
  kFormatBadMagic = 20,
  kFormatUnsupportedVersion = 21,
  kFormatTruncated = 22,
  kFormatBadParameters = 23,
  kFormatChecksumMismatch = 24,
  kFormatInconsistent = 25,
  // Patches (patch.hpp): the filter is not in the state the patch was made
  // from, or the patch is for another filter. The patch statuses' sentences
  // are patchStatusMessage's, so that a module without patches does not carry them.
  kPatchWrongBase = 26,

  // Bloom filters (bloom_filter.hpp).
  kInvalidBloomBitCount = 30,          // bitCount zero or above 2^32
  kInvalidBloomHashCount = 31,         // hashCount outside 1..32
  kInvalidBitsPerItem = 32,            // bits per item not a positive finite number
  kBloomFalsePositiveRateTooLow = 33,  // would need more than 32 hash functions

  // Growable filters (scalable_filter.hpp).
  kInvalidGrowth = 40,           // growth outside kMinGrowth .. kMaxGrowth
  kInvalidInitialCapacity = 41,  // initialCapacity outside 1 .. 2^32

  // Merging two filters (CuckooFilter::merge, ScalableCuckooFilter::merge):
  // the parameter that differs, or no room.
  kMergeFingerprintBitsDiffer = 50,
  kMergeBucketSizeDiffer = 51,
  kMergeBucketCountDiffer = 52,
  kMergeSeedDiffer = 53,
  kMergeSemiSortDiffer = 54,
  kMergeShapeDiffers = 55,       // growable filters: rate, first capacity or current table differ
  kMergeWouldOverfill = 56,      // the filter cannot hold the other's entries: nothing changed
  kMergeHashDiffers = 57,        // one filter hashes with XXH3, the other with the keyed hash

  // Making a patch (patch.hpp): what the two states differ in besides their contents.
  kPatchFiltersDiffer = 60,      // parameters or seed: they are not two states of one filter
  kPatchShapeChanged = 61,       // growable filters whose tables differ in size: the filter grew
};

// A short, stable English description of a status, for logs and error messages.
// A parameter's status names the parameter first, as the JavaScript API does
// (`fpr` is paramsForCapacity's falsePositiveRate), so that the TypeScript
// layer uses the sentence as it is.
const char* statusMessage(Status status) noexcept;
// statusMessage's sentence of a status that a cuckoo filter, plain or
// growable, returns, and "unknown status" for Bloom filters' and the retired
// kSemiSortRateOutOfRange: all a program without Bloom filters shows, so that
// the lean WebAssembly module (bindings/facts_exports.cpp) carries no other.
const char* filterStatusMessage(Status status) noexcept;
// The sentence of a patch status (kPatch*), and statusMessage's for any other
// (patch.cpp).
const char* patchStatusMessage(Status status) noexcept;

}  // namespace cuckoo
