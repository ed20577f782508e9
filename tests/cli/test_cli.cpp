// The command line, driven through string streams.
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
#include "ioiwari/judge/referee.hpp"
#include "ioiwari/play/terminal.hpp"
#include "table_files.hpp"
#include "text_support.hpp"

using namespace ioiwari;
using Result = ioiwari::test::CliResult;
using TempFolder = ioiwari::test::CliFolder;
using ioiwari::test::run;

TEST_CASE("help and version print to standard output and succeed", "[cli]") {
  const Result help = run({"--help"});
  CHECK(help.code == 0);
  CHECK(help.out.starts_with("usage: ioiwari"));
  CHECK(help.out.find("Exit status:") != std::string::npos);
  CHECK(help.out.find("\nCommands:\n") != std::string::npos);
  CHECK(help.err.empty());
  CHECK(run({"-h"}).out == help.out);

  const Result version = run({"--version"});
  CHECK(version.code == 0);
  CHECK(version.out.starts_with("ioiwari "));
  CHECK(version.out.ends_with("\n"));
  CHECK(version.err.empty());
}

TEST_CASE("every command prints its own help, as COMMAND --help and as help COMMAND", "[cli]") {
  const Result overview = run({"--help"});
  CHECK(run({"help"}).out == overview.out);
  CHECK(run({"help"}).code == 0);
  for (const cli::Command& command : cli::commands()) {
    if (command.name.empty()) continue;
    INFO(command.name);
    const Result asked = run({command.name, "--help"});
    CHECK(asked.code == 0);
    CHECK(asked.err.empty());
    CHECK(asked.out.starts_with("usage: ioiwari " + std::string(command.name)));
    CHECK(asked.out.find("\nExit status:\n") != std::string::npos);
    CHECK(run({command.name, "-h"}).out == asked.out);
    const Result helped = run({"help", command.name});
    CHECK(helped.code == 0);
    CHECK(helped.out == asked.out);
    // Help comes from the declaration: every option, and every exit status.
    for (const cli::Option* option : cli::options_of(command)) {
      INFO(option->name);
      CHECK(asked.out.find("\n  " + std::string(option->name)) != std::string::npos);
    }
    for (const cli::Exit& exit : command.exits) {
      CHECK(asked.out.find("\n  " + std::to_string(exit.status) + " ") != std::string::npos);
    }
    // The overview lists it with its summary.
    CHECK(overview.out.find("  " + std::string(command.name)) != std::string::npos);
    CHECK(test::unwrapped(overview.out).find(std::string(command.summary)) != std::string::npos);
  }
  // --help comes first wherever it stands among the options, but after "--" it is the player's.
  CHECK(run({"bench", "--runs", "5", "--help"}).out == run({"help", "bench"}).out);
  CHECK(run({"bench", "--bogus", "--help"}).out == run({"help", "bench"}).out);
  CHECK(run({"analyze", "--help"}).out == run({"help", "analyze"}).out);
  const Result bad = run({"help", "frobnicate"});
  CHECK(bad.code == to_int(ExitCode::usage));
  CHECK(bad.err ==
        "ioiwari: help: no command 'frobnicate'\nTry 'ioiwari --help' for the commands.\n");
  CHECK(run({"help", "play", "opponent"}).code == to_int(ExitCode::usage));
}

TEST_CASE("a mistake on a command's line is one line, and one pointing to its help", "[cli]") {
  const Result result = run({"referee", "--bogus"});
  CHECK(result.code == to_int(ExitCode::usage));
  CHECK(result.out.empty());
  CHECK(result.err ==
        "ioiwari: referee: unknown option '--bogus'\n"
        "Try 'ioiwari referee --help' for its options.\n");
  const Result player = run({"--frobnicate"});
  CHECK(player.err ==
        "ioiwari: unknown option '--frobnicate'\nTry 'ioiwari --help' for its options.\n");
  const Result command = run({"frobnicate"});
  CHECK(command.err ==
        "ioiwari: unknown command 'frobnicate'\nTry 'ioiwari --help' for the commands.\n");
  for (const Result& each : {result, player, command}) {
    CHECK(each.code == to_int(ExitCode::usage));
    CHECK(each.out.empty());
  }
}

