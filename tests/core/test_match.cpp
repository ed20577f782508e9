// The game record: banks, turns, undo.
#include <sstream>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/match.hpp"

using namespace ioiwari;

namespace {
Pit pit(int label) {
  return *Pit::from_label(label, kPits);
}
}  // namespace

TEST_CASE("a game keeps both banks and alternates the players", "[game]") {
  // The statement's example: banks 3/0, 3/4, 8/4, 8/9, 10/9, 11/9.
  Match game(*Board::from_counts(std::vector{4, 3, 2, 4, 2, 3, 2}, Ring::ioi()));
  const std::vector<std::pair<int, std::array<int, 2>>> steps = {
      {2, {3, 0}}, {3, {3, 4}}, {5, {8, 4}}, {4, {8, 9}}, {5, {10, 9}}, {7, {11, 9}}};
  Player expected_mover = Player::first;
  for (const auto& [label, banks] : steps) {
    REQUIRE_FALSE(game.over());
    REQUIRE(game.to_move() == expected_mover);
    game.play(pit(label));
    CHECK(game.bank(Player::first) == banks[0]);
    CHECK(game.bank(Player::second) == banks[1]);
    expected_mover = opponent(expected_mover);
  }
  CHECK(game.over());
  CHECK(game.leader() == Player::first);
  CHECK(game.move_number() == 7);
  CHECK(game.history().size() == 6);
}

TEST_CASE("undo restores the board, the banks and the turn", "[game]") {
  const Board start = *Board::from_counts(std::vector{4, 3, 2, 4, 2, 3, 2}, Ring::ioi());
  Match game(start);
  CHECK_FALSE(game.undo());
  game.play(pit(2));
  game.play(pit(3));
  const Board middle = game.board();
  game.play(pit(5));
  REQUIRE(game.undo());
  CHECK(game.board() == middle);
  CHECK(game.bank(Player::first) == 3);
  CHECK(game.bank(Player::second) == 4);
  CHECK(game.to_move() == Player::first);
  REQUIRE(game.undo());
  REQUIRE(game.undo());
  CHECK(game.board() == start);
  CHECK(game.bank(Player::first) == 0);
  CHECK(game.bank(Player::second) == 0);
  CHECK(game.history().empty());
}

TEST_CASE("equal banks have no leader", "[game]") {
  // 1 0 0 0 0 0 0: the only move gives its last bead (on empty pit 2) to the opponent.
  Match game(*Board::from_counts(std::vector{1, 0, 0, 0, 0, 0, 0}, Ring::ioi()));
  CHECK_FALSE(game.leader());
  game.play(pit(1));
  CHECK(game.over());
  CHECK(game.leader() == Player::second);
}

TEST_CASE("the record prints one row a move", "[game]") {
  Match game(*Board::from_counts(std::vector{4, 3, 2, 4, 2, 3, 2}, Ring::ioi()));
  game.play(pit(2));
  game.play(pit(3));
  std::ostringstream out;
  out << game;
  CHECK(out.str() ==
        "start            | 4 3 2 4 2 3 2 | 0 0\n"
        "player 1 plays 2 | 4 0 3 5 0 3 2 | 3 0\n"
        "player 2 plays 3 | 4 0 0 4 1 4 0 | 3 4\n");
}
