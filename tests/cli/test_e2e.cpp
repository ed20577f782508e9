// End to end: the built ioiwari binary, run through real pipes.
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "ioiwari/input/exit_code.hpp"
#include "ioiwari/judge/process.hpp"
#include "ioiwari/judge/referee.hpp"
#include "ioiwari/play/terminal.hpp"
#include "referee_support.hpp"
#include "run_program.hpp"
#include "support.hpp"
#include "table_files.hpp"

using namespace ioiwari;
using ioiwari::test::perfect_moves;
using ioiwari::test::referee_args;
using ioiwari::test::referee_line;
using ioiwari::test::table;
using namespace std::chrono_literals;

namespace {

// How long a test waits for a program that should answer at once: far beyond what any load
// makes it take (the wait ends as soon as the program does).
constexpr auto kPatience = 120s;

// How a run of ioiwari ended, and what it wrote: the tests' one result of a program's run.
using Outcome = ioiwari::test::Run;

// Runs ioiwari with `args`, feeds it `input` and closes its input, and collects everything.
Outcome run(std::vector<std::string> args, const std::string& input) {
  args.insert(args.begin(), IOIWARI_BINARY);
  return ioiwari::test::run_program(args, input);
}

void check_wins_all_starts(Strategy strategy) {
  // As the referee plays them: one sandbox for the run, two games at a time, each game in its
  // slot's box made anew. A sandbox a game would try the player once more before each game.
  RefereePlan plan;
  plan.player = {PLAYER_IOIWARI};
  plan.strategies = {strategy};
  plan.jobs = 2;
  // Generous: the subject here is the moves, not the time they take.
  plan.limits.data_limit = !test::kSanitized;
  plan.limits.per_move = 30s;
  plan.limits.per_game = 300s;
  plan.limits.after_end = 30s;
  // Under the sanitizers, where a game costs fifty times as much, one start of each rotation
  // class (51 of the 357) against the optimal player, and every fourth of those (13) against
  // the others; the unsanitized suite plays them all.
  plan.starts = ioi_starts();
  if (test::kSanitized) {
    std::erase_if(plan.starts, [](const Board& start) { return start.canonical() != start; });
    if (strategy != Strategy::optimal) {
      std::vector<Board> fewer;
      for (std::size_t i = 0; i < plan.starts.size(); i += 4)
        fewer.push_back(plan.starts[i]);
      plan.starts = fewer;
    }
  }
  const std::vector<GameReport> reports = test::judge_games(plan, table());
  REQUIRE(reports.size() == plan.starts.size());
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const GameReport& report = reports[i];
    INFO("start " << report.start << " against " << name(strategy) << ": " << report.detail << " "
                  << report.player_errors);
    REQUIRE(report.start == plan.starts[i]);
    REQUIRE(report.verdict == Verdict::win);
    REQUIRE(report.bank1 - report.bank2 >= table().value(report.start));
    REQUIRE(report.player_errors.empty());
  }
}

}  // namespace

TEST_CASE("the binary wins all 357 starts against an optimal player 2", "[e2e]") {
  check_wins_all_starts(Strategy::optimal);
}
TEST_CASE("the binary wins all 357 starts against a greedy player 2", "[e2e]") {
  check_wins_all_starts(Strategy::greedy);
}
TEST_CASE("the binary wins all 357 starts against a random player 2", "[e2e]") {
  check_wins_all_starts(Strategy::random);
}
TEST_CASE("the binary wins all 357 starts against the weakest player 2", "[e2e]") {
  check_wins_all_starts(Strategy::weakest);
}

TEST_CASE("the binary reads a start sent one number a line", "[e2e]") {
  // 0 0 0 0 0 1 1: pit 6 captures pit 7 and the game is over after one move.
  const Outcome outcome = run({}, "0\n0\n0\n0\n0\n1\n1\n");
  CHECK(outcome.success());
  CHECK(outcome.out == "6\n");
  CHECK(outcome.err.empty());
}

namespace {

// The judge's side and the player's side of a whole game from `start` where both play the
// table's best moves: what goes in after the start line, and what must come out.
struct Script {
  std::vector<std::string> replies;  // player 2's moves, one per line
  std::vector<std::string> moves;    // player 1's moves
};

Script perfect_game(const Board& start) {
  Script script;
  Match game(start);
  while (!game.over()) {
    const Pit pit = *table().best_move(game.board());
    (game.to_move() == Player::first ? script.moves : script.replies)
        .push_back(std::to_string(pit.label()));
    game.play(pit);
  }
  return script;
}

std::string lines(const std::vector<std::string>& items, std::size_t count,
                  const std::string& end = "\n") {
  std::string text;
  for (std::size_t i = 0; i < count && i < items.size(); ++i)
    text += items[i] + end;
  return text;
}

}  // namespace

