// Operations on a small growable filter (ScalableCuckooFilter), checked
// against an exact multiset.
//
// Input: 14 bytes of parameters, then (operation, key) byte pairs:
//   [0] initialCapacity = 1 + x % 64 (one to 18 buckets: growth from the start)
//   [1] fpr = kRates[x % 6] (slots of 16 to 32 bits)
//   [2] growth from 1.01 (x = 0) to 2 (x = 255)
//   [3] bit 0: semi-sorted buckets
//   [4] maxKicks = x % 64, or the default 500 when x >= 240
//   [5..12] seed (little-endian)   [13] universe = 1 + x keys
// An operation byte x is operation x % kOperationCount with a size x /
// kOperationCount for the batches and merges. Keys are few, so one item is
// often stored more than once (up to a limit, below).
//
// Checked after every operation: no false negative for any item added and
// not yet erased, count() at least its copies, itemCount equal to the
// multiset's size, entries equal to the occupied slots plus the stash, and
// the table within a few buckets per item (growth never runs away). The
// filter is full (an entry waits in the stash) only for a reason the
// documentation gives: growth cannot place it, because its buckets are
// crowded by copies (of an item, or of one the filter cannot tell from it),
// or because a table of 256 buckets or more has over 4 per item. An add is refused with nothing changed when the item's
// buckets hold only copies of it, or when the filter was full (no item lost,
// the table perhaps grown); a batch does exactly what its single-item calls
// do; erasing an item added removes exactly one copy; a merge with a second
// filter of the same parameters either holds every item of both afterwards
// or refuses, for one of the reasons above, and leaves this one as it was.
//
// Items are added up to 9 times (the ninth is refused), so that copies crowd
// buckets in tables of every size.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <map>
#include <utility>
#include <vector>

#include "cuckoo/item_batch.hpp"
#include "cuckoo/scalable_filter.hpp"
#include "byte_reader.hpp"
#include "fuzz_check.hpp"

namespace {

using cuckoo::InsertOutcome;
using cuckoo::ItemBatch;
using cuckoo::ScalableCuckooFilter;
using cuckoo::ScalableParams;
using cuckoo::Status;

constexpr unsigned kSlots = 4;
constexpr double kRates[] = {0.5, 0.1, 0.01, 1e-3, 1e-5, 1e-7};
// Adds per input at most (merged items included), so that the table stays
// small (memory never runs out, every check stays cheap) and grows less than
// 2^6 times: 150 per bucket of the first table.
constexpr std::uint64_t kMaxAdds = 1500;
constexpr std::uint64_t kMaxAddsPerFirstBucket = 150;
// Adds of one item at most: the ninth is refused.
constexpr unsigned kMaxCopies = 2 * kSlots + 1;
// What the documentation promises of growth (kMinLoadToGrowForStash): a
// table of this many buckets may always be had, and beyond it, for a
// homeless entry, a table of up to 4 buckets per item.
constexpr std::uint64_t kSmallTable = 256;
constexpr std::uint64_t kBucketsPerItem = 4;

enum Operation : unsigned {
  kInsert,
  kInsertAgain,  // an item already present, to pile up copies
  kErasePresent,
  kEraseAbsent,
  kContains,
  kCount,
  kInsertUnique,
  kInsertMany,
  kContainsMany,
  kEraseMany,
  kClear,
  kRoundTrip,
  kClone,
  kMerge,
  kOperationCount
};

// Items 0 .. 255 are the universe's keys, 8 bytes each (as numbers from
// JavaScript are); from 256 on, 3-byte fillers that only grow a filter.
constexpr unsigned kFirstFiller = 256;
constexpr std::uint32_t kKeyBytes = 8;

struct Item {
  std::uint8_t bytes[kKeyBytes];
  std::size_t length;
  explicit Item(unsigned id) : bytes{}, length(id < kFirstFiller ? kKeyBytes : 3) {
    bytes[0] = id < kFirstFiller ? 'k' : 'f';
    bytes[1] = static_cast<std::uint8_t>(id);
    bytes[2] = static_cast<std::uint8_t>(id >> 8);
  }
  const void* data() const { return bytes; }
  std::size_t size() const { return length; }
};

class Model {
 public:
  unsigned copies(unsigned id) const {
    const auto found = copies_.find(id);
    return found == copies_.end() ? 0 : found->second;
  }
  std::uint64_t size() const { return size_; }
  void add(unsigned id, unsigned n = 1) { copies_[id] += n, size_ += n; }
  void remove(unsigned id) {
    if (--copies_[id] == 0) copies_.erase(id);
    --size_;
  }
  void clear() { copies_.clear(), size_ = 0; }
  const std::map<unsigned, unsigned>& all() const { return copies_; }