TEST_CASE("an option given twice, or two that do not go together, are refused", "[cli]") {
  struct Case {
    std::vector<std::string_view> args;
    std::string first_line;
  };
  const std::vector<Case> cases = {
      {{"play", "--seed", "1", "--seed", "2"}, "ioiwari: play: --seed is given twice"},
      {{"play", "--first", "--second"}, "ioiwari: play: --first and --second do not go together"},
      {{"play", "--replay", "g.txt", "--seed", "1"},
       "ioiwari: play: --replay and --seed do not go together"},
      {{"--second", "--second"}, "ioiwari: --second is given twice"},
      {{"analyze", "--pits", "5", "--pits", "5", "0"}, "ioiwari: analyze: --pits is given twice"},
      {{"referee", "--json", "--json", "--", "x"}, "ioiwari: referee: --json is given twice"},
      {{"solve", "--out", "a", "--out=b"}, "ioiwari: solve: --out is given twice"},
  };
  for (const Case& c : cases) {
    INFO(c.first_line);
    const Result result = run(c.args);
    CHECK(result.code == to_int(ExitCode::usage));
    CHECK(result.out.empty());
    CHECK(result.err.substr(0, result.err.find('\n')) == c.first_line);
  }
  // A value may follow its option in the same word.
  CHECK(run({"analyze", "--pits=5", "--capacity=3", "2", "1", "0", "3", "1"}).code == 0);
}

TEST_CASE("the declared defaults are the structs' own, and help shows them", "[cli]") {
  // The option table takes each default from the struct whose field the option sets: a command
  // line without the options gives the struct's values, and help prints them.
  const cli::Command& referee = *cli::find_command("referee");
  const std::vector<std::string_view> args = {"--", "x"};
  const cli::Parsed parsed(referee, args);
  const RefereeLimits limits;
  CHECK(parsed.number(cli::opt::move_time) == limits.per_move.count());
  CHECK(parsed.number(cli::opt::game_time) == limits.per_game.count());
  CHECK(parsed.number(cli::opt::exit_time) == limits.after_end.count());
  CHECK(parsed.number(cli::opt::wall_factor) == limits.wall_factor);
  CHECK(parsed.number(cli::opt::memory) == static_cast<long long>(limits.memory_mb));
  CHECK(parsed.number(cli::opt::max_line) == static_cast<long long>(limits.max_line_bytes));
  CHECK(parsed.number(cli::opt::processes) == limits.processes);
  CHECK(parsed.text(cli::opt::user) ==
        std::to_string(kDefaultUsers.uid) + ":" + std::to_string(kDefaultUsers.gid));
  CHECK(parsed.number(cli::opt::seed) == static_cast<long long>(RefereePlan{}.seed));
  CHECK(parsed.number(cli::opt::jobs) == RefereePlan{}.jobs);
  CHECK(parsed.number(cli::opt::pits) == Ring::ioi().pits);
  CHECK(parsed.number(cli::opt::capacity) == Ring::ioi().capacity);
  CHECK(parsed.list(cli::opt::strategy) == std::vector<std::string>{"optimal"});
  CHECK_FALSE(parsed.range(cli::opt::start_range).has_value());
  const std::string help = run({"referee", "--help"}).out;
  CHECK(help.find("(1 to 3600000, default " + std::to_string(limits.per_move.count()) + ")") !=
        std::string::npos);
  CHECK(help.find("(1 to 4096, default " + std::to_string(limits.processes) + ")") !=
        std::string::npos);
}

TEST_CASE("list and range options are parsed by their declaration", "[cli]") {
  const cli::Command& referee = *cli::find_command("referee");
  const std::vector<std::string_view> some = {"--strategy", "greedy,weakest", "--", "x"};
  CHECK(cli::Parsed(referee, some).list(cli::opt::strategy) ==
        std::vector<std::string>{"greedy", "weakest"});
  const std::vector<std::string_view> all = {"--strategy", "all", "--", "x"};
  CHECK(cli::Parsed(referee, all).list(cli::opt::strategy) ==
        std::vector<std::string>{"optimal", "greedy", "random", "weakest"});
  const cli::Command& starts = *cli::find_command("starts");
  const std::vector<std::string_view> range = {"--start-range", "1..3"};
  CHECK(cli::Parsed(starts, range).range(cli::opt::start_range) == std::pair{1LL, 3LL});
  for (const std::string_view bad : {"3..1", "0..10", "1.3", "..3", "a..b", "1..3..4"}) {
    INFO(bad);
    const std::vector<std::string_view> refused = {"--start-range", bad};
    CHECK_THROWS_AS(cli::Parsed(starts, refused), cli::UsageError);
  }
}

