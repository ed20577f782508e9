// The opponent (player 2 as a judge) and the player-2 protocol, driven through streams.
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/judge/opponent.hpp"
#include "ioiwari/player/protocol.hpp"
#include "support.hpp"

using namespace ioiwari;
using ioiwari::test::perfect_moves;
using ioiwari::test::table;

namespace {

const Board kExample = *Board::from_counts(std::vector{4, 3, 2, 4, 2, 3, 2}, Ring::ioi());

// Player 1's side of a game against the opponent, written in advance: player 1 plays the
// table's moves and the opponent's choices are replayed with the same seed.
struct Dialogue {
  std::string player1;   // what player 1 sends
  std::string opponent;  // what the opponent must write
};

Dialogue dialogue(const OpponentOptions& options) {
  Random random(options.seed);
  Match game(options.start);
  std::ostringstream player1, opponent;
  opponent << options.start << '\n';
  while (!game.over()) {
    if (game.to_move() == Player::first) {
      const Pit pit = *table().best_move(game.board());
      player1 << pit.label() << '\n';
      game.play(pit);
    } else {
      const Pit pit = choose_move(options.strategy, game.board(), table(), random);
      opponent << pit.label() << '\n';
      game.play(pit);
    }
  }
  return {player1.str(), opponent.str()};
}

struct Run {
  OpponentResult result;
  std::string written;
};

Run run(const std::string& input, const OpponentOptions& options) {
  std::istringstream in(input);
  std::ostringstream out;
  OpponentResult result = run_opponent(in, out, table(), options);
  return {std::move(result), out.str()};
}

}  // namespace

TEST_CASE("the opponent writes the start, answers every move, and reports the result",
          "[opponent]") {
  for (Strategy strategy : kAllStrategies) {
    for (const Board& start : ioi_starts()) {
      const OpponentOptions options{start, strategy, 42};
      const Dialogue expected = dialogue(options);
      const Run played = run(expected.player1, options);
      INFO(name(strategy) << " from " << start);
      REQUIRE(played.written == expected.opponent);
      REQUIRE(played.result.exit == OpponentExit::player1_won);
      REQUIRE(played.result.game.over());
    }
  }
}

TEST_CASE("the opponent's strategy is reproducible by seed", "[opponent]") {
  const OpponentOptions options{kExample, Strategy::random, 7};
  const Dialogue expected = dialogue(options);
  CHECK(run(expected.player1, options).written == expected.opponent);
  CHECK(run(expected.player1, options).written == expected.opponent);
}

TEST_CASE("a player 1 that errs breaks the protocol, and is told where", "[opponent]") {
  const OpponentOptions options{kExample, Strategy::optimal, 1};
  const Run bad = run("2\n2\n", options);  // pit 2 was emptied by player 1's first move
  CHECK(bad.result.exit == OpponentExit::player1_broke_protocol);
  CHECK(bad.result.summary() == "player 1 broke the protocol: move 3 (player 1): pit 2 is empty");
  const Run ended = run("2\n", options);
  CHECK(ended.result.exit == OpponentExit::player1_broke_protocol);
  CHECK(ended.result.fault == "input ended before move 3 (player 1): the game is not over");
  const Run word = run("two\n", options);
  CHECK(word.result.fault == "move 1 (player 1): \"two\" is not an integer");
  CHECK(word.written == "4 3 2 4 2 3 2\n");
}

TEST_CASE("the opponent sees a player that stops reading", "[opponent]") {
  std::istringstream in("2\n2\n");
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  const OpponentResult result = run_opponent(in, out, table(), {kExample, Strategy::optimal, 1});
  CHECK(result.exit == OpponentExit::player1_broke_protocol);
  CHECK(result.fault == "player 1 stopped reading before move 1");
}

TEST_CASE("a tie and a loss for player 1 are told apart", "[opponent]") {
  // 1 0 0 0 0 0 0: player 1's only move gives its bead away: a loss by 1.
  const OpponentOptions lone{*Board::from_counts(std::vector{1, 0, 0, 0, 0, 0, 0}, Ring::ioi()),
                             Strategy::optimal, 1};
  const Run lost = run("1\n", lone);
  CHECK(lost.result.exit == OpponentExit::player1_lost);
  CHECK(lost.result.summary() == "player 1 loses 0 to 1");
  // 1 0 1 0 0 0 0: player 1 gives a bead away (pit 1), player 2 gives one back (pit 3).
  const OpponentOptions pair{*Board::from_counts(std::vector{1, 0, 1, 0, 0, 0, 0}, Ring::ioi()),
                             Strategy::optimal, 1};
  const Run tied = run("1\n", pair);
  CHECK(tied.result.exit == OpponentExit::player1_tied);
  CHECK(tied.result.summary() == "player 1 ties 1 to 1");
}

TEST_CASE("the record holds the dialogue with both banks and the result", "[opponent]") {
  const OpponentOptions options{kExample, Strategy::optimal, 3};
  const Run played = run(dialogue(options).player1, options);
  std::ostringstream record;
  write_record(record, played.result, options);
  const std::string text = record.str();
  CHECK(
      text.starts_with("# ioiwari opponent, strategy optimal, seed 3\n"
                       "# move | pits 1..7 | bank 1 bank 2\n"));
  CHECK(text.find("start            | 4 3 2 4 2 3 2 | 0 0\n") != std::string::npos);
  CHECK(text.find("player 1 plays 2 | 4 0 3 5 0 3 2 | 3 0\n") != std::string::npos);
  CHECK(text.ends_with("# player 1 wins 11 to 9\n"));
}

TEST_CASE("the record's header names the pits of the ring played", "[opponent][rings]") {
  const Ring ring{9, 4};
  const Table nine = Table::solve(ring, {});
  const OpponentOptions options{*Board::from_counts(std::vector{0, 0, 0, 0, 0, 0, 0, 1, 1}, ring),
                                Strategy::optimal, 3};
  std::istringstream in("8\n");
  std::ostringstream out, record;
  write_record(record, run_opponent(in, out, nine, options), options);
  CHECK(record.str().find("\n# move | pits 1..9 | bank 1 bank 2\n") != std::string::npos);
  CHECK(record.str().find("| 0 0 0 0 0 0 0 0 0 |") != std::string::npos);
}

TEST_CASE("as player 2 the protocol loses by the least margin and takes every gift",
          "[opponent][protocol]") {
  // Against a weakest player 1, player 2 must win: the starts' values are all positive, and
  // the weakest first player throws them away.
  for (const Board& start : ioi_starts()) {
    Random random(5);
    Match game(start);
    std::ostringstream input, expected;
    input << start << '\n';
    while (!game.over()) {
      const bool first = game.to_move() == Player::first;
      const Pit pit = first ? choose_move(Strategy::weakest, game.board(), table(), random)
                            : *table().best_move(game.board());
      (first ? input : expected) << pit.label() << '\n';
      game.play(pit);
    }
    std::istringstream in(input.str());
    std::ostringstream out;
    REQUIRE(play_protocol(in, out, table(), Player::second).code == ExitCode::ok);
    REQUIRE(out.str() == expected.str());
    REQUIRE(game.leader() == Player::second);
  }
}
