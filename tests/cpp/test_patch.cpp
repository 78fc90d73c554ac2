// Patches (patch.hpp): a patch turns its base into its result byte for byte
// (table, stash, item count, PRNG), applies to nothing else, leaves the filter
// unchanged whenever it is refused, and stays near the entropy of its changes.

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "byte_format.hpp"
#include "cuckoo/patch.hpp"
#include "cuckoo/sizing.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

using testing::Bytes;
using testing::eraseKey;
using testing::insertKey;
using testing::serialized;

Bytes patchBytes(const PatchBytes& patch) { return Bytes(patch.data(), patch.data() + patch.size()); }

template <class Filter>
Bytes diffOf(const Filter& older, const Filter& newer) {
  PatchBytes patch;
  EXPECT_EQ(diff(older, newer, patch), Status::kOk);
  return patchBytes(patch);
}

template <class Filter>
Status applied(Filter& filter, const Bytes& patch) {
  return applyPatch(filter, patch.data(), patch.size());
}

template <class Filter>
Filter copyOf(const Filter& filter) {
  Filter copy;
  EXPECT_EQ(filter.cloneTo(copy), Status::kOk);
  return copy;
}

Bytes serializedScalable(const ScalableCuckooFilter& filter) {
  Bytes bytes(filter.serializedSize());
  filter.serialize(bytes.data());
  return bytes;
}

// Keys [first, end) added / deleted.
void addKeys(CuckooFilter& filter, std::uint64_t first, std::uint64_t end) {
  for (std::uint64_t key = first; key < end; ++key) ASSERT_TRUE(insertKey(filter, key)) << key;
}
void deleteKeys(CuckooFilter& filter, std::uint64_t first, std::uint64_t end) {
  for (std::uint64_t key = first; key < end; ++key) ASSERT_TRUE(eraseKey(filter, key)) << key;
}

// A copy of `filter` with keys [deleteFirst, deleteEnd) deleted, then [addFirst, addEnd) added.
CuckooFilter changedCopy(const CuckooFilter& filter, std::uint64_t deleteFirst, std::uint64_t deleteEnd, std::uint64_t addFirst,
                         std::uint64_t addEnd) {
  CuckooFilter copy = copyOf(filter);
  deleteKeys(copy, deleteFirst, deleteEnd);
  addKeys(copy, addFirst, addEnd);
  return copy;
}

struct Shape {
  unsigned f;
  unsigned b;
  std::uint64_t m;
  bool semiSort;
};

class PatchShapes : public ::testing::TestWithParam<Shape> {};
INSTANTIATE_TEST_SUITE_P(
    Shapes, PatchShapes,
    ::testing::Values(Shape{12, 4, 1024, false}, Shape{12, 4, 1000, false}, Shape{13, 4, 1024, true},
                      Shape{13, 4, 1000, true}, Shape{7, 2, 512, false}, Shape{16, 8, 300, false},
                      Shape{32, 8, 64, false}, Shape{20, 4, 500, true}, Shape{8, 1, 4096, false}),
    [](const auto& info) {
      const Shape& s = info.param;
      return "F" + std::to_string(s.f) + "B" + std::to_string(s.b) + "M" + std::to_string(s.m) + (s.semiSort ? "Semi" : "");
    });

CuckooFilter filterOf(const Shape& shape, std::uint64_t seed = 7) {
  return testing::makeFilter(shape.f, shape.b, shape.m, seed, kDefaultMaxKicks, shape.semiSort);
}

TEST_P(PatchShapes, TurnsItsBaseIntoItsResultByteForByte) {
  const Shape shape = GetParam();
  CuckooFilter base = filterOf(shape);
  const std::uint64_t slots = shape.m * shape.b;
  // Two-thirds full (a fifth with one slot per bucket), then a tenth deleted
  // and as many added (with evictions).
  const std::uint64_t loaded = shape.b == 1 ? slots / 5 : slots * 2 / 3;
  addKeys(base, 0, loaded);
  CuckooFilter newer = changedCopy(base, 0, loaded / 10, loaded, loaded + loaded / 10);
  const Bytes patch = diffOf(base, newer);
  EXPECT_LE(patch.size(), newer.serializedSize() + 24);
  ASSERT_EQ(applied(base, patch), Status::kOk);
  EXPECT_EQ(serialized(base), serialized(newer));
}