TEST_CASE("no arguments plays player 1 and reports bad input on standard error", "[cli]") {
  const Result good = run({}, "0 0 0 0 0 1 1\n");
  CHECK(good.code == 0);
  CHECK(good.out == "6\n");  // pit 6 captures pit 7 and empties the board
  CHECK(good.err.empty());

  const Result bad = run({}, "0 0 0 0 0 0 0\n");
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
  const Result given = run({"play", "--start", "4 3 2 4 2 3 2", "--second"}, "quit\n");
  CHECK(given.code == 0);
  CHECK(given.out.find("you are player 2; ioiwari moves first. Start: 4 3 2 4 2 3 2.") !=
        std::string::npos);

  // The same seed draws the same IOI start; the start is always one of the 357.
  const Result a = run({"play", "--seed", "12"}, "quit\n");
  const Result b = run({"play", "--seed", "12"}, "quit\n");
  CHECK(a.out == b.out);
  std::string joined = a.out;  // the greeting may take two lines
  std::replace(joined.begin(), joined.end(), '\n', ' ');
  CHECK(joined.find("(drawn by --seed 12).") != std::string::npos);
  CHECK(given.out.find("drawn by") == std::string::npos);
  const auto at = a.out.find("Start: ") + 7;
  std::istringstream counts(a.out.substr(at, a.out.find('.', at) - at));
  std::vector<int> pits(kPits);
  for (int& beads : pits)
    counts >> beads;
  CHECK(Board::from_counts(pits, Ring::ioi())->is_ioi_start());
}

TEST_CASE("play --start with --seed: a chosen start, and ioiwari's random choices reproduced",
          "[cli][terminal]") {
  // Pit 1 each time it can: the game is the random strategy's choices alone.
  const std::string moves = "1\n1\n1\n1\n1\n1\n2\n3\n4\n5\n6\n7\nquit\n";
  const auto game = [&](std::string_view seed) {
    return run({"play", "--start", "4 3 2 4 2 3 2", "--strategy", "random", "--seed", seed}, moves);
  };
  const Result a = game("5");
  CHECK(a.code == 0);
  CHECK(a.err.empty());
  CHECK(a.out.find("Start: 4 3 2 4 2 3 2.") != std::string::npos);
  CHECK(a.out.find("drawn by") == std::string::npos);  // the start was given, not drawn
  CHECK(game("5").out == a.out);
  // Another seed, other choices somewhere in the game.
  bool other = false;
  for (const std::string_view seed : {"6", "7", "8", "9"})
    other = other || game(seed).out != a.out;
  CHECK(other);
}

