#pragma once
// The item operations both filter classes share (CuckooFilter and
// ScalableCuckooFilter have the same item methods and batches), written once
// as templates; cuckoo_exports.cpp and scalable_exports.cpp export them under
// explicit names, one plain function per call, so that JavaScript calls the
// core with no layer between.
//
// An item crosses as (address, length) of bytes the TypeScript layer wrote
// into wasm memory, or, for a number, as the number itself: a safe integer
// (TypeScript checks it), hashed as its 8-byte little-endian int64, exactly as
// the bytes path hashes the same number written out.

#include <cstdint>
#include <cstring>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/item_batch.hpp"
#include "glue.hpp"

namespace glue {

// A number item's 8 bytes. wasm32 is little-endian, so the int64's bytes in
// memory are the item's encoding.
struct NumberItem {
  unsigned char bytes[8];
  explicit NumberItem(double value) noexcept {
    const auto integer = static_cast<std::int64_t>(value);
    std::memcpy(bytes, &integer, sizeof bytes);
  }
};

template <class Filter>
Filter& filterAt(Handle handle) {
  return objectAt<Filter>(handle);
}

template <class Filter>
[[gnu::flatten]] int addBytes(Handle h, Address item, std::uint32_t length) {
  return filterAt<Filter>(h).insert(bytesAt(item), length) ? 1 : 0;
}
// 1 only when the item was added (not already present, not full).
template <class Filter>
[[gnu::flatten]] int addUniqueBytes(Handle h, Address item, std::uint32_t length) {
  return filterAt<Filter>(h).insertUnique(bytesAt(item), length) == cuckoo::InsertOutcome::kInserted ? 1 : 0;
}
template <class Filter>
[[gnu::flatten]] int hasBytes(Handle h, Address item, std::uint32_t length) {
  return filterAt<Filter>(h).contains(bytesAt(item), length) ? 1 : 0;
}
template <class Filter>
[[gnu::flatten]] int deleteBytes(Handle h, Address item, std::uint32_t length) {
  return filterAt<Filter>(h).erase(bytesAt(item), length) ? 1 : 0;
}
template <class Filter>
[[gnu::flatten]] std::uint32_t countBytes(Handle h, Address item, std::uint32_t length) {
  return filterAt<Filter>(h).count(bytesAt(item), length);
}

template <class Filter>
[[gnu::flatten]] int addNumber(Handle h, double value) {
  const NumberItem item(value);
  return filterAt<Filter>(h).insert(item.bytes, sizeof item.bytes) ? 1 : 0;
}
template <class Filter>
[[gnu::flatten]] int addUniqueNumber(Handle h, double value) {
  const NumberItem item(value);
  return filterAt<Filter>(h).insertUnique(item.bytes, sizeof item.bytes) == cuckoo::InsertOutcome::kInserted ? 1 : 0;
}
template <class Filter>
[[gnu::flatten]] int hasNumber(Handle h, double value) {
  const NumberItem item(value);
  return filterAt<Filter>(h).contains(item.bytes, sizeof item.bytes) ? 1 : 0;
}
template <class Filter>
[[gnu::flatten]] int deleteNumber(Handle h, double value) {
  const NumberItem item(value);
  return filterAt<Filter>(h).erase(item.bytes, sizeof item.bytes) ? 1 : 0;
}
template <class Filter>
[[gnu::flatten]] std::uint32_t countNumber(Handle h, double value) {
  const NumberItem item(value);
  return filterAt<Filter>(h).count(item.bytes, sizeof item.bytes);
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
