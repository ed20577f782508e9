#include "ioiwari/bench.hpp"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <ostream>
#include <vector>

#include "ioiwari/solver.hpp"

namespace ioiwari {

BenchResult run_bench(int runs) {
  BenchResult result;
  result.runs = runs;
  std::vector<double> millis;
  for (int run = 0; run < runs; ++run) {
    const auto begin = std::chrono::steady_clock::now();
    const Table table = Table::solve();
    const auto end = std::chrono::steady_clock::now();
    millis.push_back(std::chrono::duration<double, std::milli>(end - begin).count());
    if (run == 0) {
      result.positions = table.positions();
      result.boards = static_cast<std::size_t>(kCodeCount);
      result.checksum = table.checksum();
    }
  }
  std::sort(millis.begin(), millis.end());
  if (!millis.empty()) {
    result.median_ms = millis[millis.size() / 2];
    result.fastest_ms = millis.front();
    result.slowest_ms = millis.back();
  }
  return result;
}

void write_bench(std::ostream& out, const BenchResult& result, bool json) {
  const auto flags = out.flags();
  if (json) {
    out << std::fixed << std::setprecision(4) << "{\"runs\": " << result.runs
        << ", \"median_ms\": " << result.median_ms << ", \"fastest_ms\": " << result.fastest_ms
        << ", \"slowest_ms\": " << result.slowest_ms << ", \"boards\": " << result.boards
        << ", \"boards_per_second\": " << std::setprecision(0) << result.boards_per_second()
        << ", \"positions\": " << result.positions << ", \"checksum\": \"" << std::hex
        << std::setw(16) << std::setfill('0') << result.checksum << "\"}\n";
  } else {
    out << std::fixed << std::setprecision(3) << "table build, " << result.runs << " runs: median "
        << result.median_ms << " ms (fastest " << result.fastest_ms << ", slowest "
        << result.slowest_ms << ")\n"
        << "boards per second: " << std::setprecision(0) << result.boards_per_second() << '\n'
        << "signature: " << result.positions << " positions, checksum " << std::hex << std::setw(16)
        << std::setfill('0') << result.checksum << '\n';
  }
  out.flags(flags);
}

}  // namespace ioiwari
