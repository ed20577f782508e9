// `ioiwari bench`: how fast the table builds, and a signature of what it holds.
#pragma once

#include <cstdint>
#include <iosfwd>

namespace ioiwari {

struct BenchResult {
  int runs = 0;
  double median_ms = 0, fastest_ms = 0, slowest_ms = 0;
  std::size_t positions = 0;  // boards the solver evaluated
  std::size_t boards = 0;     // boards in the table
  std::uint64_t checksum = 0;
  double boards_per_second() const {
    return median_ms > 0 ? static_cast<double>(boards) / (median_ms / 1000) : 0;
  }
};

// Builds the table `runs` times in this thread and measures each build.
BenchResult run_bench(int runs);

// The result for people, or as one JSON object.
void write_bench(std::ostream& out, const BenchResult& result, bool json);

}  // namespace ioiwari
