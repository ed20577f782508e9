// The bench signature: what the table holds, pinned. A change to the rules or the solver that
// changes any value or best move changes the checksum; a speed-up that keeps it is harmless.
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "catch.hpp"
#include "ioiwari/bench/bench.hpp"
#include "ioiwari/cli/cli.hpp"
#include "ioiwari/cli/environment.hpp"
#include "ioiwari/core/table.hpp"

using namespace ioiwari;

namespace {
constexpr std::uint64_t kChecksum = 0x9f37a35940ea18a5ULL;
}  // namespace

TEST_CASE("the table's signature is pinned", "[bench]") {
  const BenchResult result = run_bench(1, false, Ring::ioi(), {});
  CHECK(result.checksum == kChecksum);
  CHECK(result.positions == 39996);  // one board per rotation class
  CHECK(result.boards == static_cast<std::size_t>(kCodeCount));
  CHECK(result.runs == 1);
  CHECK(result.median_ms > 0);
}

TEST_CASE("bench reports for people and for machines", "[bench]") {
  BenchResult result;
  result.runs = 3;
  result.median_ms = 2;
  result.fastest_ms = 1;
  result.slowest_ms = 3;
  result.positions = 40000;
  result.boards = 279936;
  result.checksum = 0xabc;
  std::ostringstream text, json;
  write_bench(text, result, false);
  write_bench(json, result, true);
  CHECK(text.str() ==
        "table build, 3 runs: median 2.000 ms (fastest 1.000, slowest 3.000)\n"
        "classes solved per second: 20000000 (40000 classes, the table of all 279936 boards)\n"
        "signature: 40000 positions, checksum 0000000000000abc\n");
  CHECK(json.str() ==
        "{\"runs\": 3, \"median_ms\": 2.0000, \"fastest_ms\": 1.0000, \"slowest_ms\": 3.0000, "
        "\"boards\": 279936, \"boards_per_second\": 139968000, \"positions\": 40000, "
        "\"checksum\": \"0000000000000abc\"}\n");
}

TEST_CASE("bench reports a whole game as a process when it has timed one", "[bench]") {
  BenchResult result;
  result.runs = 3;
  result.process = ProcessBench{3, 1.25, 0.5, 70, 50};
  std::ostringstream text, json;
  write_bench(text, result, false);
  write_bench(json, result, true);
  CHECK(
      text.str().ends_with("a whole game as a process, 3 runs: median 1.250 ms; ioiwari "
                           "--version: 0.500 ms\n"
                           "minor page faults: 70 a game, 50 for --version (20 more)\n"));
  CHECK(
      json.str().ends_with(", \"process\": {\"runs\": 3, \"game_ms\": 1.2500, "
                           "\"version_ms\": 0.5000, \"game_faults\": 70, "
                           "\"version_faults\": 50}}\n"));
}

TEST_CASE("bench times no process that does not play the game out, and says so", "[bench]") {
  const Table table = Table::solve(Ring::ioi(), {});
  CHECK_FALSE(time_processes("/nonexistent/ioiwari", 1, table));
  CHECK_FALSE(time_processes("/bin/false", 1, table));
  // Exits 0 at once, writing no move: not a game.
  CHECK_FALSE(time_processes("/bin/true", 1, table));
  // Writes its input back: the replies are not the moves.
  CHECK_FALSE(time_processes("/bin/cat", 1, table));
  Environment environment;
  environment.self_path = "/bin/true";
  std::istringstream in;
  std::ostringstream out, err;
  const std::vector<std::string_view> args{"bench", "--runs", "1"};
  CHECK(run_cli(args, in, out, err, environment) == 0);
  CHECK(err.str() ==
        "ioiwari: bench: '/bin/true' did not play a whole game as a child; no process figures\n");
  CHECK(out.str().find("process") == std::string::npos);
}

TEST_CASE("bench says one run in the singular", "[bench]") {
  BenchResult result;
  result.runs = 1;
  result.median_ms = 2;
  result.positions = 4;
  result.boards = 10;
  std::ostringstream text;
  write_bench(text, result, false);
  CHECK(text.str().starts_with("table build, 1 run: median "));
}