TEST_CASE("bad input, case by case: exit code, one line on stderr, the moves made before",
          "[e2e][hostile]") {
  const std::string start = "4 3 2 4 2 3 2\n";
  const Script game =
      perfect_game(*Board::from_counts(std::vector{4, 3, 2, 4, 2, 3, 2}, Ring::ioi()));
  const std::string all_moves = lines(game.moves, game.moves.size());
  const std::string megabyte(1 << 20, '1');
  struct Case {
    std::string name;
    std::string input;
    ExitCode code;
    std::string err;  // without "ioiwari: " and the newline; empty when the game succeeds
    std::string out;
  };
  const std::string start_pit1 = "start, pit 1: ";
  const std::string bad_beads = " beads: a pit holds 0 to 5";
  const std::vector<Case> cases = {
      {"empty input", "", ExitCode::input_ended,
       "input ended before the start: expected 7 bead counts", ""},
      {"6 numbers then end of input", "4 3 2 4 2 3", ExitCode::input_ended,
       "input ended after 6 of the 7 bead counts of the start", ""},
      {"letters", "four 3 2 4 2 3 2\n", ExitCode::bad_start,
       start_pit1 + "\"four\" is not an integer", ""},
      {"3.5", "3.5 3 3 3 3 3 2\n", ExitCode::bad_start, start_pit1 + "\"3.5\" is not an integer",
       ""},
      {"+3", "+3 3 3 3 3 3 2\n", ExitCode::bad_start, start_pit1 + "\"+3\" is not an integer", ""},
      {"0x3", "0x3 3 3 3 3 3 2\n", ExitCode::bad_start, start_pit1 + "\"0x3\" is not an integer",
       ""},
      {"a number too large for any integer type", "123456789012345678901234567890 0 0 0 0 0 1\n",
       ExitCode::bad_start, start_pit1 + "\"123456789012345678901234...\"" + bad_beads, ""},
      {"a negative count", "4 3 2 -4 2 3 2\n", ExitCode::bad_start,
       "start, pit 4: \"-4\"" + bad_beads, ""},
      {"a count above 5", "4 3 2 4 2 3 6\n", ExitCode::bad_start, "start, pit 7: \"6\"" + bad_beads,
       ""},
      {"all pits empty", "0 0 0 0 0 0 0\n", ExitCode::bad_start, "start: every pit is empty", ""},
      {"CRLF line ends and tabs are accepted",
       "4\t3\t2\t4\r\n2 3\t2\r\n" + lines(game.replies, game.replies.size(), "\r\n"), ExitCode::ok,
       "", all_moves},
      {"a NUL byte in the start", std::string("4 3 2 4\0 2 3 2\n", 16), ExitCode::bad_start,
       "start, pit 4: \"4\\x00\" is not an integer", ""},
      {"a NUL byte as a move", start + std::string("\0\n", 2), ExitCode::bad_move,
       "move 2 (player 2): \"\\x00\" is not an integer", lines(game.moves, 1)},
      {"a line of a megabyte of digits", megabyte + "\n", ExitCode::bad_start,
       start_pit1 + "\"" + std::string(24, '1') + "...\"" + bad_beads, ""},
      {"a megabyte of white space before the start",
       std::string(1 << 20, ' ') + start + lines(game.replies, game.replies.size()), ExitCode::ok,
       "", all_moves},
      {"a megabyte of letters as a move", start + std::string(1 << 20, 'a') + "\n",
       ExitCode::bad_move,
       "move 2 (player 2): \"" + std::string(24, 'a') + "...\" is not an integer",
       lines(game.moves, 1)},
      {"move 0", start + "0\n", ExitCode::bad_move,
       "move 2 (player 2): \"0\" is not a pit: pits are 1 to 7", lines(game.moves, 1)},
      {"move 8", start + "8\n", ExitCode::bad_move,
       "move 2 (player 2): \"8\" is not a pit: pits are 1 to 7", lines(game.moves, 1)},
      {"move -1", start + "-1\n", ExitCode::bad_move,
       "move 2 (player 2): \"-1\" is not a pit: pits are 1 to 7", lines(game.moves, 1)},
      {"an empty pit", start + "2\n", ExitCode::bad_move, "move 2 (player 2): pit 2 is empty",
       lines(game.moves, 1)},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const Outcome outcome = run({}, c.input);
    CHECK_FALSE(outcome.signaled);
    CHECK(outcome.status == to_int(c.code));
    CHECK(outcome.err == (c.err.empty() ? "" : "ioiwari: " + c.err + "\n"));
    CHECK(outcome.out == c.out);
  }
}

