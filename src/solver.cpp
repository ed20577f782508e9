#include "ioiwari/solver.hpp"

#include "ioiwari/class_index.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>
#include <optional>

namespace ioiwari {

namespace {

using Code = Board::Code;

// kPlace[i] is the weight of pit i's digit in a code.
constexpr std::array<int, kPits> kPlace = [] {
  std::array<int, kPits> place{};
  int weight = 1;
  for (int& p : place) {
    p = weight;
    weight *= kCodeBase;
  }
  return place;
}();

using Digits = std::array<int, kPits>;

using PitMask = unsigned;  // bit i stands for pit i

// The net gain of the move from `pit` on the board `digits` (code `code`), and the code of
// the board after it. The same rule as play() in board.cpp, written for the solver's inner
// loop: the code is updated as the hand goes, with no decoding afterwards, and each step of
// the hand is a drop or a skim chosen by arithmetic instead of a branch.
struct Step {
  int net;
  Code after;
};
inline Step sow(Digits pits, int code, int pit) {
  int hand = pits[pit];
  pits[pit] = 0;
  code -= hand * kPlace[pit];
  int net = 0;
  int at = pit;
  while (hand > 1) {
    at = at + 1 == kPits ? 0 : at + 1;
    const int full = pits[at] == kPitCapacity;  // skim: the pit gives a bead, the hand keeps all
    const int step = 1 - 2 * full;              // +1 for a drop, -1 for a skim
    pits[at] += step;
    code += step * kPlace[at];
    net += full;
    hand -= 1 - full;
  }
  at = at + 1 == kPits ? 0 : at + 1;
  const int last = pits[at];
  if (last > 0 && last < kPitCapacity) {
    net += last + 1;
    code -= last * kPlace[at];
  } else {
    net -= 1;
  }
  return {net, static_cast<Code>(code)};
}

// Where a hand goes depends only on the pit, the beads in hand and which pits are full, as
// long as it visits no pit twice: it skims the full pits it meets and drops in the others.
// So every such path is worked out once, at compile time.
struct Path {
  std::int32_t delta = 0;  // the change of code from the lift, the drops and the skims
  std::int8_t skims = 0;   // beads skimmed into the mover's bank (kNoMoveNet: an empty pit)
  std::int8_t land = 0;    // the pit the last bead reaches
  bool fits = false;       // no pit visited twice: delta, skims and land hold for every board
};
constexpr int kMasks = 1 << kPits;
// What an empty pit's path nets. Less the value of any board (at most kMaxBeads) it stays
// below the worst real move (-kMaxBeads), so an empty pit is never taken for the best.
constexpr std::int8_t kNoMoveNet = -3 * kMaxBeads;
using PathRow = std::array<std::array<Path, kPitCapacity + 1>, kPits>;  // [pit][beads]
using Paths = std::array<PathRow, kMasks>;                              // [full]

constexpr Paths make_paths() {
  Paths paths{};
  for (int pit = 0; pit < kPits; ++pit) {
    // An empty pit is no move: its path nets so little that it is never the best.
    for (PitMask full = 0; full < kMasks; ++full) {
      paths[full][pit][0] = Path{0, kNoMoveNet, static_cast<std::int8_t>(pit), true};
    }
    for (int beads = 1; beads <= kPitCapacity; ++beads) {
      for (PitMask full = 0; full < kMasks; ++full) {
        Path path;
        path.fits = true;
        path.delta = -beads * kPlace[pit];
        PitMask visited = 1u << pit;
        int hand = beads;
        int at = pit;
        while (hand > 1 && path.fits) {
          at = (at + 1) % kPits;
          path.fits = (visited & (1u << at)) == 0;
          visited |= 1u << at;
          if (full & (1u << at)) {
            path.delta -= kPlace[at];
            ++path.skims;
          } else {
            path.delta += kPlace[at];
            --hand;
          }
        }
        path.land = static_cast<std::int8_t>((at + 1) % kPits);
        path.fits = path.fits && (visited & (1u << path.land)) == 0;
        paths[full][pit][beads] = path;
      }
    }
  }
  return paths;
}
constexpr Paths kPaths = make_paths();

// sow() by table look-up where the path fits, else by walking it; the board is a class's
// canonical board as its record packs it.
inline Step move(std::uint32_t record, int code, const PathRow& paths, int pit) {
  using ioi_classes::digit_of;
  const Path& path = paths[pit][digit_of(record, pit)];
  if (!path.fits) {
    Digits digits;
    for (int p = 0; p < kPits; ++p)
      digits[static_cast<std::size_t>(p)] = digit_of(record, p);
    return sow(digits, code, pit);
  }
  const int last = digit_of(record, path.land);
  const bool capture = static_cast<unsigned>(last - 1) < kPitCapacity - 1;  // 1..capacity-1
  const int net = path.skims + (capture ? last + 1 : -1);
  const int after = code + path.delta - (capture ? last * kPlace[path.land] : 0);
  return {net, static_cast<Code>(after)};
}

}  // namespace

namespace {

// The value of class `n` of the index, from the values of lower classes.
inline std::int8_t solve_class(std::size_t n, const std::int8_t* values) {
  if (n == 0) return 0;  // the empty board
  const std::uint32_t record = ioi_classes::kRecord[n];
  const int code = ioi_classes::code_of(record);
  const PathRow& paths = kPaths[ioi_classes::full_of(record)];
  int best = std::numeric_limits<int>::min();
  for (int pit = 0; pit < kPits; ++pit) {
    if (ioi_classes::digit_of(record, pit) == 0) continue;
    const Step step = move(record, code, paths, pit);
    best = std::max(best, step.net - values[ioi_classes::kClassOf[step.after]]);
  }
  return static_cast<std::int8_t>(best);
}

void solve_classes(std::size_t from, std::size_t to, std::int8_t* values) {
  for (std::size_t n = from; n < to; ++n)
    values[n] = solve_class(n, values);
}

}  // namespace

Table Table::solve(int most_beads) {
  // Class by class in the index's order, which is by bead count: a move always takes at least
  // one bead off the board, so every successor's class is solved before it is needed, and the
  // memoized negamax runs without recursion. Only the classes of up to `most_beads` beads are
  // solved: those are every board a game from a start of that many beads can reach. (One core:
  // a second, started for the millisecond this takes, costs a whole game more than it saves.)
  const int most = std::clamp(most_beads, 0, kMaxBeads);
  Table table;
  table.solved_beads_ = most;
  table.positions_ =
      static_cast<std::size_t>(ioi_classes::kFirst[static_cast<std::size_t>(most) + 1]);
  table.values_.resize(table.positions_);
  solve_classes(0, table.positions_, table.values_.data());
  return table;
}

Table Table::solve(Ring ring, const SolveOptions& options) {
  if (ring.is_ioi()) return solve();
  return Table(RingTable::solve(ring, options));
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
  const int best = value(board);
  for (Pit pit : board.pits()) {
    if (board.is_legal(pit) && move_value(board, pit) == best) return pit;
  }
  return std::nullopt;
}

std::vector<MoveValue> Table::analyze(const Board& board) const {
  std::vector<MoveValue> moves;
  for (Pit pit : board.pits()) {
    if (board.is_legal(pit)) moves.push_back({pit, move_value(board, pit)});
  }
  std::stable_sort(moves.begin(), moves.end(),
                   [](const MoveValue& a, const MoveValue& b) { return a.value > b.value; });
  return moves;
}

std::uint64_t Table::checksum() const {
  if (classes_) return classes_->checksum();
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a, 64 bits
  const auto mix = [&](std::uint8_t byte) {
    hash ^= byte;
    hash *= 0x100000001b3ULL;
  };
  for (Code code = 0; code < static_cast<Code>(kCodeCount); ++code) {
    const Board board = Board::from_code(code);
    mix(static_cast<std::uint8_t>(value(board)));
    const auto best = best_move(board);
    mix(best ? static_cast<std::uint8_t>(best->index()) : std::uint8_t{0xff});
  }
  return hash;
}

}  // namespace ioiwari
