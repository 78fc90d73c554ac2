// Patches (patch.hpp, FORMAT.md "Patches"): the patch's own header and
// checksum, the states it names, and diff and apply, written once for both
// filter classes over what patch_kinds.hpp says of each.

#include "cuckoo/patch.hpp"

#include <cstdlib>
#include <cstring>
#include <utility>

#include "byte_order.hpp"
#include "item_hash.hpp"
#include "patch_access.hpp"
#include "patch_kinds.hpp"
#include "patch_slots.hpp"
#include "reject.hpp"

namespace cuckoo {
namespace {

using detail::getLittleEndian;
using detail::PatchAccess;
using detail::PatchKind;
using detail::putLittleEndian;
using detail::rejected;
using detail::SlotChange;
using detail::TableView;

constexpr unsigned char kPatchMagic[4] = {'C', 'K', 'F', 'P'};
// Byte offsets of the patch's header; the result's serialized header follows it.
namespace at {
constexpr std::size_t kVersion = 4;
constexpr std::size_t kBody = 5;
constexpr std::size_t kReserved = 6;  // 2 bytes
constexpr std::size_t kBaseChecksum = 8;
constexpr std::size_t kResultChecksum = 16;
constexpr std::size_t kResultHeader = 24;
}  // namespace at
constexpr std::size_t kChecksumBytes = detail::kFormatChecksumBytes;
constexpr std::uint8_t kBodyChangedSlots = 0;
constexpr std::uint8_t kBodyWholeTable = 1;
// The longest serialized header: version 3's.
constexpr std::size_t kMaxFilterHeaderBytes = 280;

// H of a serialized filter by its format version (FORMAT.md); 0 for a version there is none of.
std::size_t filterHeaderBytes(std::uint8_t version) noexcept {
  return version == 1 ? 56 : version == 2 || (version >= 4 && version <= 7) ? 64 : version == 3 ? kMaxFilterHeaderBytes : 0;
}

// XXH3-64 (seed 0) of `header` then `payload`, as one input: the checksum a
// filter's bytes end with, without copying its table after its header (and,
// with no payload, a patch's own checksum), by XXH3's streaming functions
// compiled here for speed (cpp/CMakeLists.txt says why).
std::uint64_t checksumOfParts(const unsigned char* header, std::size_t headerBytes, const unsigned char* payload,
                              std::size_t payloadBytes) noexcept {
  alignas(64) XXH3_state_t state;
  XXH3_64bits_reset_withSeed(&state, 0);
  XXH3_64bits_update(&state, header, headerBytes);
  if (payloadBytes != 0) XXH3_64bits_update(&state, payload, payloadBytes);
  return XXH3_64bits_digest(&state);
}

template <class Filter>
std::uint64_t checksumOf(const Filter& filter) noexcept {
  unsigned char header[kMaxFilterHeaderBytes];
  const std::size_t headerBytes = PatchAccess::writeHeader(filter, header);
  const TableView table = PatchAccess::table(filter);
  return checksumOfParts(header, headerBytes, table.bytes, table.payloadBytes());
}

// A patch whose framing checked out: its parts.
struct Framing {
  std::uint64_t baseChecksum;
  std::uint64_t resultChecksum;
  bool wholeTable;
  std::uint8_t filterFormat;
  const unsigned char* resultHeader;
  std::size_t resultHeaderBytes;
  const unsigned char* body;
  std::size_t bodyBytes;
};

// Magic, version, length, checksum, then the header's own fields, in the
// order that gives the most useful status for a short or foreign input.
Status readFraming(const unsigned char* patch, std::size_t length, Framing& out) noexcept {
  const std::size_t magicBytes = length < sizeof kPatchMagic ? length : sizeof kPatchMagic;
  // (An empty patch may come as a null pointer, which memcmp must not be given even for 0 bytes.)
  if (magicBytes != 0 && std::memcmp(patch, kPatchMagic, magicBytes) != 0) return rejected(Status::kFormatBadMagic);
  if (length <= at::kVersion) return rejected(Status::kFormatTruncated);
  if (patch[at::kVersion] != kPatchFormatVersion) return rejected(Status::kFormatUnsupportedVersion);
  if (length < at::kResultHeader + detail::kFormatVersionOffset + 1) return rejected(Status::kFormatTruncated);
  const std::uint8_t format = patch[at::kResultHeader + detail::kFormatVersionOffset];
  const std::size_t headerBytes = filterHeaderBytes(format);
  if (headerBytes == 0) return rejected(Status::kFormatBadParameters);
  if (length < at::kResultHeader + headerBytes + kChecksumBytes) return rejected(Status::kFormatTruncated);
  const std::size_t checked = length - kChecksumBytes;
  if (checksumOfParts(patch, checked, nullptr, 0) != getLittleEndian(patch + checked, 8)) {
    return rejected(Status::kFormatChecksumMismatch);
  }
  const std::uint8_t body = patch[at::kBody];
  const bool knownBody = body == kBodyChangedSlots || body == kBodyWholeTable;
  if (!knownBody || getLittleEndian(patch + at::kReserved, 2) != 0 ||
      std::memcmp(patch + at::kResultHeader, detail::kFormatMagic, sizeof detail::kFormatMagic) != 0) {
    return rejected(Status::kFormatBadParameters);
  }
  out = {getLittleEndian(patch + at::kBaseChecksum, 8),
         getLittleEndian(patch + at::kResultChecksum, 8),
         body == kBodyWholeTable,
         format,
         patch + at::kResultHeader,
         headerBytes,
         patch + at::kResultHeader + headerBytes,
         checked - at::kResultHeader - headerBytes};
  return Status::kOk;
}

// Whether two serialized headers of one format name the same filter: equal
// outside the bytes that are the state (PatchKind's ranges, the stash flag).
template <class Filter>
bool sameFilterFields(const unsigned char* a, const unsigned char* b, std::size_t headerBytes) noexcept {
  using Kind = PatchKind<Filter>;
  unsigned char left[kMaxFilterHeaderBytes];
  unsigned char right[kMaxFilterHeaderBytes];
  std::memcpy(left, a, headerBytes);
  std::memcpy(right, b, headerBytes);
  for (const detail::HeaderRange range : Kind::kStateRanges) {
    std::memset(left + range.first, 0, range.end - range.first);
    std::memset(right + range.first, 0, range.end - range.first);
  }
  left[Kind::kFlagsByte] &= static_cast<unsigned char>(~Kind::kStashFlag);
  right[Kind::kFlagsByte] &= static_cast<unsigned char>(~Kind::kStashFlag);
  return std::memcmp(left, right, headerBytes) == 0;
}

template <class Filter>
Status diffOf(const Filter& older, const Filter& newer, PatchBytes& out) noexcept {
  const Status compatible = PatchKind<Filter>::compatible(older, newer);
  if (compatible != Status::kOk) return compatible;
  unsigned char olderHeader[kMaxFilterHeaderBytes];
  unsigned char newerHeader[kMaxFilterHeaderBytes];
  const std::size_t headerBytes = PatchAccess::writeHeader(older, olderHeader);
  PatchAccess::writeHeader(newer, newerHeader);
  const TableView before = PatchAccess::table(older);
  const TableView after = PatchAccess::table(newer);
  const std::size_t payloadBytes = after.payloadBytes();

  const detail::SlotsBodyPlan plan = detail::planSlotsBody(before, after);
  // Never longer than the table itself: then the table goes whole.
  const bool whole = plan.bytes() > payloadBytes;
  const std::size_t bodyBytes = whole ? payloadBytes : static_cast<std::size_t>(plan.bytes());
  const std::size_t total = at::kResultHeader + headerBytes + bodyBytes + kChecksumBytes;
  PatchBytes patch;
  if (!patch.allocate(total)) return Status::kOutOfMemory;
  unsigned char* bytes = patch.data();
  std::memcpy(bytes, kPatchMagic, sizeof kPatchMagic);
  bytes[at::kVersion] = kPatchFormatVersion;
  bytes[at::kBody] = whole ? kBodyWholeTable : kBodyChangedSlots;
  putLittleEndian(bytes + at::kBaseChecksum, checksumOfParts(olderHeader, headerBytes, before.bytes, payloadBytes), 8);
  putLittleEndian(bytes + at::kResultChecksum, checksumOfParts(newerHeader, headerBytes, after.bytes, payloadBytes), 8);
  std::memcpy(bytes + at::kResultHeader, newerHeader, headerBytes);
  unsigned char* body = bytes + at::kResultHeader + headerBytes;
  if (whole) {
    std::memcpy(body, after.bytes, payloadBytes);
  } else {
    // The body's last writes may touch the checksum's bytes, which are written after.
    detail::writeSlotsBody(before, after, plan, body);
  }
  putLittleEndian(bytes + total - kChecksumBytes, checksumOfParts(bytes, total - kChecksumBytes, nullptr, 0), 8);
  out = std::move(patch);
  return Status::kOk;
}

// A whole-table body: the result's bytes rebuilt and loaded as fromBytes
// loads bytes (every check), then copied into the filter.
template <class Filter>
Status applyWholeTable(Filter& filter, const Framing& frame) noexcept {
  TableView table = PatchAccess::table(filter);
  const std::size_t payloadBytes = table.payloadBytes();
  if (frame.bodyBytes != payloadBytes) {
    return rejected(frame.bodyBytes < payloadBytes ? Status::kFormatTruncated : Status::kFormatInconsistent);
  }
  if (checksumOfParts(frame.resultHeader, frame.resultHeaderBytes, frame.body, payloadBytes) != frame.resultChecksum) {
    return rejected(Status::kFormatInconsistent);
  }
  const std::size_t total = frame.resultHeaderBytes + payloadBytes + kChecksumBytes;
  auto* serialized = static_cast<unsigned char*>(std::malloc(total));
  if (serialized == nullptr) return Status::kOutOfMemory;
  std::memcpy(serialized, frame.resultHeader, frame.resultHeaderBytes);
  std::memcpy(serialized + frame.resultHeaderBytes, frame.body, payloadBytes);
  putLittleEndian(serialized + total - kChecksumBytes, frame.resultChecksum, 8);
  Filter result;
  const Status loaded = Filter::deserialize(serialized, total, result);
  std::free(serialized);
  if (loaded != Status::kOk) return loaded;
  std::memcpy(table.bytes, PatchAccess::table(result).bytes, payloadBytes);
  PatchAccess::setState(filter, PatchAccess::state(result));
  return Status::kOk;
}

// A changed-slots body: decoded whole, then written (each change keeping
// the value it replaced), and written back if a bucket would be out of order,
// the counts disagree or the result is not the one named.
template <class Filter>
Status applyChangedSlots(Filter& filter, const Framing& frame, const typename PatchKind<Filter>::State& result) noexcept {
  using Kind = PatchKind<Filter>;
  TableView table = PatchAccess::table(filter);
  std::uint64_t count = 0;
  Status status = detail::slotsBodyCount(frame.body, frame.bodyBytes, table, count);
  if (status != Status::kOk) return status;
  auto* changes = static_cast<SlotChange*>(std::malloc(count == 0 ? 1 : static_cast<std::size_t>(count) * sizeof(SlotChange)));
  if (changes == nullptr) return Status::kOutOfMemory;
  status = detail::decodeSlotsBody(frame.body, frame.bodyBytes, table, Kind::valueRule(filter), changes, count);
  if (status == Status::kOk) {
    const typename Kind::State before = PatchAccess::state(filter);
    std::int64_t nonEmptyDelta = 0;
    const std::uint64_t written = detail::swapChanges(table, changes, count, nonEmptyDelta);
    if (written != count || !Kind::countsAgree(result, Kind::nonEmptySlots(before) + nonEmptyDelta)) {
      status = rejected(Status::kFormatInconsistent);
    } else {
      PatchAccess::setState(filter, result);
      if (checksumOf(filter) != frame.resultChecksum) status = rejected(Status::kFormatInconsistent);
    }
    if (status != Status::kOk) {
      detail::swapChanges(table, changes, written, nonEmptyDelta);
      PatchAccess::setState(filter, before);
    }
  }
  std::free(changes);
  return status;
}

template <class Filter>
Status applyTo(Filter& filter, const unsigned char* patch, std::size_t length) noexcept {
  using Kind = PatchKind<Filter>;
  Framing frame;
  const Status framed = readFraming(patch, length, frame);
  if (framed != Status::kOk) return framed;
  // The base: a filter of the same kind and parameters, in the state named.
  unsigned char current[kMaxFilterHeaderBytes];
  const std::size_t headerBytes = PatchAccess::writeHeader(filter, current);
  if (!Kind::writesFormat(frame.filterFormat) || headerBytes != frame.resultHeaderBytes ||
      !sameFilterFields<Filter>(current, frame.resultHeader, headerBytes)) {
    return rejected(Status::kPatchWrongBase);
  }
  const TableView table = PatchAccess::table(filter);
  if (checksumOfParts(current, headerBytes, table.bytes, table.payloadBytes()) != frame.baseChecksum) {
    return rejected(Status::kPatchWrongBase);
  }
  typename Kind::State result;
  const Status state = Kind::readState(frame.resultHeader, filter, result);
  if (state != Status::kOk) return state;
  return frame.wholeTable ? applyWholeTable(filter, frame) : applyChangedSlots(filter, frame, result);
}

}  // namespace

PatchBytes& PatchBytes::operator=(PatchBytes&& other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

PatchBytes::~PatchBytes() { std::free(data_); }

bool PatchBytes::allocate(std::size_t size) noexcept {
  auto* data = static_cast<unsigned char*>(std::calloc(size == 0 ? 1 : size, 1));
  if (data == nullptr) return false;
  std::free(data_);
  data_ = data;
  size_ = size;
  return true;
}

Status diff(const CuckooFilter& older, const CuckooFilter& newer, PatchBytes& out) noexcept {
  return diffOf(older, newer, out);
}
Status diff(const ScalableCuckooFilter& older, const ScalableCuckooFilter& newer, PatchBytes& out) noexcept {
  return diffOf(older, newer, out);
}
Status applyPatch(CuckooFilter& filter, const unsigned char* patch, std::size_t length) noexcept {
  return applyTo(filter, patch, length);
}
Status applyPatch(ScalableCuckooFilter& filter, const unsigned char* patch, std::size_t length) noexcept {
  return applyTo(filter, patch, length);
}
std::uint64_t stateChecksum(const CuckooFilter& filter) noexcept { return checksumOf(filter); }
std::uint64_t stateChecksum(const ScalableCuckooFilter& filter) noexcept { return checksumOf(filter); }

Status describePatch(const unsigned char* patch, std::size_t length, PatchSummary& out) noexcept {
  Framing frame;
  const Status framed = readFraming(patch, length, frame);
  if (framed != Status::kOk) return framed;
  PatchSummary summary;
  summary.baseChecksum = frame.baseChecksum;
  summary.resultChecksum = frame.resultChecksum;
  summary.filterFormat = frame.filterFormat;
  summary.wholeTable = frame.wholeTable;
  if (!frame.wholeTable) {
    if (frame.bodyBytes < detail::kSlotsBodyCountBytes) return rejected(Status::kFormatTruncated);
    summary.changedSlots = getLittleEndian(frame.body, 8);
  }
  out = summary;
  return Status::kOk;
}

const char* patchStatusMessage(Status status) noexcept {
  switch (status) {
    case Status::kPatchWrongBase:
      return "the patch does not apply to this filter: it was made from another version of it, or for another filter";
    case Status::kPatchFiltersDiffer:
      return "there is no patch between these filters: their parameters or seed differ (a patch goes from one version "
             "of a filter to another)";
    case Status::kPatchShapeChanged:
      return "there is no patch between these versions of the growable filter: it grew in between (its table size "
             "differs); send the newer one whole";
    default: return statusMessage(status);
  }
}

}  // namespace cuckoo