TEST_CASE("end of input after every move of a game: exit 5 and exactly the moves so far",
          "[e2e][hostile]") {
  for (const Board& start : {*Board::from_counts(std::vector{4, 3, 2, 4, 2, 3, 2}, Ring::ioi()),
                             *Board::from_counts(std::vector{5, 5, 5, 5, 5, 5, 5}, Ring::ioi())}) {
    std::ostringstream start_line;
    start_line << start << '\n';
    const Script game = perfect_game(start);
    // Cut the judge's side after each of its replies but the last: the player has made one
    // move more than it has been answered, and waits for the next reply.
    for (std::size_t replies = 0; replies < game.replies.size(); ++replies) {
      INFO("start " << start << ", after " << replies << " replies");
      const Outcome outcome = run({}, start_line.str() + lines(game.replies, replies));
      CHECK(outcome.status == to_int(ExitCode::input_ended));
      CHECK(outcome.err == "ioiwari: input ended before move " + std::to_string(2 * replies + 2) +
                               " (player 2): the game is not over\n");
      CHECK(outcome.out == lines(game.moves, replies + 1));
    }
    // The whole game, for contrast: no error, every move.
    const Outcome whole = run({}, start_line.str() + lines(game.replies, game.replies.size()));
    CHECK(whole.success());
    CHECK(whole.out == lines(game.moves, game.moves.size()));
  }
}

TEST_CASE("a reader that goes away ends the binary with its exit code, not SIGPIPE", "[e2e]") {
  ChildProcess child({IOIWARI_BINARY});
  child.close_output();
  child.write("4 3 2 4 2 3 2\n");
  const auto status = child.wait_until(Clock::now() + kPatience);
  REQUIRE(status);
  CHECK_FALSE(status->signaled);
  CHECK(status->number == to_int(ExitCode::output_closed));
  CHECK(child.error_output() ==
        "ioiwari: standard output closed at move 1 (player 1): cannot write the move\n");
}

TEST_CASE("the command line through the binary", "[e2e]") {
  const Outcome help = run({"--help"}, "");
  CHECK(help.success());
  CHECK(help.out.starts_with("usage: ioiwari"));
  CHECK(help.err.empty());

  const Outcome version = run({"--version"}, "");
  CHECK(version.success());
  CHECK(version.out.starts_with("ioiwari "));

  const Outcome unknown = run({"--bogus"}, "");
  CHECK(unknown.status == to_int(ExitCode::usage));
  CHECK(unknown.out.empty());
  CHECK(unknown.err ==
        "ioiwari: unknown option '--bogus'\nTry 'ioiwari --help' for its options.\n");
}

TEST_CASE("a document that cannot be written exits 6 and says so", "[e2e]") {
  // A full device of our own, in a folder of our own (the numbers of the system's full device):
  // every write to it fails with ENOSPC.
  test::TempFolder folder;
  const std::string full = folder.file("full");
  if (::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0) {
    WARN("no test of a full output: mknod is not allowed here");
    return;
  }
  for (const std::string command : {"starts", "analyze 0 0 0 0 0 1 1", "help", "bench --runs 1"}) {
    INFO(command);
    const auto run = ioiwari::test::run_program(
        {"/bin/sh", "-c",
         std::string("exec '") + IOIWARI_BINARY + "' " + command + " > '" + full + "'"},
        "");
    CHECK_FALSE(run.signaled);
    CHECK(run.status == to_int(ExitCode::output_closed));
    CHECK(run.err.ends_with(": cannot write standard output: No space left on device\n"));
    CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  }
}

TEST_CASE("a document whose reader went away stops quietly, with status 6", "[e2e]") {
  // `ioiwari starts --pits 9 | head -2`: the reader closes, as grep and ls are left.
  for (const std::string command : {"starts --pits 9", "help", "analyze 0 0 0 0 0 1 1"}) {
    INFO(command);
    ioiwari::test::RunOptions options;
    options.close_output = true;
    const auto run = ioiwari::test::run_program(
        {"/bin/sh", "-c", std::string("exec '") + IOIWARI_BINARY + "' " + command}, "", options);
    CHECK_FALSE(run.signaled);
    CHECK(run.status == to_int(ExitCode::output_closed));
    CHECK(run.err.empty());
  }
}

