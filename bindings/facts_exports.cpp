// The core's facts that the TypeScript layer reads instead of restating them
// (ts/src/facts.ts): what a status means (its sentence, the FormatError code
// of a byte-format status, the option a parameter status is about), defaults,
// and the header size of the byte format. A status number, a default or a
// size is changed here or in the core, never in ts/src. Texts cross as
// NUL-terminated ASCII in static memory.

#include <cstring>
#include <limits>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/scalable_filter.hpp"
#include "cuckoo/status.hpp"
#include "glue.hpp"

namespace {

using cuckoo::Status;

Status asStatus(int status) { return static_cast<Status>(status); }

}  // namespace

// The lean module has no Bloom filter (bindings/CMakeLists.txt defines
// CUCKOO_WITHOUT_BLOOM for it): it carries the sentences of the statuses a
// cuckoo filter returns, and no Bloom filter's option.
CUCKOO_EXPORT const char* status_text(int status) {
#ifdef CUCKOO_WITHOUT_BLOOM
  return cuckoo::filterStatusMessage(asStatus(status));
#else
  return cuckoo::statusMessage(asStatus(status));
#endif
}

// The `code` of the FormatError that a byte-format status becomes (ts/src/errors.ts
// lists the same codes as a type); "" for every other status.
CUCKOO_EXPORT const char* status_format_code(int status) {
  switch (asStatus(status)) {
    case Status::kFormatBadMagic: return "BAD_MAGIC";
    case Status::kFormatUnsupportedVersion: return "UNSUPPORTED_VERSION";
    case Status::kFormatTruncated: return "TRUNCATED";
    case Status::kFormatBadParameters: return "BAD_PARAMETERS";
    case Status::kFormatChecksumMismatch: return "CHECKSUM_MISMATCH";
    case Status::kFormatInconsistent: return "INCONSISTENT";
    default: return "";
  }
}

// The code of the CuckooFilterError a status that is neither about a
// parameter nor about the byte format becomes: merging filters that differ.
CUCKOO_EXPORT const char* status_error_code(int status) {
  switch (asStatus(status)) {
    case Status::kMergeFingerprintBitsDiffer:
    case Status::kMergeBucketSizeDiffer:
    case Status::kMergeBucketCountDiffer:
    case Status::kMergeSeedDiffer:
    case Status::kMergeSemiSortDiffer:
    case Status::kMergeHashDiffers:
    case Status::kMergeShapeDiffers: return "INCOMPATIBLE";
    default: return "";
  }
}

// The options, by their JavaScript names and comma-separated, whose values a
// parameter status is about, so that the error can say what it got; "" when
// the status is not about one option.
CUCKOO_EXPORT const char* status_options(int status) {
  switch (asStatus(status)) {
    case Status::kInvalidFingerprintBits: return "fingerprintBits";
    case Status::kInvalidBucketSize: return "bucketSize";
    case Status::kInvalidBucketCount: return "bucketCount";
    case Status::kInvalidMaxKicks: return "maxKicks";
    case Status::kInvalidCapacity: return "capacity";
    case Status::kInvalidFalsePositiveRate: return "fpr";
    case Status::kInvalidSemiSortParameters: return "bucketSize,fingerprintBits";
    case Status::kConflictingHashes: return "keyedHash,multiplyShiftHash";
#ifndef CUCKOO_WITHOUT_BLOOM
    case Status::kInvalidBloomBitCount: return "bitCount";
    case Status::kInvalidBloomHashCount: return "hashCount";
#endif
    case Status::kInvalidGrowth: return "growth";
    case Status::kInvalidInitialCapacity: return "initialCapacity";
    default: return "";
  }
}

// The core's sentence for what `option` must be ("bucketCount must be ..."):
// the text of the first status about that option alone; "" for an option no
// status is about.
CUCKOO_EXPORT const char* option_rule(const char* option) {
  for (int status = 0; status <= 255; ++status) {
    if (std::strcmp(status_options(status), option) == 0 && *option != '\0') return status_text(status);
  }
  return "";
}

// The value an option, by its JavaScript name, takes when a call leaves it
// out; NaN for an option that must be given.
CUCKOO_EXPORT double option_default(const char* option) {
  if (std::strcmp(option, "maxKicks") == 0) return cuckoo::kDefaultMaxKicks;
  if (std::strcmp(option, "fpr") == 0) return cuckoo::kDefaultFalsePositiveRate;
  if (std::strcmp(option, "growth") == 0) return cuckoo::kDefaultGrowth;
  if (std::strcmp(option, "initialCapacity") == 0) return static_cast<double>(cuckoo::kDefaultInitialCapacity);
  return std::numeric_limits<double>::quiet_NaN();
}

CUCKOO_EXPORT int status_ok() { return static_cast<int>(Status::kOk); }
// The status of a merge that would overfill the filter (nothing changed).
CUCKOO_EXPORT int status_merge_would_overfill() { return static_cast<int>(Status::kMergeWouldOverfill); }
// Bytes of the longest serialized header (FORMAT.md); cuckoo_check_header reads at most these.
CUCKOO_EXPORT std::uint32_t serialized_header_bytes() {
  return static_cast<std::uint32_t>(cuckoo::CuckooFilter::kSerializedHeaderBytes);
}
