// Damaged and hostile patches (patch.hpp): every truncation, every flipped
// byte and every byte changed behind a recomputed checksum is refused with a
// status and leaves the filter as it was, or (for the last) makes a valid
// filter in the state the patch names.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "byte_format.hpp"
#include "cuckoo/patch.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

using testing::Bytes;

Bytes serializedOf(const CuckooFilter& filter) { return testing::serialized(filter); }
Bytes serializedOf(const ScalableCuckooFilter& filter) {
  Bytes bytes(filter.serializedSize());
  filter.serialize(bytes.data());
  return bytes;
}
Status loaded(const Bytes& bytes, CuckooFilter& out) { return CuckooFilter::deserialize(bytes.data(), bytes.size(), out); }
Status loaded(const Bytes& bytes, ScalableCuckooFilter& out) {
  return ScalableCuckooFilter::deserialize(bytes.data(), bytes.size(), out);
}

// A base, and patches from it: a few changes, and a table sent whole.
template <class Filter>
struct Case {
  Filter base;
  std::vector<Bytes> patches;
};

Case<CuckooFilter> plainCase(bool semiSort) {
  Case<CuckooFilter> c{testing::makeFilter(13, 4, 200, 3, kDefaultMaxKicks, semiSort), {}};
  for (std::uint64_t key = 0; key < 500; ++key) testing::insertKey(c.base, key);
  CuckooFilter few;
  CuckooFilter full;
  EXPECT_EQ(c.base.cloneTo(few), Status::kOk);
  EXPECT_EQ(c.base.cloneTo(full), Status::kOk);
  for (std::uint64_t key = 0; key < 20; ++key) testing::eraseKey(few, key);
  for (std::uint64_t key = 500; key < 530; ++key) testing::insertKey(few, key);
  full.clear();
  testing::fillToFirstFailure(full, 10'000);
  for (const CuckooFilter* newer : {&few, &full}) {
    PatchBytes patch;
    EXPECT_EQ(diff(c.base, *newer, patch), Status::kOk);
    c.patches.emplace_back(patch.data(), patch.data() + patch.size());
  }
  return c;
}

Case<ScalableCuckooFilter> growableCase() {
  ScalableParams params;
  params.initialCapacity = 200;
  Case<ScalableCuckooFilter> c{testing::createdFilter<ScalableCuckooFilter>(params), {}};
  for (std::uint64_t key = 0; key < 150; ++key) c.base.insert(&key, sizeof key);
  ScalableCuckooFilter newer;
  EXPECT_EQ(c.base.cloneTo(newer), Status::kOk);
  for (std::uint64_t key = 0; key < 10; ++key) newer.erase(&key, sizeof key);
  for (std::uint64_t key = 150; key < 160; ++key) newer.insert(&key, sizeof key);
  PatchBytes patch;
  EXPECT_EQ(diff(c.base, newer, patch), Status::kOk);
  c.patches.emplace_back(patch.data(), patch.data() + patch.size());
  return c;
}

// Applies `patch` to a copy of `base`: refused and unchanged, or accepted in a
// valid state whose checksum is the one the patch names as its result.
template <class Filter>
void expectRefusedOrValid(const Filter& base, const Bytes& patch, bool mayBeAccepted) {
  Filter copy;
  ASSERT_EQ(base.cloneTo(copy), Status::kOk);
  const Bytes before = serializedOf(copy);
  const Status status = applyPatch(copy, patch.data(), patch.size());
  if (status != Status::kOk) {
    ASSERT_EQ(serializedOf(copy), before) << "refused with status " << static_cast<int>(status) << " but changed";
    return;
  }
  ASSERT_TRUE(mayBeAccepted);
  PatchSummary summary;
  ASSERT_EQ(describePatch(patch.data(), patch.size(), summary), Status::kOk);
  EXPECT_EQ(stateChecksum(copy), summary.resultChecksum);
  Filter reloaded;
  ASSERT_EQ(loaded(serializedOf(copy), reloaded), Status::kOk);
}

template <class Filter>
void damageEveryWay(const Case<Filter>& c) {
  for (const Bytes& patch : c.patches) {
    for (std::size_t length = 0; length < patch.size(); ++length) {
      expectRefusedOrValid(c.base, Bytes(patch.begin(), patch.begin() + static_cast<std::ptrdiff_t>(length)), false);
    }
    Bytes longer = patch;
    longer.push_back(0);
    expectRefusedOrValid(c.base, longer, false);
    for (std::size_t at = 0; at < patch.size(); ++at) {
      Bytes flipped = patch;
      flipped[at] ^= static_cast<unsigned char>(1U << (at % 8));
      expectRefusedOrValid(c.base, flipped, false);
      // Behind a checksum made to match: only the checks after it stand guard.
      testing::reseal(flipped);
      expectRefusedOrValid(c.base, flipped, true);
      flipped[at] = static_cast<unsigned char>(0xff - patch[at]);
      testing::reseal(flipped);
      expectRefusedOrValid(c.base, flipped, true);
    }
  }
}

TEST(DamagedPatch, IsRefusedAndChangesNothing) {
  damageEveryWay(plainCase(false));
  damageEveryWay(plainCase(true));
  damageEveryWay(growableCase());
}

}  // namespace
}  // namespace cuckoo
