// The per-shape kernels (cpp/src/kernel.hpp, kernels.cpp). Their promise is
// that every kernel of a shape makes the same decisions, so two filters of
// one shape and seed, one served by its specialised kernel and one switched
// to the generic kernel, must give the same answer to every operation and
// stay byte-identical through the eviction walk, the stash and its
// reinsertion. And a batch must act as the single-item calls on its items in
// order, for 8-byte, other fixed-width and packed items of every XXH3 length
// path, on both sides of the batch block (16 items).

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/item_batch.hpp"

namespace cuckoo {
namespace {

struct Shape {
  unsigned bits;
  unsigned slots;
  bool semiSort;
  const char* kernel;      // natively: the kernel's name before its layout, or "generic"
  const char* fullModule;  // the same in the full WebAssembly module (kernels.cpp carries fewer there)
};

// Every specialised kernel compiled natively (kernels.cpp), with the kernel
// the full WebAssembly module serves the shape with: plain b=4 f=12, plain
// b=4 any f and semi-sorted f=13 are the ones it carries. The "any f" ones
// are taken at widths whose bucket fits one 64-bit load and at widths whose
// bucket does not (b=4 f=17 and 32, b=2 f=31), which take different paths.
const Shape kSpecialisedShapes[] = {
    {8, 4, false, "plain b=4 f=8", "plain b=4"},
    {12, 4, false, "plain b=4 f=12", "plain b=4 f=12"},
    {16, 4, false, "plain b=4 f=16", "plain b=4"},
    {2, 4, false, "plain b=4", "plain b=4"},
    {10, 4, false, "plain b=4", "plain b=4"},
    {13, 4, false, "plain b=4", "plain b=4"},
    {17, 4, false, "plain b=4", "plain b=4"},
    {32, 4, false, "plain b=4", "plain b=4"},
    {2, 2, false, "plain b=2", "generic"},
    {7, 2, false, "plain b=2", "generic"},
    {12, 2, false, "plain b=2", "generic"},
    {31, 2, false, "plain b=2", "generic"},
    {32, 2, false, "plain b=2", "generic"},
    {13, 4, true, "semi-sorted f=13", "semi-sorted f=13"},
    {16, 4, true, "semi-sorted f=16", "generic"},
};
// Shapes that only the generic kernel serves: the batch tests cover it there.
const Shape kGenericShapes[] = {
    {12, 8, false, "generic", "generic"}, {32, 8, false, "generic", "generic"}, {16, 1, false, "generic", "generic"},
    {14, 4, true, "generic", "generic"},  {5, 4, true, "generic", "generic"},   {32, 4, true, "generic", "generic"},
};
// A table's bucket count and item hash: hash ids 1 and 6 (XOR) and 2 and 7
// (reflection), each at a size where walks are long and at a tiny one where
// an item's two buckets often coincide.
struct Table {
  std::uint64_t count;
  bool multiplyShift;
};
const Table kXxh3Counts[] = {{512, false}, {1000, false}, {16, false}, {3, false}};
const Table kMultiplyShiftCounts[] = {{512, true}, {1000, true}, {16, true}, {1, true}};

void PrintTo(const Shape& shape, std::ostream* out) {
  *out << (shape.semiSort ? "semi-sorted" : "plain") << " f=" << shape.bits << " b=" << shape.slots;
}
void PrintTo(const Table& table, std::ostream* out) {
  *out << "m=" << table.count << (table.multiplyShift ? " multiply-shift" : "");
}

FilterParams paramsOf(const Shape& shape, const Table& table) {
  FilterParams p;
  p.fingerprintBits = shape.bits;
  p.bucketSize = shape.slots;
  p.semiSort = shape.semiSort;
  p.bucketCount = table.count;
  p.multiplyShiftHash = table.multiplyShift;
  p.seed = 0x5eed0000 + shape.bits * 8 + shape.slots + table.count + (table.multiplyShift ? 0x600 : 0);
  return p;
}

// Which kernels this program's core carries (kernels.cpp): every specialised
// one natively; under WebAssembly those of the module it was linked as, the
// full module's (a subset, Shape::fullModule) or the lean module's
// (CUCKOO_LEAN_KERNELS: none, the generic kernels serve every shape).
enum class Kernels { kNative, kFullModule, kLeanModule };
#if defined(CUCKOO_LEAN_KERNELS)
constexpr Kernels kKernelsHere = Kernels::kLeanModule;
#elif defined(__wasm__)
constexpr Kernels kKernelsHere = Kernels::kFullModule;
#else
constexpr Kernels kKernelsHere = Kernels::kNative;
#endif

// The kernel this program serves a shape with, before its layout.
std::string kernelHere(const Shape& shape) {
  switch (kKernelsHere) {
    case Kernels::kNative: return shape.kernel;
    case Kernels::kFullModule: return shape.fullModule;
    case Kernels::kLeanModule: return "generic";
  }
  return "generic";
}

// Why a specialised shape's kernel cannot be compared with the generic one
// in this program: it has none for the shape (the comparison would be
// generic with generic). Native programs carry every one.
const char* whyNoSpecialisedKernelHere() {
  switch (kKernelsHere) {
    case Kernels::kNative: return "";
    case Kernels::kFullModule:
      return "native-only kernel: the full WebAssembly module carries plain b=4 (f=12 and any f) and semi-sorted f=13 "
             "alone, the generic kernel serves this shape (kernels.cpp)";
    case Kernels::kLeanModule:
      return "native-only kernel: the lean WebAssembly module (CUCKOO_LEAN_KERNELS) carries no specialised kernel, "
             "the generic kernels serve every shape (kernels.cpp)";
  }
  return "";
}

// The multiply-shift layouts of hash ids 6 and 7 are compiled natively for
// the full module's shapes alone (kernels.cpp).
std::string expectedKernel(const Shape& shape, const Table& table) {
  const std::string kernel = table.multiplyShift && kKernelsHere == Kernels::kNative ? shape.fullModule : kernelHere(shape);
  if (kernel == "generic") return kernel;
  // A multiply-shift layout serves the ids with and without the key mix alike.
  if (table.multiplyShift) return kernel + (isPowerOfTwo(table.count) ? ", hash ids 6, 8 and 10" : ", hash ids 7, 9 and 11");
  return kernel + ", hash id " + std::to_string(plainHashId(isPowerOfTwo(table.count), false));
}

using Case = std::tuple<Shape, Table>;
std::string caseName(const Shape& shape, const Table& table) {
  return std::string(shape.semiSort ? "semisorted" : "plain") + "_b" + std::to_string(shape.slots) + "_f" +
         std::to_string(shape.bits) + "_m" + std::to_string(table.count) + (table.multiplyShift ? "_mulshift" : "");
}
std::string nameOf(const ::testing::TestParamInfo<Case>& info) {
  return caseName(std::get<0>(info.param), std::get<1>(info.param));
}

// Lengths on every path of XXH3 and its edges (0, 1-3, 4-8, 9-16, 17-128,
// 129-240, 241+). The first keys take them in turn; after that lengths
// cycle, 8 bytes (the kernels' own hash path) most often, and 0 and 1 byte,
// which hold few distinct items, never again.
constexpr std::size_t kEdgeLengths[] = {0, 1, 7, 8, 9, 16, 17, 100, 300};
constexpr std::size_t kCycleLengths[] = {8, 8, 8, 7, 9, 16, 17, 100, 300, 3};
std::size_t lengthOf(std::uint64_t key) {
  if (key < std::size(kEdgeLengths)) return kEdgeLengths[key];
  return kCycleLengths[key % std::size(kCycleLengths)];
}

// Item `key` as `length` bytes: byte i is byte i % 8 of the key plus i / 8,
// so distinct keys give distinct items of 8 bytes or more, and of fewer
// while the key fits.
std::vector<unsigned char> itemBytes(std::uint64_t key, std::size_t length) {
  std::vector<unsigned char> bytes(length);
  for (std::size_t i = 0; i < length; ++i) bytes[i] = static_cast<unsigned char>((key >> (8 * (i % 8))) + i / 8);
  return bytes;
}

std::vector<unsigned char> serialized(const CuckooFilter& filter) {
  std::vector<unsigned char> bytes(filter.serializedSize());
  filter.serialize(bytes.data());
  return bytes;
}

CuckooFilter created(const FilterParams& params, bool generic) {
  CuckooFilter filter;
  EXPECT_EQ(CuckooFilter::create(params, filter), Status::kOk);
  if (generic) filter.useGenericKernel();
  return filter;
}

TEST(KernelChoice, EveryShapeGetsItsKernelAndTheSwitchGivesTheGenericOne) {
  for (const Table& m : {kXxh3Counts[0], kXxh3Counts[1], kXxh3Counts[2], kXxh3Counts[3], kMultiplyShiftCounts[0],
                         kMultiplyShiftCounts[1], kMultiplyShiftCounts[2], kMultiplyShiftCounts[3]}) {
    for (const Shape& shape : kSpecialisedShapes) {
      CuckooFilter filter = created(paramsOf(shape, m), false);
      EXPECT_EQ(filter.kernelName(), expectedKernel(shape, m)) << caseName(shape, m);
      filter.useGenericKernel();
      EXPECT_STREQ(filter.kernelName(), "generic") << caseName(shape, m);
    }
    for (const Shape& shape : kGenericShapes) {
      EXPECT_STREQ(created(paramsOf(shape, m), false).kernelName(), "generic") << caseName(shape, m);
    }
  }
}

// An integer key is the item of its 8 little-endian bytes, with the filter's
// own kernel and the generic one, with the keyed hash (which only the
// generic kernel carries) and with multiply-shift: a fill through the key
// overloads leaves the bytes a fill through the byte calls leaves, and each
// finds the other's items.
TEST(KeyOverloads, AKeyIsTheItemOfItsEightLittleEndianBytes) {
  for (const int hash : {0, 1, 2}) {
    const bool keyed = hash == 1;
    for (const bool semiSort : {false, true}) {
      FilterParams params;
      params.fingerprintBits = semiSort ? 13 : 12;
      params.semiSort = semiSort;
      params.bucketCount = 256;
      params.seed = 0x0123456789abcdefULL;
      params.keyedHash = keyed;
      params.multiplyShiftHash = hash == 2;
      for (const bool generic : {false, true}) {
        CuckooFilter byKey = created(params, generic), byBytes = created(params, generic);
        std::vector<std::uint64_t> stored;
        for (std::uint64_t i = 0; !byKey.stash().occupied; ++i) {
          const std::uint64_t key = i * 0x9E3779B97F4A7C15ULL;
          const std::vector<unsigned char> bytes = itemBytes(key, 8);
          ASSERT_EQ(byKey.insert(key), byBytes.insert(bytes.data(), bytes.size()));
          stored.push_back(key);
        }
        const std::string where = std::string(keyed ? "keyed " : hash == 2 ? "multiply-shift " : "") +
                                  (semiSort ? "semi-sorted " : "plain ") + byKey.kernelName();
        EXPECT_TRUE(serialized(byKey) == serialized(byBytes)) << where;
        for (const std::uint64_t key : stored) {
          const std::vector<unsigned char> bytes = itemBytes(key, 8);
          ASSERT_TRUE(byKey.contains(bytes.data(), bytes.size())) << where;
          ASSERT_TRUE(byBytes.contains(key)) << where;
        }
        for (std::size_t k = 0; k < stored.size(); k += 2) {
          const std::vector<unsigned char> bytes = itemBytes(stored[k], 8);
          ASSERT_TRUE(byKey.erase(stored[k])) << where;
          ASSERT_TRUE(byBytes.erase(bytes.data(), bytes.size())) << where;
        }
        EXPECT_TRUE(serialized(byKey) == serialized(byBytes)) << where << " after the erases";
      }
    }
  }
}

// ------------------------------------------- specialised against generic

// Sees an insert's steps, to compare the path two kernels take.
struct Steps final : InsertObserver {
  std::vector<std::array<std::uint32_t, 6>> seen;
  void onKick(std::uint32_t bucket, unsigned slot, std::uint32_t incoming, std::uint32_t evicted,
              std::uint32_t next) override {
    seen.push_back({0, bucket, slot, incoming, evicted, next});
  }
  void onPlaced(std::uint32_t bucket, std::uint32_t fp) override { seen.push_back({1, bucket, fp, 0, 0, 0}); }
  void onStashed(std::uint32_t bucket, std::uint32_t fp) override { seen.push_back({2, bucket, fp, 0, 0, 0}); }
  void onUndone(std::uint32_t bucket, std::uint32_t fp) override { seen.push_back({3, bucket, fp, 0, 0, 0}); }
};

// One operation sequence run on a filter served by its own kernel and on one
// switched to the generic kernel.
class Twins {
 public:
  explicit Twins(const FilterParams& params) : own_(created(params, false)), generic_(created(params, true)) {}
  const CuckooFilter& own() const { return own_; }

