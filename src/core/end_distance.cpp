#include "ioiwari/core/end_distance.hpp"

#include <algorithm>

#include "negamax/solver.hpp"

namespace ioiwari {

// Moves of equal value are told apart by negamax::better(), the rule of Scoring::margin, so that
// the rule is stated once, where the library's plain search checks it.
namespace {

bool better(const MoveOutlook& a, const MoveOutlook& b) {
  return negamax::better<negamax::Scoring::margin>(
      a.value, static_cast<negamax::Remoteness>(a.moves), b.value,
      static_cast<negamax::Remoteness>(b.moves));
}

}  // namespace

int EndDistance::moves(const Board& board) {
  if (board.empty()) return 0;
  // A rotation of a board is the same game turned: the same moves to the end.
  const Board::Code key = board.canonical().code();
  if (const auto known = known_.find(key); known != known_.end()) return known->second;
  // Only the moves of the best value are followed: a game of n beads ends within n moves, as
  // each move takes a bead off the board, so the recursion is that deep at most.
  const std::vector<PitValue> values = table_.analyze(board);
  MoveOutlook best{values.front().pit, values.front().value, 0};
  bool any = false;
  for (const PitValue& move : values) {
    if (move.value != best.value) break;
    const MoveOutlook outlook{move.pit, move.value, 1 + moves(play(board, move.pit).after)};
    if (!any || better(outlook, best)) best = outlook;
    any = true;
  }
  known_.emplace(key, static_cast<std::uint8_t>(best.moves));
  return best.moves;
}

std::vector<MoveOutlook> EndDistance::rank(const Board& board) {
  std::vector<MoveOutlook> ranked;
  for (const PitValue& move : table_.analyze(board))
    ranked.push_back({move.pit, move.value, 1 + moves(play(board, move.pit).after)});
  // analyze() gives them in label order among equal values, which stable_sort keeps.
  std::stable_sort(ranked.begin(), ranked.end(), better);
  return ranked;
}

std::vector<Pit> EndDistance::line(const Board& board) {
  std::vector<Pit> pits;
  Board here = board;
  while (!here.empty()) {
    pits.push_back(rank(here).front().pit);
    here = play(here, pits.back()).after;
  }
  return pits;
}

}  // namespace ioiwari