TEST_P(PatchShapes, CarriesTheStashAndThePrngBothWays) {
  const Shape shape = GetParam();
  CuckooFilter base = filterOf(shape);
  addKeys(base, 0, shape.m * shape.b / (shape.b == 1 ? 6 : 2));
  CuckooFilter full = copyOf(base);
  const std::vector<std::uint64_t> added = testing::fillToFirstFailure(full, 1'000'000);
  ASSERT_TRUE(full.stash().occupied);
  CuckooFilter copy = copyOf(base);
  ASSERT_EQ(applied(copy, diffOf(base, full)), Status::kOk);
  EXPECT_EQ(serialized(copy), serialized(full));
  EXPECT_EQ(copy.prngState(), full.prngState());
  // And back: a delete frees a slot and the stashed fingerprint is placed again.
  CuckooFilter emptied = copyOf(full);
  ASSERT_TRUE(eraseKey(emptied, added.front()));
  ASSERT_EQ(applied(copy, diffOf(full, emptied)), Status::kOk);
  EXPECT_EQ(serialized(copy), serialized(emptied));
}

TEST(Patch, AppliesToItsBaseAloneAndChangesNothingElse) {
  CuckooFilter base = testing::makeFilter(12, 4, 1024);
  addKeys(base, 0, 2000);
  CuckooFilter newer = copyOf(base);
  addKeys(newer, 2000, 2100);
  const Bytes patch = diffOf(base, newer);
  const auto refusedWith = [&patch](CuckooFilter& filter, Status expected) {
    const Bytes before = serialized(filter);
    EXPECT_EQ(applied(filter, patch), expected);
    EXPECT_EQ(serialized(filter), before);
  };
  // Already applied: the filter is in the result state, not the base.
  CuckooFilter twice = copyOf(base);
  ASSERT_EQ(applied(twice, patch), Status::kOk);
  refusedWith(twice, Status::kPatchWrongBase);
  // Another state of the same filter, another seed, another shape.
  CuckooFilter other = copyOf(base);
  ASSERT_TRUE(eraseKey(other, 5));
  refusedWith(other, Status::kPatchWrongBase);
  CuckooFilter seeded = testing::makeFilter(12, 4, 1024, 2);
  addKeys(seeded, 0, 2000);
  refusedWith(seeded, Status::kPatchWrongBase);
  CuckooFilter wider = testing::makeFilter(13, 4, 1024);
  refusedWith(wider, Status::kPatchWrongBase);
  // A growable filter takes no patch of a CuckooFilter.
  ScalableCuckooFilter growable = testing::createdFilter<ScalableCuckooFilter>(ScalableParams{});
  EXPECT_EQ(applyPatch(growable, patch.data(), patch.size()), Status::kPatchWrongBase);
}

TEST(Patch, PatchesCompose) {
  CuckooFilter v1 = testing::makeFilter(13, 4, 1000, 3, kDefaultMaxKicks, true);
  addKeys(v1, 0, 3000);
  CuckooFilter v2 = changedCopy(v1, 0, 300, 3000, 3300);
  CuckooFilter v3 = changedCopy(v2, 300, 600, 3300, 3500);
  CuckooFilter page = copyOf(v1);
  ASSERT_EQ(applied(page, diffOf(v1, v2)), Status::kOk);
  ASSERT_EQ(applied(page, diffOf(v2, v3)), Status::kOk);
  EXPECT_EQ(serialized(page), serialized(v3));
  // Out of order, the second is refused.
  CuckooFilter skipped = copyOf(v1);
  EXPECT_EQ(applied(skipped, diffOf(v2, v3)), Status::kPatchWrongBase);
}

TEST(Patch, SameStateGivesAnEmptyPatchThatNamesOneStateTwice) {
  CuckooFilter filter = testing::makeFilter(12, 4, 1000);
  addKeys(filter, 0, 1000);
  const Bytes patch = diffOf(filter, filter);
  EXPECT_EQ(patch.size(), 24U + 64 + 16 + 8);
  PatchSummary summary;
  ASSERT_EQ(describePatch(patch.data(), patch.size(), summary), Status::kOk);
  EXPECT_EQ(summary.baseChecksum, summary.resultChecksum);
  EXPECT_EQ(summary.baseChecksum, stateChecksum(filter));
  EXPECT_EQ(summary.changedSlots, 0U);
  EXPECT_FALSE(summary.wholeTable);
  EXPECT_EQ(summary.filterFormat, 2);
  CuckooFilter copy = copyOf(filter);
  EXPECT_EQ(applied(copy, patch), Status::kOk);
}

