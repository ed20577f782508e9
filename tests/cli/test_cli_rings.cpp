// The command line's rings, driven through string streams: the ring options of every command,
// rings and starts refused, a ring too large for the memory, solve and --table, and the roots
// that verify records.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "cli_support.hpp"
#include "ioiwari/cli/cli.hpp"
#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/option_names.hpp"
#include "ioiwari/core/board.hpp"
#include "ioiwari/input/exit_code.hpp"
#include "ioiwari/judge/opponent.hpp"
#include "table_files.hpp"
#include "text_support.hpp"

using namespace ioiwari;
using Result = ioiwari::test::CliResult;
using TempFolder = ioiwari::test::CliFolder;
using ioiwari::test::run;
using ioiwari::test::run_in;

TEST_CASE("every command takes the ring options", "[cli][rings]") {
  // The player reads N counts: 0 0 1 on three pits of capacity 2; its one bead goes away.
  const Result player = run({"--pits", "3", "--capacity", "2"}, "0 0 1\n");
  CHECK(player.code == 0);
  CHECK(player.out == "3\n");
  CHECK(run({"--second", "--pits", "3", "--capacity", "2"}, "0 1 0\n2\n").code == 0);
  const Result analysis =
      run({"analyze", "--pits", "5", "--capacity", "3", "2", "1", "0", "3", "1"});
  CHECK(analysis.code == 0);
  CHECK(analysis.out.starts_with("board 2 1 0 3 1 (code 454), 7 beads\n"));
  const Result census = run({"starts", "--pits", "4", "--capacity", "4", "--json"});
  CHECK(census.code == 0);
  CHECK(
      census.out.starts_with("{\"ring\": {\"pits\": 4, \"capacity\": 4}, \"start_rule\": "
                             "{\"beads\": 11, \"min\": 2, \"max\": 4}, \"starts\": ["));
  CHECK(census.out.find("\"first_player_ties\": ") != std::string::npos);
  const Result bench = run({"bench", "--pits", "5", "--capacity", "3"});
  // The generic library against the ring solver, on any ring small enough.
  const Result negamax = run({"bench", "--negamax", "--pits", "5", "--capacity", "3", "--json"});
  CHECK(negamax.code == 0);
  CHECK(negamax.out.find("\"agrees\": true") != std::string::npos);
  CHECK(bench.code == 0);
  CHECK(bench.out.starts_with("ring of 5 pits, capacity 3: table build, 1 run: median "));
  const Result play =
      run({"play", "--pits", "4", "--capacity", "3", "--start", "1 2 3 1"}, "quit\n");
  CHECK(play.code == 0);
  CHECK(play.out.find("Start: 1 2 3 1.") != std::string::npos);
  const Result opponent =
      run({"opponent", "--pits", "3", "--capacity", "2", "--start", "0 0 1"}, "3\n");
  CHECK(opponent.out == "0 0 1\n");
  CHECK(opponent.code == static_cast<int>(OpponentExit::player1_lost));
  // The IOI ring given explicitly is the default, byte for byte.
  CHECK(run({"analyze", "--pits", "7", "--capacity", "5", "4", "3", "2", "4", "2", "3", "2"}).out ==
        run({"analyze", "4", "3", "2", "4", "2", "3", "2"}).out);
}

TEST_CASE("impossible rings and starts are refused with one line naming the option",
          "[cli][rings]") {
  struct Case {
    std::vector<std::string_view> args;
    std::string first_line;
  };
  const std::vector<Case> cases = {
      {{"analyze", "--pits", "2", "0"},
       "ioiwari: analyze: --pits needs a number 3 to 16, not \"2\""},
      {{"starts", "--capacity", "10"},
       "ioiwari: starts: --capacity needs a number 1 to 9, not \"10\""},
      {{"solve", "--pits", "16", "--capacity", "8", "--out", "x"},
       "ioiwari: solve: --pits 16 --capacity 8: a ring holds at most 127 beads (pits times "
       "capacity), the most a table's one-byte values allow"},
      {{"starts", "--start-range", "3..2"},
       "ioiwari: starts: --start-range needs A..B, counts 0 to 9 with A at most B, not \"3..2\""},
      {{"starts", "--start-range", "2-4"},
       "ioiwari: starts: --start-range needs A..B, counts 0 to 9 with A at most B, not \"2-4\""},
      {{"starts", "--start-beads", "0"},
       "ioiwari: starts: --start-beads needs a number 1 to 127, not \"0\""},
      {{"play", "--capacity", "1"},
       "ioiwari: play: --capacity 1: the default start range 2..1 holds no count; give "
       "--start-range"},
      {{"starts", "--start-range", "2..6"},
       "ioiwari: starts: --start-range 2..6: a pit holds at most 5 beads (--capacity)"},
      {{"referee", "--start-beads", "40", "--", "true"},
       "ioiwari: referee: --start-beads 40: no start of 7 pits with 2..4 beads each holds 40 "
       "beads (they hold 14 to 28)"},
      {{"opponent", "--pits", "5", "--capacity", "2"},
       "ioiwari: opponent: the default --start-beads 14 (3N-1): no start of 5 pits with 2..2 "
       "beads each holds 14 beads (they hold 10 to 10); give --start-beads"},
      {{"play", "--pits", "4", "--start", "1 2 3"},
       "ioiwari: play: --start: input ended after 3 of the 4 bead counts of the start"},
      {{"bench", "--table", "t"}, "ioiwari: bench: unknown option '--table'"},
      {{"bench", "--negamax", "--pits", "12"},
       "ioiwari: bench: --negamax holds an entry for every board of the ring: 2176782336 boards, "
       "more than 100000000"},
      {{"solve", "--pits", "5"}, "ioiwari: solve: needs --out FILE: where to write the table"},
  };
  for (const Case& c : cases) {
    INFO(c.args.front() << " " << c.args[1]);
    const Result result = run(c.args);
    CHECK(result.code == to_int(ExitCode::usage));
    CHECK(result.out.empty());
    CHECK(result.err.substr(0, result.err.find('\n')) == c.first_line);
  }
}

