// The command line, driven through string streams.
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/board.hpp"
#include "ioiwari/cli.hpp"
#include "ioiwari/command_help.hpp"
#include "ioiwari/exit_code.hpp"
#include "ioiwari/opponent.hpp"
#include "ioiwari/terminal.hpp"

using namespace ioiwari;

namespace {

struct Result {
  int code;
  std::string out, err;
};

Result cli(std::vector<std::string_view> args, const std::string& input = "") {
  std::istringstream in(input);
  std::ostringstream out, err;
  const int code = run_cli(args, in, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace

TEST_CASE("help and version print to standard output and succeed", "[cli]") {
  const Result help = cli({"--help"});
  CHECK(help.code == 0);
  CHECK(help.out.starts_with("usage: ioiwari"));
  CHECK(help.out.find("Exit status:") != std::string::npos);
  CHECK(help.out.find("\nCommands:\n") != std::string::npos);
  CHECK(help.err.empty());
  CHECK(cli({"-h"}).out == help.out);

  const Result version = cli({"--version"});
  CHECK(version.code == 0);
  CHECK(version.out.starts_with("ioiwari "));
  CHECK(version.out.ends_with("\n"));
  CHECK(version.err.empty());
}

TEST_CASE("every command prints its own help, as COMMAND --help and as help COMMAND", "[cli]") {
  const Result overview = cli({"--help"});
  CHECK(cli({"help"}).out == overview.out);
  CHECK(cli({"help"}).code == 0);
  for (const CommandHelp& command : commands()) {
    if (command.name.empty()) continue;
    INFO(command.name);
    const Result asked = cli({command.name, "--help"});
    CHECK(asked.code == 0);
    CHECK(asked.err.empty());
    CHECK(asked.out.starts_with("usage: ioiwari " + std::string(command.name)));
    CHECK(asked.out.find("Exit status: ") != std::string::npos);
    CHECK(cli({command.name, "-h"}).out == asked.out);
    const Result helped = cli({"help", command.name});
    CHECK(helped.code == 0);
    CHECK(helped.out == asked.out);
    // The overview lists it with its summary.
    CHECK(overview.out.find("  " + std::string(command.name)) != std::string::npos);
    CHECK(overview.out.find(std::string(command.summary)) != std::string::npos);
  }
  // --help comes first wherever it stands among the options, but after "--" it is the player's.
  CHECK(cli({"bench", "--runs", "5", "--help"}).out == cli({"help", "bench"}).out);
  CHECK(cli({"analyze", "--help"}).out == cli({"help", "analyze"}).out);
  const Result bad = cli({"help", "frobnicate"});
  CHECK(bad.code == to_int(ExitCode::usage));
  CHECK(bad.err.starts_with("ioiwari: help: no command 'frobnicate'\nusage: ioiwari help"));
  CHECK(cli({"help", "play", "opponent"}).code == to_int(ExitCode::usage));
}

TEST_CASE("a mistake on a command's line shows that command's usage", "[cli]") {
  const Result result = cli({"referee", "--bogus"});
  CHECK(result.code == to_int(ExitCode::usage));
  CHECK(result.err ==
        "ioiwari: referee: unknown option '--bogus'\n"
        "usage: ioiwari referee [OPTIONS] -- PLAYER [ARGS...]\n"
        "'ioiwari help referee' prints its options.\n");
}

TEST_CASE("unknown options and commands print usage to standard error and exit 2", "[cli]") {
  for (const auto& args :
       {std::vector<std::string_view>{"--frobnicate"}, std::vector<std::string_view>{"frobnicate"},
        std::vector<std::string_view>{"--help", "extra"}}) {
    const Result result = cli(args);
    INFO(args.front());
    CHECK(result.code == to_int(ExitCode::usage));
    CHECK(result.out.empty());
    CHECK(result.err.find("usage: ioiwari") != std::string::npos);
    CHECK(result.err.starts_with("ioiwari: "));
  }
}

TEST_CASE("no arguments plays player 1 and reports bad input on standard error", "[cli]") {
  const Result good = cli({}, "0 0 0 0 0 1 1\n");
  CHECK(good.code == 0);
  CHECK(good.out == "6\n");  // pit 6 captures pit 7 and empties the board
  CHECK(good.err.empty());

  const Result bad = cli({}, "0 0 0 0 0 0 0\n");
  CHECK(bad.code == to_int(ExitCode::bad_start));
  CHECK(bad.out.empty());
  CHECK(bad.err == "ioiwari: start: every pit is empty\n");
}

namespace {

Result cli_in(const Environment& environment, std::vector<std::string_view> args,
              const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out, err;
  const int code = run_cli(args, in, out, err, environment);
  return {code, out.str(), err.str()};
}

}  // namespace

TEST_CASE("play takes a start, a side, a seed and a colour switch", "[cli][terminal]") {
  const Result given = cli({"play", "--start", "4 3 2 4 2 3 2", "--second"}, "quit\n");
  CHECK(given.code == 0);
  CHECK(given.out.find("you are player 2; ioiwari moves first. Start: 4 3 2 4 2 3 2.") !=
        std::string::npos);

  // The same seed draws the same IOI start; the start is always one of the 357.
  const Result a = cli({"play", "--seed", "12"}, "quit\n");
  const Result b = cli({"play", "--seed", "12"}, "quit\n");
  CHECK(a.out == b.out);
  CHECK(a.out.find("(drawn by --seed 12).") != std::string::npos);
  CHECK(given.out.find("drawn by") == std::string::npos);
  const auto at = a.out.find("Start: ") + 7;
  std::istringstream counts(a.out.substr(at, a.out.find('.', at) - at));
  std::vector<int> pits(kPits);
  for (int& beads : pits)
    counts >> beads;
  CHECK(Board::from_counts(pits)->is_ioi_start());
}

TEST_CASE("play's colour follows the terminal, NO_COLOR and --no-color", "[cli][terminal]") {
  Environment terminal;
  terminal.output_is_terminal = true;
  CHECK(cli_in(terminal, {"play", "--seed", "1"}, "quit\n").out.find("\x1b[") != std::string::npos);
  CHECK(cli_in(terminal, {"play", "--seed", "1", "--no-color"}, "quit\n").out.find("\x1b[") ==
        std::string::npos);
  Environment no_color = terminal;
  no_color.no_color = true;
  CHECK(cli_in(no_color, {"play", "--seed", "1"}, "quit\n").out.find("\x1b[") == std::string::npos);
  CHECK(cli_in(Environment{}, {"play", "--seed", "1"}, "quit\n").out.find("\x1b[") ==
        std::string::npos);
}

TEST_CASE("play catches Ctrl-C and reports it", "[cli][terminal]") {
  Environment environment;
  bool caught = false;
  environment.catch_interrupts = [&] { caught = true; };
  environment.interrupted = [] { return true; };
  const Result result = cli_in(environment, {"play", "--seed", "1"}, "");
  CHECK(caught);
  CHECK(result.code == kInterruptedExit);
  CHECK(result.out.find("Interrupted: game left at move 1") != std::string::npos);
}

TEST_CASE("every command rejects bad options with one line, the usage, and exit 2", "[cli]") {
  struct Case {
    std::vector<std::string_view> args;
    std::string error;
  };
  const std::vector<Case> cases = {
      {{"play", "--start"}, "ioiwari: play: --start needs the counts, as \"4 3 2 4 2 3 2\"\n"},
      {{"play", "--start", "4 3 2"},
       "ioiwari: play: --start: input ended after 3 of the 7 "
       "bead counts of the start\n"},
      {{"play", "--start", "4 3 2 4 2 3 x"},
       "ioiwari: play: --start: start, pit 7: \"x\" is not an integer\n"},
      {{"play", "--start", "4 3 2 4 2 3 2 1"},
       "ioiwari: play: --start: \"1\" after the 7 counts\n"},
      {{"play", "--start", "0 0 0 0 0 0 0"}, "ioiwari: play: --start: start: every pit is empty\n"},
      {{"play", "--seed", "x"},
       "ioiwari: play: --seed needs a number 0 to 9223372036854775807, not \"x\"\n"},
      {{"play", "--seed"}, "ioiwari: play: --seed needs a number 0 to 9223372036854775807\n"},
      {{"play", "--seed", "1", "--start", "4 3 2 4 2 3 2"},
       "ioiwari: play: --start and --seed do not go together\n"},
      {{"play", "--fast"}, "ioiwari: play: unknown option '--fast'\n"},
      {{"opponent", "--strategy", "perfect"},
       "ioiwari: opponent: --strategy is one of optimal, greedy, random, weakest\n"},
      {{"opponent", "--start", "9 9 9 9 9 9 9"},
       "ioiwari: opponent: --start: start, pit 1: \"9\" beads: a pit holds 0 to 5\n"},
      {{"opponent", "--seed", "-4"},
       "ioiwari: opponent: --seed needs a number 0 to 9223372036854775807, not \"-4\"\n"},
      {{"opponent", "--record"}, "ioiwari: opponent: --record needs a file name\n"},
      {{"opponent", "--loud"}, "ioiwari: opponent: unknown option '--loud'\n"},
      {{"referee"}, "ioiwari: referee: no player to run (after --)\n"},
      {{"referee", "--starts", "some", "--", "x"},
       "ioiwari: referee: --starts is all, classes or a count 1 to 1000000\n"},
      {{"referee", "--strategy", "optimal,clever", "--", "x"},
       "ioiwari: referee: unknown strategy \"clever\": optimal, greedy, random, weakest or all\n"},
      {{"referee", "--move-time", "fast", "--", "x"},
       "ioiwari: referee: --move-time needs a number 1 to 3600000, not \"fast\"\n"},
      {{"referee", "--verbose", "--", "x"}, "ioiwari: referee: unknown option '--verbose'\n"},
      {{"--second", "now"}, "ioiwari: '--second' takes no arguments, got 'now'\n"},
  };
  for (const Case& c : cases) {
    const Result result = cli(c.args);
    INFO(c.error);
    CHECK(result.code == to_int(ExitCode::usage));
    CHECK(result.out.empty());
    CHECK(result.err.starts_with(c.error));
    CHECK(result.err.find("usage: ioiwari") != std::string::npos);
  }
}

TEST_CASE("plain ioiwari shows the game on standard error only when a person types",
          "[cli][terminal]") {
  const std::string input = "4 3 2 4 2 3 2\n3\n";
  Environment person;
  person.input_is_terminal = true;
  person.error_is_terminal = true;
  person.no_color = true;
  const Result shown = cli_in(person, {}, input);
  const Result plain = cli_in(Environment{}, {}, input);
  CHECK(shown.out == plain.out);  // the protocol stream is the same either way
  CHECK(shown.err.find("Type the start") != std::string::npos);
  CHECK(shown.err.find("bank of ioiwari (player 1)") != std::string::npos);
  CHECK(plain.err == "ioiwari: input ended before move 4 (player 2): the game is not over\n");
  Environment piped = person;
  piped.input_is_terminal = false;  // a judge feeding input while stderr is a terminal
  CHECK(cli_in(piped, {}, input).err == plain.err);
}

TEST_CASE("opponent reports on standard error and exits by player 1's result", "[cli]") {
  const Result won = cli({"opponent", "--start", "0 0 0 0 0 1 1"}, "6\n");
  CHECK(won.code == 0);
  CHECK(won.out == "0 0 0 0 0 1 1\n");
  CHECK(won.err == "ioiwari opponent: player 1 wins 2 to 0\n");
  // Pit 7 gives its bead away on empty pit 1; pit 6 then does the same for player 1.
  const Result tied = cli({"opponent", "--start", "0 0 0 0 0 1 1"}, "7\n");
  CHECK(tied.code == static_cast<int>(OpponentExit::player1_tied));
  CHECK(tied.err == "ioiwari opponent: player 1 ties 1 to 1\n");
  const Result bad = cli({"opponent", "--start", "0 0 0 0 0 1 1"}, "1\n");
  CHECK(bad.code == static_cast<int>(OpponentExit::player1_broke_protocol));
  CHECK(bad.err ==
        "ioiwari opponent: player 1 broke the protocol: move 1 (player 1): pit 1 "
        "is empty\n");
  const Result unwritable =
      cli({"opponent", "--record", "/nonexistent/dir/record", "--seed", "1"}, "");
  CHECK(unwritable.code == to_int(ExitCode::usage));
  CHECK(unwritable.err ==
        "ioiwari: opponent: cannot write the record to "
        "'/nonexistent/dir/record'\n");
}

TEST_CASE("analyze, starts and bench from the command line", "[cli][analysis]") {
  const Result analysis = cli({"analyze", "4", "3", "2", "4", "2", "3", "2"});
  CHECK(analysis.code == 0);
  CHECK(analysis.out.starts_with("board 4 3 2 4 2 3 2 (code 120190), 20 beads\n"));
  const Result json = cli({"analyze", "--json", "120190"});
  CHECK(json.code == 0);
  CHECK(json.out.starts_with("{\"board\": [4, 3, 2, 4, 2, 3, 2]"));
  const Result bad = cli({"analyze", "4", "3"});
  CHECK(bad.code == to_int(ExitCode::usage));
  CHECK(bad.err.starts_with(
      "ioiwari: analyze: give 7 bead counts or one board code, not 2 numbers\n"));
  CHECK(cli({"analyze", "--deep", "0"})
            .err.starts_with("ioiwari: analyze: unknown option '--deep'\n"));

  const Result starts = cli({"starts", "--classes"});
  CHECK(starts.code == 0);
  CHECK(starts.out.find("51 starts; with perfect play player 1 wins 51 of 51") !=
        std::string::npos);
  CHECK(cli({"starts", "--all"}).code == to_int(ExitCode::usage));

  const Result bench = cli({"bench", "--runs", "2", "--json"});
  CHECK(bench.code == 0);
  CHECK(bench.out.find("\"runs\": 2, ") != std::string::npos);
  CHECK(bench.out.find("\"positions\": 39996, \"checksum\": \"13950d6c96683fbf\"}") !=
        std::string::npos);
  CHECK(cli({"bench", "--runs", "0"})
            .err.starts_with("ioiwari: bench: --runs needs a number 1 to 100000, not \"0\"\n"));
}
