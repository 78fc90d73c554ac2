#pragma once
// The item operations both filter classes share (CuckooFilter and
// ScalableCuckooFilter have the same item methods and batches), bound once
// per class from one template each: the bindings of one class are these
// instantiated for it.

#include <emscripten/bind.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "cuckoo/cuckoo_filter.hpp"
#include "cuckoo/item_batch.hpp"
#include "glue.hpp"

namespace glue {

template <class Filter>
Filter& filterAt(Handle handle) {
  return objectAt<Filter>(handle);
}

template <class Filter>
bool insertItem(Handle h, Address item, std::size_t length) {
  return filterAt<Filter>(h).insert(bytesAt(item), length);
}
// True only when the item was added (not already present, not full).
template <class Filter>
bool insertUniqueItem(Handle h, Address item, std::size_t length) {
  return filterAt<Filter>(h).insertUnique(bytesAt(item), length) == cuckoo::InsertOutcome::kInserted;
}
template <class Filter>
bool containsItem(Handle h, Address item, std::size_t length) {
  return filterAt<Filter>(h).contains(bytesAt(item), length);
}
template <class Filter>
bool eraseItem(Handle h, Address item, std::size_t length) {
  return filterAt<Filter>(h).erase(bytesAt(item), length);
}
template <class Filter>
unsigned countItem(Handle h, Address item, std::size_t length) {
  return filterAt<Filter>(h).count(bytesAt(item), length);
}

// Batches, in the layouts of PackedItems / FixedItems, handed to the core's
// batch operations whole. Inserts stop at the first item that does not fit
// and return how many were stored.
inline cuckoo::ItemBatch packedBatch(Address data, Address offsets, unsigned count) {
  return cuckoo::ItemBatch::packed(bytesAt(data), wordsAt(offsets), count);
}
inline cuckoo::ItemBatch fixedBatch(Address data, unsigned width, unsigned count) {
  return cuckoo::ItemBatch::fixed(bytesAt(data), width, count);
}
inline unsigned char* answersAt(Address out) { return reinterpret_cast<unsigned char*>(out); }

template <class Filter>
unsigned insertPacked(Handle h, Address data, Address offsets, unsigned count) {
  return static_cast<unsigned>(filterAt<Filter>(h).insertMany(packedBatch(data, offsets, count)));
}
template <class Filter>
void containsPacked(Handle h, Address data, Address offsets, unsigned count, Address out) {
  filterAt<Filter>(h).containsMany(packedBatch(data, offsets, count), answersAt(out));
}
template <class Filter>
unsigned erasePacked(Handle h, Address data, Address offsets, unsigned count) {
  return static_cast<unsigned>(filterAt<Filter>(h).eraseMany(packedBatch(data, offsets, count)));
}
template <class Filter>
unsigned insertFixed(Handle h, Address data, unsigned width, unsigned count) {
  return static_cast<unsigned>(filterAt<Filter>(h).insertMany(fixedBatch(data, width, count)));
}
template <class Filter>
void containsFixed(Handle h, Address data, unsigned width, unsigned count, Address out) {
  filterAt<Filter>(h).containsMany(fixedBatch(data, width, count), answersAt(out));
}
template <class Filter>
unsigned eraseFixed(Handle h, Address data, unsigned width, unsigned count) {
  return static_cast<unsigned>(filterAt<Filter>(h).eraseMany(fixedBatch(data, width, count)));
}

template <class Filter>
double serializedSize(Handle h) {
  return static_cast<double>(filterAt<Filter>(h).serializedSize());
}
template <class Filter>
void serializeFilter(Handle h, Address out) {
  filterAt<Filter>(h).serialize(reinterpret_cast<unsigned char*>(out));
}
template <class Filter>
int deserializeFilter(Address data, std::size_t length, Address outHandle) {
  Filter filter;
  return adoptIfOk(Filter::deserialize(bytesAt(data), length, filter), std::move(filter), outHandle);
}
template <class Filter>
int cloneFilter(Handle handle, Address outHandle) {
  Filter copy;
  return adoptIfOk(filterAt<Filter>(handle).cloneTo(copy), std::move(copy), outHandle);
}
template <class Filter>
void destroyFilter(Handle handle) {
  delete &filterAt<Filter>(handle);
}
// Adds every entry of the filter `other` to `h`'s: a cuckoo::Status.
template <class Filter>
int mergeFilter(Handle h, Handle other) {
  return static_cast<int>(filterAt<Filter>(h).merge(filterAt<Filter>(other)));
}

// Registers the shared operations as `prefix` + their names (cuckooInsertItem, ...).
template <class Filter>
void bindItemCalls(const char* prefix) {
  // embind reads a name as it registers it, so one string serves them all.
  std::string full;
  const auto name = [prefix, &full](const char* call) {
    full.assign(prefix).append(call);
    return full.c_str();
  };
  using emscripten::function;
  function(name("InsertItem"), &insertItem<Filter>);
  function(name("InsertUniqueItem"), &insertUniqueItem<Filter>);
  function(name("ContainsItem"), &containsItem<Filter>);
  function(name("EraseItem"), &eraseItem<Filter>);
  function(name("CountItem"), &countItem<Filter>);
  function(name("InsertPacked"), &insertPacked<Filter>);
  function(name("ContainsPacked"), &containsPacked<Filter>);
  function(name("ErasePacked"), &erasePacked<Filter>);
  function(name("InsertFixed"), &insertFixed<Filter>);
  function(name("ContainsFixed"), &containsFixed<Filter>);
  function(name("EraseFixed"), &eraseFixed<Filter>);
  function(name("SerializedSize"), &serializedSize<Filter>);
  function(name("Serialize"), &serializeFilter<Filter>);
  function(name("Deserialize"), &deserializeFilter<Filter>);
  function(name("Clone"), &cloneFilter<Filter>);
  function(name("Destroy"), &destroyFilter<Filter>);
  function(name("Merge"), &mergeFilter<Filter>);
}

}  // namespace glue
