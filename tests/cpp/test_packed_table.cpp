// The bit-packed table (packed_table.hpp): entries of every width read back as
// written, occupancy counts and copies. Bucket operations: test_buckets.cpp.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/packed_table.hpp"
#include "cuckoo/prng.hpp"

namespace cuckoo {
namespace {

struct Shape {
  unsigned bits;
  unsigned slots;
};

// Every bucket size with every width.
std::vector<Shape> allShapes() {
  std::vector<Shape> shapes;
  for (unsigned slots : {1U, 2U, 4U, 8U}) {
    for (unsigned bits = 2; bits <= 32; ++bits) shapes.push_back({bits, slots});
  }
  return shapes;
}

TEST(PackedTable, SizeIsPayloadPlusLessThanOneWord) {
  EXPECT_EQ(PackedTable::bytesFor(12, 4, 1 << 16), (std::uint64_t{1} << 16) * 48 / 8 + 7);
  EXPECT_EQ(PackedTable::bytesFor(3, 1, 3), 2U + 7U);  // 9 bits round up to 2 bytes
  // The widest shape, 2^32 buckets x 8 x 32 bits = 2^40 bits, is 128 GiB: under
  // the 64-bit limit (so natively only the allocator can refuse it), over the
  // 2 GiB limit of 32-bit targets such as wasm32.
  const std::uint64_t widest = PackedTable::bytesFor(32, 8, std::uint64_t{1} << 32);
  if (sizeof(void*) >= 8) {
    EXPECT_EQ(widest, (std::uint64_t{1} << 37) + 7);
  } else {
    EXPECT_EQ(widest, 0U);
  }
}

TEST(PackedTable, ReadsBackWhatWasWrittenAtEveryWidth) {
  for (const Shape& shape : allShapes()) {
    const std::uint64_t buckets = 37;  // odd, so buckets straddle bytes at every offset
    PackedTable table;
    ASSERT_EQ(PackedTable::allocate(shape.bits, shape.slots, buckets, table), Status::kOk);
    std::vector<std::uint32_t> model(buckets * shape.slots, 0);
    SplitMix64 rng(shape.bits * 100 + shape.slots);
    const std::uint64_t valueMask = (std::uint64_t{1} << shape.bits) - 1;
    for (int op = 0; op < 3000; ++op) {
      const std::uint64_t bucket = rng.next() % buckets;
      const unsigned slot = static_cast<unsigned>(rng.next() % shape.slots);
      const auto value = static_cast<std::uint32_t>(rng.next() & valueMask);
      table.write(bucket, slot, value);
      model[bucket * shape.slots + slot] = value;
    }
    for (std::uint64_t b = 0; b < buckets; ++b) {
      for (unsigned s = 0; s < shape.slots; ++s) {
        ASSERT_EQ(table.read(b, s), model[b * shape.slots + s]) << "f=" << shape.bits << " b=" << shape.slots;
      }
    }
    // The padding after the payload stays zero.
    for (std::size_t i = table.payloadBytes(); i < table.byteLength(); ++i) ASSERT_EQ(table.data()[i], 0);
  }
}

TEST(PackedTable, CopyIsIndependent) {
  PackedTable table, copy;
  ASSERT_EQ(PackedTable::allocate(7, 2, 16, table), Status::kOk);
  table.write(5, 1, 99);
  ASSERT_EQ(table.copyTo(copy), Status::kOk);
  table.write(5, 1, 3);
  EXPECT_EQ(copy.read(5, 1), 99U);
  EXPECT_EQ(copy.byteLength(), table.byteLength());
}

TEST(PackedTableCounting, MatchesSlotBySlotCountOnExactSizeBuffers) {
  SplitMix64 rng(2024);
  for (unsigned f = 2; f <= 32; ++f) {
    for (unsigned b : {1U, 4U, 8U}) {
      for (std::uint64_t m : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{16}, std::uint64_t{64}}) {
        PackedTable table;
        ASSERT_EQ(PackedTable::allocate(f, b, m, table), Status::kOk);
        const std::uint64_t mask = (std::uint64_t{1} << f) - 1;
        for (std::uint64_t bucket = 0; bucket < m; ++bucket) {
          for (unsigned slot = 0; slot < b; ++slot) {
            const std::uint64_t draw = rng.next();
            // A third empty; the rest include the all-ones and single-high-bit extremes.
            const std::uint64_t value = draw % 3 == 0 ? 0 : draw % 7 == 0 ? mask : draw % 11 == 0 ? (mask >> 1) + 1 : (draw >> 8) & mask;
            table.write(bucket, slot, static_cast<std::uint32_t>(value));
          }
        }
        std::uint64_t expected = 0;
        std::vector<std::uint64_t> prefixCounts{0};
        for (std::uint64_t bucket = 0; bucket < m; ++bucket) {
          for (unsigned slot = 0; slot < b; ++slot) {
            expected += table.read(bucket, slot) != 0 ? 1 : 0;
            prefixCounts.push_back(expected);
          }
        }
        ASSERT_EQ(table.occupiedEntries(), expected) << "f=" << f << " b=" << b << " m=" << m;
        for (std::uint64_t entries = 0; entries < prefixCounts.size(); ++entries) {
          const std::size_t byteCount = static_cast<std::size_t>((entries * f + 7) / 8);
          const std::vector<unsigned char> exact(table.data(), table.data() + byteCount);
          ASSERT_EQ(PackedTable::countNonZeroEntries(exact.data(), exact.size(), f, entries), prefixCounts[entries])
              << "f=" << f << " b=" << b << " m=" << m << " entries=" << entries;
        }
      }
    }
  }
}

}  // namespace
}  // namespace cuckoo
