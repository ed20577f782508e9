// A game in progress: the start, the moves so far, the banks, and who is to move.
#pragma once

#include <array>
#include <iosfwd>
#include <optional>
#include <vector>

#include "ioiwari/core/board.hpp"

namespace ioiwari {

enum class Player : unsigned char { first, second };

constexpr Player opponent(Player player) {
  return player == Player::first ? Player::second : Player::first;
}
// 1 or 2, as the rules and the protocol number the players.
constexpr int number(Player player) {
  return player == Player::first ? 1 : 2;
}

class Match {
 public:
  // One move of the record: who made it, from which pit, on which board, and its effect.
  struct Ply {
    Player mover;
    Pit pit;
    Board before;
    MoveResult result;
  };

  // A game from `start`, banks empty, the first player to move.
  explicit Match(const Board& start) : start_(start), board_(start) {}

  const Board& start() const { return start_; }
  const Board& board() const { return board_; }
  int bank(Player player) const { return banks_[static_cast<int>(player)]; }
  Player to_move() const { return plies_.size() % 2 == 0 ? Player::first : Player::second; }
  // The number of the next move, counting from 1 for the first player's first move.
  int move_number() const { return static_cast<int>(plies_.size()) + 1; }
  const std::vector<Ply>& history() const { return plies_; }

  // The game is over once a move has emptied every pit.
  bool over() const { return board_.empty(); }
  // The player with the larger bank; nothing while the banks are equal.
  std::optional<Player> leader() const;

  // Plays `pit` for the player to move; the pit must be legal (Board::is_legal).
  const Ply& play(Pit pit);
  // Takes back the last move. Returns false when there is none.
  bool undo();

 private:
  Board start_;
  Board board_;
  std::array<int, 2> banks_{};
  std::vector<Ply> plies_;
};

// The record as a table, one row per move: "move player pit | pits | bank 1 bank 2".
std::ostream& operator<<(std::ostream& out, const Match& game);

}  // namespace ioiwari
