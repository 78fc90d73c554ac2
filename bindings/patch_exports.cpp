// Patches (cpp/include/cuckoo/patch.hpp) for ts/src/patch.ts: diff and apply
// for both filter classes, a patch's summary, and the patch statuses' facts
// (their sentences and codes, which facts_exports.cpp leaves out so that the
// lean module does not carry them). In the patch module (cuckoo-patch.wasm)
// and the full one.

#include <cstdint>

#include "cuckoo/patch.hpp"
#include "glue.hpp"

namespace {

using cuckoo::Status;
using glue::Address;
using glue::Handle;

// A new patch's address and length to the two words at `out`; the caller
// copies it and frees the address.
template <class Filter>
int diffTo(Handle older, Handle newer, Address out) {
  cuckoo::PatchBytes patch;
  const Status status = cuckoo::diff(glue::objectAt<const Filter>(older), glue::objectAt<const Filter>(newer), patch);
  if (status != Status::kOk) return static_cast<int>(status);
  std::uint32_t* words = glue::wordsAt(out);
  words[1] = static_cast<std::uint32_t>(patch.size());
  words[0] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(patch.release()));
  return static_cast<int>(Status::kOk);
}

template <class Filter>
int applyAt(Handle h, Address patch, std::uint32_t length) {
  return static_cast<int>(cuckoo::applyPatch(glue::objectAt<Filter>(h), glue::bytesAt(patch), length));
}

}  // namespace

CUCKOO_EXPORT int cuckoo_diff(Handle older, Handle newer, Address out) {
  return diffTo<cuckoo::CuckooFilter>(older, newer, out);
}
CUCKOO_EXPORT int scalable_diff(Handle older, Handle newer, Address out) {
  return diffTo<cuckoo::ScalableCuckooFilter>(older, newer, out);
}
CUCKOO_EXPORT int cuckoo_apply_patch(Handle h, Address patch, std::uint32_t length) {
  return applyAt<cuckoo::CuckooFilter>(h, patch, length);
}
CUCKOO_EXPORT int scalable_apply_patch(Handle h, Address patch, std::uint32_t length) {
  return applyAt<cuckoo::ScalableCuckooFilter>(h, patch, length);
}

// A patch's summary as eight words at `out`: the base and result checksums
// (low, high each), the filter format version, 1 for a whole table, and the
// changed slots (below 2^35: low, high).
CUCKOO_EXPORT int patch_describe(Address patch, std::uint32_t length, Address out) {
  cuckoo::PatchSummary summary;
  const Status status = cuckoo::describePatch(glue::bytesAt(patch), length, summary);
  if (status != Status::kOk) return static_cast<int>(status);
  std::uint32_t* words = glue::wordsAt(out);
  words[0] = static_cast<std::uint32_t>(summary.baseChecksum);
  words[1] = static_cast<std::uint32_t>(summary.baseChecksum >> 32);
  words[2] = static_cast<std::uint32_t>(summary.resultChecksum);
  words[3] = static_cast<std::uint32_t>(summary.resultChecksum >> 32);
  words[4] = summary.filterFormat;
  words[5] = summary.wholeTable ? 1 : 0;
  words[6] = static_cast<std::uint32_t>(summary.changedSlots);
  words[7] = static_cast<std::uint32_t>(summary.changedSlots >> 32);
  return static_cast<int>(Status::kOk);
}

// The checksum the filter's bytes would end with, as two words at `out`.
CUCKOO_EXPORT void cuckoo_state_checksum(Handle h, Address out) {
  const std::uint64_t checksum = cuckoo::stateChecksum(glue::objectAt<const cuckoo::CuckooFilter>(h));
  glue::wordsAt(out)[0] = static_cast<std::uint32_t>(checksum);
  glue::wordsAt(out)[1] = static_cast<std::uint32_t>(checksum >> 32);
}
CUCKOO_EXPORT void scalable_state_checksum(Handle h, Address out) {
  const std::uint64_t checksum = cuckoo::stateChecksum(glue::objectAt<const cuckoo::ScalableCuckooFilter>(h));
  glue::wordsAt(out)[0] = static_cast<std::uint32_t>(checksum);
  glue::wordsAt(out)[1] = static_cast<std::uint32_t>(checksum >> 32);
}

// The patch statuses' facts, as facts_exports.cpp gives every other status's:
// the sentence, the FormatError code (WRONG_BASE) and the CuckooFilterError
// code (INCOMPATIBLE); "" when the status is not a patch status.
CUCKOO_EXPORT const char* patch_status_text(int status) {
  return cuckoo::patchStatusMessage(static_cast<Status>(status));
}
CUCKOO_EXPORT const char* patch_status_format_code(int status) {
  return static_cast<Status>(status) == Status::kPatchWrongBase ? "WRONG_BASE" : "";
}
CUCKOO_EXPORT const char* patch_status_error_code(int status) {
  const auto s = static_cast<Status>(status);
  return s == Status::kPatchFiltersDiffer || s == Status::kPatchShapeChanged ? "INCOMPATIBLE" : "";
}
