#pragma once
// The generic kernel's table (kernels_generic.cpp), which kernels.cpp's
// specialised tables take their rarer operations from.

#include "cuckoo/cuckoo_filter.hpp"

namespace cuckoo::detail {

extern const KernelTable kGeneric;

}  // namespace cuckoo::detail
