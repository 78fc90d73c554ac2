#pragma once
// The item operations both filter classes share (CuckooFilter and
// ScalableCuckooFilter have the same item methods and batches), written once
// as templates, and exported by GLUE_ITEM_EXPORTS at the end for each class
// (cuckoo_exports.cpp, scalable_exports.cpp), one plain function per call, so
// that JavaScript calls the core with no layer between.
//
// An item crosses as (address, length) of bytes the TypeScript layer wrote
// into wasm memory, or, for a number, as the number itself: a safe integer
// (TypeScript checks it), hashed as its 8-byte little-endian int64, exactly as
// the bytes path hashes the same number written out.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/item_batch.hpp"
#include "glue.hpp"

namespace glue {

// A number item: its int64, which a CuckooFilter takes as its key (the item
// of its 8 little-endian bytes, hashed without a trip through memory), and
// those bytes for the calls that take bytes alone. wasm32 is little-endian,
// so the int64's bytes in memory are the item's encoding.
struct NumberItem {
  std::uint64_t key;
  explicit NumberItem(double value) noexcept : key(static_cast<std::uint64_t>(static_cast<std::int64_t>(value))) {}
  const void* bytes() const noexcept { return &key; }
};

// Whether a filter class has the key overloads (CuckooFilter's insert,
// contains and erase on a std::uint64_t).
template <class Filter, class = void>
inline constexpr bool kTakesKeys = false;
template <class Filter>
inline constexpr bool kTakesKeys<Filter, std::void_t<decltype(std::declval<Filter&>().insert(std::uint64_t{}))>> = true;

template <class Filter>
Filter& filterAt(Handle handle) {
  return objectAt<Filter>(handle);
}

// Each item call on an item's bytes, wherever they are: in wasm memory, or a
// number's NumberItem. 1 or 0, or the copies counted; addedUnique is 1 only
// when the item was added (not already present, not full).
template <class Filter>
[[gnu::flatten]] int added(Filter& f, const void* item, std::size_t length) { return f.insert(item, length) ? 1 : 0; }
template <class Filter>
[[gnu::flatten]] int addedUnique(Filter& f, const void* item, std::size_t length) {
  return f.insertUnique(item, length) == cuckoo::InsertOutcome::kInserted ? 1 : 0;
}
template <class Filter>
[[gnu::flatten]] int found(Filter& f, const void* item, std::size_t length) { return f.contains(item, length) ? 1 : 0; }
template <class Filter>
[[gnu::flatten]] int erased(Filter& f, const void* item, std::size_t length) { return f.erase(item, length) ? 1 : 0; }
template <class Filter>
[[gnu::flatten]] std::uint32_t copies(Filter& f, const void* item, std::size_t length) { return f.count(item, length); }

// The same on a number item: the key overloads where the class has them.
template <class Filter>
int added(Filter& f, const NumberItem& n) {
  if constexpr (kTakesKeys<Filter>) return f.insert(n.key) ? 1 : 0;
  return added(f, n.bytes(), sizeof n.key);
}
template <class Filter>
int found(Filter& f, const NumberItem& n) {
  if constexpr (kTakesKeys<Filter>) return f.contains(n.key) ? 1 : 0;
  return found(f, n.bytes(), sizeof n.key);
}
template <class Filter>
int erased(Filter& f, const NumberItem& n) {
  if constexpr (kTakesKeys<Filter>) return f.erase(n.key) ? 1 : 0;
  return erased(f, n.bytes(), sizeof n.key);
}
template <class Filter>
int addedUnique(Filter& f, const NumberItem& n) {
  return addedUnique(f, n.bytes(), sizeof n.key);
}
template <class Filter>
std::uint32_t copies(Filter& f, const NumberItem& n) {
  return copies(f, n.bytes(), sizeof n.key);
}

// Batches (glue.hpp's layouts) handed to the core's batch operations whole.
// Adds stop at the first item that does not fit and return how many were
// stored.
inline unsigned char* answersAt(Address out) { return reinterpret_cast<unsigned char*>(out); }

template <class Filter>
std::uint32_t addPacked(Handle h, Address data, Address offsets, std::uint32_t count) {
  return static_cast<std::uint32_t>(filterAt<Filter>(h).insertMany(packedBatch(data, offsets, count)));
}
template <class Filter>
void hasPacked(Handle h, Address data, Address offsets, std::uint32_t count, Address out) {
  filterAt<Filter>(h).containsMany(packedBatch(data, offsets, count), answersAt(out));
}
template <class Filter>
std::uint32_t deletePacked(Handle h, Address data, Address offsets, std::uint32_t count) {
  return static_cast<std::uint32_t>(filterAt<Filter>(h).eraseMany(packedBatch(data, offsets, count)));
}
template <class Filter>
std::uint32_t addFixed(Handle h, Address data, std::uint32_t width, std::uint32_t count) {
  return static_cast<std::uint32_t>(filterAt<Filter>(h).insertMany(fixedBatch(data, width, count)));
}
template <class Filter>
void hasFixed(Handle h, Address data, std::uint32_t width, std::uint32_t count, Address out) {
  filterAt<Filter>(h).containsMany(fixedBatch(data, width, count), answersAt(out));
}
template <class Filter>
std::uint32_t deleteFixed(Handle h, Address data, std::uint32_t width, std::uint32_t count) {
  return static_cast<std::uint32_t>(filterAt<Filter>(h).eraseMany(fixedBatch(data, width, count)));
}

// The bytes (FORMAT.md), copies, merging and release.
template <class Filter>
double serializedSize(Handle h) {
  return static_cast<double>(filterAt<Filter>(h).serializedSize());
}
template <class Filter>
void serializeTo(Handle h, Address out) {
  filterAt<Filter>(h).serialize(reinterpret_cast<unsigned char*>(out));
}
// `length` is below 2^31 (TypeScript copies the input into one wasm block).
template <class Filter>
int deserializeFrom(Address data, std::uint32_t length, Address outHandle) {
  return adoptMade<Filter>(outHandle, [&](Filter& filter) { return Filter::deserialize(bytesAt(data), length, filter); });
}
template <class Filter>
int cloneOf(Handle handle, Address outHandle) {
  return adoptMade<Filter>(outHandle, [&](Filter& copy) { return filterAt<Filter>(handle).cloneTo(copy); });
}
template <class Filter>
void destroy(Handle handle) {
  delete &filterAt<Filter>(handle);
}
// Adds every entry of the filter `other` to `h`'s: a cuckoo::Status.
template <class Filter>
int mergeInto(Handle h, Handle other) {
  return static_cast<int>(filterAt<Filter>(h).merge(filterAt<Filter>(other)));
}

}  // namespace glue

