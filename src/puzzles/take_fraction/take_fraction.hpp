// Take a fraction (docs/puzzles.md, "take-fraction"): from r grains a move eats 1..r/m of
// them (rounded down); a player who cannot move loses.
//
// The lost positions, from the theory (docs/puzzles.md, "take-fraction"): every r below m, and the
// sequence p -> p + floor(p / (m-1)) + 1 from p = m-1. Between two of them every position is
// won, by eating down to the lost one below it, and that is the only winning move.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/program.hpp"
#include "negamax/game.hpp"

namespace puzzles::take_fraction {

using Grains = std::uint64_t;

inline constexpr Grains kMaxGrains = 1'000'000'000'000'000'000;  // n <= 10^18
inline constexpr Grains kMinDivisor = 2;                         // 2 <= m
inline constexpr Grains kMaxDivisor = 1'000'000;                 // m <= 10^6

// The largest lost position below `n` (for 1 <= n, 2 <= m): 0 when n is 1. Walks the lost
// positions without division in the long stretches (see the .cpp), a few tens of milliseconds
// for n = 10^18 and m = 10^6.
Grains largest_lost_below(Grains n, Grains m);

// The same by the plain recurrence, one division per lost position: the yardstick the fast
// walk is tested against.
Grains largest_lost_below_plainly(Grains n, Grains m);

// The grains the player to move must eat from `n` to win, or nothing when every move loses.
std::optional<Grains> winning_move(Grains n, Grains m);

// The game for the generic solver, to check the theory by plain search: positions 0..max.
struct SearchGame {
  using State = Grains;
  using Move = Grains;  // grains eaten
  using Value = int;    // +1 the player to move wins, -1 loses
  static constexpr negamax::Scoring scoring = negamax::Scoring::win_loss;

  Grains m = kMinDivisor;
  Grains max = 0;

  std::vector<Grains> moves(Grains r) const;
  negamax::Step<Grains, int> play(Grains r, Grains eat) const { return {r - eat, 0}; }
  int terminal_value(Grains /*r*/) const { return -1; }  // no move: the player to move lost
  std::size_t key(Grains r) const { return static_cast<std::size_t>(r); }
  std::size_t key_count() const { return static_cast<std::size_t>(max) + 1; }
};

// Reads lines "n m" to the end of input and answers each with the winning move or -1.
void solve(LineReader& in, std::ostream& out);

extern const Program kProgram;

}  // namespace puzzles::take_fraction
