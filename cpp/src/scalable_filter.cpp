// The growable filter's public operations, on its rooms: scalable_ops.hpp
// (addressing, lookups), scalable_placement.hpp, scalable_growth.hpp
// (scalable_filter.hpp has the design).

#include "cuckoo/scalable_filter.hpp"

#include <cmath>
#include <new>
#include <utility>

#include "batch_memory.hpp"
#include "once_per_filter.hpp"
#include "reject.hpp"
#include "scalable_growth.hpp"
#include "scalable_ops.hpp"
#include "scalable_placement.hpp"
#include "scalable_table.hpp"

namespace cuckoo {

using detail::rejected;
using detail::ScalableTable;
using namespace detail::scalable;

// For size, the stash's 16 entries are cleared in a loop, not by 32 stores.
CUCKOO_ONCE_PER_FILTER ScalableCuckooFilter::ScalableCuckooFilter() noexcept = default;
ScalableCuckooFilter::~ScalableCuckooFilter() { delete table_; }

ScalableCuckooFilter::ScalableCuckooFilter(ScalableCuckooFilter&& other) noexcept { *this = std::move(other); }

CUCKOO_ONCE_PER_FILTER ScalableCuckooFilter& ScalableCuckooFilter::operator=(ScalableCuckooFilter&& other) noexcept {
  if (this == &other) return *this;
  delete table_;
  params_ = other.params_;
  shape_ = other.shape_;
  table_ = std::exchange(other.table_, nullptr);
  prng_ = other.prng_;
  for (unsigned k = 0; k < kMaxHeld; ++k) stash_[k] = other.stash_[k];
  stashCount_ = other.stashCount_;
  lastAddRefused_ = other.lastAddRefused_;
  itemCount_ = other.itemCount_;
  entryCount_ = other.entryCount_;
  return *this;
}

CUCKOO_ONCE_PER_FILTER Status ScalableCuckooFilter::validate(const ScalableParams& params) noexcept {
  if (params.initialCapacity == 0 || params.initialCapacity > (std::uint64_t{1} << 32)) {
    return rejected(Status::kInvalidInitialCapacity);
  }
  if (!(params.falsePositiveRate > 0 && params.falsePositiveRate < 1)) return rejected(Status::kInvalidFalsePositiveRate);
  if (params.falsePositiveRate < kMinFalsePositiveRate) return rejected(Status::kFalsePositiveRateTooLow);
  if (!(params.growth >= kMinGrowth && params.growth <= kMaxGrowth)) return rejected(Status::kInvalidGrowth);
  if (params.maxKicks > kMaxKicksLimit) return rejected(Status::kInvalidMaxKicks);
  if (initialBucketsFor(params.initialCapacity) > (std::uint64_t{1} << kMaxScalableLevel)) {
    return rejected(Status::kTableTooLarge);
  }
  return Status::kOk;
}

CUCKOO_ONCE_PER_FILTER ScalableShape ScalableCuckooFilter::initialShape(const ScalableParams& params) noexcept {
  const std::uint64_t buckets = initialBucketsFor(params.initialCapacity);
  ScalableShape shape;
  shape.fixedBits = kFixedBits;
  shape.level = floorLog2(buckets);
  shape.tailBits = slotBitsFor(params.falsePositiveRate, kMaxScalableLevel - shape.level) - kFixedBits;
  shape.splitBucket = buckets - (std::uint64_t{1} << shape.level);
  shape.initialLevel = shape.level;
  return shape;
}

namespace {

// A new table of slotBits-bit slots: a copy of `source`'s, or without one
// `buckets` empty buckets; deleted again when that fails.
CUCKOO_ONCE_PER_FILTER Status newTable(unsigned slotBits, bool semiSort, const ScalableTable* source,
                                       std::uint64_t buckets, ScalableTable*& out) noexcept {
  auto* table = new (std::nothrow) ScalableTable(slotBits, semiSort);
  if (table == nullptr) return Status::kOutOfMemory;
  const Status status = source != nullptr ? source->copyTo(*table) : table->resize(buckets);
  if (status != Status::kOk) {
    delete table;
    return status;
  }
  out = table;
  return Status::kOk;
}

}  // namespace

CUCKOO_ONCE_PER_FILTER Status ScalableCuckooFilter::create(const ScalableParams& params, ScalableCuckooFilter& out) noexcept {
  if (const Status valid = validate(params); valid != Status::kOk) return valid;
  const ScalableShape shape = initialShape(params);
  const std::uint64_t buckets = shape.bucketCount();
  ScalableTable* table = nullptr;
  const Status made = newTable(shape.slotBits(), params.semiSort, nullptr, buckets, table);
  if (made != Status::kOk) return made;
  ScalableCuckooFilter filter;
  filter.params_ = params;
  filter.shape_ = shape;
  filter.table_ = table;
  filter.prng_ = SplitMix64::fromSeed(params.seed);
  out = std::move(filter);
  return Status::kOk;
}

CUCKOO_ONCE_PER_FILTER Status ScalableCuckooFilter::cloneTo(ScalableCuckooFilter& out) const noexcept {
  ScalableTable* table = nullptr;
  const Status made = newTable(shape_.slotBits(), params_.semiSort, table_, 0, table);
  if (made != Status::kOk) return made;
  ScalableCuckooFilter copy;
  copy.params_ = params_;
  copy.shape_ = shape_;
  copy.table_ = table;
  copy.prng_ = prng_;
  for (unsigned k = 0; k < kMaxHeld; ++k) copy.stash_[k] = stash_[k];
  copy.stashCount_ = stashCount_;
  copy.lastAddRefused_ = lastAddRefused_;
  copy.itemCount_ = itemCount_;
  copy.entryCount_ = entryCount_;
  out = std::move(copy);
  return Status::kOk;
}

bool ScalableCuckooFilter::insert(const void* item, std::size_t length) noexcept {
  return Growth::insertLocated(*this, Ops::locate(*this, item, length));
}

InsertOutcome ScalableCuckooFilter::insertUnique(const void* item, std::size_t length) noexcept {
  if (contains(item, length)) return InsertOutcome::kAlreadyPresent;
  return insert(item, length) ? InsertOutcome::kInserted : InsertOutcome::kFull;
}

bool ScalableCuckooFilter::contains(const void* item, std::size_t length) const noexcept {
  return Ops::containsLocated(*this, Ops::locate(*this, item, length));
}

unsigned ScalableCuckooFilter::count(const void* item, std::size_t length) const noexcept {
  const Ops::ItemLocation at = Ops::locate(*this, item, length);
  const unsigned first = Ops::matchingSlots(*this, at.bucket1, at.fingerprint, at.virtual1);
  const unsigned second = Ops::matchingSlots(*this, at.bucket2, at.fingerprint, at.virtual2);
  // One bucket for both virtual buckets: its entries may be stored for either
  // (as contains() looks), each counted once.
  unsigned copies = at.bucket2 == at.bucket1
                        ? static_cast<unsigned>(__builtin_popcount(first | second))
                        : static_cast<unsigned>(__builtin_popcount(first) + __builtin_popcount(second));
  for (unsigned k = 0; k < stashCount_; ++k) copies += Ops::heldMatches(*this, stash_[k], at) ? 1 : 0;
  return copies;
}

// Of the entries that match the item, the one that knows the most bits of its
// virtual bucket number goes. Matching is not symmetric: an entry whose tail
// is short also matches items whose own entries have longer tails. Taking the
// most specific match never takes the only entry of another item: that item's
// query would also match the entry left behind, which knows fewer bits, all of
// which agree with it.
bool ScalableCuckooFilter::erase(const void* item, std::size_t length) noexcept {
  const Ops::ItemLocation at = Ops::locate(*this, item, length);
  constexpr unsigned kNone = ~0U;
  unsigned bestKnown = 0;
  unsigned bestStash = kNone;
  unsigned bestSide = kNone;
  unsigned bestSlot = 0;
  const auto known = [this](std::uint32_t value, std::uint64_t bucket) { return Ops::knownOf(*this, value, bucket).count; };
  const detail::scalable::SlotCodec codec = Ops::codec(*this);
  for (unsigned k = 0; k < stashCount_; ++k) {
    if (Ops::heldMatches(*this, stash_[k], at) && (bestStash == kNone || known(stash_[k].value, stash_[k].bucket) > bestKnown)) {
      bestKnown = known(stash_[k].value, stash_[k].bucket);
      bestStash = k;
    }
  }
  const std::uint64_t buckets[2] = {at.bucket1, at.bucket2};
  const std::uint64_t virtuals[2] = {at.virtual1, at.virtual2};
  detail::SlotValues slots[2];
  for (unsigned side = 0; side < 2; ++side) {
    slots[side] = table_->read(buckets[side]);
    const unsigned level = Ops::levelOf(*this, buckets[side]);
    for (unsigned s = 0; s < 4; ++s) {
      const std::uint32_t value = slots[side].value[s];
      if (!codec.matches(value, at.fingerprint, virtuals[side], level)) continue;
      const unsigned bits = known(value, buckets[side]);
      if ((bestStash == kNone && bestSide == kNone) || bits > bestKnown) {
        bestKnown = bits;
        bestSide = side;
        bestSlot = s;
        bestStash = kNone;
      }
    }
  }
  if (bestStash != kNone) {
    Placement::removeFromStash(*this, bestStash);
  } else if (bestSide != kNone) {
    slots[bestSide].value[bestSlot] = 0;
    table_->write(buckets[bestSide], slots[bestSide]);
    // A slot was freed: the stash's entries may fit now.
    if (stashCount_ != 0) Placement::placeStash(*this);
  } else {
    return false;
  }
  --itemCount_;
  --entryCount_;
  lastAddRefused_ = false;
  return true;
}

// In blocks, as containsMany: the block located and its buckets requested,
// then its items added in order, each exactly as insert() adds it.
std::size_t ScalableCuckooFilter::insertMany(const ItemBatch& items) noexcept {
  Ops::ItemLocation at[detail::kBatchBlock];
  for (std::size_t base = 0; base < items.count; base += detail::kBatchBlock) {
    const std::size_t n = items.count - base < detail::kBatchBlock ? items.count - base : detail::kBatchBlock;
    Ops::requestBlock(*this, items, base, n, at);
    for (std::size_t k = 0; k < n; ++k) {
      if (!Growth::insertLocated(*this, at[k])) return base + k;
    }
  }
  return items.count;
}

// In blocks: every item of the block located and its buckets requested
// (batch_memory.hpp), then each probed, so that their cache misses overlap.
void ScalableCuckooFilter::containsMany(const ItemBatch& items, unsigned char* answers) const noexcept {
  Ops::ItemLocation at[detail::kBatchBlock];
  for (std::size_t base = 0; base < items.count; base += detail::kBatchBlock) {
    const std::size_t n = items.count - base < detail::kBatchBlock ? items.count - base : detail::kBatchBlock;
    Ops::requestBlock(*this, items, base, n, at);
    for (std::size_t k = 0; k < n; ++k) answers[base + k] = Ops::containsLocated(*this, at[k]) ? 1 : 0;
  }
}

std::size_t ScalableCuckooFilter::eraseMany(const ItemBatch& items) noexcept {
  std::size_t erased = 0;
  for (std::size_t k = 0; k < items.count; ++k) erased += erase(items.item(k), items.length(k)) ? 1 : 0;
  return erased;
}

CUCKOO_ONCE_PER_FILTER Status ScalableCuckooFilter::clear() noexcept {
  ScalableCuckooFilter fresh;
  if (const Status status = create(params_, fresh); status != Status::kOk) return status;
  *this = std::move(fresh);
  return Status::kOk;
}

std::uint32_t ScalableCuckooFilter::slotValue(std::uint64_t bucket, unsigned slot) const noexcept {
  return table_->read(bucket).value[slot];
}

CUCKOO_ONCE_PER_FILTER ScalableStats ScalableCuckooFilter::stats() const noexcept {
  ScalableStats s{};
  s.itemCount = itemCount_;
  s.entryCount = entryCount_;
  s.slotCount = table_->bucketCount() * kSlots;
  s.stashedCount = stashCount_;
  s.loadFactor = static_cast<double>(entryCount_ - stashCount_) / static_cast<double>(s.slotCount);
  s.sizeInBytes = table_->byteLength();
  const double tableBits = static_cast<double>(table_->bucketCount() * table_->bucketBits());
  s.bitsPerItem = itemCount_ == 0 ? HUGE_VAL : tableBits / static_cast<double>(itemCount_);
  s.falsePositiveBound = falsePositiveBoundFor(shape_.slotBits(), shape_.level - shape_.initialLevel);
  return s;
}

CUCKOO_ONCE_PER_FILTER Status ScalableCuckooFilter::merge(const ScalableCuckooFilter& other) noexcept {
  if (params_.semiSort != other.params_.semiSort) return rejected(Status::kMergeSemiSortDiffer);
  if (params_.seed != other.params_.seed) return rejected(Status::kMergeSeedDiffer);
  if (shape_.fixedBits != other.shape_.fixedBits || shape_.tailBits != other.shape_.tailBits ||
      shape_.level != other.shape_.level || shape_.splitBucket != other.shape_.splitBucket ||
      shape_.initialLevel != other.shape_.initialLevel || params_.falsePositiveRate != other.params_.falsePositiveRate) {
    return rejected(Status::kMergeShapeDiffers);
  }
  // Copies of both, so that running out of memory changes nothing. They grow
  // in step, so their tables keep one shape and an entry of the other's copy
  // is placed from the bucket it is in; an entry is taken out of that copy
  // as it moves, so a growth in the middle splits only what is left.
  ScalableCuckooFilter merged;
  ScalableCuckooFilter incoming;
  Status status = cloneTo(merged);
  if (status == Status::kOk) status = other.cloneTo(incoming);
  // Growing starts while the stash holds what a growth can carry
  // (Growth::kGrowAt); an entry that growth cannot place refuses the merge
  // instead (mayGrowForStash).
  constexpr unsigned kGrowAt = Growth::kGrowAt;
  const std::uint64_t items = itemCount_ + other.itemCount_;
  const auto growBoth = [&merged, &incoming, items]() CUCKOO_ONCE_PER_FILTER {
    if (!Growth::mayGrowForStash(merged, items)) return detail::rejected(Status::kMergeWouldOverfill);
    const std::uint64_t target = Growth::nextBucketCount(merged);
    Status grown = Growth::growOnce(merged, target);
    if (grown == Status::kOk) grown = Growth::growOnce(incoming, target);
    return grown;
  };
  const auto roomFor = [&merged, &incoming]() CUCKOO_ONCE_PER_FILTER {
    const double slots = static_cast<double>(merged.table_->bucketCount() * kSlots);
    return static_cast<double>(merged.entryCount_ + incoming.entryCount_) <= kMaxLoad * slots;
  };
  const auto place = [&merged, &incoming, &growBoth](HeldEntry held) CUCKOO_ONCE_PER_FILTER {
    --incoming.entryCount_;
    ++merged.entryCount_;
    if (!Placement::placeHeld(merged, held)) {
      if (Growth::neverFits(merged, held)) return detail::rejected(Status::kMergeWouldOverfill);
      Placement::addToStash(merged, held);
    }
    Status placed = Status::kOk;
    while (placed == Status::kOk && merged.stashCount_ >= kGrowAt) placed = growBoth();
    return placed;
  };
  while (status == Status::kOk && !roomFor()) status = growBoth();
  // The other's stash first: it lives in the same buckets.
  while (status == Status::kOk && incoming.stashCount_ != 0) {
    const HeldEntry held = incoming.stash_[incoming.stashCount_ - 1];
    Placement::removeFromStash(incoming, incoming.stashCount_ - 1);
    status = place(held);
  }
  // One entry at a time, the bucket read afresh each time (a semi-sorted
  // bucket re-sorts when written); after a growth, from the start again.
  std::uint64_t bucket = 0;
  while (status == Status::kOk && bucket < incoming.table_->bucketCount()) {
    detail::SlotValues slots = incoming.table_->read(bucket);
    unsigned slot = 0;
    while (slot < kSlots && slots.value[slot] == 0) ++slot;
    if (slot == kSlots) {
      ++bucket;
      continue;
    }
    const HeldEntry held{slots.value[slot], bucket};
    slots.value[slot] = 0;
    incoming.table_->write(bucket, slots);
    const std::uint64_t buckets = merged.table_->bucketCount();
    status = place(held);
    if (merged.table_->bucketCount() != buckets) bucket = 0;
  }
  if (status == Status::kOk) status = Growth::makeRoom(merged);
  if (status != Status::kOk) return status;
  merged.itemCount_ = itemCount_ + other.itemCount_;
  *this = std::move(merged);
  return Status::kOk;
}

}  // namespace cuckoo
