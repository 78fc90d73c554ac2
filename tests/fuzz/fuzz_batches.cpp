// The batch operations against the single-item calls: filter A takes each
// operation as one batch, filter B item by item, and after every operation
// both must have given the same answers and hold the same bytes. Either
// filter can be switched to the generic kernel, so that the batches of every
// specialised kernel are also checked against the generic kernel's single
// items, and the reverse.
//
// Input: 7 bytes of parameters, then operations of 5 bytes each.
//   [0] shape: kShapes[x % 10]; the rows with f = 0 take f from [1]
//   [1] f = 2 + x % 31 (semi-sorted: 5 + x % 28)
//   [2] m = 2^(x % 7) when x < 128, else m = 1 + (x - 128) % 96 (hash id 2
//       unless a power of two): small, so that tables fill and the stash is
//       in play
//   [3] maxKicks = x % 64, or the default 500 when x >= 240
//   [4] seed
//   [5] bit 0: A on the generic kernel; bit 1: B on the generic kernel
//   [6] universe = 1 + x keys
// Operation: [0] kind = x % 3 (insertMany, containsMany, eraseMany) and
//   layout = (x / 3) % 3 (8-byte items, items of another fixed width, packed
//   items of varied lengths); [1] items in the batch (0..255, so batches
//   end on both sides of the 16-item block); [2] first key; [3] step between
//   keys (mod universe, so keys repeat); [4] the fixed width (x % 20 bytes).
// A key is always the same item in one layout and width, so that erases
// find what inserts stored.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/item_batch.hpp"
#include "byte_reader.hpp"
#include "fuzz_check.hpp"

