// The Bloom filters' batches (insertMany, containsMany): a batch must act as
// the single-item calls on its items in order, in both layouts of ItemBatch
// (fixed width, packed), on both filters. Each test drives two filters of the
// same parameters, one by batches and one item by item, and compares every
// answer, the item count and every bit.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/bloom_filter.hpp"
#include "cuckoo/item_batch.hpp"
#include "test_support.hpp"

namespace cuckoo {
namespace {

using testing::makeBloom;

// `count` keys from `first` as 8-byte little-endian items, the layout of the
// TypeScript layer's numbers.
std::vector<unsigned char> eightByteItems(std::uint64_t first, std::size_t count) {
  std::vector<unsigned char> bytes(count * 8);
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint64_t key = first + k;
    std::memcpy(bytes.data() + k * 8, &key, 8);
  }
  return bytes;
}

// Packed items of lengths 0, 1, 2, ... (cycling at 40, which reaches every
// XXH3 path up to 17-128 bytes), byte i of item k being k + i * 7.
struct PackedBatch {
  std::vector<unsigned char> data;
  std::vector<std::uint32_t> offsets{0};

  PackedBatch(std::uint64_t first, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t length = k % 40;
      for (std::size_t i = 0; i < length; ++i) data.push_back(static_cast<unsigned char>(first + k + i * 7));
      offsets.push_back(static_cast<std::uint32_t>(data.size()));
    }
  }
  ItemBatch batch() const { return ItemBatch::packed(data.data(), offsets.data(), offsets.size() - 1); }
};

template <class Filter>
std::size_t insertOneByOne(Filter& filter, const ItemBatch& items) {
  std::size_t setNewBits = 0;
  for (std::size_t k = 0; k < items.count; ++k) setNewBits += filter.insert(items.item(k), items.length(k)) ? 1 : 0;
  return setNewBits;
}

template <class Filter>
std::vector<unsigned char> answersOneByOne(const Filter& filter, const ItemBatch& items) {
  std::vector<unsigned char> answers(items.count);
  for (std::size_t k = 0; k < items.count; ++k) answers[k] = filter.contains(items.item(k), items.length(k)) ? 1 : 0;
  return answers;
}

template <class Filter>
std::vector<unsigned char> answersInOneBatch(const Filter& filter, const ItemBatch& items) {
  std::vector<unsigned char> answers(items.count, 0xAA);
  filter.containsMany(items, answers.data());
  return answers;
}

template <class Filter>
void expectSameBits(const Filter& batched, const Filter& single) {
  ASSERT_EQ(batched.sizeInBytes(), single.sizeInBytes());
  EXPECT_EQ(std::memcmp(batched.words(), single.words(), batched.sizeInBytes()), 0) << "the bit arrays differ";
  EXPECT_EQ(batched.itemCount(), single.itemCount());
}

template <class Filter>
class BloomBatches : public ::testing::Test {};
using BloomTypes = ::testing::Types<StandardBloomFilter, BlockedBloomFilter>;
TYPED_TEST_SUITE(BloomBatches, BloomTypes);

