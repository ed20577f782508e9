// How far the end of the game is with perfect play, and the moves ranked by it: what a student
// asks after "what is this move worth" (docs/analysis.md states the rule).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ioiwari/core/table.hpp"

namespace ioiwari {

// A legal move, what it is worth to its mover with perfect play afterwards (Table::move_value),
// and the moves from before it to the end of the game, itself included.
struct MoveOutlook {
  Pit pit;
  int value = 0;
  int moves = 0;
  friend bool operator==(const MoveOutlook&, const MoveOutlook&) = default;
};

// The moves to the end of a game with perfect play, over a solved table. Both players keep to
// moves of the best value; among those, the player to move ends the game soonest when that value
// is 0 or more, and lasts longest when it is below 0 (negamax::Scoring::margin, whose plain
// search the tests hold it equal to); then the lowest label. Each board is worked out once and
// remembered; the table must outlive it.
class EndDistance {
 public:
  explicit EndDistance(const Table& table) : table_(table) {}

  // The moves from `board` (of the table's ring and beads) to the end: 0 for the empty board.
  int moves(const Board& board);

  // Every legal move of `board`, best first: the highest value, then the rule above, then the
  // lowest label. Checks the board's value against its moves' as Table::analyze() does.
  std::vector<MoveOutlook> rank(const Board& board);

  // The first of rank() from `board`, then from each board after it, to the end.
  std::vector<Pit> line(const Board& board);

  // Boards worked out so far.
  std::size_t boards() const { return known_.size(); }

 private:
  const Table& table_;
  std::unordered_map<Board::Code, std::uint8_t> known_;
};

}  // namespace ioiwari
