#pragma once
// Marks code that runs once per filter (creating, copying, merging, clearing,
// statistics) rather than once per item. In WebAssembly, which is downloaded,
// it is optimized for size while the code around it that runs per item stays
// optimized for speed; natively it is left as it is.

#if defined(__wasm__) && defined(__clang__)
#define CUCKOO_ONCE_PER_FILTER [[clang::minsize]]
#else
#define CUCKOO_ONCE_PER_FILTER
#endif