 private:
  std::map<unsigned, unsigned> copies_;
  std::uint64_t size_ = 0;
};

std::vector<std::uint8_t> serialized(const ScalableCuckooFilter& filter) {
  std::vector<std::uint8_t> bytes(filter.serializedSize());
  filter.serialize(bytes.data());
  return bytes;
}

unsigned countOf(const ScalableCuckooFilter& filter, unsigned id) {
  const Item item(id);
  return filter.count(item.data(), item.size());
}

// Whether an item of `model` has copies in `filter` and `other` together
// (false positives included: the filter cannot tell them apart).
bool crowdedByCopies(const ScalableCuckooFilter& filter, const ScalableCuckooFilter* other, const Model& model) {
  for (const auto& entry : model.all()) {
    if (countOf(filter, entry.first) + (other != nullptr ? countOf(*other, entry.first) : 0) >= 2) return true;
  }
  return false;
}

// Whether growth for a homeless entry stops for want of items.
bool thin(const ScalableCuckooFilter& filter) {
  const std::uint64_t buckets = filter.shape().bucketCount();
  return buckets >= kSmallTable && kBucketsPerItem * filter.itemCount() < buckets;
}

void checkAgainstModel(const ScalableCuckooFilter& filter, const Model& model, std::uint64_t mostItems) {
  std::uint64_t occupied = 0;
  for (std::uint64_t bucket = 0; bucket < filter.shape().bucketCount(); ++bucket) {
    for (unsigned slot = 0; slot < kSlots; ++slot) occupied += filter.slotValue(bucket, slot) != 0 ? 1 : 0;
  }
  const cuckoo::ScalableStats stats = filter.stats();
  FUZZ_REQUIRE(filter.itemCount() == model.size() && stats.itemCount == model.size(),
               "itemCount %llu, multiset size %llu", static_cast<unsigned long long>(filter.itemCount()),
               static_cast<unsigned long long>(model.size()));
  FUZZ_REQUIRE(stats.entryCount == occupied + filter.stashCount() && stats.entryCount >= stats.itemCount,
               "entryCount %llu, occupied slots %llu, stash %u", static_cast<unsigned long long>(stats.entryCount),
               static_cast<unsigned long long>(occupied), filter.stashCount());
  FUZZ_REQUIRE(filter.stashCount() == 0 || thin(filter) || crowdedByCopies(filter, nullptr, model),
               "the stash holds %u entries: %llu items in %llu buckets, none with copies", filter.stashCount(),
               static_cast<unsigned long long>(filter.itemCount()),
               static_cast<unsigned long long>(filter.shape().bucketCount()));
  const std::uint64_t itemsBound = kBucketsPerItem * mostItems > kSmallTable ? kBucketsPerItem * mostItems : kSmallTable;
  FUZZ_REQUIRE(static_cast<double>(filter.shape().bucketCount()) <= cuckoo::kMaxGrowth * static_cast<double>(itemsBound) + 1,
               "%llu buckets for at most %llu items", static_cast<unsigned long long>(filter.shape().bucketCount()),
               static_cast<unsigned long long>(mostItems));
  for (const auto& [id, copies] : model.all()) {
    const Item item(id);
    FUZZ_REQUIRE(filter.contains(item.data(), item.size()), "false negative for item %u (%u copies)", id, copies);
    FUZZ_REQUIRE(countOf(filter, id) >= copies, "count %u below the %u copies of item %u", countOf(filter, id), copies, id);
  }
}

class Run {
 public:
  Run(const ScalableParams& params, unsigned universe) : params_(params), universe_(universe) {
    FUZZ_REQUIRE(ScalableCuckooFilter::create(params, filter_) == Status::kOk,
                 "create capacity %llu fpr %g growth %g semiSort %d", static_cast<unsigned long long>(params.initialCapacity),
                 params.falsePositiveRate, params.growth, params.semiSort);
    empty_ = serialized(filter_);
    const std::uint64_t perFirstTable = kMaxAddsPerFirstBucket * filter_.shape().bucketCount();
    maxAdds_ = perFirstTable < kMaxAdds ? perFirstTable : kMaxAdds;
  }

