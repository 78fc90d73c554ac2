// The bucket views the filter's kernels work through (cpp/src/buckets.hpp):
// the generic view against a slot-by-slot scan for every shape, every
// specialised view against the generic one on the same bytes, and the
// lowest-slot rule of the mutations.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/detail/buckets.hpp"
#include "cuckoo/packed_table.hpp"
#include "cuckoo/prng.hpp"
#include "cuckoo/semi_sorted_table.hpp"

namespace cuckoo {
namespace {

using detail::PackedBuckets;
using detail::SemiSortedBuckets;

constexpr std::uint64_t kBuckets = 19;

// A table of `bits`-bit entries, `slots` per bucket, filled from a tiny
// alphabet (0 = empty, 1, 2, the largest value), so that matches are common.
PackedTable tinyAlphabetTable(unsigned bits, unsigned slots, std::uint32_t (&alphabet)[4]) {
  PackedTable table;
  EXPECT_EQ(PackedTable::allocate(bits, slots, kBuckets, table), Status::kOk);
  SplitMix64 rng(bits * 31 + slots);
  alphabet[0] = 0;
  alphabet[1] = 1;
  alphabet[2] = 2;
  alphabet[3] = static_cast<std::uint32_t>((std::uint64_t{1} << bits) - 1);
  for (std::uint32_t b = 0; b < kBuckets; ++b) {
    for (unsigned s = 0; s < slots; ++s) table.write(b, s, alphabet[rng.next() % 4]);
  }
  return table;
}

template <class View>
void expectMatchesAScan(const View& view, const PackedTable& table, const std::uint32_t (&alphabet)[4]) {
  for (std::uint32_t b = 0; b < kBuckets; ++b) {
    for (const std::uint32_t probe : alphabet) {
      std::uint32_t expected = 0;
      for (unsigned s = 0; s < table.bucketSize(); ++s) expected |= (table.read(b, s) == probe ? 1U : 0U) << s;
      ASSERT_EQ(view.matching(view.probe(b), probe), expected) << "f=" << table.fingerprintBits() << " b=" << table.bucketSize();
      ASSERT_EQ(view.holds(view.probe(b), probe), expected != 0);
      for (unsigned s = 0; s < table.bucketSize(); ++s) ASSERT_EQ(view.read(b, s), table.read(b, s));
    }
  }
}

TEST(PackedBuckets, TheGenericViewAgreesWithASlotBySlotScanAtEveryShape) {
  // Every bucket size with widths on both sides of the one-load limit.
  for (const unsigned slots : {1U, 2U, 4U, 8U}) {
    for (unsigned bits = 2; bits <= 32; ++bits) {
      std::uint32_t alphabet[4];
      PackedTable table = tinyAlphabetTable(bits, slots, alphabet);
      expectMatchesAScan(PackedBuckets<0, 0>(table.data(), table.shape()), table, alphabet);
    }
  }
}

TEST(PackedBuckets, SpecialisedViewsAgreeWithTheScanOnTheSameBytes) {
  for (unsigned bits = 2; bits <= 32; ++bits) {
    std::uint32_t alphabet[4];
    PackedTable four = tinyAlphabetTable(bits, 4, alphabet);
    expectMatchesAScan(PackedBuckets<4, 0>(four.data(), four.shape()), four, alphabet);
    PackedTable two = tinyAlphabetTable(bits, 2, alphabet);
    expectMatchesAScan(PackedBuckets<2, 0>(two.data(), two.shape()), two, alphabet);
  }
  for (const unsigned bits : {8U, 12U, 16U}) {
    std::uint32_t alphabet[4];
    PackedTable table = tinyAlphabetTable(bits, 4, alphabet);
    if (bits == 8) expectMatchesAScan(PackedBuckets<4, 8>(table.data(), table.shape()), table, alphabet);
    if (bits == 12) expectMatchesAScan(PackedBuckets<4, 12>(table.data(), table.shape()), table, alphabet);
    if (bits == 16) expectMatchesAScan(PackedBuckets<4, 16>(table.data(), table.shape()), table, alphabet);
  }
}

template <class View>
void expectTheLowestSlotRule(View view, const PackedTable& table) {
  EXPECT_TRUE(view.insertIntoEmptySlot(3, 0xABC));
  EXPECT_TRUE(view.insertIntoEmptySlot(3, 0x123));
  EXPECT_EQ(table.read(3, 0), 0xABCU);
  EXPECT_EQ(table.read(3, 1), 0x123U);
  EXPECT_TRUE(view.removeOne(3, 0xABC));
  EXPECT_FALSE(view.removeOne(3, 0xABC));
  EXPECT_EQ(table.read(3, 0), 0U);
  EXPECT_TRUE(view.insertIntoEmptySlot(3, 0x777));
  EXPECT_EQ(table.read(3, 0), 0x777U) << "the freed lowest slot is reused";
  EXPECT_TRUE(view.insertIntoEmptySlot(3, 1));
  EXPECT_TRUE(view.insertIntoEmptySlot(3, 2));
  EXPECT_FALSE(view.insertIntoEmptySlot(3, 3)) << "bucket full";
  EXPECT_EQ(view.exchange(3, 2, 0xFFF), 1U);
  EXPECT_EQ(table.read(3, 2), 0xFFFU);
  // Neighbouring buckets are untouched.
  for (unsigned s = 0; s < 4; ++s) {
    EXPECT_EQ(table.read(2, s), 0U);
    EXPECT_EQ(table.read(4, s), 0U);
  }
}

TEST(PackedBuckets, InsertRemoveAndExchangeUseTheLowestSlotInEveryView) {
  for (int view = 0; view < 3; ++view) {
    PackedTable table;
    ASSERT_EQ(PackedTable::allocate(12, 4, 8, table), Status::kOk);
    if (view == 0) expectTheLowestSlotRule(PackedBuckets<0, 0>(table.data(), table.shape()), table);
    if (view == 1) expectTheLowestSlotRule(PackedBuckets<4, 0>(table.data(), table.shape()), table);
    if (view == 2) expectTheLowestSlotRule(PackedBuckets<4, 12>(table.data(), table.shape()), table);
  }
}

TEST(SemiSortedBuckets, SpecialisedViewsDecodeAndWriteAsTheGenericOne) {
  for (const unsigned bits : {13U, 16U}) {
    SemiSortedTable generic;
    SemiSortedTable special;
    ASSERT_EQ(SemiSortedTable::allocate(bits, kBuckets, generic), Status::kOk);
    ASSERT_EQ(SemiSortedTable::allocate(bits, kBuckets, special), Status::kOk);
    SemiSortedBuckets<0> g(generic.data(), bits);
    SplitMix64 rng(bits);
    const auto run = [&](auto s) {
      for (int step = 0; step < 2000; ++step) {
        const auto bucket = static_cast<std::uint32_t>(rng.next() % kBuckets);
        const auto fp = static_cast<std::uint32_t>(1 + rng.next() % ((std::uint64_t{1} << bits) - 1));
        switch (rng.next() % 3) {
          case 0: ASSERT_EQ(g.insertIntoEmptySlot(bucket, fp), s.insertIntoEmptySlot(bucket, fp)); break;
          case 1: {
            const auto slot = static_cast<unsigned>(rng.next() % 4);
            ASSERT_EQ(g.exchange(bucket, slot, fp), s.exchange(bucket, slot, fp));
            break;
          }
          default: {
            const std::uint32_t resident = g.read(bucket, rng.next() % 4);
            ASSERT_EQ(g.removeOne(bucket, resident), s.removeOne(bucket, resident));
          }
        }
        ASSERT_EQ(g.matching(g.probe(bucket), fp), s.matching(s.probe(bucket), fp));
      }
    };
    if (bits == 13) run(SemiSortedBuckets<13>(special.data(), bits));
    if (bits == 16) run(SemiSortedBuckets<16>(special.data(), bits));
    for (std::uint64_t i = 0; i < generic.byteLength(); ++i) ASSERT_EQ(generic.data()[i], special.data()[i]) << i;
  }
}

// holds() against a slot-by-slot scan, on probes made to match one slot's top
// nibble and another slot's low bits (the case a single-multiply test could
// get wrong), at widths whose flags align by one multiplication and at
// widths that take the gathered slot set instead.
template <unsigned F>
void expectHoldsAgreesWithAScan() {
  SemiSortedTable table;
  ASSERT_EQ(SemiSortedTable::allocate(F, kBuckets, table), Status::kOk);
  SemiSortedBuckets<0> generic(table.data(), F);
  const SemiSortedBuckets<F> view(table.data(), F);
  SplitMix64 rng(F);
  constexpr std::uint32_t kLowMask = (1U << (F - 4)) - 1;
  for (std::uint32_t b = 0; b < kBuckets; ++b) {
    // Entries from a few nibbles and a few low values, so that both repeat.
    for (unsigned s = 0; s < 4; ++s) {
      const auto entry = static_cast<std::uint32_t>((rng.next() % 3 + 1) << (F - 4) | (rng.next() % 3 + 1));
      generic.insertIntoEmptySlot(b, entry);
    }
    std::uint32_t entries[4];
    for (unsigned s = 0; s < 4; ++s) entries[s] = generic.read(b, s);
    for (unsigned a = 0; a < 4; ++a) {
      for (unsigned c = 0; c < 4; ++c) {
        const std::uint32_t fp = (entries[a] & ~kLowMask) | (entries[c] & kLowMask);
        bool expected = false;
        for (const std::uint32_t entry : entries) expected = expected || entry == fp;
        ASSERT_EQ(view.holds(view.probe(b), fp), expected) << "F=" << F << " bucket " << b << " fp " << fp;
      }
    }
  }
}

TEST(SemiSortedBuckets, HoldsAgreesWithAScanOnNibblesAndLowBitsFromDifferentSlots) {
  static_assert(SemiSortedBuckets<13>::nibblesAlignByOneMultiply(), "the filters' default semi-sorted width");
  static_assert(!SemiSortedBuckets<12>::nibblesAlignByOneMultiply() && !SemiSortedBuckets<16>::nibblesAlignByOneMultiply(),
                "widths whose terms collide");
  expectHoldsAgreesWithAScan<9>();
  expectHoldsAgreesWithAScan<11>();
  expectHoldsAgreesWithAScan<12>();
  expectHoldsAgreesWithAScan<13>();
  expectHoldsAgreesWithAScan<15>();
  expectHoldsAgreesWithAScan<16>();
  expectHoldsAgreesWithAScan<17>();
}

}  // namespace
}  // namespace cuckoo
