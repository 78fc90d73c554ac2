#pragma once
// The generic kernels' tables (kernels_generic.cpp), which kernels.cpp's
// specialised tables take their rarer operations from.

#include "cuckoo/cuckoo_filter.hpp"

namespace cuckoo::detail {

extern const KernelTable kGenericPacked;
extern const KernelTable kGenericSemiSorted;

}  // namespace cuckoo::detail