  void apply(unsigned operation, unsigned size, unsigned key) {
    switch (operation) {
      case kInsert:
        if (model_.copies(key) < kMaxCopies && budget(1)) insert(filter_, model_, key);
        break;
      case kInsertAgain: {
        const unsigned present = findPresent(key);
        const unsigned again = present < universe_ ? present : key;
        if (model_.copies(again) < kMaxCopies && budget(1)) insert(filter_, model_, again);
        break;
      }
      case kErasePresent: {
        const unsigned present = findPresent(key);
        if (present < universe_) erasePresent(present);
        break;
      }
      case kEraseAbsent:
        eraseAbsent(key);
        break;
      case kContains: {
        const Item item(key);
        FUZZ_REQUIRE(model_.copies(key) == 0 || filter_.contains(item.data(), item.size()), "false negative for key %u", key);
        break;
      }
      case kCount: {
        const unsigned counted = countOf(filter_, key);
        // Two buckets of copies, and more in the stash: a copy that waits
        // there no longer stops adds, so its buckets may fill with others.
        FUZZ_REQUIRE(counted >= model_.copies(key) && counted <= 2 * kSlots + filter_.stashCount(),
                     "count %u for %u copies of key %u (%u stashed)", counted, model_.copies(key), key,
                     filter_.stashCount());
        break;
      }
      case kInsertUnique:
        insertUnique(key);
        break;
      case kInsertMany:
        insertMany(key, 1 + 2 * size);
        break;
      case kContainsMany:
        containsMany(key, 1 + 2 * size);
        break;
      case kEraseMany:
        eraseMany(key, 1 + 2 * size);
        break;
      case kClear:
        FUZZ_REQUIRE(filter_.clear() == Status::kOk, "clear");
        model_.clear();
        FUZZ_REQUIRE(serialized(filter_) == empty_, "clear() differs from a new filter");
        break;
      case kRoundTrip: {
        const std::vector<std::uint8_t> bytes = serialized(filter_);
        ScalableCuckooFilter loaded;
        const Status status = ScalableCuckooFilter::deserialize(bytes.data(), bytes.size(), loaded);
        FUZZ_REQUIRE(status == Status::kOk, "deserialize of serialize() output returned %d", static_cast<int>(status));
        FUZZ_REQUIRE(serialized(loaded) == bytes, "the round trip changed the bytes");
        filter_ = std::move(loaded);
        break;
      }
      case kClone: {
        ScalableCuckooFilter clone;
        FUZZ_REQUIRE(filter_.cloneTo(clone) == Status::kOk, "cloneTo");
        FUZZ_REQUIRE(serialized(clone) == serialized(filter_), "the clone serializes differently");
        filter_ = std::move(clone);
        break;
      }
      case kMerge:
        merge(key, 3 * size);
        break;
      default:
        break;
    }
    if (model_.size() > mostItems_) mostItems_ = model_.size();
    checkAgainstModel(filter_, model_, mostItems_);
  }

