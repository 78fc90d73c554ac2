#pragma once
// What every bindings file does to move values across the boundary, written
// once: objects cross as integer handles (their heap address), items as
// (address, length) into wasm memory the TypeScript layer filled, 64-bit seeds
// as two 32-bit halves, and integer options as JavaScript numbers. Results that
// do not fit a return value go to memory the caller provides.

#include <emscripten/em_macros.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <new>

#include "cuckoo/item_batch.hpp"
#include "cuckoo/status.hpp"

// A plain function of the module's exports, under its own name: what
// ts/src/core-exports.ts lists and calls directly, with no embind invoker.
#define CUCKOO_EXPORT extern "C" EMSCRIPTEN_KEEPALIVE

namespace glue {

using Handle = std::uintptr_t;
using Address = std::uintptr_t;

template <class Object>
Object& objectAt(Handle handle) {
  return *reinterpret_cast<Object*>(handle);
}

inline const unsigned char* bytesAt(Address address) { return reinterpret_cast<const unsigned char*>(address); }
inline std::uint32_t* wordsAt(Address address) { return reinterpret_cast<std::uint32_t*>(address); }

inline std::uint64_t joinSeed(std::uint32_t low, std::uint32_t high) { return (std::uint64_t{high} << 32) | low; }

// A plain filter's table options, as TypeScript passes them in one int
// (ts/src/validate.ts, tableFlags): bit 0 semi-sorted buckets, bit 1 the
// keyed item hash, bit 2 the multiply-shift hash of 64-bit keys (with bit 1,
// the core refuses the pair: kConflictingHashes).
inline bool semiSortedIn(int flags) { return (flags & 1) != 0; }
inline bool keyedHashIn(int flags) { return (flags & 2) != 0; }
inline bool multiplyShiftHashIn(int flags) { return (flags & 4) != 0; }

// An integer option as TypeScript passed it, a JavaScript number. A whole
// number in range becomes itself; a fraction, NaN, an infinity, a negative or
// a too large number becomes the type's largest value, which every check of
// the core refuses, so the core's own status and message report it.
template <class Integer>
Integer wholeNumber(double value) {
  constexpr Integer kRefused = std::numeric_limits<Integer>::max();
  // 2^64 as a double; the largest uint64 is not representable.
  const bool inRange = value >= 0 && value < 18446744073709551616.0 &&
                       value <= static_cast<double>(std::numeric_limits<Integer>::max());
  if (!inRange) return kRefused;
  const auto whole = static_cast<Integer>(value);
  return static_cast<double>(whole) == value ? whole : kRefused;
}

// Batches, in the two layouts of ts/src/batches.ts: items packed back to back
// (item k spans [offsets[k], offsets[k + 1]) of `data`), or `width` bytes each.
inline cuckoo::ItemBatch packedBatch(Address data, Address offsets, std::uint32_t count) {
  return cuckoo::ItemBatch::packed(bytesAt(data), wordsAt(offsets), count);
}
inline cuckoo::ItemBatch fixedBatch(Address data, std::uint32_t width, std::uint32_t count) {
  return cuckoo::ItemBatch::fixed(bytesAt(data), width, count);
}

// An object made on the heap and handed to JavaScript: `make(object)` fills a
// default-constructed Object (a core call that returns a Status); on success
// its address, a uint32 on wasm32, is written to `outHandle` as the handle,
// otherwise the object is deleted and the status returned. Made in place, not
// moved there: every maker shares the two out-of-line halves below instead of
// inlining a move and a destructor of its own.
template <class Object>
[[gnu::noinline]] Object* newObject() {
  return new (std::nothrow) Object();
}
template <class Object>
[[gnu::noinline]] int keepIfOk(Object* object, cuckoo::Status status, Address outHandle) {
  if (status != cuckoo::Status::kOk) {
    delete object;
    return static_cast<int>(status);
  }
  const auto handle = static_cast<std::uint32_t>(reinterpret_cast<Handle>(object));
  std::memcpy(reinterpret_cast<void*>(outHandle), &handle, sizeof handle);
  return static_cast<int>(cuckoo::Status::kOk);
}
template <class Object, class Make>
int adoptMade(Address outHandle, Make&& make) {
  Object* object = newObject<Object>();
  if (object == nullptr) return static_cast<int>(cuckoo::Status::kOutOfMemory);
  return keepIfOk(object, make(*object), outHandle);
}

}  // namespace glue
