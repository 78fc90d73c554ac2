#pragma once
// What the algorithms and kernels do differently when compiled to
// WebAssembly, in one place: the switches the code tests, not the attributes
// each file puts on its own functions.

namespace cuckoo::detail {

// WebAssembly is downloaded, so there the algorithms and kernels trade a
// little speed for size (filter_algorithms.hpp's eraseIn, kernel.hpp).
#if defined(__wasm__)
inline constexpr bool kCompactCode = true;
#else
inline constexpr bool kCompactCode = false;
#endif

// How a table view, a bucket relation or an item's place is handed to a
// function that may be out of line: natively by value, in registers; in
// WebAssembly by reference. There a structure passed by value is a copy in
// memory, even into an inlined function, and a view written as 32-bit
// fields and copied as a 64-bit word misses store forwarding: the call then
// waits for the instructions before it to retire (bench/README.md).
#if defined(__wasm__)
template <class T>
using PassedStructure = T&;
#else
template <class T>
using PassedStructure = T;
#endif

}  // namespace cuckoo::detail