TEST(Patch, TheStateChecksumIsTheOneTheBytesEndWith) {
  CuckooFilter filter = testing::makeFilter(13, 4, 1024, 9, kDefaultMaxKicks, true);
  addKeys(filter, 0, 3000);
  const Bytes bytes = serialized(filter);
  EXPECT_EQ(stateChecksum(filter), testing::readField(bytes, bytes.size() - 8, 8));
  ScalableCuckooFilter growable = testing::createdFilter<ScalableCuckooFilter>(ScalableParams{});
  for (std::uint64_t key = 0; key < 5000; ++key) ASSERT_TRUE(growable.insert(&key, sizeof key));
  const Bytes grownBytes = serializedScalable(growable);
  EXPECT_EQ(stateChecksum(growable), testing::readField(grownBytes, grownBytes.size() - 8, 8));
}

TEST(Patch, IsNeverLongerThanTheTableAndAHeader) {
  CuckooFilter empty = testing::makeFilter(12, 4, 1000);
  CuckooFilter full = copyOf(empty);
  testing::fillToFirstFailure(full, 0);
  const Bytes patch = diffOf(empty, full);
  PatchSummary summary;
  ASSERT_EQ(describePatch(patch.data(), patch.size(), summary), Status::kOk);
  EXPECT_TRUE(summary.wholeTable);
  EXPECT_EQ(patch.size(), full.serializedSize() + 24);
  ASSERT_EQ(applied(empty, patch), Status::kOk);
  EXPECT_EQ(serialized(empty), serialized(full));
}

TEST(Patch, DiffRefusesFiltersThatAreNotStatesOfOneFilter) {
  CuckooFilter a = testing::makeFilter(12, 4, 1024, 1);
  PatchBytes patch;
  EXPECT_EQ(diff(a, testing::makeFilter(12, 4, 1024, 2), patch), Status::kPatchFiltersDiffer);
  EXPECT_EQ(diff(a, testing::makeFilter(12, 4, 1024, 1, 10), patch), Status::kPatchFiltersDiffer);
  EXPECT_EQ(diff(a, testing::makeFilter(12, 4, 512, 1), patch), Status::kPatchFiltersDiffer);
  EXPECT_EQ(patch.size(), 0U);
}

