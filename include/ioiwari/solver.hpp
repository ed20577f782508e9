// The solved game: the value and best move of every board.
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
  // Solves every board. Takes a few milliseconds; see `ioiwari bench`.
  static Table solve();

  // The best net gain the player to move can force from `board`: -kMaxBeads..kMaxBeads.
  int value(const Board& board) const { return entries_[board.code()].value; }

  // The move that forces value(board), the lowest-labelled one among equally good moves;
  // nothing for the empty board.
  std::optional<Pit> best_move(const Board& board) const {
    const auto best = entries_[board.code()].best;
    if (best == kNoMove) return std::nullopt;
    return Pit::at_index(best);
  }

  // What the mover nets from now to the end by playing `pit` (which must be legal) and then
  // playing perfectly against perfect play.
  int move_value(const Board& board, Pit pit) const;

  // Every legal move of `board` with its value, best first; equal values in label order.
  std::vector<MoveValue> analyze(const Board& board) const;

  // Boards evaluated to build the table.
  std::size_t positions() const { return entries_.size(); }

  // A fingerprint of the whole table: FNV-1a over the value and best move of every code, in
  // code order. Any change to the rules or the solver that changes a result changes it.
  std::uint64_t checksum() const;

 private:
  static constexpr std::uint8_t kNoMove = 0xff;
  struct Entry {
    std::int8_t value;
    std::uint8_t best;  // pit index, or kNoMove
  };
  std::vector<Entry> entries_;
};

}  // namespace ioiwari
