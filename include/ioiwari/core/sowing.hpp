// The move rule of Ioiwari, written once (docs/rules.md, "A move"), for any way of holding a
// board's pits: the Board's array of counts (board.cpp) and the ring solver's packed digits
// (ring_solver.cpp) both sow with this code, so the rule has one statement. The ring solver also
// has a second copy, for speed, that decides every pit at once (packed_sowing.hpp); a test holds
// it equal to this one.
#pragma once

namespace ioiwari {

// One thing the hand does at one pit.
enum class SowKind {
  drop,       // one bead from the hand into the pit
  skim,       // the pit was full: one bead from it to the mover's bank
  capture,    // the last bead and the pit's beads to the mover's bank
  give_away,  // the last bead met an empty or full pit and went to the opponent's bank
};

// What a move gave each bank.
struct Sown {
  int mover_gain = 0;
  int opponent_gain = 0;
};

// Plays the move from pit `from` (0-based; it must hold a bead) on a ring of `size` pits that
// hold at most `capacity` beads each. `Pits` holds the counts: `get(i)` reads pit i, `add(i, d)`
// changes it by d. `record(kind, pit, beads)` is told each step, in order (beads: 1, or a
// capture's total); a caller that needs no record passes one that does nothing, which the
// compiler removes.
template <class Pits, class Record>
constexpr Sown sow(Pits& pits, int from, int size, int capacity, Record&& record) {
  Sown sown;
  int hand = pits.get(from);
  pits.add(from, -hand);
  int at = from;
  const auto next = [size](int pit) { return pit + 1 == size ? 0 : pit + 1; };
  // The hand visits the pits clockwise from the one after `from`, which is not skipped when the
  // walk comes round to it again.
  while (hand > 1) {
    at = next(at);
    if (pits.get(at) == capacity) {
      pits.add(at, -1);
      ++sown.mover_gain;
      record(SowKind::skim, at, 1);
    } else {
      pits.add(at, 1);
      --hand;
      record(SowKind::drop, at, 1);
    }
  }
  at = next(at);
  const int last = pits.get(at);
  if (last > 0 && last < capacity) {
    pits.add(at, -last);
    sown.mover_gain += last + 1;
    record(SowKind::capture, at, last + 1);
  } else {
    ++sown.opponent_gain;
    record(SowKind::give_away, at, 1);
  }
  return sown;
}

}  // namespace ioiwari