// The target of the issue, at a size a unit test affords: bytes per changed
// slot at most (f + log2(S / C) + 3) / 8 for C changed slots of S.
TEST(Patch, StaysNearTheEntropyOfItsChanges) {
  FilterParams params;
  ASSERT_EQ(paramsForCapacity(100'000, 0.001, params), Status::kOk);
  params.seed = 11;
  for (const double churn : {0.001, 0.01, 0.1}) {
    CuckooFilter base = testing::createdFilter<CuckooFilter>(params);
    addKeys(base, 0, 100'000);
    const auto changed = static_cast<std::uint64_t>(100'000 * churn);
    CuckooFilter newer = changedCopy(base, 0, changed, 100'000, 100'000 + changed);
    const Bytes patch = diffOf(base, newer);
    PatchSummary summary;
    ASSERT_EQ(describePatch(patch.data(), patch.size(), summary), Status::kOk);
    const double slots = static_cast<double>(params.bucketCount * params.bucketSize);
    const double bound = (params.fingerprintBits + std::log2(slots / summary.changedSlots) + 3) / 8;
    EXPECT_LE(static_cast<double>(patch.size()) / summary.changedSlots, bound) << "churn " << churn;
    ASSERT_EQ(applied(base, patch), Status::kOk);
    EXPECT_EQ(serialized(base), serialized(newer));
  }
}

TEST(ScalablePatch, TurnsItsBaseIntoItsResultWhileTheTableKeepsItsSize) {
  for (const bool semiSort : {false, true}) {
    ScalableParams params;
    params.initialCapacity = 1000;
    params.semiSort = semiSort;
    params.seed = 5;
    ScalableCuckooFilter base = testing::createdFilter<ScalableCuckooFilter>(params);
    for (std::uint64_t key = 0; key < 3000; ++key) ASSERT_TRUE(base.insert(&key, sizeof key));
    ScalableCuckooFilter newer = copyOf(base);
    for (std::uint64_t key = 0; key < 300; ++key) ASSERT_TRUE(newer.erase(&key, sizeof key));
    for (std::uint64_t key = 3000; key < 3200; ++key) ASSERT_TRUE(newer.insert(&key, sizeof key));
    ASSERT_EQ(newer.shape().bucketCount(), base.shape().bucketCount());
    const Bytes patch = diffOf(base, newer);
    ScalableCuckooFilter copy = copyOf(base);
    ASSERT_EQ(applied(copy, patch), Status::kOk);
    EXPECT_EQ(serializedScalable(copy), serializedScalable(newer));
    // Applied again, to the result: refused, nothing changed.
    EXPECT_EQ(applied(copy, patch), Status::kPatchWrongBase);
    EXPECT_EQ(serializedScalable(copy), serializedScalable(newer));
    // A CuckooFilter takes no patch of a growable filter.
    CuckooFilter plain = testing::makeFilter(12, 4, 1024);
    EXPECT_EQ(applied(plain, patch), Status::kPatchWrongBase);
  }
}

TEST(ScalablePatch, RefusesAFilterThatGrew) {
  ScalableParams params;
  params.initialCapacity = 100;
  ScalableCuckooFilter base = testing::createdFilter<ScalableCuckooFilter>(params);
  ScalableCuckooFilter grown = copyOf(base);
  for (std::uint64_t key = 0; key < 1000; ++key) ASSERT_TRUE(grown.insert(&key, sizeof key));
  PatchBytes patch;
  EXPECT_EQ(diff(base, grown, patch), Status::kPatchShapeChanged);
  params.seed = 1;
  EXPECT_EQ(diff(base, testing::createdFilter<ScalableCuckooFilter>(params), patch), Status::kPatchFiltersDiffer);
}

// Bucket contents as a table kept elsewhere reports them (cuckoo-wasm/redis).
TEST(ReplaceBuckets, BringsAFilterToTheReportedState) {
  CuckooFilter filter = testing::makeFilter(13, 4, 1000, 4, kDefaultMaxKicks, true);
  addKeys(filter, 0, 2500);
  CuckooFilter newer = changedCopy(filter, 0, 100, 2500, 2700);
  std::vector<std::uint32_t> buckets;
  Bytes contents;
  const std::uint64_t bucketBits = 4 * 13 - 4;
  const std::size_t stride = (bucketBits + 7) / 8;
  for (std::uint32_t bucket = 0; bucket < 1000; ++bucket) {
    Bytes bits(stride, 0);
    bool changed = false;
    for (std::uint64_t bit = 0; bit < bucketBits; ++bit) {
      const std::uint64_t at = bucket * bucketBits + bit;
      const unsigned value = (newer.tableData()[at / 8] >> (at % 8)) & 1;
      changed = changed || value != ((filter.tableData()[at / 8] >> (at % 8)) & 1U);
      bits[bit / 8] |= static_cast<unsigned char>(value << (bit % 8));
    }
    if (!changed) continue;
    buckets.push_back(bucket);
    contents.insert(contents.end(), bits.begin(), bits.end());
  }
  const auto replace = [&](CuckooFilter& target, std::uint64_t count) {
    return replaceBuckets(target, buckets.data(), buckets.size(), contents.data(), stride, newer.stash(), count,
                          newer.prngState());
  };
  const Bytes before = serialized(filter);
  // A wrong item count, a bucket listed twice, a bucket out of range, a rank out of range: refused, nothing changed.
  EXPECT_EQ(replace(filter, newer.itemCount() + 1), Status::kFormatInconsistent);
  buckets.push_back(buckets.front());
  contents.insert(contents.end(), contents.begin(), contents.begin() + static_cast<std::ptrdiff_t>(stride));
  EXPECT_EQ(replace(filter, newer.itemCount()), Status::kFormatInconsistent);
  buckets.back() = 1000;
  EXPECT_EQ(replace(filter, newer.itemCount()), Status::kFormatInconsistent);
  buckets.pop_back();
  contents.resize(contents.size() - stride);
  Bytes damaged = contents;
  damaged[0] = 0xff;
  damaged[1] |= 0x0f;  // rank 4095
  EXPECT_EQ(replaceBuckets(filter, buckets.data(), buckets.size(), damaged.data(), stride, newer.stash(),
                           newer.itemCount(), newer.prngState()),
            Status::kFormatInconsistent);
  EXPECT_EQ(serialized(filter), before);
  ASSERT_EQ(replace(filter, newer.itemCount()), Status::kOk);
  EXPECT_EQ(serialized(filter), serialized(newer));
}

TEST(RestoreFilter, KeepsThePrngState) {
  CuckooFilter filter = testing::makeFilter(12, 4, 1024);
  testing::fillToFirstFailure(filter, 0);
  CuckooFilter restored;
  ASSERT_EQ(restoreFilter(filter.params(), filter.tableData(), filter.payloadByteLength(), filter.stash(),
                          filter.itemCount(), filter.prngState(), restored),
            Status::kOk);
  EXPECT_EQ(serialized(restored), serialized(filter));
}

}  // namespace
}  // namespace cuckoo
