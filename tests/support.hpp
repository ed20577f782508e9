// What several test files share: the solved table, built once per test program, and the
// moves of a perfectly played game.
#pragma once

#include <string>

#include "ioiwari/game.hpp"
#include "ioiwari/solver.hpp"

namespace ioiwari::test {

inline const Table& table() {
  static const Table solved = Table::solve();
  return solved;
}

// The moves `person` types, one a line, in the game from `start` where both players play the
// table's best moves.
inline std::string perfect_moves(const Board& start, Player person) {
  Game game(start);
  std::string typed;
  while (!game.over()) {
    const Pit pit = *table().best_move(game.board());
    if (game.to_move() == person) typed += std::to_string(pit.label()) + "\n";
    game.play(pit);
  }
  return typed;
}

}  // namespace ioiwari::test
