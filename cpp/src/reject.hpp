#pragma once
// Every rejection funnels through one cold, out-of-line function so that the
// happy paths of validation and deserialization stay a straight line of
// compares and the error handling stays out of the way.

#include "cuckoo/status.hpp"

namespace cuckoo::detail {

[[gnu::cold, gnu::noinline]] inline Status rejected(Status status) noexcept { return status; }

}  // namespace cuckoo::detail
