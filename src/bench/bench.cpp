#include "ioiwari/bench/bench.hpp"
#include "textio/number.hpp"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <optional>
#include <ostream>
#include <vector>

#include "ioiwari/core/negamax_game.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/table.hpp"
#include "negamax/solver.hpp"

namespace ioiwari {

namespace {

double median(std::vector<double>& millis) {
  std::sort(millis.begin(), millis.end());
  return millis.empty() ? 0 : millis[millis.size() / 2];
}

template <class Work>
double time_ms(Work&& work) {
  const auto begin = std::chrono::steady_clock::now();
  work();
  const auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(end - begin).count();
}

}  // namespace

BenchResult run_bench(int runs, bool negamax, Ring ring, const std::function<void(int)>& ran) {
  BenchResult result;
  result.ring = ring;
  result.runs = runs;
  result.boards = static_cast<std::size_t>(ring.code_count());
  std::vector<double> millis, negamax_millis;
  for (int run = 0; run < runs; ++run) {
    std::optional<Table> table;
    millis.push_back(time_ms([&] { table = Table::solve(ring, {}); }));
    if (run == 0) {
      result.positions = table->positions();
      result.checksum = table->checksum();
    }
    if (negamax) {
      // In turn with the table's builds, so that both see the same machine.
      std::optional<negamax::Solver<NegamaxGame>> solver;
      negamax_millis.push_back(time_ms([&] {
        solver.emplace(NegamaxGame{ring});
        for (Board::Code code = 0; code < ring.code_count(); ++code)
          solver->value(Board::from_code(code, ring));
      }));
      if (run == 0) {
        NegamaxBench bench;
        bench.positions = solver->positions();
        bench.agrees = true;
        for (Board::Code code = 0; code < ring.code_count(); ++code) {
          const Board board = Board::from_code(code, ring);
          bench.agrees = bench.agrees && solver->value(board) == table->value(board);
        }
        result.negamax = bench;
      }
    }
    if (ran) ran(run + 1);
  }
  result.fastest_ms = millis.empty() ? 0 : *std::min_element(millis.begin(), millis.end());
  result.slowest_ms = millis.empty() ? 0 : *std::max_element(millis.begin(), millis.end());
  result.median_ms = median(millis);
  if (result.negamax) result.negamax->median_ms = median(negamax_millis);
  return result;
}

void write_bench(std::ostream& out, const BenchResult& result, bool json) {
  const auto flags = out.flags();
  if (json) {
    out << std::fixed << std::setprecision(4) << "{";
    if (result.named) {
      out << "\"ring\": {\"pits\": " << result.ring.pits
          << ", \"capacity\": " << result.ring.capacity << "}, ";
    }
    out << "\"runs\": " << result.runs << ", \"median_ms\": " << result.median_ms
        << ", \"fastest_ms\": " << result.fastest_ms << ", \"slowest_ms\": " << result.slowest_ms
        << ", \"boards\": " << result.boards << ", \"boards_per_second\": " << std::setprecision(0)
        << result.boards_per_second() << ", \"positions\": " << result.positions
        << ", \"checksum\": \"" << std::hex << std::setw(16) << std::setfill('0') << result.checksum
        << '"' << std::dec;
    if (const auto& negamax = result.negamax) {
      out << ", \"negamax\": {\"median_ms\": " << std::setprecision(4) << negamax->median_ms
          << ", \"positions\": " << negamax->positions
          << ", \"positions_per_second\": " << std::setprecision(0)
          << negamax->positions_per_second()
          << ", \"table_positions_per_second\": " << result.positions_per_second()
          << ", \"agrees\": " << (negamax->agrees ? "true" : "false") << "}";
    }
    if (const auto& process = result.process) {
      out << ", \"process\": {\"runs\": " << process->runs
          << ", \"game_ms\": " << std::setprecision(4) << process->game_ms
          << ", \"version_ms\": " << process->version_ms
          << ", \"game_faults\": " << process->game_faults
          << ", \"version_faults\": " << process->version_faults << "}";
    }
    out << "}\n";
  } else {
    out << std::fixed << std::setprecision(3);
    if (result.named) out << "ring of " << result.ring.describe() << ": ";
    out << "table build, " << textio::counted(result.runs, "run", "runs") << ": median "
        << result.median_ms << " ms (fastest " << result.fastest_ms << ", slowest "
        << result.slowest_ms << ")\n"
        << "classes solved per second: " << std::setprecision(0) << result.positions_per_second()
        << " (" << result.positions << " classes, the table of all " << result.boards
        << " boards)\n"
        << "signature: " << result.positions << " positions, checksum " << std::hex << std::setw(16)
        << std::setfill('0') << result.checksum << '\n';
    if (const auto& negamax = result.negamax) {
      out << std::dec << std::setprecision(3) << "generic negamax (include/negamax), "
          << textio::counted(result.runs, "run", "runs") << ": median " << negamax->median_ms
          << " ms\n"
          << "positions per second: " << std::setprecision(0) << negamax->positions_per_second()
          << " (" << negamax->positions << " positions) against the table's "
          << result.positions_per_second() << " (" << result.positions << ")\n"
          << "values: "
          << (negamax->agrees ? "the same as the table's on every board"
                              : "DIFFERENT from the table's")
          << '\n';
    }
    if (const auto& process = result.process) {
      out << std::dec << std::setprecision(3) << "a whole game as a process, "
          << textio::counted(process->runs, "run", "runs") << ": median " << process->game_ms
          << " ms; ioiwari --version: " << process->version_ms << " ms\n"
          << "minor page faults: " << process->game_faults << " a game, " << process->version_faults
          << " for --version (" << process->game_faults - process->version_faults << " more)\n";
    }
  }
  out.flags(flags);
}

}  // namespace ioiwari
