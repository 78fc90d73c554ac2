#pragma once
// The body of a patch that lists changed slots (FORMAT.md, "Patches"): how
// many, the last one's position, then one bit stream of the positions as an
// Elias-Fano code (L low bits each, then the high parts in unary) and each
// slot's new value (a 1 bit and W bits for a value, a 0 bit for an emptied
// slot). About log2(S/C) + 2 bits per position for C changes among S slots,
// near the log2 C(S, C) bits any code needs to say which slots changed.

#include <cstddef>
#include <cstdint>

#include "cuckoo/status.hpp"
#include "patch_table.hpp"

namespace cuckoo::detail {

// The two counts that open the body.
inline constexpr std::size_t kSlotsBodyCountBytes = 16;

// What the body of the changes from `older` to `newer` holds, and its length.
struct SlotsBodyPlan {
  std::uint64_t count = 0;   // C: changed slots
  std::uint64_t filled = 0;  // of them, the ones whose new value is not 0
  std::uint64_t last = 0;    // the last one's position
  unsigned lowBits = 0;      // L
  std::uint64_t bits = 0;    // of the bit stream
  std::uint64_t bytes() const noexcept { return kSlotsBodyCountBytes + (bits + 7) / 8; }
};

// L: 0 without changes, else the largest l with count · 2^l <= slotCount.
unsigned lowBitsFor(std::uint64_t count, std::uint64_t slotCount) noexcept;

// Tables of one shape (TableView::sameShape).
SlotsBodyPlan planSlotsBody(const TableView& older, const TableView& newer) noexcept;
// Writes the body `plan` describes to `out` (plan.bytes() zeroed bytes, followed by 7 more).
void writeSlotsBody(const TableView& older, const TableView& newer, const SlotsBodyPlan& plan, unsigned char* out) noexcept;

// A changed slot (position bucket · slots + slot) and its value. Bucket
// counts are at most 2^32 and a bucket holds 1, 2, 4 or 8 slots, so the
// position splits with a shift (a 64-bit division costs tens of cycles in
// WebAssembly, several per change).
struct SlotChange {
  std::uint32_t bucket;
  std::uint32_t value;
  unsigned slot;
};

// Which new values are allowed besides 0: any of W bits (a CuckooFilter), or
// the well-formed slot values of a growable filter with `tailBits`.
struct SlotValueRule {
  bool growable = false;
  unsigned tailBits = 0;
};

// Reads the count of a body of `length` bytes (the bytes after the result's
// header, before the checksum); kFormatTruncated if too short, kFormatInconsistent
// if it cannot fit the table or the body.
Status slotsBodyCount(const unsigned char* body, std::size_t length, const TableView& table, std::uint64_t& count) noexcept;
// Decodes the body's `count` changes into `out`: positions ascending and below
// the table's slots, values as `rule` allows, the stream exactly as long as
// the body with zero padding (else kFormatInconsistent or kFormatTruncated).
Status decodeSlotsBody(const unsigned char* body, std::size_t length, const TableView& table, const SlotValueRule& rule,
                       SlotChange* out, std::uint64_t count) noexcept;

// Writes the changes in order and leaves in each one's place the value it
// replaced, so that swapping the changes written again undoes them. Stops
// before a change that would leave a semi-sorted bucket out of order (its
// bucket is not written). Returns how many changes it wrote; `nonEmptyDelta`
// gets how many more slots are non-empty after them.
std::uint64_t swapChanges(TableView& table, SlotChange* changes, std::uint64_t count, std::int64_t& nonEmptyDelta) noexcept;

}  // namespace cuckoo::detail
