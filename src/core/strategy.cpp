#include "ioiwari/core/strategy.hpp"

#include <array>
#include <cassert>
#include <limits>

namespace ioiwari {

std::string_view name(Strategy strategy) {
  switch (strategy) {
    case Strategy::optimal:
      return "optimal";
    case Strategy::greedy:
      return "greedy";
    case Strategy::random:
      return "random";
    case Strategy::weakest:
      return "weakest";
  }
  return "?";
}

std::optional<Strategy> strategy_named(std::string_view text) {
  for (Strategy strategy : kAllStrategies) {
    if (name(strategy) == text) return strategy;
  }
  return std::nullopt;
}

Pit choose_move(Strategy strategy, const Board& board, const Table& table, Random& random) {
  assert(!board.empty());
  // Scores each legal move so that higher is preferred, then draws among the best.
  std::array<Pit, kMaxPits> candidates = kEveryPit;
  int count = 0;
  int best = std::numeric_limits<int>::min();
  for (Pit pit : board.pits()) {
    if (!board.is_legal(pit)) continue;
    int score = 0;
    switch (strategy) {
      case Strategy::optimal:
        score = table.move_value(board, pit);
        break;
      case Strategy::greedy:
        score = play(board, pit).net();
        break;
      case Strategy::random:
        score = 0;
        break;
      case Strategy::weakest:
        score = -table.move_value(board, pit);
        break;
    }
    if (score > best) {
      best = score;
      count = 0;
    }
    if (score == best) candidates[count++] = pit;
  }
  return candidates[random.below(count)];
}

}  // namespace ioiwari
