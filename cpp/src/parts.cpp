// A table kept in Redis by cuckoo-wasm/redis, seen from the core: its
// payload moved between FORMAT.md's bit order and BITFIELD order, and the
// lookups answered from the bucket words the client read, so that the
// decoding of buckets (plain and semi-sorted) lives here, once.
//
// BITFIELD order keeps every field where FORMAT.md puts it; only the
// numbering of bits within bytes and of bits within a field differ. Redis's
// BITFIELD reads bit p as bit 7 - p % 8 of byte p / 8 and a field most
// significant bit first, so `BITFIELD_RO key GET u<f> <p>` returns the slot
// at p itself, and a whole bucket of up to 53 bits comes back as one exact
// integer, in node and in the server's Lua.

#include <cstddef>
#include <cstdint>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/semi_sorted_table.hpp"
#include "reject.hpp"

namespace cuckoo {
namespace {

using detail::rejected;

constexpr std::uint64_t lowMask(unsigned width) noexcept { return (std::uint64_t{1} << width) - 1; }

// The fields of one bucket, in order: b slots of f bits, or a semi-sorted
// bucket's 12-bit rank and its four low parts of f - 4 bits.
struct BucketFields {
  unsigned count = 0;
  unsigned offset[8] = {};
  unsigned width[8] = {};
  unsigned bits = 0;
};

BucketFields fieldsOf(const FilterParams& params) noexcept {
  BucketFields fields;
  const auto add = [&fields](unsigned width) {
    fields.offset[fields.count] = fields.bits;
    fields.width[fields.count] = width;
    ++fields.count;
    fields.bits += width;
  };
  if (params.semiSort) {
    add(kNibbleRankBits);
    for (unsigned s = 0; s < kSemiSortedBucketSize; ++s) add(params.fingerprintBits - 4);
  } else {
    for (unsigned s = 0; s < params.bucketSize; ++s) add(params.fingerprintBits);
  }
  return fields;
}

// Payloads have no padding here (partsOf copies exactly the payload), so the
// bytes past the end read as zero and are never written.
std::uint64_t readLeastFirst(const unsigned char* bytes, std::size_t length, std::uint64_t bitPos,
                             unsigned width) noexcept {
  const std::size_t first = static_cast<std::size_t>(bitPos >> 3);
  std::uint64_t window = 0;
  for (std::size_t k = 0; k < 8 && first + k < length; ++k) window |= std::uint64_t{bytes[first + k]} << (8 * k);
  return (window >> (bitPos & 7)) & lowMask(width);
}

std::uint64_t readMostFirst(const unsigned char* bytes, std::size_t length, std::uint64_t bitPos,
                            unsigned width) noexcept {
  const std::size_t first = static_cast<std::size_t>(bitPos >> 3);
  std::uint64_t window = 0;
  for (std::size_t k = 0; k < 8; ++k) window = window << 8 | (first + k < length ? bytes[first + k] : 0U);
  return (window >> (64 - (bitPos & 7) - width)) & lowMask(width);
}

// Both writers OR into zeroed output: every field is written exactly once.
void orLeastFirst(unsigned char* bytes, std::size_t length, std::uint64_t bitPos, unsigned width,
                  std::uint64_t value) noexcept {
  const std::size_t first = static_cast<std::size_t>(bitPos >> 3);
  const unsigned shift = static_cast<unsigned>(bitPos & 7);
  const std::uint64_t window = value << shift;
  for (std::size_t k = 0; k < (shift + width + 7) / 8 && first + k < length; ++k) {
    bytes[first + k] = static_cast<unsigned char>(bytes[first + k] | (window >> (8 * k)));
  }
}

void orMostFirst(unsigned char* bytes, std::size_t length, std::uint64_t bitPos, unsigned width,
                 std::uint64_t value) noexcept {
  const std::size_t first = static_cast<std::size_t>(bitPos >> 3);
  const unsigned shift = static_cast<unsigned>(bitPos & 7);
  const std::uint64_t window = value << (64 - shift - width);
  for (std::size_t k = 0; k < (shift + width + 7) / 8 && first + k < length; ++k) {
    bytes[first + k] = static_cast<unsigned char>(bytes[first + k] | (window >> (56 - 8 * k)));
  }
}

std::size_t payloadBytesOf(const FilterParams& params, const BucketFields& fields) noexcept {
  return static_cast<std::size_t>((params.bucketCount * fields.bits + 7) / 8);
}

template <class Read, class Write>
void convert(const FilterParams& params, const unsigned char* from, unsigned char* to, Read read, Write write) noexcept {
  const BucketFields fields = fieldsOf(params);
  const std::size_t length = payloadBytesOf(params, fields);
  for (std::size_t k = 0; k < length; ++k) to[k] = 0;
  for (std::uint64_t bucket = 0; bucket < params.bucketCount; ++bucket) {
    const std::uint64_t base = bucket * fields.bits;
    for (unsigned field = 0; field < fields.count; ++field) {
      const std::uint64_t at = base + fields.offset[field];
      write(to, length, at, fields.width[field], read(from, length, at, fields.width[field]));
    }
  }
}

// The entries of a bucket from its words; false for a rank beyond the last
// nibble multiset, which only a damaged table holds.
bool entriesFromWords(const FilterParams& params, const BucketFields& fields,
                      const CuckooFilter::BucketWord* words, unsigned wordCount, const std::uint64_t* values,
                      std::uint32_t* entries) noexcept {
  std::uint64_t fieldValue[8] = {};
  unsigned field = 0;
  for (unsigned w = 0; w < wordCount; ++w) {
    const unsigned wordEnd = words[w].offset + words[w].width;
    for (; field < fields.count && fields.offset[field] < wordEnd; ++field) {
      const unsigned shift = wordEnd - fields.offset[field] - fields.width[field];
      fieldValue[field] = (values[w] >> shift) & lowMask(fields.width[field]);
    }
  }
  if (!params.semiSort) {
    for (unsigned s = 0; s < fields.count; ++s) entries[s] = static_cast<std::uint32_t>(fieldValue[s]);
    return true;
  }
  if (fieldValue[0] >= kNibbleMultisets) return false;
  const std::uint32_t nibbles = semisort::kUnrank[fieldValue[0]];
  const unsigned lowBits = params.fingerprintBits - 4;
  for (unsigned s = 0; s < kSemiSortedBucketSize; ++s) {
    entries[s] = ((nibbles >> (4 * s)) & 0xFU) << lowBits | static_cast<std::uint32_t>(fieldValue[1 + s]);
  }
  return true;
}

}  // namespace

void CuckooFilter::payloadToBitfieldOrder(const FilterParams& params, const unsigned char* from,
                                          unsigned char* to) noexcept {
  convert(params, from, to, readLeastFirst, orMostFirst);
}

void CuckooFilter::payloadFromBitfieldOrder(const FilterParams& params, const unsigned char* from,
                                            unsigned char* to) noexcept {
  convert(params, from, to, readMostFirst, orLeastFirst);
}

unsigned CuckooFilter::bucketWords(const FilterParams& params, BucketWord (&out)[kMaxBucketWords]) noexcept {
  const BucketFields fields = fieldsOf(params);
  unsigned count = 0;
  for (unsigned field = 0; field < fields.count; ++field) {
    const bool fitsLast =
        count > 0 && out[count - 1].width + fields.width[field] <= kBucketWordBits;
    if (fitsLast) {
      out[count - 1].width += fields.width[field];
    } else {
      out[count++] = BucketWord{fields.offset[field], fields.width[field]};
    }
  }
  return count;
}

Status CuckooFilter::countInBucketWords(const FilterParams& params, const std::uint64_t* words,
                                        const std::uint32_t* located, std::size_t count, const Stash& stash,
                                        std::uint32_t* out) noexcept {
  const BucketFields fields = fieldsOf(params);
  BucketWord layout[kMaxBucketWords];
  const unsigned wordCount = bucketWords(params, layout);
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint32_t fingerprint = located[4 * k];
    const std::uint32_t primary = located[4 * k + 1];
    const std::uint32_t alternate = located[4 * k + 2];
    unsigned copies = 0;
    for (unsigned which = 0; which < 2; ++which) {
      if (which == 1 && alternate == primary) break;
      std::uint32_t entries[8];
      if (!entriesFromWords(params, fields, layout, wordCount, words + (2 * k + which) * wordCount, entries)) {
        return rejected(Status::kFormatInconsistent);
      }
      for (unsigned s = 0; s < (params.semiSort ? kSemiSortedBucketSize : params.bucketSize); ++s) {
        copies += entries[s] == fingerprint ? 1U : 0U;
      }
    }
    const bool inStash =
        stash.occupied && stash.fingerprint == fingerprint && (stash.bucket == primary || stash.bucket == alternate);
    out[k] = copies + (inStash ? 1U : 0U);
  }
  return Status::kOk;
}

}  // namespace cuckoo
