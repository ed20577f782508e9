// The solved game: the value of every board, and from it the best move.
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "ioiwari/core/board.hpp"
#include "ioiwari/core/class_index.hpp"
#include "ioiwari/core/ring_table.hpp"

namespace ioiwari {

// A legal move and what it is worth to the mover with perfect play afterwards.
struct PitValue {
  Pit pit;
  int value;
  friend bool operator==(const PitValue&, const PitValue&) = default;
};

// The negamax value of every board of a ring.
//
// A board's value is the best (mover's bank gain - opponent's bank gain) that the player to
// move can force from it to the end of the game; the empty board is worth 0. Banks and the
// side to move do not enter: both players have the same moves. So
//   value(b) = max over legal pits p of  net(p) - value(after p).
// Ties between equally good moves go to the lowest pit label.
//
// The IOI's ring has a solver of its own, specialised when ioiwari is built: its rotation
// classes and the moves between them are tables made then (class_index.hpp), so a solve is one
// pass over them, well under a millisecond. Every other ring is solved one rotation class at a
// time by RingTable (ring_table.hpp), or loaded from a table file (table_file.hpp).
class Table {
 public:
  // Solves `ring`, the one place where the way is chosen: the IOI ring by its own path, one
  // board per rotation class in order of bead count, only the classes of up to
  // options.most_beads beads (a game from a start needs the start's beads and no more), in a
  // fraction of a millisecond; any other ring with RingTable, every class.
  static Table solve(std::shared_ptr<const RingGeometry> geometry, const SolveOptions& options);
  // The same for `ring`, whose geometry it computes.
  static Table solve(Ring ring, const SolveOptions& options);

  // Whether `ring` is solved by the path specialised when ioiwari is built: in well under a
  // millisecond, so that solving it at every start costs nothing. The page for a browser
  // (docs/browser.md) is built without it (IOIWARI_NO_BUILT_IN_RING): its tables would be 1.4 MB
  // of the module's 1.7 MB, which the browser reads before the first move, and the ring solver
  // solves the IOI ring there in a few milliseconds.
  static bool built_in([[maybe_unused]] Ring ring) {
#ifdef IOIWARI_NO_BUILT_IN_RING
    return false;
#else
    return ring.is_ioi();
#endif
  }

  // A table over an already solved ring.
  explicit Table(std::shared_ptr<const RingTable> classes);

  Ring ring() const {
    return ring_;
  }

  // The best net gain the player to move can force from `board`: a board of ring(), of at most
  // solved_beads() beads.
  int value(const Board& board) const {
    assert(board.total() <= solved_beads_);
#ifdef IOIWARI_NO_BUILT_IN_RING
    return classes_->value(board);
#else
    return classes_ ? classes_->value(board) : values_[ioi_classes::kClassOf[board.code()]];
#endif
  }

  // The most beads of the boards this table holds (every board, unless solve() was told less).
  int solved_beads() const {
    return solved_beads_;
  }

  // What the mover nets from now to the end by playing `pit` (which must be legal) and then
  // playing perfectly against perfect play.
  int move_value(const Board& board, Pit pit) const;

  // The lowest-labelled move that forces value(board); nothing for the empty board. Throws
  // TableError (ring_table.hpp) when the table's value of `board` is not the best of its moves'
  // values: a table file that is damaged or crafted.
  std::optional<Pit> best_move(const Board& board) const;

  // Every legal move of `board` with its value, best first; equal values in label order. Checks
  // the board's value against its moves' as best_move() does.
  std::vector<PitValue> analyze(const Board& board) const;

  // Boards the solver searched (one per rotation class).
  std::size_t positions() const {
    return positions_;
  }

  // A fingerprint of the whole table (which must hold every board): FNV-1a over the value of
  // every class, one byte each, in the order of their canonical codes, whichever way the table
  // was made or read. Any change to the rules or the solver that changes a value changes it.
  std::uint64_t checksum() const;

  // The per-class table behind a ring other than the IOI's (null for the IOI's own solve).
  const std::shared_ptr<const RingTable>& classes() const {
    return classes_;
  }

 private:
  Table() = default;
  static Table solve_built_in(const SolveOptions& options);
  [[noreturn]] void inconsistent(const Board& board, int value_here, int best) const;
  Ring ring_;
  std::vector<std::int8_t> values_;           // the IOI ring: by class (class_index.hpp)
  std::shared_ptr<const RingTable> classes_;  // any other ring: by class (ring_table.hpp)
  std::size_t positions_ = 0;
  int solved_beads_ = kMaxRingBeads;
};

}  // namespace ioiwari
