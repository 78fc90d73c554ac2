// Byte format versions 1, 2, 4 and 5 of FORMAT.md: version 1 for a
// power-of-two bucket count (hash id 1, frozen), version 2 for any other (hash
// id 2), whose header carries the count itself, and versions 4 and 5, version
// 2's header for a keyed filter (hash id 4 or 5) and for a filter of 64-bit
// keys (hash ids 6 to 11) of either kind. byte_order.hpp has what all versions
// share.

#include <cstring>
#include <utility>

#include "cuckoo/cuckoo_filter.hpp"
#include "byte_order.hpp"
#include "item_hash.hpp"
#include "patch_access.hpp"
#include "reject.hpp"

namespace cuckoo {
namespace {

using detail::getLittleEndian;
using detail::putLittleEndian;
using detail::rejected;

constexpr const unsigned char (&kMagic)[4] = detail::kFormatMagic;
// The version says how the header is laid out, and each goes with one hash id.
constexpr std::uint8_t kVersionPowerOfTwo = 1;  // log2(m) in one byte; hash id 1
constexpr std::uint8_t kVersionAnyCount = 2;    // m in eight bytes; hash id 2
constexpr std::uint8_t kVersionKeyed = 4;       // as version 2; hash id 4 (m a power of two) or 5
constexpr std::uint8_t kVersionMultiplyShift = 5;  // as version 2; hash id 6 (m a power of two) or 7
constexpr std::uint8_t kVersionMixedMultiplyShift = 6;  // as version 2; hash id 8 (m a power of two) or 9
constexpr std::uint8_t kVersionSeededMix = 7;            // as version 2; hash id 10 (m a power of two) or 11

// Versions 5 to 7: a filter of 64-bit keys, and which hash of keys it has.
constexpr bool isKeyHashVersion(std::uint8_t version) noexcept {
  return version == kVersionMultiplyShift || version == kVersionMixedMultiplyShift || version == kVersionSeededMix;
}
constexpr KeyHash keyHashOfVersion(std::uint8_t version) noexcept {
  return version == kVersionMultiplyShift        ? KeyHash::kMultiplyShift
         : version == kVersionMixedMultiplyShift ? KeyHash::kMixedMultiplyShift
                                                 : KeyHash::kSeededMix;
}

// The table is semi-sorted (semi_sorted_table.hpp's bucket layout).
constexpr std::uint8_t kFlagSemiSorted = 1U << 0;
constexpr std::uint8_t kFlagStashOccupied = 1U << 1;
constexpr std::uint8_t kKnownFlags = kFlagSemiSorted | kFlagStashOccupied;

constexpr std::size_t kChecksumBytes = detail::kFormatChecksumBytes;

// Byte offsets of the header fields (FORMAT.md's layout table).
namespace at {
constexpr std::size_t kVersion = 4;
constexpr std::size_t kFlags = 5;
constexpr std::size_t kHashId = 6;
constexpr std::size_t kFingerprintBits = 7;
constexpr std::size_t kBucketSize = 8;
constexpr std::size_t kLog2BucketCount = 9;  // version 1
constexpr std::size_t kReserved = 10;         // version 1: 2 bytes; version 2: bytes 9 to 11
constexpr std::size_t kReservedAnyCount = 9;
constexpr std::size_t kMaxKicks = 12;
constexpr std::size_t kSeed = 16;
constexpr std::size_t kPrngState = 24;
constexpr std::size_t kItemCount = 32;
constexpr std::size_t kStashFingerprint = 40;
constexpr std::size_t kStashBucket = 44;
constexpr std::size_t kPayloadLength = 48;
constexpr std::size_t kBucketCount = 56;  // version 2
}  // namespace at

constexpr std::size_t headerBytesOf(std::uint8_t version) noexcept { return version == kVersionPowerOfTwo ? 56 : 64; }
static_assert(headerBytesOf(kVersionAnyCount) == CuckooFilter::kSerializedHeaderBytes, "the longest header");

// Valid shapes are at most 2^32 * 8 * 32 bits: no overflow.
std::uint64_t payloadBitsFor(const FilterParams& params) noexcept {
  return params.semiSort ? params.bucketCount * SemiSortedTable::bucketBitsFor(params.fingerprintBits)
                         : params.bucketCount * params.bucketSize * params.fingerprintBits;
}

// Magic, version and header length, in the order that gives the most useful
// status for a short or foreign input.
Status checkPreamble(const unsigned char* data, std::size_t length) noexcept {
  const std::size_t magicBytesPresent = length < sizeof kMagic ? length : sizeof kMagic;
  for (std::size_t i = 0; i < magicBytesPresent; ++i) {
    if (data[i] != kMagic[i]) return rejected(Status::kFormatBadMagic);
  }
  if (length <= at::kVersion) return rejected(Status::kFormatTruncated);
  const std::uint8_t version = data[at::kVersion];
  if (version != kVersionPowerOfTwo && version != kVersionAnyCount && version != kVersionKeyed &&
      version != kVersionMultiplyShift && version != kVersionMixedMultiplyShift && version != kVersionSeededMix) {
    return rejected(Status::kFormatUnsupportedVersion);
  }
  if (length < headerBytesOf(version)) return rejected(Status::kFormatTruncated);
  return Status::kOk;
}

// The bucket count as the header's version stores it, or 0 when the fields
// are malformed or disagree with the hash id: without a keyed hash a power of
// two is always version 1 with hash id 1, any other count version 2 with hash
// id 2; with one, version 4 with hash id 4 or 5 by the same rule, and with
// a hash of 64-bit keys version 5 with hash id 6 or 7, version 6 with hash id
// 8 or 9, or version 7 with hash id 10 or 11.
std::uint64_t storedBucketCount(const unsigned char* header) noexcept {
  const std::uint8_t version = header[at::kVersion];
  if (version == kVersionPowerOfTwo) {
    const unsigned log2BucketCount = header[at::kLog2BucketCount];
    if (header[at::kHashId] != kHashIdXxh3V1 || log2BucketCount > 32) return 0;
    if (getLittleEndian(header + at::kReserved, 2) != 0) return 0;
    return std::uint64_t{1} << log2BucketCount;
  }
  const std::uint64_t bucketCount = getLittleEndian(header + at::kBucketCount, 8);
  const bool keyed = version == kVersionKeyed;
  const bool multiplyShift = isKeyHashVersion(version);
  if (bucketCount == 0 || bucketCount > kMaxBucketCount) return 0;
  if (header[at::kHashId] != plainHashId(isPowerOfTwo(bucketCount), keyed, multiplyShift, keyHashOfVersion(version))) return 0;
  if (version == kVersionAnyCount && isPowerOfTwo(bucketCount)) return 0;
  if (getLittleEndian(header + at::kReservedAnyCount, 3) != 0) return 0;
  return bucketCount;
}

// The header's shape fields. On kOk (or kTableTooLarge, for a well-formed
// header whose table this build cannot hold) `params` and `payloadBytes`
// describe the table. Nothing is allocated here.
Status checkShape(const unsigned char* header, FilterParams& params, std::uint64_t& payloadBytes) noexcept {
  const std::uint8_t flags = header[at::kFlags];
  if ((flags & ~kKnownFlags) != 0) return rejected(Status::kFormatBadParameters);
  params.bucketCount = storedBucketCount(header);
  if (params.bucketCount == 0) return rejected(Status::kFormatBadParameters);

  params.fingerprintBits = header[at::kFingerprintBits];
  params.bucketSize = header[at::kBucketSize];
  params.maxKicks = static_cast<std::uint32_t>(getLittleEndian(header + at::kMaxKicks, 4));
  params.seed = getLittleEndian(header + at::kSeed, 8);
  params.semiSort = (flags & kFlagSemiSorted) != 0;
  params.keyedHash = header[at::kVersion] == kVersionKeyed;
  params.multiplyShiftHash = isKeyHashVersion(header[at::kVersion]);
  params.keyHash = keyHashOfVersion(header[at::kVersion]);
  // create() and deserialize() accept exactly the same shapes.
  const Status shape = CuckooFilter::validate(params);
  if (shape != Status::kOk && shape != Status::kTableTooLarge) return rejected(Status::kFormatBadParameters);

  payloadBytes = (payloadBitsFor(params) + 7) / 8;
  if (getLittleEndian(header + at::kPayloadLength, 8) != payloadBytes) {
    return rejected(Status::kFormatBadParameters);
  }
  return shape;
}

// What the checksum cannot vouch for: a writer that is not this code may have
// produced well-checksummed nonsense. Also checks parts that never had a
// checksum (CuckooFilter::fromParts).
Status checkContents(const unsigned char* payload, const FilterParams& params, std::size_t payloadBytes,
                     const Stash& stash, std::uint64_t itemCount) noexcept {
  const unsigned usedBitsOfLastByte = static_cast<unsigned>(payloadBitsFor(params) % 8);
  if (usedBitsOfLastByte != 0 && (payload[payloadBytes - 1] >> usedBitsOfLastByte) != 0) {
    return rejected(Status::kFormatInconsistent);
  }
  if (stash.occupied) {
    const std::uint64_t largestFingerprint = (std::uint64_t{1} << params.fingerprintBits) - 1;
    if (stash.fingerprint == 0 || stash.fingerprint > largestFingerprint || stash.bucket >= params.bucketCount) {
      return rejected(Status::kFormatInconsistent);
    }
  } else if (stash.fingerprint != 0 || stash.bucket != 0) {
    return rejected(Status::kFormatInconsistent);
  }

  std::uint64_t occupied = 0;
  if (params.semiSort) {
    // Every rank must name a nibble multiset and every bucket be in the
    // sorted order that encoding produces.
    if (!SemiSortedTable::validatePayload(payload, payloadBytes, params.fingerprintBits, params.bucketCount,
                                          occupied)) {
      return rejected(Status::kFormatInconsistent);
    }
  } else {
    occupied = PackedTable::countNonZeroEntries(payload, payloadBytes, params.fingerprintBits,
                                                params.bucketCount * params.bucketSize);
  }
  if (occupied + (stash.occupied ? 1 : 0) != itemCount) return rejected(Status::kFormatInconsistent);
  return Status::kOk;
}

}  // namespace

namespace {

std::uint8_t versionFor(const BucketIndex& index, const FilterParams& params) noexcept {
  if (params.keyedHash) return kVersionKeyed;
  if (params.multiplyShiftHash) {
    switch (params.keyHash) {
      case KeyHash::kMultiplyShift: return kVersionMultiplyShift;
      case KeyHash::kMixedMultiplyShift: return kVersionMixedMultiplyShift;
      case KeyHash::kSeededMix: break;
    }
    return kVersionSeededMix;
  }
  return index.powerOfTwo() ? kVersionPowerOfTwo : kVersionAnyCount;
}

}  // namespace

std::size_t CuckooFilter::serializedSize() const noexcept {
  return headerBytesOf(versionFor(index_, params_)) + static_cast<std::size_t>((payloadBitsFor(params_) + 7) / 8) +
         kChecksumBytes;
}

std::size_t detail::PatchAccess::writeHeader(const CuckooFilter& filter, unsigned char* out) noexcept {
  const FilterParams& params = filter.params_;
  const FilterState& state = filter.state_;
  const std::uint8_t version = versionFor(filter.index_, params);
  const std::size_t headerBytes = headerBytesOf(version);
  std::memset(out, 0, headerBytes);
  std::memcpy(out, kMagic, sizeof kMagic);
  out[at::kVersion] = version;
  out[at::kFlags] = static_cast<unsigned char>((state.stash.occupied ? kFlagStashOccupied : 0) |
                                               (params.semiSort ? kFlagSemiSorted : 0));
  out[at::kHashId] = filter.hashId();
  out[at::kFingerprintBits] = static_cast<unsigned char>(params.fingerprintBits);
  out[at::kBucketSize] = static_cast<unsigned char>(params.bucketSize);
  if (version == kVersionPowerOfTwo) {
    out[at::kLog2BucketCount] = static_cast<unsigned char>(__builtin_ctzll(params.bucketCount));
  } else {
    putLittleEndian(out + at::kBucketCount, params.bucketCount, 8);
  }
  putLittleEndian(out + at::kMaxKicks, params.maxKicks, 4);
  putLittleEndian(out + at::kSeed, params.seed, 8);
  putLittleEndian(out + at::kPrngState, state.prng.state(), 8);
  putLittleEndian(out + at::kItemCount, state.itemCount, 8);
  putLittleEndian(out + at::kStashFingerprint, state.stash.occupied ? state.stash.fingerprint : 0, 4);
  putLittleEndian(out + at::kStashBucket, state.stash.occupied ? state.stash.bucket : 0, 4);
  putLittleEndian(out + at::kPayloadLength, (payloadBitsFor(params) + 7) / 8, 8);
  return headerBytes;
}

void CuckooFilter::serialize(unsigned char* out) const noexcept {
  const std::size_t headerBytes = detail::PatchAccess::writeHeader(*this, out);
  const auto payloadBytes = static_cast<std::size_t>((payloadBitsFor(params_) + 7) / 8);
  // A filter that was never created has no table to copy.
  if (payloadBytes != 0) std::memcpy(out + headerBytes, tableData(), payloadBytes);
  const std::size_t checkedBytes = headerBytes + payloadBytes;
  putLittleEndian(out + checkedBytes, detail::formatChecksum(out, checkedBytes), 8);
}

namespace {

// Everything the header alone can settle: magic, version, parameters, and
// whether `totalLength` is the length they imply. Reads only the first
// min(totalLength, kHeaderBytes) bytes.
Status checkHeader(const unsigned char* data, std::size_t totalLength, FilterParams& params,
                   std::uint64_t& payloadBytes) noexcept {
  const Status preamble = checkPreamble(data, totalLength);
  if (preamble != Status::kOk) return preamble;
  const Status shape = checkShape(data, params, payloadBytes);
  if (shape != Status::kOk) return shape;
  // The shape fits kMaxTableBytes, so these sizes fit size_t even on wasm32.
  const std::uint64_t expectedLength = headerBytesOf(data[at::kVersion]) + payloadBytes + kChecksumBytes;
  if (totalLength < expectedLength) return rejected(Status::kFormatTruncated);
  if (totalLength > expectedLength) return rejected(Status::kFormatInconsistent);
  return Status::kOk;
}

}  // namespace

Status CuckooFilter::checkSerializedHeader(const unsigned char* header, std::size_t totalLength) noexcept {
  FilterParams params;
  std::uint64_t payloadBytes = 0;
  return checkHeader(header, totalLength, params, payloadBytes);
}

Status CuckooFilter::deserialize(const unsigned char* data, std::size_t length, CuckooFilter& out) noexcept {
  FilterParams params;
  std::uint64_t payloadBytes = 0;
  const Status header = checkHeader(data, length, params, payloadBytes);
  if (header != Status::kOk) return header;
  const std::size_t headerBytes = headerBytesOf(data[at::kVersion]);
  const auto checkedBytes = static_cast<std::size_t>(headerBytes + payloadBytes);
  if (detail::formatChecksum(data, checkedBytes) != getLittleEndian(data + checkedBytes, 8)) {
    return rejected(Status::kFormatChecksumMismatch);
  }

  const Stash stash{(data[at::kFlags] & kFlagStashOccupied) != 0,
                    static_cast<std::uint32_t>(getLittleEndian(data + at::kStashFingerprint, 4)),
                    static_cast<std::uint32_t>(getLittleEndian(data + at::kStashBucket, 4))};
  const std::uint64_t itemCount = getLittleEndian(data + at::kItemCount, 8);
  const auto payloadLength = static_cast<std::size_t>(payloadBytes);
  const Status contents = checkContents(data + headerBytes, params, payloadLength, stash, itemCount);
  if (contents != Status::kOk) return contents;
  return restore(params, data + headerBytes, payloadLength, stash, itemCount, getLittleEndian(data + at::kPrngState, 8),
                 out);
}

Status CuckooFilter::fromParts(const FilterParams& params, const unsigned char* payload, std::size_t length,
                               const Stash& stash, std::uint64_t itemCount, CuckooFilter& out) noexcept {
  const Status valid = validate(params);
  if (valid != Status::kOk) return valid;
  const std::uint64_t payloadBytes = (payloadBitsFor(params) + 7) / 8;
  if (length < payloadBytes) return rejected(Status::kFormatTruncated);
  if (length > payloadBytes) return rejected(Status::kFormatInconsistent);
  const Status contents = checkContents(payload, params, length, stash, itemCount);
  if (contents != Status::kOk) return contents;
  return restore(params, payload, length, stash, itemCount, SplitMix64::fromSeed(params.seed).state(), out);
}

std::size_t CuckooFilter::payloadByteLength() const noexcept {
  return static_cast<std::size_t>((payloadBitsFor(params_) + 7) / 8);
}

Status CuckooFilter::restore(const FilterParams& params, const unsigned char* payload, std::size_t payloadBytes,
                             const Stash& stash, std::uint64_t itemCount, std::uint64_t prngState,
                             CuckooFilter& out) noexcept {
  CuckooFilter loaded;
  const Status created = create(params, loaded);
  if (created != Status::kOk) return created;
  std::memcpy(loaded.visitTable([](auto& table) { return table.data(); }), payload, payloadBytes);
  loaded.state_ = FilterState{SplitMix64(prngState), stash, itemCount, false};
  out = std::move(loaded);
  return Status::kOk;
}

}  // namespace cuckoo