namespace {

// Runs ioiwari with `arguments` (shell words) under a pseudo-terminal made by script(1) from
// util-linux, so that its standard streams are a terminal as a person's would be.
std::vector<std::string> under_terminal(const std::string& arguments, bool no_color = false,
                                        const std::string& term = "xterm") {
  const std::string environment =
      (no_color ? "env NO_COLOR=1 " : "env -u NO_COLOR ") + std::string("TERM=") + term + " ";
  return {"script", "-q", "-e", "-c", environment + IOIWARI_BINARY + " " + arguments, "/dev/null"};
}

// Everything the child writes until its output closes, and how it ended.
Outcome collect(ChildProcess& child) {
  Outcome outcome;
  const auto deadline = Clock::now() + kPatience;
  std::string line;
  while (child.read_line(line, deadline, 1 << 20) == ChildProcess::Read::line) {
    outcome.out += line + "\n";
  }
  const auto status = child.wait_until(deadline);
  REQUIRE(status);
  outcome.signaled = status->signaled;
  outcome.status = status->number;
  return outcome;
}

const Board kExample = *Board::from_counts(std::vector{4, 3, 2, 4, 2, 3, 2}, Ring::ioi());

}  // namespace

TEST_CASE("a whole game of play at a terminal, in colour", "[e2e][terminal]") {
  ChildProcess child(under_terminal("play --start '4 3 2 4 2 3 2'"));
  child.write("hint\n9\n" + perfect_moves(kExample, Player::first) + "n\n");
  const Outcome outcome = collect(child);
  CHECK(outcome.success());
  CHECK(outcome.out.find("pit 2: +2  pit 4: +2  pit 7: +2") != std::string::npos);
  CHECK(outcome.out.find("There is no pit 9") != std::string::npos);
  CHECK(outcome.out.find("You win by 2.") != std::string::npos);
  CHECK(outcome.out.find("You never gave away a bead") != std::string::npos);
  CHECK(outcome.out.find("\x1b[1m") != std::string::npos);  // a terminal gets colour
}

TEST_CASE("NO_COLOR, and TERM=dumb, turn colour off at a terminal", "[e2e][terminal]") {
  for (const bool no_color : {true, false}) {
    INFO((no_color ? "NO_COLOR=1" : "TERM=dumb"));
    ChildProcess child(
        under_terminal("play --start '4 3 2 4 2 3 2'", no_color, no_color ? "xterm" : "dumb"));
    child.write(perfect_moves(kExample, Player::first) + "n\n");  // no second game
    const Outcome outcome = collect(child);
    CHECK(outcome.success());
    CHECK(outcome.out.find("You win by 2.") != std::string::npos);
    CHECK(outcome.out.find("\x1b[") == std::string::npos);
  }
}

TEST_CASE("Ctrl-C at the prompt ends play with a message and status 130", "[e2e][terminal]") {
  ChildProcess child(under_terminal("play --start '4 3 2 4 2 3 2'"));
  child.write("2\n");
  // Wait for the board before the second prompt, then press Ctrl-C.
  const auto deadline = Clock::now() + kPatience;
  std::string line;
  while (child.read_line(line, deadline, 1 << 20) == ChildProcess::Read::line &&
         line.find("move 3: you to play") == std::string::npos) {
  }
  REQUIRE(line.find("move 3: you to play") != std::string::npos);
  // Whenever the ^C lands, before the program's read or during it, it must end the game.
  child.write("\x03");
  const Outcome outcome = collect(child);
  CHECK(outcome.status == kInterruptedExit);
  CHECK(outcome.out.find("Interrupted: game left at move 3") != std::string::npos);
}

TEST_CASE("plain ioiwari at a terminal shows the game and still plays the protocol",
          "[e2e][terminal]") {
  ChildProcess child(under_terminal(""));
  child.write("4 3 2 4 2 3 2\n" + perfect_moves(kExample, Player::second));
  const Outcome outcome = collect(child);
  CHECK(outcome.success());
  CHECK(outcome.out.find("Type the start") != std::string::npos);
  CHECK(outcome.out.find("\x1b[1mIoiwari\x1b[0m played pit 2 (3 beads)") != std::string::npos);
  CHECK(outcome.out.find("game over after") != std::string::npos);
}

