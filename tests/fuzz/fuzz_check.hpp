#pragma once
// A failed check aborts, which libFuzzer records as a crash together with the
// input that caused it.

#include <cstdio>
#include <cstdlib>

#define FUZZ_REQUIRE(condition, ...)                                                       \
  do {                                                                                     \
    if (!(condition)) {                                                                    \
      std::fprintf(stderr, "%s:%d: check failed: %s\n  ", __FILE__, __LINE__, #condition); \
      std::fprintf(stderr, __VA_ARGS__);                                                   \
      std::fputc('\n', stderr);                                                            \
      std::abort();                                                                        \
    }                                                                                      \
  } while (0)
