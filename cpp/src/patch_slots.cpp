// The changed-slots body of a patch (patch_slots.hpp, FORMAT.md "Patches").

#include "patch_slots.hpp"

#include <utility>

#include "byte_order.hpp"
#include "patch_bits.hpp"
#include "reject.hpp"
#include "scalable_slot_codec.hpp"

namespace cuckoo::detail {
namespace {

std::uint64_t lowMask(unsigned bits) noexcept { return bits == 0 ? 0 : (std::uint64_t{1} << bits) - 1; }

// Calls visit(position, newValue) for every slot whose value differs, in
// position order. Eight buckets are a whole number of bytes: groups of eight
// that are the same byte for byte are skipped with one comparison.
template <class Visit>
void forEachChangedSlot(const TableView& older, const TableView& newer, Visit&& visit) noexcept {
  std::uint32_t before[kMaxPatchSlots];
  std::uint32_t after[kMaxPatchSlots];
  const auto visitBucket = [&](std::uint64_t bucket) {
    if (older.sameBucket(newer, bucket)) return;
    older.read(bucket, before);
    newer.read(bucket, after);
    for (unsigned s = 0; s < older.slots; ++s) {
      if (before[s] != after[s]) visit(bucket * older.slots + s, after[s]);
    }
  };
  const std::uint64_t groups = older.buckets / 8;
  for (std::uint64_t group = 0; group < groups; ++group) {
    if (older.sameGroupOfEight(newer, group)) continue;
    for (std::uint64_t bucket = 8 * group; bucket < 8 * group + 8; ++bucket) visitBucket(bucket);
  }
  for (std::uint64_t bucket = 8 * groups; bucket < older.buckets; ++bucket) visitBucket(bucket);
}

// Where the stream's parts start: lows at 0, then the highs, then the values.
std::uint64_t highsStart(std::uint64_t count, unsigned lowBits) noexcept { return count * lowBits; }
std::uint64_t valuesStart(std::uint64_t count, std::uint64_t last, unsigned lowBits) noexcept {
  return count * lowBits + count + (last >> lowBits);
}

// Calls visit(bucket, first, end) for each run [first, end) of changes in one bucket.
template <class Visit>
void forEachBucketOfChanges(const SlotChange* changes, std::uint64_t count, Visit&& visit) noexcept {
  for (std::uint64_t first = 0; first < count;) {
    const std::uint32_t bucket = changes[first].bucket;
    std::uint64_t end = first + 1;
    while (end < count && changes[end].bucket == bucket) ++end;
    visit(bucket, first, end);
    first = end;
  }
}

}  // namespace

unsigned lowBitsFor(std::uint64_t count, std::uint64_t slotCount) noexcept {
  if (count == 0) return 0;
  return 63U - static_cast<unsigned>(__builtin_clzll(slotCount / count));
}

SlotsBodyPlan planSlotsBody(const TableView& older, const TableView& newer) noexcept {
  SlotsBodyPlan plan;
  forEachChangedSlot(older, newer, [&plan](std::uint64_t position, std::uint32_t value) {
    ++plan.count;
    plan.filled += value != 0 ? 1 : 0;
    plan.last = position;
  });
  plan.lowBits = lowBitsFor(plan.count, older.slotCount());
  plan.bits = valuesStart(plan.count, plan.last, plan.lowBits) + plan.count + plan.filled * older.slotBits;
  return plan;
}

void writeSlotsBody(const TableView& older, const TableView& newer, const SlotsBodyPlan& plan, unsigned char* out) noexcept {
  putLittleEndian(out, plan.count, 8);
  putLittleEndian(out + 8, plan.last, 8);
  unsigned char* stream = out + kSlotsBodyCountBytes;
  BitWriter lows(stream, 0);
  BitWriter highs(stream, highsStart(plan.count, plan.lowBits));
  BitWriter values(stream, valuesStart(plan.count, plan.last, plan.lowBits));
  const unsigned lowBits = plan.lowBits;
  const unsigned width = older.slotBits;
  std::uint64_t previousHigh = 0;
  forEachChangedSlot(older, newer, [&](std::uint64_t position, std::uint32_t value) {
    lows.put(position & lowMask(lowBits), lowBits);
    const std::uint64_t high = position >> lowBits;
    highs.skip(high - previousHigh);
    highs.put(1, 1);
    previousHigh = high;
    values.put(value != 0 ? 1 : 0, 1);
    if (value != 0) values.put(value, width);
  });
}

Status slotsBodyCount(const unsigned char* body, std::size_t length, const TableView& table, std::uint64_t& count) noexcept {
  if (length < kSlotsBodyCountBytes) return rejected(Status::kFormatTruncated);
  count = getLittleEndian(body, 8);
  const std::uint64_t last = getLittleEndian(body + 8, 8);
  const std::uint64_t slots = table.slotCount();
  if (count > slots || (count == 0 ? last != 0 : last >= slots)) return rejected(Status::kFormatInconsistent);
  // The fewest bits `count` changes take: the low parts, the highs, a bit per value.
  const std::uint64_t streamBits = (length - kSlotsBodyCountBytes) * std::uint64_t{8};
  const unsigned lowBits = lowBitsFor(count, slots);
  if (valuesStart(count, last, lowBits) + count > streamBits) return rejected(Status::kFormatTruncated);
  return Status::kOk;
}

Status decodeSlotsBody(const unsigned char* body, std::size_t length, const TableView& table, const SlotValueRule& rule,
                       SlotChange* out, std::uint64_t count) noexcept {
  const std::uint64_t last = getLittleEndian(body + 8, 8);
  const std::uint64_t slots = table.slotCount();
  const unsigned lowBits = lowBitsFor(count, slots);
  const unsigned char* stream = body + kSlotsBodyCountBytes;
  const std::uint64_t streamBits = (length - kSlotsBodyCountBytes) * std::uint64_t{8};
  const std::uint64_t highsEnd = valuesStart(count, last, lowBits);
  BitReader lows(stream, 0, highsStart(count, lowBits));
  BitReader highs(stream, highsStart(count, lowBits), highsEnd);
  BitReader values(stream, highsEnd, streamBits);
  const auto slotShift = static_cast<unsigned>(__builtin_ctz(table.slots));
  std::uint64_t high = 0;
  std::uint64_t previous = 0;
  for (std::uint64_t k = 0; k < count; ++k) {
    const std::uint64_t low = lows.get(lowBits);
    high += highs.unary();
    const std::uint64_t position = high << lowBits | low;
    if (highs.failed() || position >= slots || (k > 0 && position <= previous)) {
      return rejected(Status::kFormatInconsistent);
    }
    previous = position;
    std::uint32_t value = 0;
    if (values.get(1) != 0) {
      value = static_cast<std::uint32_t>(values.get(table.slotBits));
      const bool allowed = value != 0 && (!rule.growable || scalable::wellFormed(value, table.slotBits, rule.tailBits));
      if (!allowed) return rejected(Status::kFormatInconsistent);
    }
    out[k] = {static_cast<std::uint32_t>(position >> slotShift), value, static_cast<unsigned>(position & (table.slots - 1))};
  }
  if (values.failed()) return rejected(Status::kFormatTruncated);
  // The stream ends where it says: no high part unread, the last position as
  // stated, and only the zero bits that pad the last byte.
  const bool exact = highs.at() == highsEnd && (count == 0 || previous == last) &&
                     (streamBits - values.at()) < 8 && BitReader(stream, values.at(), streamBits).get(static_cast<unsigned>(streamBits - values.at())) == 0;
  return exact ? Status::kOk : rejected(Status::kFormatInconsistent);
}

std::uint64_t swapChanges(TableView& table, SlotChange* changes, std::uint64_t count, std::int64_t& nonEmptyDelta) noexcept {
  std::int64_t delta = 0;
  if (!table.semiSorted) {
    // A plain slot is its own field: read and written alone.
    const unsigned width = table.slotBits;
    for (std::uint64_t k = 0; k < count; ++k) {
      SlotChange& change = changes[k];
      const std::uint64_t at = (std::uint64_t{change.bucket} * table.slots + change.slot) * width;
      const auto old = static_cast<std::uint32_t>(bits::read(table.bytes, at, width));
      bits::write(table.bytes, at, width, change.value);
      delta += (change.value != 0 ? 1 : 0) - (old != 0 ? 1 : 0);
      change.value = old;
    }
    nonEmptyDelta = delta;
    return count;
  }
  std::uint64_t written = 0;
  forEachBucketOfChanges(changes, count, [&](std::uint32_t bucket, std::uint64_t first, std::uint64_t end) {
    if (written != first) return;  // stopped at an earlier bucket
    std::uint32_t values[kMaxPatchSlots];
    table.read(bucket, values);
    std::int64_t bucketDelta = 0;
    for (std::uint64_t k = first; k < end; ++k) {
      std::uint32_t& slot = values[changes[k].slot];
      bucketDelta += (changes[k].value != 0 ? 1 : 0) - (slot != 0 ? 1 : 0);
      std::swap(slot, changes[k].value);
    }
    if (values[0] > values[1] || values[1] > values[2] || values[2] > values[3]) {
      for (std::uint64_t k = first; k < end; ++k) std::swap(values[changes[k].slot], changes[k].value);
      return;
    }
    table.write(bucket, values);
    delta += bucketDelta;
    written = end;
  });
  nonEmptyDelta = delta;
  return written;
}

}  // namespace cuckoo::detail
