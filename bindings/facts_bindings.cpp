// The core's facts that the TypeScript layer reads instead of restating them:
// what a status means (its sentence, the FormatError code of a byte-format
// status, the option a parameter status is about), defaults, and the header
// size of the byte format. A status number, a default or a size is changed
// here or in the core, never in ts/src.

#include <emscripten/bind.h>

#include <string>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/scalable_filter.hpp"
#include "cuckoo/status.hpp"

namespace {

using cuckoo::Status;

std::string statusText(int status) { return cuckoo::statusMessage(static_cast<Status>(status)); }

// The `code` of the FormatError that a byte-format status becomes (ts/src/errors.ts
// lists the same codes as a type); "" for every other status.
std::string statusFormatCode(int status) {
  switch (static_cast<Status>(status)) {
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
std::string statusErrorCode(int status) {
  switch (static_cast<Status>(status)) {
    case Status::kMergeFingerprintBitsDiffer:
    case Status::kMergeBucketSizeDiffer:
    case Status::kMergeBucketCountDiffer:
    case Status::kMergeSeedDiffer:
    case Status::kMergeSemiSortDiffer:
    case Status::kMergeShapeDiffers: return "INCOMPATIBLE";
    default: return "";
  }
}

// The options, by their JavaScript names and comma-separated, whose values a
// parameter status is about, so that the error can say what it got; "" when
// the status is not about one option.
std::string statusOptions(int status) {
  switch (static_cast<Status>(status)) {
    case Status::kInvalidFingerprintBits: return "fingerprintBits";
    case Status::kInvalidBucketSize: return "bucketSize";
    case Status::kInvalidBucketCount: return "bucketCount";
    case Status::kInvalidMaxKicks: return "maxKicks";
    case Status::kInvalidCapacity: return "capacity";
    case Status::kInvalidFalsePositiveRate: return "fpr";
    case Status::kInvalidSemiSortParameters: return "bucketSize,fingerprintBits";
    case Status::kInvalidBloomBitCount: return "bitCount";
    case Status::kInvalidBloomHashCount: return "hashCount";
    case Status::kInvalidGrowth: return "growth";
    case Status::kInvalidInitialCapacity: return "initialCapacity";
    default: return "";
  }
}

// The core's sentence for what `option` must be ("bucketCount must be a power
// of two ..."): the text of the first status about that option alone; "" for
// an option no status is about.
std::string optionRule(const std::string& option) {
  for (int status = 0; status <= 255; ++status) {
    if (statusOptions(status) == option) return statusText(status);
  }
  return "";
}

}  // namespace

EMSCRIPTEN_BINDINGS(cuckoo_facts) {
  using emscripten::constant;
  using emscripten::function;
  function("statusText", &statusText);
  function("statusFormatCode", &statusFormatCode);
  function("statusErrorCode", &statusErrorCode);
  function("statusOptions", &statusOptions);
  function("optionRule", &optionRule);
  constant("statusOk", static_cast<int>(Status::kOk));
  constant("statusMergeWouldOverfill", static_cast<int>(Status::kMergeWouldOverfill));
  constant("defaultGrowth", cuckoo::kDefaultGrowth);
  constant("defaultMaxKicks", cuckoo::kDefaultMaxKicks);
  constant("serializedHeaderBytes", static_cast<unsigned>(cuckoo::CuckooFilter::kSerializedHeaderBytes));
}