  // Calls `method` with item `key` on both filters and expects the same result.
  template <class Method>
  auto on(const char* what, std::uint64_t key, Method method) {
    const std::vector<unsigned char> item = itemBytes(key, lengthOf(key));
    const auto mine = (own_.*method)(item.data(), item.size());
    EXPECT_EQ(static_cast<int>(mine), static_cast<int>((generic_.*method)(item.data(), item.size())))
        << what << " of key " << key;
    return mine;
  }
  // The same for the operations with a key overload: an 8-byte item, which
  // is `key`'s little-endian bytes, goes to one filter as the integer and to
  // the other as its bytes, taking turns, so that the overload is checked
  // against the bytes and against the other kernel at once.
  template <class Bytes, class Integer>
  bool onKey(const char* what, std::uint64_t key, Bytes bytes, Integer integer) {
    const std::vector<unsigned char> item = itemBytes(key, lengthOf(key));
    if (item.size() != 8) {
      const bool mine = bytes(own_, item);
      EXPECT_EQ(mine, bytes(generic_, item)) << what << " of key " << key;
      return mine;
    }
    const bool ownTakesKey = key % 2 == 0;
    const bool mine = ownTakesKey ? integer(own_, key) : bytes(own_, item);
    EXPECT_EQ(mine, ownTakesKey ? bytes(generic_, item) : integer(generic_, key))
        << what << " of key " << key << (ownTakesKey ? ": the integer to the own kernel" : ": the integer to the generic one");
    return mine;
  }
  using Item = std::vector<unsigned char>;
  bool insert(std::uint64_t key) {
    return onKey("insert", key, [](CuckooFilter& f, const Item& item) { return f.insert(item.data(), item.size()); },
                 [](CuckooFilter& f, std::uint64_t k) { return f.insert(k); });
  }
  bool erase(std::uint64_t key) {
    return onKey("erase", key, [](CuckooFilter& f, const Item& item) { return f.erase(item.data(), item.size()); },
                 [](CuckooFilter& f, std::uint64_t k) { return f.erase(k); });
  }
  bool contains(std::uint64_t key) {
    return onKey("contains", key, [](const CuckooFilter& f, const Item& item) { return f.contains(item.data(), item.size()); },
                 [](const CuckooFilter& f, std::uint64_t k) { return f.contains(k); });
  }
  unsigned count(std::uint64_t key) { return on("count", key, &CuckooFilter::count); }
  InsertOutcome insertUnique(std::uint64_t key) { return on("insertUnique", key, &CuckooFilter::insertUnique); }

