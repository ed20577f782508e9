// Ioiwari as a game of the generic memoized negamax library (include/negamax): the plain
// statement of the search that Table::solve() does fast, and an independent check of it.
#pragma once

#include <cstddef>

#include "ioiwari/core/board.hpp"
#include "negamax/game.hpp"

namespace ioiwari {

// A state is a board of `ring`: both players have the same moves and the banks do not change
// what is best, so the side to move is not part of it. A move's points are its net bank gain.
struct NegamaxGame {
  using State = Board;
  using Move = Pit;
  using Value = int;

  Ring ring;

  // The pits that hold beads, in label order (so ties go to the lowest label, as in Table).
  negamax::MoveList<Pit, kMaxPits> moves(const Board& board) const {
    negamax::MoveList<Pit, kMaxPits> legal;
    for (Pit pit : board.pits()) {
      if (board.is_legal(pit)) legal.push_back(pit);
    }
    return legal;
  }
  negamax::Step<Board, int> play(const Board& board, Pit pit) const {
    const MoveResult result = ioiwari::play(board, pit);
    return {result.after, result.net()};
  }
  // Only the empty board has no move, and there the game is over: nothing more to gain.
  int terminal_value(const Board& /*board*/) const { return 0; }
  std::size_t key(const Board& board) const { return static_cast<std::size_t>(board.code()); }
  std::size_t key_count() const { return static_cast<std::size_t>(ring.code_count()); }
};

}  // namespace ioiwari