namespace {

using cuckoo::CuckooFilter;
using cuckoo::ItemBatch;

struct Shape {
  unsigned slots;
  unsigned bits;  // 0: from the input
  bool semiSort;
};
// The specialised kernels' shapes first (b=4 with any f and b=2 reach the
// "any f" kernels, and the fixed ones at f = 8, 12, 16), then shapes only
// the generic kernel serves.
constexpr Shape kShapes[] = {
    {4, 8, false}, {4, 12, false}, {4, 16, false}, {4, 0, false}, {2, 0, false},
    {4, 13, true}, {4, 16, true},  {1, 0, false},  {8, 0, false}, {4, 0, true},
};

enum Kind : unsigned { kInsertMany, kContainsMany, kEraseMany };
enum Layout : unsigned { kEightBytes, kOtherWidth, kPacked };

// Lengths on every path of XXH3 and at its edges.
constexpr std::uint32_t kLengths[] = {0, 1, 2, 3, 4, 7, 8, 9, 16, 17, 100, 128, 129, 240, 241, 300};

void appendItem(std::vector<std::uint8_t>& data, unsigned key, std::size_t length) {
  for (std::size_t i = 0; i < length; ++i) data.push_back(static_cast<std::uint8_t>(i == 0 ? key : key * 7 + i));
}

// A batch's items in one buffer.
struct Batch {
  std::vector<std::uint8_t> data;
  std::vector<std::uint32_t> offsets{0};
  ItemBatch items;
};

std::vector<std::uint8_t> serialized(const CuckooFilter& filter) {
  std::vector<std::uint8_t> bytes(filter.serializedSize());
  filter.serialize(bytes.data());
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteReader input(data, size);
  const Shape shape = kShapes[input.next() % std::size(kShapes)];
  const std::uint8_t bitsByte = input.next();
  cuckoo::FilterParams params;
  params.bucketSize = shape.slots;
  params.semiSort = shape.semiSort;
  params.fingerprintBits = shape.bits != 0 ? shape.bits : shape.semiSort ? 5 + bitsByte % 28 : 2 + bitsByte % 31;
  const unsigned countByte = input.next();
  params.bucketCount = countByte < 128 ? std::uint64_t{1} << (countByte % 7) : 1 + (countByte - 128U) % 96;
  const std::uint8_t kicks = input.next();
  params.maxKicks = kicks >= 240 ? cuckoo::kDefaultMaxKicks : kicks % 64;
  params.seed = input.next();
  const std::uint8_t kernels = input.next();
  params.multiplyShiftHash = (kernels & 4) != 0;  // hash ids 6 to 11, by the next two bits
  params.keyHash = static_cast<cuckoo::KeyHash>(((kernels >> 3) & 3) % 3);
  const unsigned universe = 1 + input.next();

  CuckooFilter batched;
  CuckooFilter single;
  FUZZ_REQUIRE(CuckooFilter::create(params, batched) == cuckoo::Status::kOk && CuckooFilter::create(params, single) == cuckoo::Status::kOk,
               "create f=%u b=%u m=%llu semiSort=%d multiplyShift=%d", params.fingerprintBits, params.bucketSize,
               static_cast<unsigned long long>(params.bucketCount), params.semiSort, params.multiplyShiftHash);
  if ((kernels & 1) != 0) batched.useGenericKernel();
  if ((kernels & 2) != 0) single.useGenericKernel();

  for (unsigned step = 0; !input.empty(); ++step) {
    const std::uint8_t head = input.next();
    const unsigned kind = head % 3;
    const unsigned layout = (head / 3) % 3;
    const std::size_t count = input.next();
    const unsigned first = input.next();
    const unsigned stride = input.next();
    const std::uint8_t widthByte = input.next();
    const std::uint32_t width = layout == kEightBytes ? 8 : widthByte % 20;

    Batch batch;
    for (std::size_t k = 0; k < count; ++k) {
      const unsigned key = static_cast<unsigned>((first + k * stride) % universe);
      appendItem(batch.data, key, layout == kPacked ? kLengths[key % std::size(kLengths)] : width);
      batch.offsets.push_back(static_cast<std::uint32_t>(batch.data.size()));
    }
    batch.items = layout == kPacked ? ItemBatch::packed(batch.data.data(), batch.offsets.data(), count)
                                    : ItemBatch::fixed(batch.data.data(), width, count);
    const ItemBatch& items = batch.items;

    switch (kind) {
      case kInsertMany: {
        std::size_t added = 0;
        while (added < count && single.insert(items.item(added), items.length(added))) ++added;
        const std::size_t batchAdded = batched.insertMany(items);
        FUZZ_REQUIRE(batchAdded == added, "operation %u: insertMany of %zu (layout %u) added %zu, single items %zu",
                     step, count, layout, batchAdded, added);
        break;
      }
      case kContainsMany: {
        std::vector<unsigned char> answers(count + 1, 0xAA);
        batched.containsMany(items, answers.data());
        FUZZ_REQUIRE(answers[count] == 0xAA, "operation %u: containsMany of %zu wrote past its answers", step, count);
        for (std::size_t k = 0; k < count; ++k) {
          const unsigned expected = single.contains(items.item(k), items.length(k)) ? 1 : 0;
          FUZZ_REQUIRE(answers[k] == expected, "operation %u: containsMany of %zu (layout %u) answered %u for item %zu, contains %u",
                       step, count, layout, answers[k], k, expected);
        }
        break;
      }
      default: {
        std::size_t erased = 0;
        for (std::size_t k = 0; k < count; ++k) erased += single.erase(items.item(k), items.length(k)) ? 1 : 0;
        const std::size_t batchErased = batched.eraseMany(items);
        FUZZ_REQUIRE(batchErased == erased, "operation %u: eraseMany of %zu (layout %u) erased %zu, single items %zu",
                     step, count, layout, batchErased, erased);
        break;
      }
    }
    FUZZ_REQUIRE(serialized(batched) == serialized(single),
                 "operation %u (kind %u, layout %u, %zu items) left different bytes; kernels %s and %s", step, kind,
                 layout, count, batched.kernelName(), single.kernelName());
  }
  return 0;
}
