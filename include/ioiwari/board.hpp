// The board and the move rule of Ioiwari (../shared/spec/rules.md).
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "ioiwari/constants.hpp"

namespace ioiwari {

// A pit of the ring. Inside the program a pit is its 0-based index; players and the
// protocol name it by its 1-based label. The two never mix: build one with at_index or
// from_label and read it back with index() or label().
class Pit {
 public:
  static constexpr Pit at_index(int index) { return Pit(index); }
  // The pit a label 1..kPits names, or nothing for any other number.
  static constexpr std::optional<Pit> from_label(long long label) {
    if (label < 1 || label > kPits) return std::nullopt;
    return Pit(static_cast<int>(label) - 1);
  }

  constexpr int index() const { return index_; }
  constexpr int label() const { return index_ + 1; }
  // The next pit clockwise.
  constexpr Pit next() const { return Pit(index_ + 1 == kPits ? 0 : index_ + 1); }

  friend constexpr auto operator<=>(Pit, Pit) = default;

 private:
  constexpr explicit Pit(int index) : index_(index) {}
  int index_;
};

// All pits, in label order, for range-for loops.
inline constexpr std::array<Pit, kPits> kAllPits = []<std::size_t... I>(std::index_sequence<I...>) {
  return std::array<Pit, kPits>{Pit::at_index(static_cast<int>(I))...};
}
(std::make_index_sequence<kPits>{});

struct MoveResult;

// The beads in the pits of the ring (the banks are not part of it). A small value type:
// copy it freely. Every board has a code 0..kCodeCount-1, the base-kCodeBase number whose
// least significant digit is pit 1.
class Board {
 public:
  using Code = std::uint32_t;

  // The empty board.
  constexpr Board() = default;

  // The board with these counts, pit 1 first; nothing unless there are exactly kPits counts,
  // each 0..kPitCapacity.
  static std::optional<Board> from_counts(std::span<const int> counts);
  // The board with this code; the code must be below kCodeCount.
  static Board from_code(Code code);

  Code code() const;
  int beads(Pit pit) const { return pits_[pit.index()]; }
  int total() const;
  bool empty() const { return total() == 0; }
  // A move may be made from any pit that holds a bead.
  bool is_legal(Pit pit) const { return beads(pit) > 0; }

  // The board turned clockwise by `steps` pits: the beads of pit p end up in pit p+steps.
  Board rotated(int steps) const;
  // The rotation of this board with the smallest code: one board stands for its class.
  Board canonical() const;
  // Whether this is a start of the IOI task (kStartBeads beads, each pit in range).
  bool is_ioi_start() const;

  friend bool operator==(const Board&, const Board&) = default;

 private:
  template <class Record>
  friend MoveResult sow(const Board& board, Pit pit, Record&& record);
  std::array<std::uint8_t, kPits> pits_{};
};

// What a move did: the board after it and what each bank gained.
struct MoveResult {
  Board after;
  int mover_gain = 0;
  int opponent_gain = 0;
  // The move's net gain for the mover.
  int net() const { return mover_gain - opponent_gain; }
};

// Makes the move from `pit`, which must hold a bead (see Board::is_legal).
MoveResult play(const Board& board, Pit pit);

// One thing the hand did at one pit during a move.
struct SowStep {
  enum class Kind {
    drop,       // one bead from the hand into the pit
    skim,       // the pit was full: one bead from it to the mover's bank
    capture,    // the last bead and the pit's beads to the mover's bank (`beads` in all)
    give_away,  // the last bead met an empty or full pit and went to the opponent's bank
  };
  Kind kind;
  Pit pit;
  int beads;  // how many beads moved: 1, or the capture's total
  friend bool operator==(const SowStep&, const SowStep&) = default;
};

// A move with everything its hand did, in order, for showing a person what happened.
struct MoveTrace {
  MoveResult result;
  std::vector<SowStep> steps;
};

// Makes the move from `pit` like play(), and records each step of the sowing.
MoveTrace trace(const Board& board, Pit pit);

// The 357 starts of the IOI task (kStartBeads beads, kStartMinBeads..kStartMaxBeads a pit),
// in order of their codes.
std::vector<Board> ioi_starts();

// Writes the counts pit 1 first, separated by single spaces: "4 3 2 4 2 3 2".
std::ostream& operator<<(std::ostream& out, const Board& board);

}  // namespace ioiwari
