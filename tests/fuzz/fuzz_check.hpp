// What the fuzz targets share: the solved table, built once, and a check that aborts (so
// libFuzzer saves the input) when an invariant fails.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "ioiwari/solver.hpp"

namespace ioiwari::fuzz {

inline const Table& table() {
  static const Table solved = Table::solve();
  return solved;
}

#define FUZZ_CHECK(condition)                                                                \
  do {                                                                                       \
    if (!(condition)) {                                                                      \
      std::fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                          \
    }                                                                                        \
  } while (false)

}  // namespace ioiwari::fuzz
