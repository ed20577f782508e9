// What the Ioiwari fuzz targets share: the solved table, built once, and FUZZ_CHECK.
#pragma once

#include "fuzz_invariant.hpp"
#include "ioiwari/core/table.hpp"

namespace ioiwari::fuzz {

inline const Table& table() {
  static const Table solved = Table::solve(Ring::ioi(), {});
  return solved;
}

}  // namespace ioiwari::fuzz
