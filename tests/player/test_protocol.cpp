// The protocol loop, driven through string streams.
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/strategy.hpp"
#include "ioiwari/input/token.hpp"
#include "ioiwari/player/protocol.hpp"
#include "support.hpp"

using namespace ioiwari;
using ioiwari::test::perfect_moves;
using ioiwari::test::table;

namespace {

// A whole game as the two streams would carry it: what the judge sends (the start and the
// opponent's moves) and what the player must answer. The player's moves are the table's
// best, so the game can be written out in advance.
struct Script {
  std::string input;
  std::string output;
  Match game;
};

Script script(const Board& start, Strategy opponent, std::uint64_t seed, Player me) {
  Random random(seed);
  std::ostringstream input, output;
  input << start << '\n';
  Match game(start);
  while (!game.over()) {
    if (game.to_move() == me) {
      const Pit pit = *table().best_move(game.board());
      output << pit.label() << '\n';
      game.play(pit);
    } else {
      const Pit pit = choose_move(opponent, game.board(), table(), random);
      input << pit.label() << '\n';
      game.play(pit);
    }
  }
  return {input.str(), output.str(), game};
}

struct Run {
  ProtocolResult result;
  std::string output;
  std::string unread;
};

Run run(const std::string& input, Player me = Player::first) {
  std::istringstream in(input);
  std::ostringstream out;
  Run run{play_protocol(in, out, table(), me), out.str(), {}};
  std::getline(in, run.unread, '\0');
  return run;
}

}  // namespace

TEST_CASE("player 1 wins every IOI start against every strategy, reading nothing extra",
          "[protocol]") {
  const auto starts = ioi_starts();
  REQUIRE(starts.size() == 357);
  for (const Board& start : starts) {
    for (Strategy strategy : kAllStrategies) {
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        const Script game = script(start, strategy, seed, Player::first);
        INFO("start " << start << ", " << name(strategy) << ", seed " << seed);
        const Run result = run(game.input + "after the end\n");
        REQUIRE(result.result.code == ExitCode::ok);
        REQUIRE(result.output == game.output);
        REQUIRE(result.unread == "after the end\n");
        REQUIRE(game.game.bank(Player::first) - game.game.bank(Player::second) >=
                table().value(start));
        REQUIRE(game.game.leader() == Player::first);
      }
    }
  }
}

TEST_CASE("the start may come one number a line, with CRLF and tabs", "[protocol]") {
  const Board start = *Board::from_counts(std::vector{4, 3, 2, 4, 2, 3, 2}, Ring::ioi());
  const Script game = script(start, Strategy::optimal, 1, Player::first);
  std::string input = "4\r\n3\r\n2\r\n4\r\n2\r\n3\r\n2\r\n";
  input += game.input.substr(game.input.find('\n') + 1);
  const Run result = run(input);
  CHECK(result.result.code == ExitCode::ok);
  CHECK(result.output == game.output);

  const Run tabs = run("4\t3\t2\t4\t2\t3\t2\t" + game.input.substr(game.input.find('\n') + 1));
  CHECK(tabs.output == game.output);
}

TEST_CASE("any start with a bead is played, not only the IOI's", "[protocol]") {
  for (const auto& counts : {std::vector{0, 0, 0, 0, 0, 0, 1}, std::vector{5, 5, 5, 5, 5, 5, 5},
                             std::vector{0, 5, 0, 0, 0, 0, 0}}) {
    const Board board = *Board::from_counts(counts, Ring::ioi());
    const Script game = script(board, Strategy::greedy, 9, Player::first);
    const Run result = run(game.input);
    CHECK(result.result.code == ExitCode::ok);
    CHECK(result.output == game.output);
  }
}

TEST_CASE("as player 2 it reads first and loses by no more than the start's value", "[protocol]") {
  for (const Board& start : ioi_starts()) {
    const Script game = script(start, Strategy::optimal, 4, Player::second);
    const Run result = run(game.input, Player::second);
    REQUIRE(result.result.code == ExitCode::ok);
    REQUIRE(result.output == game.output);
    REQUIRE(game.game.bank(Player::first) - game.game.bank(Player::second) == table().value(start));
  }
}

