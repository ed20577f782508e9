// What several test files share: the solved table, built once per test program, and the
// moves of a perfectly played game.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ioiwari/core/match.hpp"
#include "ioiwari/core/table.hpp"
#include "sanitized.hpp"

namespace ioiwari::test {

// The first of this test process's own players' users, for a referee run as root: 256 of them
// (as many as --jobs may ask for) from 1,000,000 + 256 * its process ID. Tests run at once never
// share a user, so that one's players never count against another's process limit.
inline std::uint32_t own_first_user() {
  return 1'000'000U + 256U * static_cast<std::uint32_t>(::getpid());
}

// The flags `ioiwari referee` takes for the programs under test: --no-data-limit when they carry
// the sanitizers, and, for a referee that keeps root (`as_root`) where the tests are root, this
// test process's own users.
inline std::vector<std::string> referee_flags(bool as_root) {
  std::vector<std::string> flags;
  if (kSanitized) flags.push_back("--no-data-limit");
  if (as_root && ::geteuid() == 0) {
    flags.push_back("--user");
    flags.push_back(std::to_string(own_first_user()));
  }
  return flags;
}
// `ioiwari referee ARGS` with those flags; a referee that drops root before it runs gets
// referee_args_without_root.
inline std::vector<std::string> referee_args(std::vector<std::string> args, bool as_root = true) {
  std::vector<std::string> line = {"referee"};
  for (std::string& flag : referee_flags(as_root))
    line.push_back(std::move(flag));
  line.insert(line.end(), args.begin(), args.end());
  return line;
}
inline std::vector<std::string> referee_args_without_root(std::vector<std::string> args) {
  return referee_args(std::move(args), false);
}
// The same as one shell line.
inline std::string referee_line(const std::string& args) {
  std::string line = "referee ";
  for (const std::string& flag : referee_flags(true))
    line += flag + " ";
  return line + args;
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