TEST_CASE("two ioiwari processes play each other through named pipes", "[e2e][opponent]") {
  // docs/playing.md's recipe: the opponent writes the start, the player answers, via two FIFOs.
  // The player opens its output FIFO first: were both to open their input first, each would
  // wait for a writer that never comes.
  const std::string binary = IOIWARI_BINARY;
  for (const char* strategy : {"optimal", "greedy", "random", "weakest"}) {
    const std::string script =
        "set -e; d=$(mktemp -d); trap 'rm -rf \"$d\"' EXIT; mkfifo \"$d/a\" \"$d/b\"; "
        "'" +
        binary + "' opponent --seed 9 --strategy " + strategy +
        " --record \"$d/record\" "
        "<\"$d/a\" >\"$d/b\" & "
        "'" +
        binary +
        "' >\"$d/a\" <\"$d/b\"; wait $! || echo \"opponent exit $?\"; "
        "cat \"$d/record\"";
    ChildProcess shell({"sh", "-c", script});
    std::string all, line;
    const auto deadline = Clock::now() + kPatience;
    while (shell.read_line(line, deadline, 1 << 16) == ChildProcess::Read::line)
      all += line + "\n";
    const auto status = shell.wait_until(deadline);
    REQUIRE(status);
    INFO(all << shell.error_output());
    CHECK(status->success());
    CHECK(all.find("opponent exit") == std::string::npos);  // 0: player 1 won
    CHECK(all.find("# player 1 wins ") != std::string::npos);
    CHECK(shell.error_output().find("ioiwari opponent: player 1 wins") != std::string::npos);
  }
}

TEST_CASE("ioiwari --second plays player 2 through pipes", "[e2e][opponent]") {
  // 4 3 2 4 2 3 2 with player 1 playing 2: ioiwari as player 2 answers with its best move.
  const Outcome outcome = run({"--second"}, "4 3 2 4 2 3 2\n2\n");
  CHECK(outcome.status == to_int(ExitCode::input_ended));
  CHECK(
      outcome.out ==
      std::to_string(table().best_move(play(kExample, *Pit::from_label(2, kPits)).after)->label()) +
          "\n");
  CHECK(outcome.err == "ioiwari: input ended before move 3 (player 1): the game is not over\n");
}

TEST_CASE("the referee command judges ioiwari and a faulty player", "[e2e][referee]") {
  const Outcome good = run(referee_args({"--starts", "classes", "--strategy", "optimal,weakest",
                                         "--jobs", "2", "--", PLAYER_IOIWARI}),
                           "");
  CHECK(good.success());
  CHECK(good.out.find("102 games (51 starts x 2 strategies), 2 jobs") != std::string::npos);
  CHECK(good.out.find("points: 408 of 408") != std::string::npos);
  CHECK(good.out.ends_with("every game won\n"));

  const Outcome bad =
      run(referee_args({"--starts", "3", "--json", "--", FAULTY_PLAYER, "garbage"}), "");
  CHECK(bad.status == 1);
  CHECK(bad.out.find("\"unreadable move\": 3") != std::string::npos);
  CHECK(bad.out.find("\"all_won\": false") != std::string::npos);

  const Outcome usage = run({"referee", "--jobs", "0", "--", PLAYER_IOIWARI}, "");
  CHECK(usage.status == to_int(ExitCode::usage));
  CHECK(usage.err.starts_with("ioiwari: referee: --jobs needs a number 1 to 256, not \"0\"\n"));
}

TEST_CASE(
    "the referee shows progress at a terminal from its first second, erased before the "
    "summary",
    "[e2e][referee]") {
  // A player that thinks a second and a half before its first move (asleep: no CPU time):
  // the wait is over a second whatever the machine's speed, so the line must show.
  const std::string slow = std::string(FAULTY_PLAYER) + " slow";
  ChildProcess child(under_terminal(referee_line("--starts 2 -- " + slow)));
  const Outcome outcome = collect(child);
  CHECK(outcome.success());
  // The pseudo-terminal turns each line end into CR LF.
  CHECK(outcome.out.find("\r\x1b[Kreferee: 1/2 games, 1 won, 0 not won, ") != std::string::npos);
  CHECK(outcome.out.find("\r\x1b[Kioiwari referee: 2 games (2 starts x 1 strategy), 1 job") !=
        std::string::npos);
  // With --quiet or --json, no line at all.
  for (const char* quiet : {"--quiet", "--json"}) {
    INFO(quiet);
    ChildProcess silent(
        under_terminal(referee_line(std::string("--starts 2 ") + quiet + " -- " + slow)));
    const Outcome plain = collect(silent);
    CHECK(plain.success());
    CHECK(plain.out.find("\x1b[K") == std::string::npos);
  }
}