// A filter small enough that later items often find all their bits set:
// insertMany's count and containsMany's answers then hold both values.
TYPED_TEST(BloomBatches, FixedWidthBatchesActAsTheSingleCalls) {
  auto batched = makeBloom<TypeParam>(4096, 5, 21);
  auto single = makeBloom<TypeParam>(4096, 5, 21);
  std::size_t newBitSetters = 0;
  for (std::uint64_t round = 0; round < 6; ++round) {
    // Overlapping rounds, so that some items repeat across batches.
    const std::vector<unsigned char> items = eightByteItems(round * 300, 500);
    const ItemBatch batch = ItemBatch::fixed(items.data(), 8, 500);
    const std::size_t added = batched.insertMany(batch);
    ASSERT_EQ(added, insertOneByOne(single, batch)) << "round " << round;
    newBitSetters += added;
    ASSERT_NO_FATAL_FAILURE(expectSameBits(batched, single));
  }
  EXPECT_GT(newBitSetters, 0U);
  EXPECT_LT(newBitSetters, 6U * 500) << "no insert found its bits already set: the count was not tested";

  const std::vector<unsigned char> probes = eightByteItems(std::uint64_t{1} << 40, 2000);
  const ItemBatch probeBatch = ItemBatch::fixed(probes.data(), 8, 2000);
  const std::vector<unsigned char> answers = answersInOneBatch(batched, probeBatch);
  EXPECT_EQ(answers, answersOneByOne(single, probeBatch));
  const auto yes = std::count(answers.begin(), answers.end(), 1);
  EXPECT_GT(yes, 0) << "no false positive among the probes: the 1s were not tested";
  EXPECT_LT(yes, 2000) << "every probe answered 1: the 0s were not tested";
}

TYPED_TEST(BloomBatches, OtherWidthsAndPackedItemsOfEveryLengthActAsTheSingleCalls) {
  auto batched = makeBloom<TypeParam>(1 << 15, 7, 5);
  auto single = makeBloom<TypeParam>(1 << 15, 7, 5);

  std::vector<unsigned char> wide(300 * 12);
  for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = static_cast<unsigned char>(i * 31 + i / 12);
  const ItemBatch wideBatch = ItemBatch::fixed(wide.data(), 12, 300);
  EXPECT_EQ(batched.insertMany(wideBatch), insertOneByOne(single, wideBatch));

  const PackedBatch packed(3, 400);
  EXPECT_EQ(batched.insertMany(packed.batch()), insertOneByOne(single, packed.batch()));
  ASSERT_NO_FATAL_FAILURE(expectSameBits(batched, single));

  const std::vector<unsigned char> wideAnswers = answersInOneBatch(batched, wideBatch);
  EXPECT_EQ(wideAnswers, std::vector<unsigned char>(300, 1)) << "an inserted item is missing";
  const PackedBatch unseen(200, 400);
  EXPECT_EQ(answersInOneBatch(batched, unseen.batch()), answersOneByOne(single, unseen.batch()));
  EXPECT_EQ(answersInOneBatch(batched, packed.batch()), std::vector<unsigned char>(400, 1));
}

// The empty item and an item repeated within one batch: the repeat finds its
// bits set by the first copy, as the single calls would.
TYPED_TEST(BloomBatches, RepeatsWithinABatchCountOnceAndEveryCallCountsAnItem) {
  auto filter = makeBloom<TypeParam>(1 << 16, 7, 9);
  const unsigned char data[] = {'a', 'b', 'c'};
  const std::uint32_t offsets[] = {0, 0, 3, 3, 3};  // "", "abc", "", ""
  EXPECT_EQ(filter.insertMany(ItemBatch::packed(data, offsets, 4)), 2U);
  EXPECT_EQ(filter.itemCount(), 4U);
  EXPECT_TRUE(filter.contains(data, 0));
  EXPECT_TRUE(filter.contains(data, 3));
}

TYPED_TEST(BloomBatches, AnEmptyBatchChangesAndWritesNothing) {
  auto filter = makeBloom<TypeParam>(1024, 3, 1);
  const unsigned char unused = 0;
  EXPECT_EQ(filter.insertMany(ItemBatch::fixed(&unused, 8, 0)), 0U);
  EXPECT_EQ(filter.itemCount(), 0U);
  unsigned char answer = 0xAA;
  filter.containsMany(ItemBatch::fixed(&unused, 8, 0), &answer);
  EXPECT_EQ(answer, 0xAA);
  const std::vector<std::uint64_t> zeros(filter.sizeInBytes() / 8, 0);
  EXPECT_EQ(std::memcmp(filter.words(), zeros.data(), filter.sizeInBytes()), 0);
}

}  // namespace
}  // namespace cuckoo
