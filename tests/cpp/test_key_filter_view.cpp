// The typed entry (cuckoo/key_filter_view.hpp): it serves exactly the filters
// it is compiled for, and is the same filter as the filter's own calls: the
// same answers and the same bytes through fills, the stash and deletes.

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/key_filter_view.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

FilterParams keyParams(unsigned bits, bool semiSort, std::uint64_t bucketCount, KeyHash form = KeyHash::kSeededMix) {
  FilterParams params;
  params.fingerprintBits = bits;
  params.semiSort = semiSort;
  params.bucketCount = bucketCount;
  params.seed = 0xfeed + bits;
  params.multiplyShiftHash = true;
  params.keyHash = form;
  return params;
}

TEST(KeyFilterView, ServesOnlyTheFiltersItIsCompiledFor) {
  CuckooFilter fits = testing::createdFilter<CuckooFilter>(keyParams(12, false, 1024));
  EXPECT_TRUE(KeyFilterView<12>::of(fits).has_value());
  EXPECT_FALSE((KeyFilterView<12, true>::of(fits).has_value()));
  EXPECT_FALSE(KeyFilterView<16>::of(fits).has_value());
  FilterParams xxh3 = keyParams(12, false, 1024);
  xxh3.multiplyShiftHash = false;
  FilterParams anyCount = keyParams(12, false, 1000);
  FilterParams twoSlots = keyParams(12, false, 1024);
  twoSlots.bucketSize = 2;
  for (const FilterParams& other : {xxh3, anyCount, twoSlots}) {
    CuckooFilter filter = testing::createdFilter<CuckooFilter>(other);
    EXPECT_FALSE(KeyFilterView<12>::fits(filter)) << "hash id " << int{filter.hashId()} << ", b=" << other.bucketSize;
  }
  CuckooFilter semiSorted = testing::createdFilter<CuckooFilter>(keyParams(13, true, 1024));
  EXPECT_TRUE((KeyFilterView<13, true>::of(semiSorted).has_value()));
  EXPECT_FALSE(KeyFilterView<13>::of(semiSorted).has_value());
  ASSERT_EQ(fits.hashId(), kHashIdMix64V1);
  // Hash ids 6 to 9 (loaded from format versions 5 and 6) have views of their own.
  CuckooFilter unmixed = testing::createdFilter<CuckooFilter>(keyParams(12, false, 1024, KeyHash::kMultiplyShift));
  CuckooFilter mixed = testing::createdFilter<CuckooFilter>(keyParams(12, false, 1024, KeyHash::kMixedMultiplyShift));
  ASSERT_EQ(unmixed.hashId(), kHashIdMulShiftV1);
  ASSERT_EQ(mixed.hashId(), kHashIdMulShiftMixedV1);
  EXPECT_TRUE((KeyFilterView<12, false, KeyHash::kMultiplyShift>::of(unmixed).has_value()));
  EXPECT_TRUE((KeyFilterView<12, false, KeyHash::kMixedMultiplyShift>::of(mixed).has_value()));
  EXPECT_FALSE(KeyFilterView<12>::of(unmixed).has_value());
  EXPECT_FALSE(KeyFilterView<12>::of(mixed).has_value());
  EXPECT_FALSE((KeyFilterView<12, false, KeyHash::kMultiplyShift>::of(mixed).has_value()));
  EXPECT_FALSE((KeyFilterView<12, false, KeyHash::kMixedMultiplyShift>::of(fits).has_value()));
}

// One filter through the view, its twin through its own calls (its kernel),
// each call on both compared, and the bytes compared along the way.
template <unsigned Bits, bool SemiSorted, KeyHash Form = KeyHash::kSeededMix>
void expectTheSameFilter(std::uint64_t bucketCount) {
  const std::string where = std::string(SemiSorted ? "semi-sorted" : "plain") + " f=" + std::to_string(Bits) +
                            " m=" + std::to_string(bucketCount) + ", key hash " + std::to_string(static_cast<int>(Form));
  CuckooFilter viewed = testing::createdFilter<CuckooFilter>(keyParams(Bits, SemiSorted, bucketCount, Form));
  CuckooFilter own = testing::createdFilter<CuckooFilter>(keyParams(Bits, SemiSorted, bucketCount, Form));
  auto view = KeyFilterView<Bits, SemiSorted, Form>::of(viewed);
  ASSERT_TRUE(view.has_value()) << where;
  std::vector<std::uint64_t> stored;
  for (std::uint64_t i = 0; !own.stash().occupied; ++i) {
    const std::uint64_t key = i * 0x9E3779B97F4A7C15ULL + 1;
    ASSERT_EQ(view->insert(key), own.insert(key)) << where << ", insert " << i;
    stored.push_back(key);
  }
  // Past the first failure: both refuse alike.
  for (std::uint64_t i = 0; i < 50; ++i) ASSERT_EQ(view->insert(~i), own.insert(~i)) << where;
  EXPECT_EQ(testing::bytesOf(viewed), testing::bytesOf(own)) << where << " when full";
  EXPECT_EQ(viewed.isFull(), own.isFull()) << where;
  for (const std::uint64_t key : stored) ASSERT_TRUE(view->contains(key)) << where;
  unsigned agree = 0;
  for (std::uint64_t i = 0; i < 20000; ++i) agree += view->contains(i << 20) == own.contains(i << 20) ? 1 : 0;
  EXPECT_EQ(agree, 20000U) << where << ": absent keys";
  // Deletes, the first while the stash is occupied (which places it again),
  // mixed with absent keys, and the view and the filter's own calls in turn.
  for (std::size_t k = 0; k < stored.size(); k += 2) {
    ASSERT_EQ(view->erase(stored[k]), own.erase(stored[k])) << where;
    ASSERT_EQ(view->erase(stored[k] ^ 0xdead0000), own.erase(stored[k] ^ 0xdead0000)) << where;
    if (k % 6 == 0 && k + 1 < stored.size()) {
      ASSERT_EQ(viewed.contains(stored[k + 1]), own.contains(stored[k + 1])) << where;
    }
  }
  EXPECT_EQ(testing::bytesOf(viewed), testing::bytesOf(own)) << where << " after the deletes";
  EXPECT_EQ(viewed.itemCount(), own.itemCount()) << where;
}

TEST(KeyFilterView, IsTheSameFilterAsItsOwnCalls) {
  expectTheSameFilter<12, false>(1024);
  expectTheSameFilter<12, false>(2);
  expectTheSameFilter<8, false>(512);
  expectTheSameFilter<16, false>(256);
  expectTheSameFilter<13, true>(1024);
  expectTheSameFilter<13, true>(1);
  expectTheSameFilter<12, false, KeyHash::kMultiplyShift>(1024);
  expectTheSameFilter<13, true, KeyHash::kMultiplyShift>(1024);
  expectTheSameFilter<12, false, KeyHash::kMixedMultiplyShift>(1024);
  expectTheSameFilter<13, true, KeyHash::kMixedMultiplyShift>(1024);
}

}  // namespace
}  // namespace cuckoo
