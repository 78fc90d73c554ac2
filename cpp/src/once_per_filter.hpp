#pragma once
// Marks code that runs once per filter (creating, copying, merging, clearing,
// statistics) rather than once per item. In WebAssembly, which is downloaded,
// it is optimized for size while the code around it that runs per item stays
// optimized for speed; natively it is left as it is. The GNU spelling marks a
// lambda too, written after its parameters (a lambda is a function of its
// own, which the function around it does not mark), where [[clang::minsize]]
// would be an attribute of its type.

#if defined(__wasm__) && defined(__clang__)
#define CUCKOO_ONCE_PER_FILTER __attribute__((minsize))
#else
#define CUCKOO_ONCE_PER_FILTER
#endif
