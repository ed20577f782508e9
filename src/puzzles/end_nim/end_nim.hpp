// End-Nim for two sides (docs/puzzles.md, "end-nim"): Left takes boxes from the
// leftmost heap, Right from the rightmost; when one heap is left both take from it. A player
// who cannot move loses.
//
// The outcome of a row x w y (x and y the end heaps, w the heaps between) comes from two
// numbers of w alone (docs/puzzles.md, "end-nim", proves it):
//   alpha(w): the largest y for which Right, to move on the row w y, loses (0 if none);
//   beta(w):  the largest x for which Left, to move on the row x w, loses (0 if none).
// With alpha = beta = 0 for the empty row, and for w = w1 u = v wk (w1, wk single heaps):
//   alpha(w1 u) = w1 > beta(u)  ? w1 - beta(u) + alpha(u)  : 0
//   beta(v wk)  = wk > alpha(v) ? wk - alpha(v) + beta(v)  : 0
// Then Left, moving first on x w y, wins exactly when  y <= alpha(w) or x - beta(w) > y - alpha(w),
// and Right, moving first, wins exactly when           x <= beta(w) or y - alpha(w) > x - beta(w).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/program.hpp"
#include "negamax/game.hpp"

namespace puzzles::end_nim {

using Boxes = std::int64_t;

inline constexpr int kMaxHeaps = 1000;
inline constexpr Boxes kMaxBoxes = 1'000'000'000;

// The outcome classes of combinatorial game theory, by the letter the puzzle prints.
enum class Outcome : char {
  left = 'L',      // Left wins, whoever starts
  right = 'R',     // Right wins, whoever starts
  next = 'N',      // whoever starts wins
  previous = 'P',  // whoever starts loses
};

// Who wins the row when Left starts and when Right starts.
Outcome outcome_of(bool left_starts_and_wins, bool right_starts_and_wins);

// alpha(w) and beta(w) of the row `w` (possibly empty), by the recurrence above: the values of
// every stretch of w, one length at a time. O(|w|^2) time, O(|w|) memory.
struct Thresholds {
  Boxes alpha = 0;
  Boxes beta = 0;
};
Thresholds thresholds(std::span<const Boxes> w);

// The outcome class of a row of heaps (each at least 1) from the theory: a few milliseconds for
// 1000 heaps.
Outcome outcome(std::span<const Boxes> row);

// The game for the generic solver, to check the theory by exhaustive search on small rows: at
// most kMaxSearchHeaps heaps of at most kMaxSearchBoxes boxes.
struct SearchGame {
  static constexpr std::size_t kMaxSearchHeaps = 8;
  static constexpr int kMaxSearchBoxes = 255;

  struct State {
    std::array<std::uint8_t, kMaxSearchHeaps> heaps{};  // the row, from the left, then zeros
    std::uint8_t count = 0;                             // heaps in the row
    bool left_to_move = true;
    friend bool operator==(const State&, const State&) = default;
  };
  using Move = int;   // boxes taken
  using Value = int;  // +1 the player to move wins, -1 loses
  static constexpr negamax::Scoring scoring = negamax::Scoring::win_loss;

  // The row (at most kMaxSearchHeaps heaps of 1..kMaxSearchBoxes) with Left or Right to move.
  static State start(std::span<const Boxes> row, bool left_to_move);

  negamax::MoveList<Move, kMaxSearchBoxes> moves(const State& state) const;
  negamax::Step<State, int> play(const State& state, Move take) const;
  int terminal_value(const State& /*state*/) const { return -1; }  // no heap: the mover lost
  std::size_t hash(const State& state) const;
};

// Reads rows (a line with the number of heaps, then a line with the heap sizes) until a line
// "0", and answers each with its outcome class.
void solve(LineReader& in, std::ostream& out);

extern const Program kProgram;

}  // namespace puzzles::end_nim