  // The steps of the insert, which must be the same on both.
  std::vector<std::array<std::uint32_t, 6>> insertObserved(std::uint64_t key, bool& inserted) {
    Steps mine, theirs;
    const std::vector<unsigned char> item = itemBytes(key, lengthOf(key));
    inserted = own_.insertObserved(item.data(), item.size(), mine);
    EXPECT_EQ(inserted, generic_.insertObserved(item.data(), item.size(), theirs)) << "insertObserved of key " << key;
    EXPECT_EQ(mine.seen, theirs.seen) << "the steps of the insert of key " << key;
    return mine.seen;
  }

  void expectSameBytes(const std::string& where) const {
    EXPECT_EQ(own_.stash().occupied, generic_.stash().occupied) << where;
    EXPECT_TRUE(serialized(own_) == serialized(generic_)) << "the tables differ " << where;
  }

 private:
  CuckooFilter own_;
  CuckooFilter generic_;
};

class KernelAgreement : public ::testing::TestWithParam<Case> {};
INSTANTIATE_TEST_SUITE_P(Specialised, KernelAgreement,
                         ::testing::Combine(::testing::ValuesIn(kSpecialisedShapes), ::testing::ValuesIn(kXxh3Counts)),
                         nameOf);
// The shapes with a multiply-shift kernel of their own in every build that
// has specialised kernels: the full module's.
std::vector<Shape> multiplyShiftShapes() {
  std::vector<Shape> shapes;
  for (const Shape& shape : kSpecialisedShapes) {
    if (std::string(shape.fullModule) != "generic") shapes.push_back(shape);
  }
  return shapes;
}
INSTANTIATE_TEST_SUITE_P(SpecialisedMultiplyShift, KernelAgreement,
                         ::testing::Combine(::testing::ValuesIn(multiplyShiftShapes()), ::testing::ValuesIn(kMultiplyShiftCounts)),
                         nameOf);

// Inserts fresh keys from `next` on until one is refused, comparing bytes now
// and then; returns the keys stored and leaves `next` past the refused one.
std::vector<std::uint64_t> fillTwins(Twins& twins, std::uint64_t& next, const char* phase) {
  std::vector<std::uint64_t> stored;
  for (;; ++next) {
    if (!twins.insert(next)) break;
    stored.push_back(next);
    if (stored.size() % 64 == 0) twins.expectSameBytes(std::string(phase) + " after " + std::to_string(stored.size()));
    if (::testing::Test::HasFailure()) return stored;
  }
  ++next;
  twins.expectSameBytes(std::string(phase) + " at the first refusal");
  return stored;
}

TEST_P(KernelAgreement, SameAnswersAndSameBytesAsTheGenericKernel) {
  const auto [shape, m] = GetParam();
  const bool nativeOnlyKernel = kKernelsHere != Kernels::kNative && kernelHere(shape) == "generic";
  if (nativeOnlyKernel) GTEST_SKIP() << whyNoSpecialisedKernelHere();
  Twins twins(paramsOf(shape, m));
  ASSERT_EQ(twins.own().kernelName(), expectedKernel(shape, m)) << "the comparison would be generic with generic";

  // Up to the first refusal: every insert before it, the eviction walks and
  // the one that ends in the stash.
  std::uint64_t next = 0;
  std::vector<std::uint64_t> stored = fillTwins(twins, next, "filling");
  ASSERT_FALSE(HasFailure());
  ASSERT_TRUE(twins.own().isFull()) << "a fill ends with the stash occupied";

  // Past the first failure: inserts are placed or refused alike, a refused
  // one (its walk undone) changing nothing; lookups, counts and insertUnique
  // change nothing.
  unsigned refused = 0;
  for (std::uint64_t tried = 0; refused < 4 && tried < 10000 && !HasFailure(); ++tried, ++next) {
    const std::vector<unsigned char> before = serialized(twins.own());
    if (twins.insert(next)) {
      stored.push_back(next);
    } else {
      ++refused;
      EXPECT_TRUE(serialized(twins.own()) == before) << "the refused insert of key " << next << " changed the filter";
    }
  }
  EXPECT_EQ(refused, 4U);
  twins.expectSameBytes("after refusals");
  const std::vector<unsigned char> full = serialized(twins.own());
  for (const std::uint64_t key : stored) {
    EXPECT_TRUE(twins.contains(key));
    twins.count(key);
  }
  for (std::uint64_t k = 0; k < 200; ++k) twins.contains(next + 1000 + k);
  ASSERT_TRUE(serialized(twins.own()) == full) << "lookups changed the filter";
  for (std::uint64_t k = 0; k < 8; ++k) {
    const std::uint64_t key = k % 2 == 0 && k < stored.size() ? stored[k] : next + k;
    const std::vector<unsigned char> before = serialized(twins.own());
    const InsertOutcome outcome = twins.insertUnique(key);
    if (outcome == InsertOutcome::kInserted) {
      stored.push_back(key);
    } else {
      EXPECT_TRUE(serialized(twins.own()) == before) << "insertUnique of key " << key << " changed the filter";
    }
  }
  next += 8;
  twins.expectSameBytes("when full");

  // Deletes, the first ones while the stash is occupied: each of those
  // reinserts the stashed fingerprint with a walk of its own.
  unsigned whileStashed = 0;
  for (std::size_t i = 0; i < stored.size() / 2; ++i) {
    whileStashed += twins.own().stash().occupied ? 1 : 0;
    const std::uint64_t key = stored[(i * 7919) % stored.size()];
    twins.erase(key);
    if (i < 32 || i % 16 == 0) twins.expectSameBytes("after erase " + std::to_string(i) + " of key " + std::to_string(key));
    if (HasFailure()) return;
  }
  EXPECT_GT(whileStashed, 0U);
  twins.expectSameBytes("after the deletes");

  // Copies of one item past what its two buckets hold, counted, then removed.
  const std::uint64_t copied = next++;
  for (unsigned c = 0; c < 2 * shape.slots + 1; ++c) twins.insert(copied);
  twins.count(copied);
  twins.expectSameBytes("with copies");
  for (unsigned c = 0; c < 2 * shape.slots + 2; ++c) twins.erase(copied);
  twins.expectSameBytes("after removing the copies");

  // Observed inserts to the next refusal: the same steps on both. (In a tiny
  // table the stash can still be occupied here: erase until it is free.)
  for (std::size_t i = 1; twins.own().stash().occupied && i < stored.size(); i += 2) twins.erase(stored[i]);
  ASSERT_FALSE(twins.own().stash().occupied);
  bool stashed = false;
  for (bool inserted = true; inserted && !HasFailure();) {
    for (const auto& step : twins.insertObserved(next++, inserted)) stashed = stashed || step[0] == 2;
  }
  EXPECT_TRUE(stashed) << "the observed fill ends in the stash";
  twins.expectSameBytes("after the observed fill");

  // A little room, then insertUnique of fresh and stored items, which fill
  // it again.
  for (std::size_t i = 1; i < stored.size() && i < 16; i += 2) twins.erase(stored[i]);
  for (std::uint64_t k = 0; k < 40; ++k) twins.insertUnique(k % 4 == 0 ? stored[k % stored.size()] : next++);
  twins.expectSameBytes("after insertUnique");

  // Everything out again, erase results compared one by one.
  for (const std::uint64_t key : stored) twins.erase(key);
  for (std::uint64_t key = stored.back() + 1; key < next; ++key) twins.erase(key);
  twins.expectSameBytes("after erasing everything");
}

// --------------------------------------------------- batches against single

enum class Layout { kEightBytes, kTwelveBytes, kPacked };

// Items in one buffer, as a batch takes them.
class Batch {
 public:
  Batch(Layout layout, const std::vector<std::uint64_t>& keys) {
    offsets_.push_back(0);
    for (const std::uint64_t key : keys) {
      const std::size_t length = layout == Layout::kEightBytes ? 8 : layout == Layout::kTwelveBytes ? 12 : lengthOf(key);
      const std::vector<unsigned char> item = itemBytes(key, length);
      data_.insert(data_.end(), item.begin(), item.end());
      offsets_.push_back(static_cast<std::uint32_t>(data_.size()));
    }
    items_ = layout == Layout::kPacked ? ItemBatch::packed(data_.data(), offsets_.data(), keys.size())
                                       : ItemBatch::fixed(data_.data(), layout == Layout::kEightBytes ? 8 : 12, keys.size());
  }
  const ItemBatch& items() const { return items_; }

