// What the growable filter reports of its growth (GrowthObserver,
// scalable_filter.hpp): an observed insert changes exactly what an insert
// does, and each split it reports is what the table shows: the bucket's
// entries before, and after it each one where its route says.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/scalable_filter.hpp"

namespace cuckoo {
namespace {

using Route = GrowthObserver::Route;

std::vector<unsigned char> bytesOf(const ScalableCuckooFilter& f) {
  std::vector<unsigned char> bytes(f.serializedSize());
  f.serialize(bytes.data());
  return bytes;
}

ScalableCuckooFilter growable(std::uint64_t initialCapacity, bool semiSort, std::uint32_t maxKicks) {
  ScalableParams params;
  params.initialCapacity = initialCapacity;
  params.falsePositiveRate = 0.01;
  params.semiSort = semiSort;
  params.maxKicks = maxKicks;
  params.seed = 17;
  ScalableCuckooFilter filter;
  EXPECT_EQ(ScalableCuckooFilter::create(params, filter), Status::kOk);
  return filter;
}

struct Split {
  std::uint64_t bucket, sibling;
  unsigned level;
  std::uint32_t slotsBefore[4];  // read from the table when the split is announced
  std::vector<GrowthObserver::EntryMove> moves;
};

struct Growth {
  std::uint64_t from, to;
  unsigned held;
  std::vector<Split> splits;
  unsigned stillHeld = ~0U;
};

// Records growths, and the split bucket's slots as the core announces the split.
struct Recorder final : GrowthObserver {
  explicit Recorder(const ScalableCuckooFilter& f) : filter(f) {}
  const ScalableCuckooFilter& filter;
  std::vector<Growth> growths;
  void onGrowth(std::uint64_t from, std::uint64_t to, unsigned held) override { growths.push_back({from, to, held, {}}); }
  void onSplit(std::uint64_t bucket, std::uint64_t sibling, unsigned level) override {
    Split split{bucket, sibling, level, {}, {}};
    for (unsigned s = 0; s < 4; ++s) split.slotsBefore[s] = filter.slotValue(bucket, s);
    growths.back().splits.push_back(split);
  }
  void onSplitEntry(const EntryMove& move) override { growths.back().splits.back().moves.push_back(move); }
  void onGrown(unsigned stillHeld) override { growths.back().stillHeld = stillHeld; }
};

class GrowthObserved : public ::testing::TestWithParam<bool> {};
INSTANTIATE_TEST_SUITE_P(Tables, GrowthObserved, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "SemiSorted" : "Plain"; });

TEST_P(GrowthObserved, EachSplitIsWhatTheTableShows) {
  // 8 kicks at most: some growths come early, for an insert whose evictions ran out.
  ScalableCuckooFilter observed = growable(16, GetParam(), 8);
  ScalableCuckooFilter plain = growable(16, GetParam(), 8);
  unsigned growths = 0, splits = 0, copies = 0, held = 0;
  for (std::uint64_t key = 1; key <= 3000; ++key) {
    Recorder recorder(observed);
    const std::uint64_t bucketsBefore = observed.shape().bucketCount();
    ASSERT_EQ(observed.insertObserved(&key, sizeof key, recorder), plain.insert(&key, sizeof key));
    ASSERT_EQ(bytesOf(observed), bytesOf(plain)) << "after key " << key;
    std::uint64_t buckets = bucketsBefore;
    for (const Growth& growth : recorder.growths) {
      ++growths;
      EXPECT_EQ(growth.from, buckets);
      EXPECT_EQ(growth.splits.size(), growth.to - growth.from);
      EXPECT_NE(growth.stillHeld, ~0U) << "every growth ends";
      held += growth.held;
      for (const Split& split : growth.splits) {
        ++splits;
        EXPECT_EQ(split.sibling, (std::uint64_t{1} << split.level) + split.bucket);
        // The split bucket's entries in slot order, then the held ones.
        std::vector<std::uint32_t> entries;
        for (const std::uint32_t value : split.slotsBefore) {
          if (value != 0) entries.push_back(value);
        }
        unsigned inTable = 0;
        for (const auto& move : split.moves) {
          if (move.held) continue;
          ASSERT_LT(inTable, entries.size());
          EXPECT_EQ(move.before, entries[inTable++]);
          EXPECT_EQ(move.lowSlot >= 0, move.route != Route::kMoves);
          EXPECT_EQ(move.highSlot >= 0, move.route != Route::kStays);
          copies += move.route == Route::kCopied ? 1 : 0;
        }
        EXPECT_EQ(inTable, entries.size());
      }
      buckets = growth.to;
    }
    EXPECT_EQ(observed.shape().bucketCount(), buckets);
    // With nothing held, no entry moved after its split: each is where the split put it.
    if (recorder.growths.size() == 1 && recorder.growths[0].held == 0) {
      for (const Split& split : recorder.growths[0].splits) {
        for (const auto& move : split.moves) {
          if (move.lowSlot >= 0) {
            EXPECT_EQ(observed.slotValue(split.bucket, static_cast<unsigned>(move.lowSlot)), move.after);
          }
          if (move.highSlot >= 0) {
            EXPECT_EQ(observed.slotValue(split.sibling, static_cast<unsigned>(move.highSlot)), move.after);
          }
        }
      }
    }
  }
  // The run reaches every kind of event: growths, copies of spent tails, and
  // growths that carry a stash.
  EXPECT_GE(growths, 5U);
  EXPECT_GT(splits, 100U);
  EXPECT_GT(copies, 0U);
  EXPECT_GT(held, 0U);
}

}  // namespace
}  // namespace cuckoo
