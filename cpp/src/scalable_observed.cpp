// The growable filter's observed insert, for inspection (cuckoo-wasm/inspect).
// A file of its own: compiled beside the plain insert, its second
// instantiation of the growth made the compiler stop inlining the table's
// reads and writes into the plain one (1.3 % more instructions over 2e5
// inserts, 4e5 lookups and 1e5 deletes, callgrind).

#include "cuckoo/scalable_filter.hpp"
#include "scalable_growth.hpp"
#include "scalable_ops.hpp"

namespace cuckoo {

bool ScalableCuckooFilter::insertObserved(const void* item, std::size_t length, GrowthObserver& observer) noexcept {
  return Growth::insertLocated(*this, Ops::locate(*this, item, length), observer);
}

}  // namespace cuckoo