 private:
  std::vector<unsigned char> data_;
  std::vector<std::uint32_t> offsets_;
  ItemBatch items_;
};

// The same batches on a filter served by its own kernel and on one switched
// to the generic kernel, and item by item on a third.
class Trio {
 public:
  explicit Trio(const FilterParams& params)
      : batched_(created(params, false)), genericBatched_(created(params, true)), single_(created(params, false)) {}
  bool isFull() const { return single_.isFull(); }

  std::size_t insertMany(const ItemBatch& b) {
    std::size_t added = 0;
    while (added < b.count && single_.insert(b.item(added), b.length(added))) ++added;
    EXPECT_EQ(batched_.insertMany(b), added) << "insertMany of " << b.count;
    EXPECT_EQ(genericBatched_.insertMany(b), added) << "generic insertMany of " << b.count;
    return added;
  }
  void containsMany(const ItemBatch& b) {
    std::vector<unsigned char> mine(b.count + 1, 0xAA), generic(b.count + 1, 0xAA), expected(b.count + 1, 0xAA);
    for (std::size_t k = 0; k < b.count; ++k) expected[k] = single_.contains(b.item(k), b.length(k)) ? 1 : 0;
    batched_.containsMany(b, mine.data());
    genericBatched_.containsMany(b, generic.data());
    EXPECT_EQ(mine, expected) << "containsMany of " << b.count << " (the last byte must stay untouched)";
    EXPECT_EQ(generic, expected) << "generic containsMany of " << b.count;
  }
  std::size_t eraseMany(const ItemBatch& b) {
    std::size_t erased = 0;
    for (std::size_t k = 0; k < b.count; ++k) erased += single_.erase(b.item(k), b.length(k)) ? 1 : 0;
    EXPECT_EQ(batched_.eraseMany(b), erased) << "eraseMany of " << b.count;
    EXPECT_EQ(genericBatched_.eraseMany(b), erased) << "generic eraseMany of " << b.count;
    return erased;
  }
  void expectSameBytes(const std::string& where) const {
    const std::vector<unsigned char> expected = serialized(single_);
    EXPECT_TRUE(serialized(batched_) == expected) << "batches and single items left different tables " << where;
    EXPECT_TRUE(serialized(genericBatched_) == expected) << "generic batches left a different table " << where;
  }

