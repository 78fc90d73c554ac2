// Arbitrary bytes as a patch (FORMAT.md, "Patches") applied to real filters.
//
// The first input byte picks the filter, one of the golden patches' bases
// (tests/fixtures/golden_recipe.hpp), so that the seeds, the golden patches
// behind their selector byte, reach every check of a patch that fits its
// base; the rest is the patch. A refused patch must leave the filter exactly
// as it was; an accepted one must leave a filter that loads from its own
// bytes and is in the state the patch names as its result.
//
// Built twice from this file: fuzz_patch takes the patch as it is, so nearly
// every mutation stops at the patch's checksum; fuzz_patch_checksummed
// (CUCKOO_FUZZ_FIX_CHECKSUM) first overwrites its last 8 bytes with the
// checksum of the others, so that mutations reach the checks behind it.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "cuckoo/patch.hpp"
#include "format_reading.hpp"
#include "fuzz_check.hpp"
#include "golden_recipe.hpp"
#include "load_check.hpp"

namespace {

using cuckoo::Status;
using fuzz_load::serialized;

// The base of each golden patch, built once.
template <class Filter>
const Filter& baseOf(const cuckoo::fixture::GoldenPatch& golden) {
  static Filter filters[std::size(cuckoo::fixture::kGoldenPatches)];
  static bool built[std::size(cuckoo::fixture::kGoldenPatches)] = {};
  const std::size_t index = static_cast<std::size_t>(&golden - cuckoo::fixture::kGoldenPatches);
  if (!built[index]) {
    Filter result;
    cuckoo::PatchBytes patch;
    FUZZ_REQUIRE(cuckoo::fixture::buildGoldenPatch(golden, filters[index], result, patch), "the golden recipe failed");
    built[index] = true;
  }
  return filters[index];
}

template <class Filter>
void applyChecked(const cuckoo::fixture::GoldenPatch& golden, const std::uint8_t* patch, std::size_t size) {
  Filter filter;
  FUZZ_REQUIRE(baseOf<Filter>(golden).cloneTo(filter) == Status::kOk, "cannot copy the base");
  const std::vector<std::uint8_t> before = serialized(filter);
  const Status status = cuckoo::applyPatch(filter, patch, size);
  cuckoo::PatchSummary summary;
  const Status described = cuckoo::describePatch(patch, size, summary);
  if (status != Status::kOk) {
    FUZZ_REQUIRE(serialized(filter) == before, "a refused patch (status %d) changed the filter", static_cast<int>(status));
    return;
  }
  FUZZ_REQUIRE(described == Status::kOk, "an applied patch does not describe (status %d)", static_cast<int>(described));
  FUZZ_REQUIRE(cuckoo::stateChecksum(filter) == summary.resultChecksum, "the filter is not in the state the patch names");
  const std::vector<std::uint8_t> after = serialized(filter);
  Filter reloaded;
  const Status reload = Filter::deserialize(after.data(), after.size(), reloaded);
  FUZZ_REQUIRE(reload == Status::kOk, "the patched filter does not load from its own bytes (status %d)", static_cast<int>(reload));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& golden = cuckoo::fixture::kGoldenPatches[data[0] % std::size(cuckoo::fixture::kGoldenPatches)];
  // The patch's own header is 24 bytes.
  fuzz_format::withChecksum(CUCKOO_FUZZ_FIX_CHECKSUM, 24, data + 1, size - 1, [&golden](const std::uint8_t* patch, std::size_t length) {
    if (cuckoo::fixture::isScalablePatch(golden)) {
      applyChecked<cuckoo::ScalableCuckooFilter>(golden, patch, length);
    } else {
      applyChecked<cuckoo::CuckooFilter>(golden, patch, length);
    }
  });
  return 0;
}
