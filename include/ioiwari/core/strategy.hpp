// Ways to choose a move, for opponents and referees.
#pragma once

#include <optional>
#include <string_view>

#include "ioiwari/core/board.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/table.hpp"

namespace ioiwari {

enum class Strategy {
  optimal,  // a move of the best value; among equally good ones, one at random
  greedy,   // the largest net gain of the move itself; ties at random
  random,   // any legal move
  weakest,  // a move of the worst value; ties at random
};

inline constexpr Strategy kAllStrategies[] = {Strategy::optimal, Strategy::greedy, Strategy::random,
                                              Strategy::weakest};

std::string_view name(Strategy strategy);
std::optional<Strategy> strategy_named(std::string_view name);

// A legal move of `board`, which must not be empty, chosen by `strategy`.
Pit choose_move(Strategy strategy, const Board& board, const Table& table, Random& random);

}  // namespace ioiwari
