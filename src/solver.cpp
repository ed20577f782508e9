#include "ioiwari/solver.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>

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

// One board of a rotation class, as the solver reads it.
struct Class {
  std::array<std::uint8_t, kPits> digits;
  std::uint8_t full;      // PitMask of the pits holding kPitCapacity beads
  std::uint8_t nonempty;  // PitMask of the pits holding beads (none: the empty board)
  std::uint8_t beads;
  Code code;
};

// Calls visit(board) once for every rotation class of boards, with its necklace: the digit
// string (pit 1 first) that no rotation makes lexicographically smaller. This is the
// algorithm of Fredricksen, Kessler and Maiorana; it takes constant time per necklace. The
// board is built up digit by digit, one prefix per depth: a step copies only the prefix it
// extends.
template <class Visit>
void for_each_necklace(Visit&& visit) {
  std::array<int, kPits + 1> a{};     // a[1..kPits] is the string; a[0] stays 0
  std::array<Class, kPits> prefix{};  // prefix[t]: the board of digits a[1..t]
  // Puts `digit` in place t (1-based) of `board`.
  const auto place = [](Class& board, int t, int digit) {
    const auto bit = static_cast<std::uint8_t>(1u << (t - 1));
    board.digits[t - 1] = static_cast<std::uint8_t>(digit);
    board.full = static_cast<std::uint8_t>(board.full | (digit == kPitCapacity ? bit : 0));
    board.nonempty = static_cast<std::uint8_t>(board.nonempty | (digit > 0 ? bit : 0));
    board.beads = static_cast<std::uint8_t>(board.beads + digit);
    board.code += static_cast<Code>(digit * kPlace[t - 1]);
  };
  const auto extend = [&](auto&& self, int t, int period) -> void {
    if (t == kPits) {
      // The last place: a digit larger than a[t - period] always closes a necklace; an
      // equal one only when the string's period divides its length.
      const int first = a[t - period] + (kPits % period == 0 ? 0 : 1);
      for (int digit = first; digit < kCodeBase; ++digit) {
        Class board = prefix[t - 1];
        place(board, t, digit);
        visit(board);
      }
      return;
    }
    for (int digit = a[t - period]; digit < kCodeBase; ++digit) {
      a[t] = digit;
      prefix[t] = prefix[t - 1];
      place(prefix[t], t, digit);
      // Repeating the string's start keeps the period; any larger digit starts a new one.
      self(self, t + 1, digit == a[t - period] ? period : t);
    }
  };
  extend(extend, 1, 1);
}

// How many rotation classes there are with each number of beads, so that solve() can place
// every necklace straight into its bead count's slot. By Burnside's lemma, the classes with s
// beads number (1/n) times the sum, over the d dividing both n = kPits and s, of phi(d) times
// the strings of n/d digits 0..kPitCapacity whose digits add up to s/d.
constexpr long long strings_with_sum(int length, int sum) {
  std::array<long long, kMaxBeads + 1> ways{};  // ways[t]: strings so far with digit sum t
  ways[0] = 1;
  for (int i = 0; i < length; ++i) {
    std::array<long long, kMaxBeads + 1> next{};
    for (int t = 0; t <= kMaxBeads; ++t) {
      for (int digit = 0; digit <= kPitCapacity && t + digit <= kMaxBeads; ++digit) {
        next[t + digit] += ways[t];
      }
    }
    ways = next;
  }
  return sum >= 0 && sum <= kMaxBeads ? ways[sum] : 0;
}

constexpr int euler_phi(int n) {
  int phi = 0;
  for (int k = 1; k <= n; ++k) {
    int a = k, b = n;
    while (b != 0) {
      const int r = a % b;
      a = b;
      b = r;
    }
    phi += a == 1 ? 1 : 0;
  }
  return phi;
}

constexpr std::array<int, kMaxBeads + 1> kClassesByBeads = [] {
  std::array<int, kMaxBeads + 1> classes{};
  for (int beads = 0; beads <= kMaxBeads; ++beads) {
    long long fixed = 0;
    for (int d = 1; d <= kPits; ++d) {
      if (kPits % d == 0 && beads % d == 0) {
        fixed += euler_phi(d) * strings_with_sum(kPits / d, beads / d);
      }
    }
    classes[beads] = static_cast<int>(fixed / kPits);
  }
  return classes;
}();

constexpr int kClasses = [] {
  int total = 0;
  for (int count : kClassesByBeads)
    total += count;
  return total;
}();

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

// sow() by table look-up where the path fits, else by walking it.
inline Step move(const Class& board, const PathRow& paths, int pit) {
  const Path& path = paths[pit][board.digits[pit]];
  if (!path.fits) {
    Digits digits;
    std::copy(board.digits.begin(), board.digits.end(), digits.begin());
    return sow(digits, static_cast<int>(board.code), pit);
  }
  const int last = board.digits[path.land];
  const bool capture = static_cast<unsigned>(last - 1) < kPitCapacity - 1;  // 1..capacity-1
  const int net = path.skims + (capture ? last + 1 : -1);
  const int after =
      static_cast<int>(board.code) + path.delta - (capture ? last * kPlace[path.land] : 0);
  return {net, static_cast<Code>(after)};
}

}  // namespace

Table Table::solve() {
  // One board per rotation class, placed by bead count. A move always takes at least one bead
  // off the board, so solving them in increasing bead count finds every successor solved:
  // the memoized negamax runs without recursion.
  std::vector<Class> classes(kClasses);
  std::array<int, kMaxBeads + 1> slot{};
  for (int beads = 1; beads <= kMaxBeads; ++beads) {
    slot[beads] = slot[beads - 1] + kClassesByBeads[beads - 1];
  }
  for_each_necklace(
      [&](const Class& board) { classes[static_cast<std::size_t>(slot[board.beads]++)] = board; });

  Table table;
  table.values_.assign(static_cast<std::size_t>(kCodeCount), 0);
  table.positions_ = classes.size();
  std::int8_t* values = table.values_.data();
  for (const Class& board : classes) {
    // Every pit, empty ones too (they can never be best): a loop the compiler unrolls, with
    // no branch on which pits hold beads.
    const PathRow& paths = kPaths[board.full];
    int best = std::numeric_limits<int>::min();
    for (int pit = 0; pit < kPits; ++pit) {
      const Step step = move(board, paths, pit);
      best = std::max(best, step.net - values[step.after]);
    }
    if (board.nonempty == 0) best = 0;  // the empty board
    // Rotating the ring rotates the moves: every rotation has the same value. Turning the
    // board clockwise by one brings the digit at the top place round to pit 1.
    int turn = static_cast<int>(board.code);
    for (int r = 0; r < kPits; ++r) {
      values[turn] = static_cast<std::int8_t>(best);
      const int top = board.digits[kPits - 1 - r];
      turn = (turn - top * kPlace[kPits - 1]) * kCodeBase + top;
    }
  }
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