 private:
  // The first key from `start` on (wrapping) that the model holds; universe_ when none.
  unsigned findPresent(unsigned start) const {
    for (unsigned i = 0; i < universe_; ++i) {
      const unsigned key = (start + i) % universe_;
      if (model_.copies(key) > 0) return key;
    }
    return universe_;
  }

  // Whether `count` more adds stay within maxAdds_; they are counted if so.
  bool budget(std::uint64_t count) {
    if (adds_ + count > maxAdds_) return false;
    adds_ += count;
    return true;
  }

  // One add, as the documentation allows it to end: stored and found; or
  // refused with nothing changed, only when the item's buckets hold only
  // copies of it (eight, or four when its two buckets are one bucket; false
  // positives count as copies) or when the stash holds what a growth carries.
  bool insert(ScalableCuckooFilter& filter, Model& model, unsigned id) {
    const Item item(id);
    const unsigned copiesBefore = filter.count(item.data(), item.size());
    const unsigned stashBefore = filter.stashCount();
    const std::vector<std::uint8_t> before = serialized(filter);
    if (filter.insert(item.data(), item.size())) {
      model.add(id);
      FUZZ_REQUIRE(filter.contains(item.data(), item.size()), "false negative for item %u right after insert", id);
      FUZZ_REQUIRE(!filter.isFull(), "insert of item %u succeeded, and the filter says full", id);
      return true;
    }
    FUZZ_REQUIRE(filter.isFull(), "insert of item %u refused, and the filter does not say full", id);
    FUZZ_REQUIRE(copiesBefore >= kSlots || stashBefore >= ScalableCuckooFilter::kMaxHeld / 4,
                 "insert of item %u refused with %u copies (%u in the model) and %u stashed", id, copiesBefore,
                 model.copies(id), stashBefore);
    FUZZ_REQUIRE(serialized(filter) == before, "a refused insert of item %u changed the filter", id);
    return false;
  }

  void erasePresent(unsigned key) {
    const Item item(key);
    const std::uint64_t entriesBefore = filter_.stats().entryCount;
    FUZZ_REQUIRE(filter_.erase(item.data(), item.size()), "erase of present key %u (%u copies) failed", key,
                 model_.copies(key));
    FUZZ_REQUIRE(filter_.stats().entryCount == entriesBefore - 1, "erase removed %lld entries",
                 static_cast<long long>(entriesBefore - filter_.stats().entryCount));
    model_.remove(key);
  }

  // Only a key absent from the model that the filter also reports absent:
  // erasing a false positive would take another item's entry.
  void eraseAbsent(unsigned key) {
    const Item item(key);
    if (model_.copies(key) != 0 || filter_.contains(item.data(), item.size())) return;
    const std::vector<std::uint8_t> before = serialized(filter_);
    FUZZ_REQUIRE(!filter_.erase(item.data(), item.size()), "erase of absent key %u succeeded", key);
    FUZZ_REQUIRE(serialized(filter_) == before, "a failed erase changed the filter");
  }

  void insertUnique(unsigned key) {
    if (!budget(1)) return;
    const Item item(key);
    const bool wasReported = filter_.contains(item.data(), item.size());
    const unsigned stashBefore = filter_.stashCount();
    const std::vector<std::uint8_t> before = serialized(filter_);
    const InsertOutcome outcome = filter_.insertUnique(item.data(), item.size());
    if (outcome == InsertOutcome::kFull) {
      FUZZ_REQUIRE(!wasReported && stashBefore >= ScalableCuckooFilter::kMaxHeld / 4 && filter_.isFull(),
                   "insertUnique of key %u refused (reported %d, %u stashed)", key, wasReported, stashBefore);
    } else {
      FUZZ_REQUIRE(outcome == (wasReported ? InsertOutcome::kAlreadyPresent : InsertOutcome::kInserted),
                   "insertUnique of key %u gave %d (reported before: %d)", key, static_cast<int>(outcome), wasReported);
    }
    if (outcome == InsertOutcome::kInserted) {
      model_.add(key);
    } else {
      FUZZ_REQUIRE(serialized(filter_) == before, "a refused insertUnique changed the filter");
    }
  }