TEST_CASE("play --start: \"y: a new start\" after the game is a new start of the ring",
          "[cli][terminal]") {
  const Result result = run({"play", "--start", "1 0 0 0 0 0 0"}, "1\ny\nquit\n");
  CHECK(result.code == 0);
  const auto first = result.out.find("Start: 1 0 0 0 0 0 0.");
  REQUIRE(first != std::string::npos);
  const auto next = result.out.find("Start: ", first + 1);
  REQUIRE(next != std::string::npos);
  std::istringstream counts(result.out.substr(next + 7));
  std::vector<int> pits(kPits);
  for (int& beads : pits)
    counts >> beads;
  CHECK(Board::from_counts(pits, Ring::ioi())->is_ioi_start());
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

TEST_CASE("every command rejects bad options with one line, a pointer to its help, and exit 2",
          "[cli]") {
  struct Case {
    std::vector<std::string_view> args;
    std::string error;
  };
  const std::vector<Case> cases = {
      {{"play", "--start"}, "ioiwari: play: --start needs \"P1 ... PN\"\n"},
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

      {{"play", "--fast"}, "ioiwari: play: unknown option '--fast'\n"},
      {{"opponent", "--strategy", "perfect"},
       "ioiwari: opponent: --strategy is one of optimal, greedy, random or weakest, not "
       "\"perfect\"\n"},
      {{"opponent", "--start", "9 9 9 9 9 9 9"},
       "ioiwari: opponent: --start: start, pit 1: \"9\" beads: a pit holds 0 to 5\n"},
      {{"opponent", "--seed", "-4"},
       "ioiwari: opponent: --seed needs a number 0 to 9223372036854775807, not \"-4\"\n"},
      {{"opponent", "--record"}, "ioiwari: opponent: --record needs FILE\n"},
      {{"opponent", "--loud"}, "ioiwari: opponent: unknown option '--loud'\n"},
      {{"referee"}, "ioiwari: referee: needs PLAYER [ARGS...], after --\n"},
      {{"referee", "--starts", "some", "--", "x"},
       "ioiwari: referee: --starts is all, classes or a count 1 to 1000000, not \"some\"\n"},
      {{"referee", "--strategy", "optimal,clever", "--", "x"},
       "ioiwari: referee: --strategy: \"clever\" is not one of optimal, greedy, random, "
       "weakest, or all\n"},
      {{"referee", "--move-time", "fast", "--", "x"},
       "ioiwari: referee: --move-time needs a number 1 to 3600000, not \"fast\"\n"},
      {{"referee", "--verbose", "--", "x"}, "ioiwari: referee: unknown option '--verbose'\n"},
      {{"referee", "--memory", "0", "--", "x"},
       "ioiwari: referee: --memory needs a number 1 to 1048576, not \"0\"\n"},
      {{"referee", "--wall-factor", "-2", "--", "x"},
       "ioiwari: referee: --wall-factor needs a number 1 to 1000, not \"-2\"\n"},
      {{"verify"}, "ioiwari: verify: needs FILE\n"},
      {{"verify", "a", "b"}, "ioiwari: verify: takes one FILE, got 'b' too\n"},
      {{"verify", "--deep", "a"}, "ioiwari: verify: unknown option '--deep'\n"},
      {{"--second", "now"}, "ioiwari: unexpected operand 'now'\n"},
  };
  for (const Case& c : cases) {
    const Result result = run(c.args);
    INFO(c.error);
    CHECK(result.code == to_int(ExitCode::usage));
    CHECK(result.out.empty());
    CHECK(result.err.starts_with(c.error));
    CHECK(result.err.substr(c.error.size()).starts_with("Try 'ioiwari "));
    CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 2);
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
  const Result won = run({"opponent", "--start", "0 0 0 0 0 1 1"}, "6\n");
  CHECK(won.code == 0);
  CHECK(won.out == "0 0 0 0 0 1 1\n");
  CHECK(won.err == "ioiwari opponent: player 1 wins 2 to 0\n");
  // Pit 7 gives its bead away on empty pit 1; pit 6 then does the same for player 1.
  const Result tied = run({"opponent", "--start", "0 0 0 0 0 1 1"}, "7\n");
  CHECK(tied.code == static_cast<int>(OpponentExit::player1_tied));
  CHECK(tied.err == "ioiwari opponent: player 1 ties 1 to 1\n");
  const Result bad = run({"opponent", "--start", "0 0 0 0 0 1 1"}, "1\n");
  CHECK(bad.code == static_cast<int>(OpponentExit::player1_broke_protocol));
  CHECK(bad.err ==
        "ioiwari opponent: player 1 broke the protocol: move 1 (player 1): pit 1 "
        "is empty\n");
  const Result unwritable =
      run({"opponent", "--record", "/nonexistent/dir/record", "--seed", "1"}, "");
  CHECK(unwritable.code == to_int(ExitCode::usage));
  CHECK(unwritable.err ==
        "ioiwari: opponent: cannot write the record to "
        "'/nonexistent/dir/record': No such file or directory\n");
  const Result play = run({"play", "--record", "/nonexistent/dir/record"}, "quit\n");
  CHECK(play.code == to_int(ExitCode::usage));
  CHECK(play.err ==
        "ioiwari: play: cannot write the record to '/nonexistent/dir/record': No such file or "
        "directory\n");
}

TEST_CASE("analyze, starts and bench from the command line", "[cli][analysis]") {
  const Result analysis = run({"analyze", "4", "3", "2", "4", "2", "3", "2"});
  CHECK(analysis.code == 0);
  CHECK(analysis.out.starts_with("board 4 3 2 4 2 3 2 (code 120190), 20 beads\n"));
  const Result json = run({"analyze", "--json", "120190"});
  CHECK(json.code == 0);
  CHECK(json.out.starts_with("{\"board\": [4, 3, 2, 4, 2, 3, 2]"));
  const Result bad = run({"analyze", "4", "3"});
  CHECK(bad.code == to_int(ExitCode::usage));
  CHECK(bad.err.starts_with(
      "ioiwari: analyze: give 7 bead counts or one board code, not 2 numbers\n"));
  CHECK(run({"analyze", "--deep", "0"})
            .err.starts_with("ioiwari: analyze: unknown option '--deep'\n"));

  const Result starts = run({"starts", "--classes"});
  CHECK(starts.code == 0);
  CHECK(starts.out.find("51 starts; with perfect play player 1 wins 51 of 51") !=
        std::string::npos);
  CHECK(run({"starts", "--all"}).code == to_int(ExitCode::usage));

  const Result bench = run({"bench", "--runs", "2", "--json"});
  CHECK(bench.code == 0);
  CHECK(bench.out.find("\"runs\": 2, ") != std::string::npos);
  CHECK(bench.out.find("\"positions\": 39996, \"checksum\": \"9f37a35940ea18a5\"}") !=
        std::string::npos);
  CHECK(run({"bench", "--runs", "0"})
            .err.starts_with("ioiwari: bench: --runs needs a number 1 to 100000, not \"0\"\n"));
}

TEST_CASE("the overview lists no option that the player refuses, and no empty heading", "[cli]") {
  const std::string overview = run({"--help"}).out;
  CHECK(overview.find("\n:\n") == std::string::npos);
  std::istringstream lines(overview);
  int listed = 0;
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("  --")) continue;
    const std::string option = line.substr(2, line.find(' ', 2) - 2);
    INFO(option);
    ++listed;
    CHECK(run({option}).err.find("unknown option") == std::string::npos);
  }
  CHECK(listed >= 7);  // --second, the ring's four, --table, --trust-table
  CHECK(run({"--json"}).err.find("unknown option") != std::string::npos);  // the test can fail
}

