#include "ioiwari/core/board.hpp"

#include <cassert>
#include <ostream>

namespace ioiwari {

std::optional<Board> Board::from_counts(std::span<const int> counts, Ring ring) {
  if (counts.size() != static_cast<std::size_t>(ring.pits)) return std::nullopt;
  Board board(ring);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] < 0 || counts[i] > ring.capacity) return std::nullopt;
    board.pits_[i] = static_cast<std::uint8_t>(counts[i]);
  }
  return board;
}

Board Board::from_code(Code code, Ring ring) {
  assert(code < ring.code_count());
  Board board(ring);
  const auto base = static_cast<Code>(ring.base());
  for (int i = 0; i < ring.pits; ++i) {
    board.pits_[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(code % base);
    code /= base;
  }
  return board;
}

Board::Code Board::code() const {
  Code code = 0;
  for (int i = size_ - 1; i >= 0; --i)
    code = code * static_cast<Code>(capacity_ + 1) + pits_[static_cast<std::size_t>(i)];
  return code;
}

int Board::total() const {
  int total = 0;
  for (int i = 0; i < size_; ++i)
    total += pits_[static_cast<std::size_t>(i)];
  return total;
}

Board Board::rotated(int steps) const {
  steps %= size_;
  if (steps < 0) steps += size_;
  Board board(ring());
  for (int i = 0; i < size_; ++i) {
    board.pits_[static_cast<std::size_t>((i + steps) % size_)] = pits_[static_cast<std::size_t>(i)];
  }
  return board;
}

Board Board::canonical() const {
  Board smallest = *this;
  for (int steps = 1; steps < size_; ++steps) {
    const Board turned = rotated(steps);
    if (turned.code() < smallest.code()) smallest = turned;
  }
  return smallest;
}

bool Board::is_start(const StartRule& rule) const {
  for (Pit pit : pits()) {
    if (beads(pit) < rule.min_beads || beads(pit) > rule.max_beads) return false;
  }
  return total() == rule.beads;
}

// A Board's pits as sow() (sowing.hpp) holds them.
struct BoardPits {
  explicit BoardPits(Board& board) : counts(board.pits_) {}
  std::array<std::uint8_t, kMaxPits>& counts;
  int get(int pit) const { return counts[static_cast<std::size_t>(pit)]; }
  void add(int pit, int beads) {
    counts[static_cast<std::size_t>(pit)] =
        static_cast<std::uint8_t>(counts[static_cast<std::size_t>(pit)] + beads);
  }
};

namespace {

template <class Record>
MoveResult sow_board(const Board& board, Pit pit, Record&& record) {
  assert(board.is_legal(pit));
  MoveResult result{board};
  BoardPits pits(result.after);
  const Ring ring = board.ring();
  const Sown sown = sow(pits, pit.index(), ring.pits, ring.capacity, record);
  result.mover_gain = sown.mover_gain;
  result.opponent_gain = sown.opponent_gain;
  return result;
}

}  // namespace

MoveResult play(const Board& board, Pit pit) {
  return sow_board(board, pit, [](SowKind, int, int) {});
}

MoveTrace trace(const Board& board, Pit pit) {
  MoveTrace traced;
  traced.result = sow_board(board, pit, [&](SowKind kind, int at, int beads) {
    traced.steps.push_back(SowStep{kind, Pit::at_index(at), beads});
  });
  return traced;
}

namespace {

// Calls visit(counts) for every filling of pits [at, pits) with min..max beads each and `left`
// beads in all, the earlier pits already in `counts`; in order of the board's code (pit 1 the
// lowest digit, so the last pit varies slowest).
template <class Visit>
void for_each_start(std::vector<int>& counts, int at, int left, const StartRule& rule,
                    Visit&& visit) {
  if (at < 0) {
    if (left == 0) visit(counts);
    return;
  }
  // Pits at..0 remain: `at + 1` of them, each min..max.
  for (int beads = rule.min_beads; beads <= rule.max_beads; ++beads) {
    const int rest = left - beads;
    if (rest < at * rule.min_beads || rest > at * rule.max_beads) continue;
    counts[static_cast<std::size_t>(at)] = beads;
    for_each_start(counts, at - 1, rest, rule, visit);
  }
}

}  // namespace

std::vector<Board> starts(Ring ring, const StartRule& rule) {
  std::vector<Board> found;
  if (rule.min_beads < 0 || rule.max_beads > ring.capacity || rule.min_beads > rule.max_beads) {
    return found;
  }
  std::vector<int> counts(static_cast<std::size_t>(ring.pits));
  for_each_start(counts, ring.pits - 1, rule.beads, rule, [&](const std::vector<int>& filled) {
    found.push_back(*Board::from_counts(filled, ring));
  });
  return found;
}

std::uint64_t count_starts(Ring ring, const StartRule& rule) {
  if (rule.min_beads < 0 || rule.max_beads > ring.capacity || rule.min_beads > rule.max_beads ||
      rule.beads < 0) {
    return 0;
  }
  // ways[t]: fillings of the pits so far with t beads.
  std::vector<std::uint64_t> ways(static_cast<std::size_t>(rule.beads) + 1, 0);
  ways[0] = 1;
  for (int pit = 0; pit < ring.pits; ++pit) {
    std::vector<std::uint64_t> next(ways.size(), 0);
    for (std::size_t t = 0; t < ways.size(); ++t) {
      for (int beads = rule.min_beads; beads <= rule.max_beads; ++beads) {
        if (t + static_cast<std::size_t>(beads) < next.size()) {
          next[t + static_cast<std::size_t>(beads)] += ways[t];
        }
      }
    }
    ways = std::move(next);
  }
  return ways.back();
}

std::vector<Board> ioi_starts() {
  return starts(Ring::ioi(), StartRule::ioi());
}

std::ostream& operator<<(std::ostream& out, const Board& board) {
  for (Pit pit : board.pits()) {
    if (pit.index() > 0) out << ' ';
    out << board.beads(pit);
  }
  return out;
}

}  // namespace ioiwari
