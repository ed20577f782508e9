// What several test files share: the solved table, built once per test program, and the
// moves of a perfectly played game.
#pragma once

#include <string>
#include <vector>

#include "ioiwari/core/match.hpp"
#include "ioiwari/core/table.hpp"

namespace ioiwari::test {

// Whether the programs under test are built with the sanitizers. They reserve terabytes of
// address space, which the referee's data limit (RLIMIT_DATA) refuses them: their games are
// refereed with the limit off, and their memory limited by sampling alone.
#ifdef IOIWARI_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// `ioiwari referee ARGS` for the programs under test: with --no-data-limit when they carry the
// sanitizers.
inline std::vector<std::string> referee_args(std::vector<std::string> args) {
  args.insert(args.begin(), "referee");
  if (kSanitized) args.insert(args.begin() + 1, "--no-data-limit");
  return args;
}
inline std::string referee_line(const std::string& args) {
  return kSanitized ? "referee --no-data-limit " + args : "referee " + args;
}

inline const Table& table() {
  static const Table solved = Table::solve(Ring::ioi(), {});
  return solved;
}

// The moves `person` types, one a line, in the game from `start` where both players play the
// table's best moves.
inline std::string perfect_moves(const Board& start, Player person) {
  Match game(start);
  std::string typed;
  while (!game.over()) {
    const Pit pit = *table().best_move(game.board());
    if (game.to_move() == person) typed += std::to_string(pit.label()) + "\n";
    game.play(pit);
  }
  return typed;
}

}  // namespace ioiwari::test
