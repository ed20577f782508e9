// `ioiwari bench`: how fast the table builds, and a signature of what it holds.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/table.hpp"

namespace ioiwari {

// The generic memoized negamax (include/negamax) solving every board, for comparison.
struct NegamaxBench {
  double median_ms = 0;
  std::size_t positions = 0;  // boards it evaluated: all of them, it knows no rotations
  bool agrees = false;        // its value of every board is the table's
  double positions_per_second() const {
    return median_ms > 0 ? static_cast<double>(positions) / (median_ms / 1000) : 0;
  }
};

// A whole game as its own process, and `ioiwari --version` for comparison: what a judge waits
// for, start-up included. Times are medians of wall time; faults are medians of the minor page
// faults (a count that hardly moves from run to run).
struct ProcessBench {
  int runs = 0;
  double game_ms = 0, version_ms = 0;
  long game_faults = 0, version_faults = 0;
};

struct BenchResult {
  Ring ring;           // the IOI's unless --pits or --capacity say otherwise
  bool named = false;  // whether the result names the ring (not for the IOI's, as always)
  int runs = 0;
  double median_ms = 0, fastest_ms = 0, slowest_ms = 0;
  std::size_t positions = 0;  // boards the solver evaluated
  std::size_t boards = 0;     // boards in the table
  std::uint64_t checksum = 0;
  std::optional<NegamaxBench> negamax;
  std::optional<ProcessBench> process;
  double boards_per_second() const {
    return median_ms > 0 ? static_cast<double>(boards) / (median_ms / 1000) : 0;
  }
  double positions_per_second() const {
    return median_ms > 0 ? static_cast<double>(positions) / (median_ms / 1000) : 0;
  }
};

// Builds the table of `ring` `runs` times with Table::solve() and measures each build. With
// `negamax`, also solves every board of the ring `runs` times with the generic library, in turn
// with the table's builds so that both see the same machine, and compares their values (it
// holds an entry for every board: a ring of up to 10^8 boards). `ran`, when given, is told
// after each run how many are done.
BenchResult run_bench(int runs, bool negamax, Ring ring, const std::function<void(int)>& ran);

// Runs `program` (ioiwari itself) `runs` times as a child on a whole game, and as many times
// with --version, in turn: the IOI game from 4 3 2 4 2 3 2 against `table`'s own best replies,
// read from a pipe. Nothing when the program cannot be run, or does not write exactly
// `table`'s best moves of that game and exit 0, or does not name itself ioiwari for --version
// (POSIX: posix_spawn, wait4). Sets SIGPIPE to be ignored in this process, as ChildProcess
// does.
std::optional<ProcessBench> time_processes(const std::string& program, int runs,
                                           const Table& table);

// The result for people, or as one JSON object.
void write_bench(std::ostream& out, const BenchResult& result, bool json);

}  // namespace ioiwari