TEST_CASE("play --record keeps each game, --replay plays them back, a bad record is refused",
          "[cli][terminal]") {
  TempFolder folder;
  const std::string record = (folder.path / "games.txt").string();
  // Two games: one left at once, one played to its end.
  const Result first = run({"play", "--start", "4 3 2 4 2 3 2", "--record", record}, "2\nquit\n");
  CHECK(first.code == 0);
  const Result second = run({"play", "--start", "0 0 0 0 0 1 1", "--record", record}, "6\nn\n");
  CHECK(second.code == 0);
  const Result replayed = run({"play", "--replay", record});
  CHECK(replayed.code == 0);
  CHECK(replayed.err.empty());
  CHECK(replayed.out.find("Start: 4 3 2 4 2 3 2.") != std::string::npos);
  CHECK(replayed.out.find("The game was left at move 3") != std::string::npos);
  CHECK(replayed.out.find("Start: 0 0 0 0 0 1 1.") != std::string::npos);
  CHECK(replayed.out.find("Game over: you 2, ioiwari 0. You win by 2.") != std::string::npos);
  // Each game under a line that says which.
  CHECK(replayed.out.starts_with("---- game 1 of 2 ----\n"));
  CHECK(replayed.out.find("\n\n---- game 2 of 2 ----\n") != std::string::npos);
  // A record of another ring plays back on that ring.
  const std::string other = (folder.path / "other.txt").string();
  REQUIRE(run({"play", "--pits", "5", "--capacity", "3", "--start", "1 0 0 0 1", "--record", other},
              "1\nn\n")
              .code == 0);
  CHECK(run({"play", "--replay", other}).out.find("Start: 1 0 0 0 1.") != std::string::npos);
  // A record that is not one: status 2, the line at fault.
  std::ofstream(folder.path / "bad.txt") << "ioiwari record 1\npits 7\ncapacity 5\nstart 4 3\n";
  const Result bad = run({"play", "--replay", (folder.path / "bad.txt").string()});
  CHECK(bad.code == to_int(ExitCode::usage));
  CHECK(bad.err.find("is no record of games: line 4: the start is no board") != std::string::npos);
  CHECK(run({"play", "--replay", record, "--second"}).code == to_int(ExitCode::usage));
  CHECK(run({"play", "--replay", (folder.path / "none.txt").string()}).code ==
        to_int(ExitCode::usage));
}

