// Measurements, not checks: hidden from the default run (tag [.]), they report numbers.
// Run with: build/dev/tests/ioiwari_tests "[bench]"
#include <algorithm>
#include <chrono>
#include <iostream>
#include <vector>

#include "catch.hpp"
#include "ioiwari/solver.hpp"

using namespace ioiwari;

TEST_CASE("table build time", "[.][bench]") {
  constexpr int kRuns = 41;
  std::vector<double> millis;
  std::size_t positions = 0;
  for (int run = 0; run < kRuns; ++run) {
    const auto begin = std::chrono::steady_clock::now();
    const Table table = Table::solve();
    const auto end = std::chrono::steady_clock::now();
    positions = table.positions();
    millis.push_back(std::chrono::duration<double, std::milli>(end - begin).count());
  }
  std::sort(millis.begin(), millis.end());
  std::cout << "table build over " << kRuns << " runs: median " << millis[kRuns / 2]
            << " ms, fastest " << millis.front() << " ms, slowest " << millis.back() << " ms, "
            << positions << " positions\n";
  CHECK(positions == static_cast<std::size_t>(kCodeCount));
}