  // Keys first, first + 1, ... (wrapping), as one batch of 8-byte items.
  struct Batch {
    std::vector<unsigned> keys;
    std::vector<std::uint8_t> bytes;
    ItemBatch items() const { return ItemBatch::fixed(bytes.data(), kKeyBytes, keys.size()); }
    void add(unsigned key) {
      keys.push_back(key);
      const Item item(key);
      bytes.insert(bytes.end(), item.bytes, item.bytes + kKeyBytes);
    }
  };
  Batch consecutive(unsigned first, unsigned count) const {
    Batch batch;
    for (unsigned k = 0; k < count; ++k) batch.add((first + k) % universe_);
    return batch;
  }

  // The batch on the filter, its single items on a clone: the same items
  // added and the same bytes after (insertMany adds each exactly as insert).
  // The batch ends before a key's copies would pass kMaxCopies.
  void insertMany(unsigned first, unsigned count) {
    Batch batch;
    Model after = model_;
    for (unsigned k = 0; k < count; ++k) {
      const unsigned key = (first + k) % universe_;
      if (after.copies(key) == kMaxCopies) break;
      after.add(key);
      batch.add(key);
    }
    count = static_cast<unsigned>(batch.keys.size());
    if (!budget(count)) return;
    ScalableCuckooFilter single;
    FUZZ_REQUIRE(filter_.cloneTo(single) == Status::kOk, "cloneTo");
    Model singleModel = model_;
    std::size_t added = 0;
    while (added < count && insert(single, singleModel, batch.keys[added])) ++added;
    const std::size_t batchAdded = filter_.insertMany(batch.items());
    FUZZ_REQUIRE(batchAdded == added, "insertMany of %u added %zu, single items %zu", count, batchAdded, added);
    for (std::size_t k = 0; k < added; ++k) model_.add(batch.keys[k]);
    FUZZ_REQUIRE(serialized(filter_) == serialized(single), "insertMany of %u left other bytes than its inserts", count);
  }

  void containsMany(unsigned first, unsigned count) {
    const Batch batch = consecutive(first, count);
    std::vector<unsigned char> answers(count + 1, 0xAA);
    filter_.containsMany(batch.items(), answers.data());
    FUZZ_REQUIRE(answers[count] == 0xAA, "containsMany of %u wrote past its answers", count);
    for (unsigned k = 0; k < count; ++k) {
      const Item item(batch.keys[k]);
      const unsigned expected = filter_.contains(item.data(), item.size()) ? 1 : 0;
      FUZZ_REQUIRE(answers[k] == expected, "containsMany answered %u for key %u, contains %u", answers[k], batch.keys[k],
                   expected);
    }
  }

  // Copies the model holds, from `first` on, at most `count`: each erase
  // takes an item that was added.
  void eraseMany(unsigned first, unsigned count) {
    Batch batch;
    Model left = model_;
    for (unsigned i = 0; i < universe_ && batch.keys.size() < count; ++i) {
      const unsigned key = (first + i) % universe_;
      for (unsigned c = left.copies(key); c > 0 && batch.keys.size() < count; --c) {
        batch.add(key);
        left.remove(key);
      }
    }
    ScalableCuckooFilter single;
    FUZZ_REQUIRE(filter_.cloneTo(single) == Status::kOk, "cloneTo");
    for (const unsigned key : batch.keys) {
      const Item item(key);
      FUZZ_REQUIRE(single.erase(item.data(), item.size()), "erase of present key %u failed", key);
    }
    const std::size_t erased = filter_.eraseMany(batch.items());
    FUZZ_REQUIRE(erased == batch.keys.size(), "eraseMany of %zu present items erased %zu", batch.keys.size(), erased);
    FUZZ_REQUIRE(serialized(filter_) == serialized(single), "eraseMany left other bytes than its erases");
    model_ = std::move(left);
  }

