// Stake your claim (docs/puzzles.md, "stake-your-claim"): players 0 and 1 write their digit
// into the empty squares of an n x n grid; when it is full, a player scores the size of their
// largest group of equal digits joined through edges, and each plays for (own - other's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/program.hpp"
#include "negamax/game.hpp"

namespace puzzles::stake_your_claim {

inline constexpr int kMaxSide = 8;
inline constexpr int kMaxEmpty = 10;
inline constexpr char kEmpty = '.';

// The best move for the player to move, as 0-based row and column, and the difference of
// scores (own - other's) that player can force.
struct Answer {
  int row = 0;
  int column = 0;
  int difference = 0;
  friend bool operator==(const Answer&, const Answer&) = default;
};

// The game for the generic solver, on one grid. A state is the filling of the grid's empty
// squares as a base-3 number (digit i for the i-th empty square in row-major order: 0 still
// empty, 1 digit 0, 2 digit 1) with the count of squares filled; the dense key is that number.
// A move is the index of an empty square, so moves come in row-major order and ties go to the
// smallest row, then the smallest column.
class Game {
 public:
  struct State {
    std::uint32_t code = 0;
    std::uint8_t filled = 0;
  };
  using Move = std::uint8_t;
  using Value = int;

  // The grid: rows of '0', '1' and '.', square, with 1..kMaxEmpty empty squares and as many
  // 0s as 1s or one more (not checked here: see read_grid).
  explicit Game(std::vector<std::string> rows);

  negamax::MoveList<Move, kMaxEmpty> moves(const State& state) const;
  negamax::Step<State, int> play(const State& state, Move empty) const;
  int terminal_value(const State& state) const;
  std::size_t key(const State& state) const { return state.code; }
  std::size_t key_count() const;

  // Row and column of the i-th empty square.
  int row_of(Move empty) const { return empties_[empty] / side_; }
  int column_of(Move empty) const { return empties_[empty] % side_; }

 private:
  // The digit ('0' or '1') the player to move writes.
  char mover(const State& state) const;

  int side_;
  std::string cells_;                 // row by row
  std::vector<int> empties_;          // cell index of each empty square, in row-major order
  std::vector<std::uint32_t> power_;  // 3^i
  char first_mover_;
};

// The size of the largest group of `digit` in the full grid `cells` (side x side, row by row),
// joined through edges; 0 when the digit is nowhere.
int largest_group(const std::string& cells, int side, char digit);

// The best move and difference for the player to move, solved by the generic memoized negamax.
Answer solve(const std::vector<std::string>& rows);

// Reads grids (a line with n, then n rows) until a line "0", and answers each "(r,c) s".
void solve(LineReader& in, std::ostream& out);

extern const Program kProgram;

}  // namespace puzzles::stake_your_claim
