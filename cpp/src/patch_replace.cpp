// A CuckooFilter kept current from changes reported bucket by bucket
// (patch.hpp: replaceBuckets), and one restored with its whole state
// (restoreFilter): what cuckoo-wasm/redis's replicas are made of.

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "cuckoo/patch.hpp"
#include "patch_access.hpp"
#include "reject.hpp"

namespace cuckoo {
namespace {

using detail::PatchAccess;
using detail::rejected;
using detail::TableView;

// Buckets of up to 8 slots of 32 bits: 32 bytes, read with a 7-bit offset and a 64-bit load.
constexpr std::size_t kBucketBufferBytes = 32 + 8 + kTablePaddingBytes;

// The values of the bucket whose bits are at `bits` (payload bit order,
// `bucketBits` bits): false when its unused bits are not 0, or, semi-sorted,
// its rank names no multiset or its values are not ascending.
bool decodeBucket(const TableView& table, const unsigned char* bits, std::uint32_t* values) noexcept {
  const std::uint64_t bucketBits = table.bucketBits();
  const std::size_t bytes = static_cast<std::size_t>((bucketBits + 7) / 8);
  unsigned char buffer[kBucketBufferBytes] = {};
  std::memcpy(buffer, bits, bytes);
  if (bucketBits % 8 != 0 && (buffer[bytes - 1] >> (bucketBits % 8)) != 0) return false;
  if (table.semiSorted && bits::read(buffer, 0, kNibbleRankBits) >= kNibbleMultisets) return false;
  const TableView one{buffer, 1, table.slots, table.slotBits, table.semiSorted};
  one.read(0, values);
  return !table.semiSorted || (values[0] <= values[1] && values[1] <= values[2] && values[2] <= values[3]);
}

unsigned nonEmpty(const std::uint32_t* values, unsigned slots) noexcept {
  unsigned count = 0;
  for (unsigned s = 0; s < slots; ++s) count += values[s] != 0 ? 1 : 0;
  return count;
}

// Whether every bucket number is below `limit` and listed once.
bool distinctBelow(const std::uint32_t* buckets, std::size_t count, std::uint64_t limit) noexcept {
  auto* sorted = static_cast<std::uint32_t*>(std::malloc((count == 0 ? 1 : count) * sizeof(std::uint32_t)));
  if (sorted == nullptr) return false;
  std::memcpy(sorted, buckets, count * sizeof(std::uint32_t));
  std::sort(sorted, sorted + count);
  bool ok = count == 0 || sorted[count - 1] < limit;
  for (std::size_t k = 1; ok && k < count; ++k) ok = sorted[k] != sorted[k - 1];
  std::free(sorted);
  return ok;
}

}  // namespace

Status replaceBuckets(CuckooFilter& filter, const std::uint32_t* buckets, std::size_t count,
                      const unsigned char* contents, std::size_t stride, const Stash& stash, std::uint64_t itemCount,
                      std::uint64_t prngState) noexcept {
  TableView table = PatchAccess::table(filter);
  const FilterParams& params = filter.params();
  if (stride < (table.bucketBits() + 7) / 8 || !distinctBelow(buckets, count, params.bucketCount)) {
    return rejected(Status::kFormatInconsistent);
  }
  const std::uint64_t largest = (std::uint64_t{1} << params.fingerprintBits) - 1;
  const bool stashOk = stash.occupied ? stash.fingerprint != 0 && stash.fingerprint <= largest && stash.bucket < params.bucketCount
                                      : stash.fingerprint == 0 && stash.bucket == 0;
  if (!stashOk) return rejected(Status::kFormatInconsistent);
  // Everything checked, and the counts, before the first write.
  std::int64_t delta = 0;
  std::uint32_t before[detail::kMaxPatchSlots];
  std::uint32_t after[detail::kMaxPatchSlots];
  for (std::size_t k = 0; k < count; ++k) {
    if (!decodeBucket(table, contents + k * stride, after)) return rejected(Status::kFormatInconsistent);
    table.read(buckets[k], before);
    delta += static_cast<std::int64_t>(nonEmpty(after, table.slots)) - nonEmpty(before, table.slots);
  }
  const FilterState current = PatchAccess::state(filter);
  const std::uint64_t nonEmptyAfter = current.itemCount - (current.stash.occupied ? 1 : 0) + delta;
  if (itemCount != nonEmptyAfter + (stash.occupied ? 1 : 0)) return rejected(Status::kFormatInconsistent);
  for (std::size_t k = 0; k < count; ++k) {
    decodeBucket(table, contents + k * stride, after);
    table.write(buckets[k], after);
  }
  PatchAccess::setState(filter, {SplitMix64(prngState), stash, itemCount});
  return Status::kOk;
}

Status restoreFilter(const FilterParams& params, const unsigned char* payload, std::size_t length, const Stash& stash,
                     std::uint64_t itemCount, std::uint64_t prngState, CuckooFilter& out) noexcept {
  CuckooFilter restored;
  const Status status = CuckooFilter::fromParts(params, payload, length, stash, itemCount, restored);
  if (status != Status::kOk) return status;
  PatchAccess::setState(restored, {SplitMix64(prngState), stash, itemCount});
  out = std::move(restored);
  return Status::kOk;
}

}  // namespace cuckoo
