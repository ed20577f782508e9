// End to end: the built ioiwari binary, run through real pipes.
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "ioiwari/exit_code.hpp"
#include "ioiwari/process.hpp"
#include "ioiwari/referee.hpp"
#include "ioiwari/terminal.hpp"

using namespace ioiwari;
using namespace std::chrono_literals;

namespace {

const Table& table() {
  static const Table solved = Table::solve();
  return solved;
}

struct Outcome {
  ExitStatus status;
  std::string out, err;
};

// Runs ioiwari with `args`, feeds it `input` and closes its input, and collects everything.
Outcome run(std::vector<std::string> args, const std::string& input) {
  args.insert(args.begin(), IOIWARI_BINARY);
  ChildProcess child(args);
  child.write(input);
  child.close_input();
  Outcome outcome;
  const auto deadline = Clock::now() + 20s;
  std::string line;
  ChildProcess::Read read;
  while ((read = child.read_line(line, deadline, 1 << 20)) == ChildProcess::Read::line) {
    outcome.out += line + "\n";
  }
  REQUIRE(read == ChildProcess::Read::end);
  const auto status = child.wait_until(deadline);
  REQUIRE(status);
  outcome.status = *status;
  outcome.err = child.error_output();
  return outcome;
}

void check_wins_all_starts(Strategy strategy) {
  const RefereeLimits limits;
  std::uint64_t seed = 0;
  for (const Board& start : ioi_starts()) {
    const GameReport report =
        referee_game({IOIWARI_BINARY}, start, strategy, ++seed, table(), limits);
    INFO("start " << start << " against " << name(strategy) << ": " << report.detail << " "
                  << report.player_errors);
    REQUIRE(report.verdict == Verdict::win);
    REQUIRE(report.bank1 - report.bank2 >= table().value(start));
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
  CHECK(outcome.status.success());
  CHECK(outcome.out == "6\n");
  CHECK(outcome.err.empty());
}

TEST_CASE("each kind of bad input gets its exit code and one line on standard error", "[e2e]") {
  struct Case {
    std::string input;
    ExitCode code;
    std::string err;
    std::string out;
  };
  const std::vector<Case> cases = {
      {"", ExitCode::input_ended, "ioiwari: input ended before the start: expected 7 bead counts\n",
       ""},
      {"4 3 2 4 2 3 9\n", ExitCode::bad_start,
       "ioiwari: start, pit 7: \"9\" beads: a pit holds 0 to 5\n", ""},
      {"0 0 0 0 0 0 0\n", ExitCode::bad_start, "ioiwari: start: every pit is empty\n", ""},
      {"4 3 2 4 2 3 2\nx\n", ExitCode::bad_move,
       "ioiwari: move 2 (player 2): \"x\" is not an integer\n", "2\n"},
      {"4 3 2 4 2 3 2\n9\n", ExitCode::bad_move,
       "ioiwari: move 2 (player 2): \"9\" is not a pit: pits are 1 to 7\n", "2\n"},
      {"4 3 2 4 2 3 2\n2\n", ExitCode::bad_move, "ioiwari: move 2 (player 2): pit 2 is empty\n",
       "2\n"},
      {"4 3 2 4 2 3 2\n", ExitCode::input_ended,
       "ioiwari: input ended before move 2 (player 2): the game is not over\n", "2\n"},
  };
  for (const Case& c : cases) {
    INFO("input " << c.input);
    const Outcome outcome = run({}, c.input);
    CHECK_FALSE(outcome.status.signaled);
    CHECK(outcome.status.number == to_int(c.code));
    CHECK(outcome.err == c.err);
    CHECK(outcome.out == c.out);
  }
}

TEST_CASE("a reader that goes away ends the binary with its exit code, not SIGPIPE", "[e2e]") {
  ChildProcess child({IOIWARI_BINARY});
  child.close_output();
  child.write("4 3 2 4 2 3 2\n");
  const auto status = child.wait_until(Clock::now() + 20s);
  REQUIRE(status);
  CHECK_FALSE(status->signaled);
  CHECK(status->number == to_int(ExitCode::output_closed));
  CHECK(child.error_output() ==
        "ioiwari: standard output closed at move 1 (player 1): cannot write the move\n");
}

TEST_CASE("the command line through the binary", "[e2e]") {
  const Outcome help = run({"--help"}, "");
  CHECK(help.status.success());
  CHECK(help.out.starts_with("usage: ioiwari"));
  CHECK(help.err.empty());

  const Outcome version = run({"--version"}, "");
  CHECK(version.status.success());
  CHECK(version.out.starts_with("ioiwari "));

  const Outcome unknown = run({"--bogus"}, "");
  CHECK(unknown.status.number == to_int(ExitCode::usage));
  CHECK(unknown.out.empty());
  CHECK(unknown.err.starts_with("ioiwari: unknown option '--bogus'\n"));
}

namespace {

// Runs ioiwari with `arguments` (shell words) under a pseudo-terminal made by script(1) from
// util-linux, so that its standard streams are a terminal as a person's would be.
std::vector<std::string> under_terminal(const std::string& arguments, bool no_color = false) {
  const std::string environment = no_color ? "env NO_COLOR=1 " : "env -u NO_COLOR ";
  return {"script", "-q", "-e", "-c", environment + IOIWARI_BINARY + " " + arguments, "/dev/null"};
}

// Everything the child writes until its output closes, and how it ended.
Outcome collect(ChildProcess& child) {
  Outcome outcome;
  const auto deadline = Clock::now() + 20s;
  std::string line;
  while (child.read_line(line, deadline, 1 << 20) == ChildProcess::Read::line) {
    outcome.out += line + "\n";
  }
  const auto status = child.wait_until(deadline);
  REQUIRE(status);
  outcome.status = *status;
  return outcome;
}

// The person's side of a game from `start` where both play the table's best moves.
std::string perfect_moves(const Board& start, Player person) {
  Game game(start);
  std::string typed;
  while (!game.over()) {
    const Pit pit = *table().best_move(game.board());
    if (game.to_move() == person) typed += std::to_string(pit.label()) + "\n";
    game.play(pit);
  }
  return typed;
}

const Board kExample = *Board::from_counts(std::vector{4, 3, 2, 4, 2, 3, 2});

}  // namespace

TEST_CASE("a whole game of play at a terminal, in colour", "[e2e][terminal]") {
  ChildProcess child(under_terminal("play --start '4 3 2 4 2 3 2'"));
  child.write("hint\n9\n" + perfect_moves(kExample, Player::first));
  const Outcome outcome = collect(child);
  CHECK(outcome.status.success());
  CHECK(outcome.out.find("pit 2: +2  pit 4: +2  pit 7: +2") != std::string::npos);
  CHECK(outcome.out.find("There is no pit 9") != std::string::npos);
  CHECK(outcome.out.find("You win by 2.") != std::string::npos);
  CHECK(outcome.out.find("You never gave away a bead") != std::string::npos);
  CHECK(outcome.out.find("\x1b[1m") != std::string::npos);  // a terminal gets colour
}

TEST_CASE("NO_COLOR turns colour off at a terminal", "[e2e][terminal]") {
  ChildProcess child(under_terminal("play --start '4 3 2 4 2 3 2'", true));
  child.write(perfect_moves(kExample, Player::first));
  const Outcome outcome = collect(child);
  CHECK(outcome.status.success());
  CHECK(outcome.out.find("You win by 2.") != std::string::npos);
  CHECK(outcome.out.find("\x1b[") == std::string::npos);
}

TEST_CASE("Ctrl-C at the prompt ends play with a message and status 130", "[e2e][terminal]") {
  ChildProcess child(under_terminal("play --start '4 3 2 4 2 3 2'"));
  child.write("2\n");
  // Wait for the board before the second prompt, then press Ctrl-C.
  const auto deadline = Clock::now() + 20s;
  std::string line;
  while (child.read_line(line, deadline, 1 << 20) == ChildProcess::Read::line &&
         line.find("move 3: you to play") == std::string::npos) {
  }
  REQUIRE(line.find("move 3: you to play") != std::string::npos);
  std::this_thread::sleep_for(200ms);  // let it reach its read of the next line
  child.write("\x03");
  const Outcome outcome = collect(child);
  CHECK(outcome.status.number == kInterruptedExit);
  CHECK(outcome.out.find("Interrupted: game left at move 3") != std::string::npos);
}

TEST_CASE("plain ioiwari at a terminal shows the game and still plays the protocol",
          "[e2e][terminal]") {
  ChildProcess child(under_terminal(""));
  child.write("4 3 2 4 2 3 2\n" + perfect_moves(kExample, Player::second));
  const Outcome outcome = collect(child);
  CHECK(outcome.status.success());
  CHECK(outcome.out.find("Type the start") != std::string::npos);
  CHECK(outcome.out.find("\x1b[1mIoiwari\x1b[0m played pit 2 (3 beads)") != std::string::npos);
  CHECK(outcome.out.find("game over after") != std::string::npos);
}

TEST_CASE("two ioiwari processes play each other through named pipes", "[e2e][opponent]") {
  // The README's recipe: the opponent writes the start, the player answers, via two FIFOs.
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
    const auto deadline = Clock::now() + 20s;
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
  CHECK(outcome.status.number == to_int(ExitCode::input_ended));
  CHECK(outcome.out ==
        std::to_string(table().best_move(play(kExample, *Pit::from_label(2)).after)->label()) +
            "\n");
  CHECK(outcome.err == "ioiwari: input ended before move 3 (player 1): the game is not over\n");
}

TEST_CASE("the referee command judges ioiwari and a faulty player", "[e2e][referee]") {
  const Outcome good = run({"referee", "--starts", "classes", "--strategy", "optimal,weakest",
                            "--jobs", "2", "--", IOIWARI_BINARY},
                           "");
  CHECK(good.status.success());
  CHECK(good.out.find("102 games (51 starts x 2 strategies), 2 jobs") != std::string::npos);
  CHECK(good.out.find("points: 408 of 408") != std::string::npos);
  CHECK(good.out.ends_with("every game won\n"));

  const Outcome bad =
      run({"referee", "--starts", "3", "--json", "--", FAULTY_PLAYER, "garbage"}, "");
  CHECK(bad.status.number == 1);
  CHECK(bad.out.find("\"unreadable move\": 3") != std::string::npos);
  CHECK(bad.out.find("\"all_won\": false") != std::string::npos);

  const Outcome usage = run({"referee", "--jobs", "0", "--", IOIWARI_BINARY}, "");
  CHECK(usage.status.number == to_int(ExitCode::usage));
  CHECK(usage.err.starts_with("ioiwari: referee: --jobs needs a number 1 to 256, not \"0\"\n"));
}
