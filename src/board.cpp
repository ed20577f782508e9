#include "ioiwari/board.hpp"

#include <cassert>
#include <ostream>

namespace ioiwari {

std::optional<Board> Board::from_counts(std::span<const int> counts) {
  if (counts.size() != static_cast<std::size_t>(kPits)) return std::nullopt;
  Board board;
  for (int i = 0; i < kPits; ++i) {
    if (counts[i] < 0 || counts[i] > kPitCapacity) return std::nullopt;
    board.pits_[i] = static_cast<std::uint8_t>(counts[i]);
  }
  return board;
}

Board Board::from_code(Code code) {
  assert(code < static_cast<Code>(kCodeCount));
  Board board;
  for (auto& pit : board.pits_) {
    pit = static_cast<std::uint8_t>(code % kCodeBase);
    code /= kCodeBase;
  }
  return board;
}

Board::Code Board::code() const {
  Code code = 0;
  for (int i = kPits - 1; i >= 0; --i)
    code = code * kCodeBase + pits_[i];
  return code;
}

int Board::total() const {
  int total = 0;
  for (auto beads : pits_)
    total += beads;
  return total;
}

Board Board::rotated(int steps) const {
  steps %= kPits;
  if (steps < 0) steps += kPits;
  Board board;
  for (int i = 0; i < kPits; ++i)
    board.pits_[(i + steps) % kPits] = pits_[i];
  return board;
}

Board Board::canonical() const {
  Board smallest = *this;
  for (int steps = 1; steps < kPits; ++steps) {
    const Board turned = rotated(steps);
    if (turned.code() < smallest.code()) smallest = turned;
  }
  return smallest;
}

bool Board::is_ioi_start() const {
  for (auto beads : pits_) {
    if (beads < kStartMinBeads || beads > kStartMaxBeads) return false;
  }
  return total() == kStartBeads;
}

// The sowing loop, straight from the rules: the hand visits the pits clockwise from the one
// after `pit`. While it holds more than one bead it skims a full pit or drops a bead; its last
// bead captures a pit holding 1..kPitCapacity-1 beads, or goes to the opponent. `record` is
// told each step; play() passes one that does nothing, which the compiler removes.
template <class Record>
MoveResult sow(const Board& board, Pit pit, Record&& record) {
  assert(board.is_legal(pit));
  MoveResult result{board};
  auto& pits = result.after.pits_;
  int hand = pits[pit.index()];
  pits[pit.index()] = 0;
  Pit at = pit;
  while (hand > 1) {
    at = at.next();
    auto& beads = pits[at.index()];
    if (beads == kPitCapacity) {
      --beads;
      ++result.mover_gain;
      record(SowStep{SowStep::Kind::skim, at, 1});
    } else {
      ++beads;
      --hand;
      record(SowStep{SowStep::Kind::drop, at, 1});
    }
  }
  at = at.next();
  auto& last = pits[at.index()];
  if (last > 0 && last < kPitCapacity) {
    result.mover_gain += last + 1;
    record(SowStep{SowStep::Kind::capture, at, last + 1});
    last = 0;
  } else {
    ++result.opponent_gain;
    record(SowStep{SowStep::Kind::give_away, at, 1});
  }
  return result;
}

MoveResult play(const Board& board, Pit pit) {
  return sow(board, pit, [](const SowStep&) {});
}

MoveTrace trace(const Board& board, Pit pit) {
  MoveTrace traced;
  traced.result = sow(board, pit, [&](const SowStep& step) { traced.steps.push_back(step); });
  return traced;
}

std::vector<Board> ioi_starts() {
  std::vector<Board> starts;
  for (Board::Code code = 0; code < static_cast<Board::Code>(kCodeCount); ++code) {
    const Board board = Board::from_code(code);
    if (board.is_ioi_start()) starts.push_back(board);
  }
  return starts;
}

std::ostream& operator<<(std::ostream& out, const Board& board) {
  for (Pit pit : kAllPits) {
    if (pit.index() > 0) out << ' ';
    out << board.beads(pit);
  }
  return out;
}

}  // namespace ioiwari
