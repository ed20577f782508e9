// The solved game: the value of every board, and from it the best move.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ioiwari/board.hpp"

namespace ioiwari {

// A legal move and what it is worth to the mover with perfect play afterwards.
struct MoveValue {
  Pit pit;
  int value;
  friend bool operator==(const MoveValue&, const MoveValue&) = default;
};

// The negamax value of every one of the kCodeCount boards.
//
// A board's value is the best (mover's bank gain - opponent's bank gain) that the player to
// move can force from it to the end of the game; the empty board is worth 0. Banks and the
// side to move do not enter: both players have the same moves. So
//   value(b) = max over legal pits p of  net(p) - value(after p).
// Ties between equally good moves go to the lowest pit label.
class Table {
 public:
  // Solves every board: one per rotation class, in order of bead count, copied to its
  // rotations. A few milliseconds; see `ioiwari bench`.
  static Table solve();

  // The best net gain the player to move can force from `board`: -kMaxBeads..kMaxBeads.
  int value(const Board& board) const { return values_[board.code()]; }

  // What the mover nets from now to the end by playing `pit` (which must be legal) and then
  // playing perfectly against perfect play.
  int move_value(const Board& board, Pit pit) const;

  // The lowest-labelled move that forces value(board); nothing for the empty board.
  std::optional<Pit> best_move(const Board& board) const;

  // Every legal move of `board` with its value, best first; equal values in label order.
  std::vector<MoveValue> analyze(const Board& board) const;

  // Boards the solver searched (one per rotation class); the others are rotations of these.
  std::size_t positions() const { return positions_; }

  // A fingerprint of the whole table: FNV-1a over the value and best move of every code, in
  // code order. Any change to the rules or the solver that changes a result changes it.
  std::uint64_t checksum() const;

 private:
  std::vector<std::int8_t> values_;
  std::size_t positions_ = 0;
};

}  // namespace ioiwari