TEST_CASE("bad input stops the player with one line saying what and where", "[protocol]") {
  struct Case {
    std::string input;
    ExitCode code;
    std::string error;
    std::string output;  // the moves written before the problem
  };
  // From 4 3 2 4 2 3 2 player 1's best first move is pit 2 (4 0 3 5 0 3 2 after it).
  const std::vector<Case> cases = {
      {"", ExitCode::input_ended, "input ended before the start: expected 7 bead counts", ""},
      {" \n\t", ExitCode::input_ended, "input ended before the start: expected 7 bead counts", ""},
      {"4 3 2 4 2 3", ExitCode::input_ended,
       "input ended after 6 of the 7 bead counts of the start", ""},
      {"4 3 2 x 2 3 2", ExitCode::bad_start, "start, pit 4: \"x\" is not an integer", ""},
      {"4 3 2 3.5 2 3 2", ExitCode::bad_start, "start, pit 4: \"3.5\" is not an integer", ""},
      {"+4 3 2 4 2 3 2", ExitCode::bad_start, "start, pit 1: \"+4\" is not an integer", ""},
      {"4 3 2 4 2 3 6", ExitCode::bad_start, "start, pit 7: \"6\" beads: a pit holds 0 to 5", ""},
      {"4 3 -2 4 2 3 2", ExitCode::bad_start, "start, pit 3: \"-2\" beads: a pit holds 0 to 5", ""},
      {"4 3 99999999999999999999 4 2 3 2", ExitCode::bad_start,
       "start, pit 3: \"99999999999999999999\" beads: a pit holds 0 to 5", ""},
      {"0 0 0 0 0 0 0", ExitCode::bad_start, "start: every pit is empty", ""},
      {"4 3 2 4 2 3 2\n", ExitCode::input_ended,
       "input ended before move 2 (player 2): the game is not over", "2\n"},
      {"4 3 2 4 2 3 2\nfive\n", ExitCode::bad_move, "move 2 (player 2): \"five\" is not an integer",
       "2\n"},
      {"4 3 2 4 2 3 2\n0\n", ExitCode::bad_move,
       "move 2 (player 2): \"0\" is not a pit: pits are 1 to 7", "2\n"},
      {"4 3 2 4 2 3 2\n8\n", ExitCode::bad_move,
       "move 2 (player 2): \"8\" is not a pit: pits are 1 to 7", "2\n"},
      {"4 3 2 4 2 3 2\n-1\n", ExitCode::bad_move,
       "move 2 (player 2): \"-1\" is not a pit: pits are 1 to 7", "2\n"},
      {"4 3 2 4 2 3 2\n2\n", ExitCode::bad_move, "move 2 (player 2): pit 2 is empty", "2\n"},
      {std::string("4 3 2 4 2 3 2\n3\0\n", 17), ExitCode::bad_move,
       "move 2 (player 2): \"3\\x00\" is not an integer", "2\n"},
  };
  for (const Case& c : cases) {
    INFO("input " << quoted(c.input));
    const Run result = run(c.input);
    CHECK(result.result.code == c.code);
    CHECK(result.result.error == c.error);
    CHECK(result.output == c.output);
  }
}

TEST_CASE("end of input after any move of a game is reported at that move", "[protocol]") {
  const Board start = *Board::from_counts(std::vector{3, 3, 3, 3, 3, 3, 2}, Ring::ioi());
  const Script game = script(start, Strategy::random, 17, Player::first);
  // Cut the judge's side after each of its lines but the last.
  std::size_t cut = 0;
  int lines = 0;
  while ((cut = game.input.find('\n', cut)) != std::string::npos && ++cut < game.input.size()) {
    ++lines;
    const Run result = run(game.input.substr(0, cut));
    INFO("after line " << lines);
    CHECK(result.result.code == ExitCode::input_ended);
    CHECK(result.result.error.starts_with("input ended before move "));
    CHECK(game.output.starts_with(result.output));
  }
  CHECK(lines > 1);
}

TEST_CASE("a closed output stops the player at its next move", "[protocol]") {
  std::istringstream in("4 3 2 4 2 3 2\n");
  std::ostringstream out;
  out.setstate(std::ios::badbit);  // as a stream looks after a write to a closed pipe
  const ProtocolResult result = play_protocol(in, out, table());
  CHECK(result.code == ExitCode::output_closed);
  CHECK(result.error == "standard output closed at move 1 (player 1): cannot write the move");
}