// One item call exported for a filter class: prefix_name on bytes in wasm
// memory, prefix_name_number on a number item.
#define GLUE_BYTES_CALL(prefix, name, Filter, Result, call)                                                   \
  CUCKOO_EXPORT Result prefix##_##name(glue::Handle h, glue::Address item, std::uint32_t length) {            \
    return glue::call(glue::filterAt<Filter>(h), glue::bytesAt(item), length);                                \
  }
#define GLUE_NUMBER_CALL(prefix, name, Filter, Result, call)                                                  \
  CUCKOO_EXPORT Result prefix##_##name##_number(glue::Handle h, double value) {                              \
    return glue::call(glue::filterAt<Filter>(h), glue::NumberItem(value));                                   \
  }
// The five item calls, each given to CALL (one of the two above).
#define GLUE_ITEM_CALLS(prefix, Filter, CALL)                                                                 \
  CALL(prefix, add, Filter, int, added)                                                                       \
  CALL(prefix, add_unique, Filter, int, addedUnique)                                                          \
  CALL(prefix, has, Filter, int, found)                                                                       \
  CALL(prefix, delete, Filter, int, erased)                                                                   \
  CALL(prefix, count, Filter, std::uint32_t, copies)

// The three batch calls in one of glue.hpp's layouts (Packed: data and
// offsets; Fixed: data and a width).
#define GLUE_BATCH_CALLS(prefix, Filter, layout, Layout, LayoutParameter, layoutArgument)                     \
  CUCKOO_EXPORT std::uint32_t prefix##_add_##layout(glue::Handle h, glue::Address data, LayoutParameter,      \
                                                    std::uint32_t count) {                                    \
    return glue::add##Layout<Filter>(h, data, layoutArgument, count);                                         \
  }                                                                                                           \
  CUCKOO_EXPORT void prefix##_has_##layout(glue::Handle h, glue::Address data, LayoutParameter,               \
                                           std::uint32_t count, glue::Address out) {                          \
    glue::has##Layout<Filter>(h, data, layoutArgument, count, out);                                           \
  }                                                                                                           \
  CUCKOO_EXPORT std::uint32_t prefix##_delete_##layout(glue::Handle h, glue::Address data, LayoutParameter,   \
                                                       std::uint32_t count) {                                 \
    return glue::delete##Layout<Filter>(h, data, layoutArgument, count);                                      \
  }

// Everything above exported for one filter class under its prefix (cuckoo_,
// scalable_), by the names ts/src/core-exports.ts lists: the item calls
// (prefix_add, prefix_add_number, ..., prefix_count_number), the batches
// (prefix_add_packed, ..., prefix_delete_fixed), and prefix_serialized_size,
// _serialize, _deserialize, _clone, _destroy and _merge.
#define GLUE_ITEM_EXPORTS(prefix, Filter)                                                                      \
  GLUE_ITEM_CALLS(prefix, Filter, GLUE_BYTES_CALL)                                                            \
  GLUE_ITEM_CALLS(prefix, Filter, GLUE_NUMBER_CALL)                                                           \
  GLUE_BATCH_CALLS(prefix, Filter, packed, Packed, glue::Address offsets, offsets)                           \
  GLUE_BATCH_CALLS(prefix, Filter, fixed, Fixed, std::uint32_t width, width)                                 \
  CUCKOO_EXPORT double prefix##_serialized_size(glue::Handle h) { return glue::serializedSize<Filter>(h); }   \
  CUCKOO_EXPORT void prefix##_serialize(glue::Handle h, glue::Address out) { glue::serializeTo<Filter>(h, out); } \
  CUCKOO_EXPORT int prefix##_deserialize(glue::Address data, std::uint32_t length, glue::Address outHandle) { \
    return glue::deserializeFrom<Filter>(data, length, outHandle);                                            \
  }                                                                                                           \
  CUCKOO_EXPORT int prefix##_clone(glue::Handle h, glue::Address outHandle) {                                 \
    return glue::cloneOf<Filter>(h, outHandle);                                                               \
  }                                                                                                           \
  CUCKOO_EXPORT void prefix##_destroy(glue::Handle h) { glue::destroy<Filter>(h); }                           \
  CUCKOO_EXPORT int prefix##_merge(glue::Handle h, glue::Handle other) { return glue::mergeInto<Filter>(h, other); }
