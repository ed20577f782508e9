// The board and the move rule of Ioiwari (docs/rules.md).
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "ioiwari/core/constants.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/sowing.hpp"

namespace ioiwari {

// A pit of the ring. Inside the program a pit is its 0-based index; players and the
// protocol name it by its 1-based label. The two never mix: build one with at_index or
// from_label and read it back with index() or label().
class Pit {
 public:
  static constexpr Pit at_index(int index) { return Pit(index); }
  // The pit a label 1..pits names on a ring of `pits` pits, or nothing for any other number.
  static constexpr std::optional<Pit> from_label(long long label, int pits) {
    if (label < 1 || label > pits) return std::nullopt;
    return Pit(static_cast<int>(label) - 1);
  }

  constexpr int index() const { return index_; }
  constexpr int label() const { return index_ + 1; }

  friend constexpr auto operator<=>(Pit, Pit) = default;

 private:
  constexpr explicit Pit(int index) : index_(index) {}
  int index_;
};

// Every pit of the largest ring, in label order: a ring of N pits uses the first N.
inline constexpr std::array<Pit, kMaxPits> kEveryPit =
    []<std::size_t... I>(std::index_sequence<I...>) {
  return std::array<Pit, kMaxPits>{Pit::at_index(static_cast<int>(I))...};
}
(std::make_index_sequence<kMaxPits>{});

struct MoveResult;

// The beads in the pits of a ring (the banks are not part of it), and the ring itself. A small
// value type: copy it freely. Every board has a code 0..ring().code_count()-1, the number in
// base ring().base() whose least significant digit is pit 1.
class Board {
 public:
  using Code = std::uint64_t;

  // A board of no pits, a place for a board to be put: no ring is a default.
  constexpr Board() = default;
  // The empty board of `ring`.
  constexpr explicit Board(Ring ring)
      : size_(static_cast<std::uint8_t>(ring.pits)),
        capacity_(static_cast<std::uint8_t>(ring.capacity)) {}

  // The board of `ring` with these counts, pit 1 first; nothing unless there are exactly
  // ring.pits counts, each 0..ring.capacity.
  static std::optional<Board> from_counts(std::span<const int> counts, Ring ring);
  // The board of `ring` with this code, which must be below ring.code_count().
  static Board from_code(Code code, Ring ring);

  Ring ring() const { return {size_, capacity_}; }
  // How many pits the ring has.
  int size() const { return size_; }
  // Its pits, in label order.
  std::span<const Pit> pits() const { return std::span(kEveryPit).first(size_); }
  // The pit after `pit`, clockwise.
  Pit next(Pit pit) const { return Pit::at_index(pit.index() + 1 == size_ ? 0 : pit.index() + 1); }

  Code code() const;
  int beads(Pit pit) const { return pits_[static_cast<std::size_t>(pit.index())]; }
  int total() const;
  bool empty() const { return total() == 0; }
  // A move may be made from any pit that holds a bead.
  bool is_legal(Pit pit) const { return beads(pit) > 0; }

  // The board turned clockwise by `steps` pits: the beads of pit p end up in pit p+steps.
  Board rotated(int steps) const;
  // The rotation of this board with the smallest code: one board stands for its class. The ring
  // solver computes the same on packed digits, faster (canonical_packed(), ring_index.hpp); a test
  // holds the two equal on every board of the rings the suite builds.
  Board canonical() const;
  // Whether this is a start under `rule` (each pit in range, the beads in all).
  bool is_start(const StartRule& rule) const;
  // Whether this is a start of the IOI task (the IOI ring and start rule).
  bool is_ioi_start() const { return ring().is_ioi() && is_start(StartRule::ioi()); }

  friend bool operator==(const Board&, const Board&) = default;

 private:
  friend struct BoardPits;
  std::array<std::uint8_t, kMaxPits> pits_{};
  std::uint8_t size_ = 0;
  std::uint8_t capacity_ = 0;
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
  using Kind = SowKind;
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

// The starts of `ring` under `rule`, in order of their codes. There are none when the rule
// fits no board of the ring.
std::vector<Board> starts(Ring ring, const StartRule& rule);

// How many starts starts(ring, rule) would give, counted without making them.
std::uint64_t count_starts(Ring ring, const StartRule& rule);

// The 357 starts of the IOI task (kStartBeads beads, kStartMinBeads..kStartMaxBeads a pit),
// in order of their codes.
std::vector<Board> ioi_starts();

// Writes the counts pit 1 first, separated by single spaces: "4 3 2 4 2 3 2".
std::ostream& operator<<(std::ostream& out, const Board& board);

}  // namespace ioiwari