TEST_CASE("the referee shows no progress when standard error is not a terminal", "[e2e][referee]") {
  const Outcome outcome = run(referee_args({"--starts", "3", "--", PLAYER_IOIWARI}), "");
  CHECK(outcome.success());
  CHECK(outcome.err.empty());
  CHECK(outcome.out.starts_with("ioiwari referee: 3 games"));
}

TEST_CASE("the binary plays other rings perfectly, solving them or mapping a table file",
          "[e2e][rings]") {
  const std::string table_path = std::filesystem::temp_directory_path() /
                                 ("ioiwari-e2e-" + std::to_string(::getpid()) + ".table");
  struct Case {
    Ring ring;
    bool from_file;
    std::size_t most_starts;
  };
  // Under the sanitizers each refereed game takes ten times as long: fewer starts of each ring.
  const std::size_t most = test::kSanitized ? 6 : 100;
  for (const Case& c : {Case{{4, 4}, false, most}, Case{{5, 5}, false, most},
                        Case{{6, 3}, false, most}, Case{{9, 4}, true, test::kSanitized ? 4 : 12}}) {
    const Ring ring = c.ring;
    INFO(ring.describe());
    std::vector<std::string> player = {PLAYER_IOIWARI, "--pits", std::to_string(ring.pits),
                                       "--capacity", std::to_string(ring.capacity)};
    if (c.from_file) {
      // One solve, written once, mapped by every game's player.
      const Outcome solved =
          run({"solve", "--pits", player[2], "--capacity", player[4], "--out", table_path}, "");
      REQUIRE(solved.success());
      player.insert(player.end(), {"--table", table_path});
    }
    const Table table = Table::solve(ring, {});
    const std::vector<Board> all = starts(ring, StartRule::defaults_for(ring));
    REQUIRE_FALSE(all.empty());
    RefereeLimits limits;
    limits.data_limit = !test::kSanitized;
    limits.per_move = 30s;
    limits.per_game = 300s;
    limits.after_end = 30s;
    for (std::size_t i = 0; i < all.size() && i < c.most_starts; ++i) {
      const Board& start = all[i * std::max<std::size_t>(1, all.size() / c.most_starts)];
      for (Strategy strategy : {Strategy::optimal, Strategy::weakest}) {
        const GameReport report = test::judge_game(player, start, strategy, i, table, limits);
        INFO("start " << start << " against " << name(strategy) << ": " << report.detail);
        const int margin = report.bank1 - report.bank2;
        const int value = table.value(start);
        REQUIRE(report.player_errors.empty());
        REQUIRE((report.verdict == Verdict::win || report.verdict == Verdict::tie ||
                 report.verdict == Verdict::loss));
        // Perfect against perfect is the value; against anyone else, at least the value.
        if (strategy == Strategy::optimal) REQUIRE(margin == value);
        REQUIRE(margin >= value);
      }
    }
  }
  std::filesystem::remove(table_path);
}

TEST_CASE("bench runs the binary itself on a whole game and reports its time and faults",
          "[e2e][bench]") {
  const Outcome text = run({"bench", "--runs", "3"}, "");
  CHECK(text.success());
  CHECK(text.err.empty());
  CHECK(text.out.find("\na whole game as a process, 3 runs: median ") != std::string::npos);
  CHECK(text.out.find(" ms; ioiwari --version: ") != std::string::npos);
  CHECK(text.out.find("\nminor page faults: ") != std::string::npos);
  const Outcome json = run({"bench", "--runs", "3", "--json"}, "");
  CHECK(json.success());
  const auto at = json.out.find(", \"process\": {\"runs\": 3, \"game_ms\": ");
  REQUIRE(at != std::string::npos);
  // A game solves and plays; --version does neither: the game touches more pages.
  const auto count_after = [&](const std::string& key) {
    const auto place = json.out.find(key, at);
    REQUIRE(place != std::string::npos);
    return std::stol(json.out.substr(place + key.size()));
  };
  const long game = count_after("\"game_faults\": ");
  const long version = count_after("\"version_faults\": ");
  CHECK(version > 0);
  CHECK(game > version);
  // Only the IOI ring has a game to time.
  const Outcome ring = run({"bench", "--pits", "5", "--capacity", "3"}, "");
  CHECK(ring.success());
  CHECK(ring.out.find("process") == std::string::npos);
}