 private:
  CuckooFilter batched_;
  CuckooFilter genericBatched_;
  CuckooFilter single_;
};

// Sizes on both sides of the batch block, cycled.
constexpr std::size_t kBatchSizes[] = {0, 1, 15, 16, 17, 100, 257, 2, 33};

class BatchEquivalence : public ::testing::TestWithParam<std::tuple<Shape, Table, Layout>> {};

std::vector<Shape> everyShape() {
  std::vector<Shape> shapes(std::begin(kSpecialisedShapes), std::end(kSpecialisedShapes));
  shapes.insert(shapes.end(), std::begin(kGenericShapes), std::end(kGenericShapes));
  return shapes;
}
std::string batchCaseName(const ::testing::TestParamInfo<std::tuple<Shape, Table, Layout>>& info) {
  const Layout layout = std::get<2>(info.param);
  return caseName(std::get<0>(info.param), std::get<1>(info.param)) +
         (layout == Layout::kEightBytes ? "_fixed8" : layout == Layout::kTwelveBytes ? "_fixed12" : "_packed");
}
INSTANTIATE_TEST_SUITE_P(
    EveryKernel, BatchEquivalence,
    ::testing::Combine(::testing::ValuesIn(everyShape()), ::testing::ValuesIn(kXxh3Counts),
                       ::testing::Values(Layout::kEightBytes, Layout::kTwelveBytes, Layout::kPacked)),
    batchCaseName);
// Multiply-shift changes how 8-byte items hash: its kernels' batches of them,
// and of packed items of every length, and the generic kernel's (one shape).
std::vector<Shape> multiplyShiftBatchShapes() {
  std::vector<Shape> shapes = multiplyShiftShapes();
  shapes.push_back(kGenericShapes[0]);
  return shapes;
}
INSTANTIATE_TEST_SUITE_P(MultiplyShiftKernels, BatchEquivalence,
                         ::testing::Combine(::testing::ValuesIn(multiplyShiftBatchShapes()),
                                            ::testing::ValuesIn(kMultiplyShiftCounts),
                                            ::testing::Values(Layout::kEightBytes, Layout::kPacked)),
                         batchCaseName);

// Keys [first, first + n).
std::vector<std::uint64_t> range(std::uint64_t first, std::size_t n) {
  std::vector<std::uint64_t> keys(n);
  for (std::size_t k = 0; k < n; ++k) keys[k] = first + k;
  return keys;
}

TEST_P(BatchEquivalence, BatchesActAsTheSingleItemCallsInOrder) {
  // Not a structured binding: C++17 lets no lambda capture one (clang, em++'s compiler, refuses).
  const Layout layout = std::get<2>(GetParam());
  Trio trio(paramsOf(std::get<0>(GetParam()), std::get<1>(GetParam())));
  std::uint64_t next = 0;
  std::size_t round = 0;
  std::vector<std::uint64_t> stored;
  bool refusedInside = false;  // a refusal after some of a batch was added

  // Batches of fresh items until one is refused; twice, with erases between.
  const auto fill = [&](const char* phase) {
    for (bool refused = false; !refused && !HasFailure(); ++round) {
      const std::vector<std::uint64_t> keys = range(next, kBatchSizes[round % std::size(kBatchSizes)]);
      next += keys.size();
      const std::size_t added = trio.insertMany(Batch(layout, keys).items());
      stored.insert(stored.end(), keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(added));
      refused = added < keys.size();
      refusedInside = refusedInside || (refused && added > 0);
      trio.expectSameBytes(std::string(phase) + ", batch " + std::to_string(round));
    }
  };
  fill("filling");
  ASSERT_FALSE(HasFailure());
  ASSERT_TRUE(trio.isFull());
  // Past the first failure items are placed or refused alike by the three.
  const std::vector<std::uint64_t> more = range(next, 20);
  next += more.size();
  const std::size_t addedWhenFull = trio.insertMany(Batch(layout, more).items());
  stored.insert(stored.end(), more.begin(), more.begin() + static_cast<std::ptrdiff_t>(addedWhenFull));
  trio.expectSameBytes("past the first failure");
  EXPECT_EQ(trio.insertMany(Batch(layout, {}).items()), 0U);

  // Lookups of stored and absent items, interleaved, in batches of every size.
  std::vector<std::uint64_t> probes;
  for (std::size_t k = 0; k < stored.size(); ++k) {
    probes.push_back(stored[k]);
    if (k % 3 == 0) probes.push_back(next + 100000 + k);
  }
  for (std::size_t at = 0, r = 0; at < probes.size(); ++r) {
    const std::size_t n = std::min(kBatchSizes[r % std::size(kBatchSizes)], probes.size() - at);
    trio.containsMany(Batch(layout, std::vector<std::uint64_t>(probes.begin() + at, probes.begin() + at + n)).items());
    at += n;
  }

  // Erases of half the stored items (the first while the stash is occupied,
  // which reinserts it) mixed with absent ones, then a second fill.
  const auto eraseBatches = [&](const std::vector<std::uint64_t>& keys, const char* phase) {
    for (std::size_t at = 0, r = 3; at < keys.size() && !HasFailure(); ++r) {
      const std::size_t n = std::min(kBatchSizes[r % std::size(kBatchSizes)], keys.size() - at);
      trio.eraseMany(Batch(layout, std::vector<std::uint64_t>(keys.begin() + at, keys.begin() + at + n)).items());
      at += n;
      trio.expectSameBytes(std::string(phase) + " at " + std::to_string(at));
    }
  };
  std::vector<std::uint64_t> half;
  for (std::size_t k = 0; k < stored.size(); k += 2) {
    half.push_back(stored[k]);
    if (k % 10 == 0) half.push_back(next + 200000 + k);
  }
  eraseBatches(half, "erasing half");
  fill("refilling");
  EXPECT_TRUE(refusedInside) << "no batch was refused part way";

  eraseBatches(stored, "erasing everything");
}

}  // namespace
}  // namespace cuckoo