TEST_CASE("a ring too large for this machine's memory is refused, saying how much it needs",
          "[cli][rings]") {
  Environment small;
  small.memory_bytes = 10'000'000;  // 10 MB: the 11-pit ring needs about 80
  std::istringstream in;
  std::ostringstream out, err;
  const std::vector<std::string_view> analyze = {"analyze", "--pits", "11", "0"};
  CHECK(run_cli(analyze, in, out, err, small) == to_int(ExitCode::usage));
  CHECK(
      err.str().starts_with("ioiwari: analyze: --pits 11 --capacity 5: solving this ring needs "));
  CHECK(err.str().find(" MB of memory; this process may take 10.0 MB\n") != std::string::npos);
  std::ostringstream huge;
  Environment real;
  real.memory_bytes = 24'000'000'000;
  const std::vector<std::string_view> solve = {"solve", "--pits", "13", "--capacity",
                                               "9",     "--out",  "x"};
  CHECK(run_cli(solve, in, out, huge, real) == to_int(ExitCode::usage));
  // Nor past memory: its largest layer alone is larger than the memory.
  CHECK(huge.str().starts_with(
      "ioiwari: solve: --pits 13 --capacity 9: solving this ring needs 997.1 GB of memory, or "));
  CHECK(huge.str().find(" past memory; it may take 18.0 GB\n") != std::string::npos);
  // 14 pits of capacity 5 fits that machine: the refusal is for rings that do not.
  const std::vector<std::string_view> fourteen = {"solve", "--pits", "14", "--out",
                                                  "/nonexistent/x"};
  std::ostringstream fits;
  CHECK(run_cli(fourteen, in, out, fits, real) == to_int(ExitCode::bad_table));
  CHECK(fits.str().find("of memory") == std::string::npos);
  // 15 pits does not: its table alone is 45.5 GB.
  const std::vector<std::string_view> fifteen = {"starts", "--pits", "15"};
  std::ostringstream too_big;
  CHECK(run_cli(fifteen, in, out, too_big, real) == to_int(ExitCode::usage));
  CHECK(too_big.str() ==
        "ioiwari: starts: --pits 15 --capacity 5: solving this ring needs 45.5 GB of memory; this "
        "process may take 24.0 GB\nTry 'ioiwari starts --help' for its options.\n");
}

TEST_CASE("solve writes a table that --table plays from, and a bad one exits 7", "[cli][rings]") {
  TempFolder folder;
  const std::string path = (folder.path / "five.table").string();
  const Result solved = run({"solve", "--pits", "5", "--capacity", "3", "--out", path});
  CHECK(solved.code == 0);
  CHECK(solved.out.starts_with("solved the ring of 5 pits, capacity 3: "));
  CHECK(test::unwrapped(solved.out).find(" s on 1 thread; wrote ") != std::string::npos);
  CHECK(test::unwrapped(solved.out).find("; wrote " + path + " (") != std::string::npos);
  CHECK(solved.err.empty());
  const std::vector<std::string_view> board = {"2", "1", "0", "3", "1"};
  std::vector<std::string_view> plain = {"analyze", "--pits", "5", "--capacity", "3"};
  plain.insert(plain.end(), board.begin(), board.end());
  std::vector<std::string_view> mapped = plain;
  mapped.insert(mapped.begin() + 1, {"--table", path});
  CHECK(run(mapped).out == run(plain).out);
  CHECK(run({"--pits", "5", "--capacity", "3", "--table", path}, "0 0 0 0 1\n").out == "5\n");
  // The table says which ring it is: given no ring, a command plays the table's.
  std::vector<std::string_view> from_table = {"analyze", "--table", path};
  from_table.insert(from_table.end(), board.begin(), board.end());
  CHECK(run(from_table).out == run(plain).out);
  CHECK(run({"starts", "--table", path}).out ==
        run({"starts", "--pits", "5", "--capacity", "3"}).out);
  // A ring given that is not the table's, and no table at all.
  const Result other =
      run({"analyze", "--pits", "7", "--table", path, "4", "3", "2", "4", "2", "3", "2"});
  CHECK(other.code == to_int(ExitCode::bad_table));
  CHECK(other.err ==
        "ioiwari: analyze: table '" + path +
            "' is a table of 5 pits, capacity 3; the command plays 7 pits, capacity 5\n");
  CHECK(run({"starts", "--capacity", "4", "--table", path}).code == to_int(ExitCode::bad_table));
  const Result missing = run({"starts", "--table", path + ".none"});
  CHECK(missing.code == to_int(ExitCode::bad_table));
  CHECK(missing.err.starts_with("ioiwari: starts: table '" + path + ".none': "));
  CHECK(missing.out.empty());
}