  // A second filter of the same parameters with `count` keys from `first`
  // (as long as both hold at most kMaxCopies of each together), the smaller
  // of the two grown with fillers until their tables match (both grow
  // through the same sizes), then merged into this one.
  void merge(unsigned first, unsigned count) {
    ScalableCuckooFilter other;
    FUZZ_REQUIRE(ScalableCuckooFilter::create(params_, other) == Status::kOk, "create");
    Model otherModel;
    if (!budget(count)) return;
    for (unsigned k = 0; k < count; ++k) {
      const unsigned key = (first + k) % universe_;
      if (model_.copies(key) + otherModel.copies(key) < kMaxCopies) insert(other, otherModel, key);
    }
    while (filter_.shape().bucketCount() < other.shape().bucketCount() && budget(1)) {
      insert(filter_, model_, nextFiller_++);
    }
    while (other.shape().bucketCount() < filter_.shape().bucketCount() && budget(1)) {
      insert(other, otherModel, nextFiller_++);
    }
    const bool sameTable = filter_.shape().bucketCount() == other.shape().bucketCount();
    // The merged items count as adds.
    if (!budget(otherModel.size())) return;
    const std::vector<std::uint8_t> before = serialized(filter_);
    const Status status = filter_.merge(other);
    if (status == Status::kOk) {
      FUZZ_REQUIRE(sameTable, "merged a filter of %llu buckets into one of %llu",
                   static_cast<unsigned long long>(other.shape().bucketCount()),
                   static_cast<unsigned long long>(filter_.shape().bucketCount()));
      for (const auto& [id, copies] : otherModel.all()) model_.add(id, copies);
      return;
    }
    FUZZ_REQUIRE(serialized(filter_) == before, "a refused merge (status %d) changed the filter", static_cast<int>(status));
    if (!sameTable) {
      FUZZ_REQUIRE(status == Status::kMergeShapeDiffers, "merge of different tables returned %d", static_cast<int>(status));
      return;
    }
    FUZZ_REQUIRE(status == Status::kMergeWouldOverfill, "merge returned %d", static_cast<int>(status));
    // Refused only when copies crowd the buckets of an entry, or when the
    // one full already was.
    const bool crowded = crowdedByCopies(filter_, &other, model_) || crowdedByCopies(filter_, &other, otherModel);
    FUZZ_REQUIRE(crowded || filter_.stashCount() != 0 || other.stashCount() != 0,
                 "merge refused with no item of two copies and no stashed entry");
  }

  ScalableParams params_;
  unsigned universe_;
  ScalableCuckooFilter filter_;
  Model model_;
  std::vector<std::uint8_t> empty_;
  std::uint64_t adds_ = 0;
  std::uint64_t mostItems_ = 0;
  std::uint64_t maxAdds_ = 0;
  unsigned nextFiller_ = kFirstFiller;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteReader input(data, size);
  ScalableParams params;
  params.initialCapacity = 1 + input.next() % 64;
  params.falsePositiveRate = kRates[input.next() % std::size(kRates)];
  const unsigned growth = input.next();
  // The largest exactly: the interpolation could round past it.
  params.growth = growth == 255 ? cuckoo::kMaxGrowth : cuckoo::kMinGrowth + (cuckoo::kMaxGrowth - cuckoo::kMinGrowth) * growth / 256;
  params.semiSort = (input.next() & 1) != 0;
  const std::uint8_t kicks = input.next();
  params.maxKicks = kicks >= 240 ? cuckoo::kDefaultMaxKicks : kicks % 64;
  params.seed = 0;
  for (unsigned i = 0; i < 8; ++i) params.seed |= std::uint64_t{input.next()} << (8 * i);
  const unsigned universe = 1 + input.next();

  Run run(params, universe);
  while (!input.empty()) {
    const std::uint8_t operation = input.next();
    const unsigned key = input.next() % universe;
    run.apply(operation % kOperationCount, operation / kOperationCount, key);
  }
  return 0;
}