TEST_CASE("play --strategy chooses ioiwari's play", "[cli][terminal]") {
  const Result greedy =
      run({"play", "--seed", "3", "--strategy", "greedy", "--no-color"}, "quit\n");
  CHECK(greedy.code == 0);
  CHECK(greedy.out.find("greedy") != std::string::npos);
  CHECK(run({"play", "--strategy", "clever"}, "quit\n").code == to_int(ExitCode::usage));
}

TEST_CASE("counts of one are said in the singular", "[cli]") {
  CHECK(run({"analyze", "0", "0", "0", "0", "0", "0", "1"}).out.find("), 1 bead\n") !=
        std::string::npos);
  CHECK(run({"analyze", "0", "0", "0", "0", "0", "1", "1"}).out.find("), 2 beads\n") !=
        std::string::npos);
}

TEST_CASE("counts read as English: one loss, one start", "[cli]") {
  // 3 pits of capacity 3, starts of 6 beads of 1 to 3 each: a greedy first player loses one.
  const Result starts = run(
      {"starts", "--pits", "3", "--capacity", "3", "--start-beads", "6", "--start-range", "1..3"});
  REQUIRE(starts.code == 0);
  CHECK(starts.out.ends_with("a greedy player 1 against perfect play: 6 wins, 0 ties, 1 loss\n"));
}

TEST_CASE("package refuses a ring whose solve would not fit the time limit, saying why",
          "[cli][rings]") {
  // 12 pits of capacity 4: the example player took 6.95 s of CPU time and a CMS manager 3.3 s,
  // against a limit of 2 s. Refused before anything is written.
  TempFolder folder;
  const std::string out = (folder.path / "twelve").string();
  const Result refused =
      run({"package", "--format", "cms", "--out", out, "--pits", "12", "--capacity", "4"});
  CHECK(refused.code == to_int(ExitCode::usage));
  CHECK(
      refused.err.starts_with("ioiwari: package: --pits 12 --capacity 4: the judge's manager "
                              "and the example player solve its "));
  CHECK(refused.err.find(" rotation classes at each test, too long for the 2 s time limit; a "
                         "package is made for rings of at most 1500000 classes\n") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
  CHECK(
      run({"package", "--format", "icpc", "--out", out, "--pits", "11", "--capacity", "4"}).code ==
      to_int(ExitCode::usage));
}

TEST_CASE("play again on a ring that draws no start of its own offers the same start only",
          "[cli][terminal]") {
  // 3 pits of capacity 1: the default start range (2..1) holds no count, so only --start plays.
  const Result result =
      run({"play", "--pits", "3", "--capacity", "1", "--start", "1 0 0"}, "1\ny\ns\n1\nn\n");
  CHECK(result.code == 0);
  CHECK(result.err.empty());
  CHECK(result.out.find("Play again? [s: the same start, n: quit]> ") != std::string::npos);
  CHECK(result.out.find("this ring draws no start of its own (--start-range)") !=
        std::string::npos);
  CHECK(result.out.find("game over after 1 move ") != std::string::npos);
  // Two games played, both from the start given.
  std::size_t games = 0;
  for (auto at = result.out.find("Start: 1 0 0."); at != std::string::npos;
       at = result.out.find("Start: 1 0 0.", at + 1))
    ++games;
  CHECK(games == 2);
}