TEST_CASE("a root verify records holds the ring's tables to it, and --trust-table says it is used",
          "[cli][rings][roots]") {
  // Built-in roots left out, so that a small ring stands for one whose root is not built in.
  TempFolder folder;
  Environment environment;
  environment.built_in_roots = false;
  environment.roots_list = (folder.path / "data/ioiwari/roots").string();
  const std::string path = (folder.path / "six.table").string();
  REQUIRE(run({"solve", "--pits", "6", "--capacity", "4", "--format", "4", "--out", path}).code ==
          0);
  const std::vector<std::string_view> starts = {"starts", "--pits",  "6", "--capacity",
                                                "4",      "--table", path};
  // Unknown: refused, saying what to do.
  const Result unknown = run_in(environment, starts);
  CHECK(unknown.code == to_int(ExitCode::bad_table));
  CHECK(unknown.err.find("whose true root is not known; 'ioiwari verify' checks it and records "
                         "its root, or --trust-table uses it unchecked\n") != std::string::npos);
  // Trusted: used, and said so once on standard error.
  std::vector<std::string_view> trusted = starts;
  trusted.push_back("--trust-table");
  const Result used = run_in(environment, trusted);
  CHECK(used.code == 0);
  CHECK(used.out == run(starts).out);
  CHECK(used.err == "ioiwari: starts: using table '" + path +
                        "' unchecked (--trust-table): the true root of 6 pits, capacity 4 is not "
                        "known, so its values are the file's; 'ioiwari verify' checks it and "
                        "records its root\n");
  // Verified: solved, found true, and recorded.
  const Result verified = run_in(environment, {"verify", path});
  CHECK(verified.code == 0);
  CHECK(test::unwrapped(verified.out)
            .find(": the ring's true root, found by solving the ring\nrecorded in '" +
                  environment.roots_list + "': every command now uses this table") !=
        std::string::npos);
  // From then on: used without --trust-table, a copy too, and with --trust-table nothing is said.
  CHECK(run_in(environment, starts).code == 0);
  CHECK(run_in(environment, starts).err.empty());
  CHECK(run_in(environment, trusted).err.empty());
  const std::string copy = (folder.path / "copy.table").string();
  std::filesystem::copy_file(path, copy);
  CHECK(run_in(environment, {"starts", "--pits", "6", "--capacity", "4", "--table", copy}).code ==
        0);
  const Result again = run_in(environment, {"verify", copy});
  CHECK(again.code == 0);
  CHECK(test::unwrapped(again.out).find(": the ring's true root, recorded in '" +
                                        environment.roots_list + "'\n") != std::string::npos);
  // A lie, every hash recomputed: refused, with or without --trust-table, by the player too.
  ioiwari::test::rewrite(copy, [](std::vector<unsigned char>& bytes) {
    bytes[RingGeometry(Ring{6, 4}).layout().values_offset + 40] ^= 2;
  });
  for (const bool trust : {false, true}) {
    std::vector<std::string_view> lie = {
        "analyze", "--pits", "6", "--capacity", "4", "--table", copy, "1", "2", "0", "3", "1", "1"};
    if (trust) lie.push_back("--trust-table");
    const Result refused = run_in(environment, lie);
    CHECK(refused.code == to_int(ExitCode::bad_table));
    CHECK(refused.out.empty());
    CHECK(refused.err.find("is not the true table of 6 pits, capacity 4: its root is ") !=
          std::string::npos);
    CHECK(refused.err.find("(recorded in '" + environment.roots_list + "')\n") !=
          std::string::npos);
  }
  const Result player =
      run_in(environment, {"--pits", "6", "--capacity", "4", "--table", copy}, "2 2 3 2 2 2\n");
  CHECK(player.code == to_int(ExitCode::bad_table));
  CHECK(player.out.empty());
  // A list another user may write is not trusted: nothing is read through it.
  REQUIRE(::chmod(environment.roots_list.c_str(), 0666) == 0);
  const Result untrusted = run_in(environment, starts);
  CHECK(untrusted.code == to_int(ExitCode::bad_table));
  CHECK(untrusted.err.find("is not trusted: other users may write it (mode 666)\n") !=
        std::string::npos);
}
