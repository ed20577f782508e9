#include "ioiwari/core/table.hpp"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ioiwari/core/class_index.hpp"
#include "negamax/fnv.hpp"

namespace ioiwari {

#ifndef IOIWARI_NO_BUILT_IN_RING
namespace {

// Solves the first `count` classes of the index, in order. A class's value is the best of its
// moves' nets less the values of the classes they lead to, all of fewer beads, so solved already.
void solve_classes(std::size_t count, std::int8_t* values) {
  using ioi_classes::kAfter;
  using ioi_classes::kNet;
  for (std::size_t n = 0; n < count; ++n) {
    // Every pit, empty ones too (kNoMove is never the best): a loop with no branch.
    const std::size_t moves = n * kPits;
    int best = std::numeric_limits<int>::min();
    for (std::size_t pit = 0; pit < kPits; ++pit)
      best = std::max(best, kNet[moves + pit] - values[kAfter[moves + pit]]);
    values[n] = static_cast<std::int8_t>(n == 0 ? 0 : best);  // class 0: the empty board
  }
}

}  // namespace
#endif

Table Table::solve(Ring ring, const SolveOptions& options) {
  if (built_in(ring)) return solve_built_in(options);
  return Table(RingTable::solve(RingGeometry::of(ring), options));
}

Table Table::solve(std::shared_ptr<const RingGeometry> geometry, const SolveOptions& options) {
  if (built_in(geometry->ring())) return solve_built_in(options);
  return Table(RingTable::solve(std::move(geometry), options));
}

Table Table::solve_built_in([[maybe_unused]] const SolveOptions& options) {
#ifdef IOIWARI_NO_BUILT_IN_RING
  // Never called: built_in() is false for every ring in this build (table.hpp).
  throw std::logic_error("ioiwari: this build has no built-in ring");
#else
  // Class by class in the index's order, which is by bead count: a move always takes at least
  // one bead off the board, so every successor's class is solved before it is needed, and the
  // memoized negamax runs without recursion. Only the classes of up to `most_beads` beads are
  // solved: those are every board a game from a start of that many beads can reach. (One core:
  // a second, started for the millisecond this takes, costs a whole game more than it saves.)
  const int most = std::clamp(options.most_beads, 0, kMaxBeads);
  Table table;
  table.ring_ = Ring::ioi();
  table.solved_beads_ = most;
  table.positions_ =
      static_cast<std::size_t>(ioi_classes::kFirst[static_cast<std::size_t>(most) + 1]);
  table.values_.resize(table.positions_);
  solve_classes(table.positions_, table.values_.data());
  return table;
#endif
}

Table::Table(std::shared_ptr<const RingTable> classes)
    : ring_(classes->ring()),
      classes_(std::move(classes)),
      positions_(static_cast<std::size_t>(classes_->classes())) {}

int Table::move_value(const Board& board, Pit pit) const {
  assert(board.is_legal(pit));
  const MoveResult move = play(board, pit);
  return move.net() - value(move.after);
}

std::optional<Pit> Table::best_move(const Board& board) const {
  // The value of a board is the best of its moves' values: a table where it is not (a damaged
  // or crafted file) is refused here rather than played from.
  const int value_here = value(board);
  std::optional<Pit> best;
  int best_value = 0;
  for (Pit pit : board.pits()) {
    if (!board.is_legal(pit)) continue;
    const int move = move_value(board, pit);
    if (!best || move > best_value) {
      best = pit;
      best_value = move;
    }
  }
  if (best ? best_value != value_here : value_here != 0)
    inconsistent(board, value_here, best_value);
  return best;
}

std::vector<PitValue> Table::analyze(const Board& board) const {
  std::vector<PitValue> moves;
  for (Pit pit : board.pits()) {
    if (board.is_legal(pit)) moves.push_back({pit, move_value(board, pit)});
  }
  std::stable_sort(moves.begin(), moves.end(),
                   [](const PitValue& a, const PitValue& b) { return a.value > b.value; });
  const int value_here = value(board);
  const int best = moves.empty() ? 0 : moves.front().value;
  if (best != value_here) inconsistent(board, value_here, best);
  return moves;
}

void Table::inconsistent(const Board& board, int value_here, int best) const {
  if (classes_) classes_->inconsistent(board, value_here, best);
  throw std::logic_error("ioiwari: the solved IOI table is inconsistent");
}

std::uint64_t Table::checksum() const {
  assert(solved_beads_ >= ring_.max_beads());
  negamax::Fnv1a hash;
  if (classes_) {
    // A ring table's ranks are in the order of the canonical codes (ring_index.hpp).
    for (std::uint64_t rank = 0; rank < classes_->classes(); ++rank)
      hash.add(static_cast<std::uint8_t>(classes_->value_of(Rank{rank})));
    return hash.value();
  }
  // The IOI table's classes are numbered by bead count (class_index.hpp): its canonical codes
  // are the codes that are their class's smallest.
  const Ring ring = Ring::ioi();
  for (Board::Code code = 0; code < ring.code_count(); ++code) {
    const Board board = Board::from_code(code, ring);
    if (board.canonical() == board) hash.add(static_cast<std::uint8_t>(value(board)));
  }
  return hash.value();
}

}  // namespace ioiwari
