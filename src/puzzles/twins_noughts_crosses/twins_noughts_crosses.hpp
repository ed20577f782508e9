// Twins' noughts and crosses (docs/puzzles.md, "twins-noughts-crosses"): the first player writes
// o, the second x, until the 3x3 grid is full; then every pair of adjacent squares pays its
// weight to the first player when the two letters match, else to the second.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "common/program.hpp"
#include "negamax/game.hpp"

namespace puzzles::twins_noughts_crosses {

inline constexpr int kSide = 3;
inline constexpr int kSquares = kSide * kSide;
inline constexpr int kMaxWeight = 100;

// The weights of the pairs of adjacent squares.
struct Weights {
  // vertical[i][j] pays for squares (i,j) and (i+1,j).
  std::array<std::array<int, kSide>, kSide - 1> vertical{};
  // horizontal[i][j] pays for squares (i,j) and (i,j+1).
  std::array<std::array<int, kSide - 1>, kSide> horizontal{};
  int total() const;
};

// What each player collects with perfect play; the two add up to Weights::total().
struct Totals {
  int first = 0;
  int second = 0;
};

// The game for the generic solver. A state is the grid as a base-3 number (square r*3+c is
// digit r*3+c: 0 empty, 1 o, 2 x) and the count of letters written; the mover is the first
// player when that count is even. A move is the square written, 0..8. Only the full grid
// scores: its value, for the player to move (the second player, after nine moves), is that
// player's total less the other's.
struct Game {
  struct State {
    std::uint16_t code = 0;
    std::uint8_t written = 0;
  };
  using Move = int;
  using Value = int;

  Weights weights;

  negamax::MoveList<Move, kSquares> moves(const State& state) const;
  negamax::Step<State, int> play(const State& state, Move square) const;
  int terminal_value(const State& state) const;
  std::size_t key(const State& state) const { return state.code; }
  std::size_t key_count() const;
};

// Both totals with perfect play, solved by the generic memoized negamax.
Totals solve(const Weights& weights);

// Reads cases (two lines of three weights, then three lines of two) until the end of input,
// and answers each with the first player's total and the second's, on two lines.
void solve(LineReader& in, std::ostream& out);

extern const Program kProgram;

}  // namespace puzzles::twins_noughts_crosses
