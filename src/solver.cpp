#include "ioiwari/solver.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>

namespace ioiwari {

namespace {

// Every code, ordered by the number of beads on its board. A move always removes at least
// one bead from the board, so when a board comes up here every board it can move to is
// already solved: the memoized negamax runs without recursion.
std::vector<Board::Code> codes_by_bead_count() {
  std::vector<std::uint8_t> beads(kCodeCount);
  std::array<int, kMaxBeads + 2> start{};
  // The digit sum of code c is that of c / kCodeBase plus its last digit.
  for (int code = 1; code < kCodeCount; ++code) {
    beads[code] = static_cast<std::uint8_t>(beads[code / kCodeBase] + code % kCodeBase);
  }
  for (int code = 0; code < kCodeCount; ++code)
    ++start[beads[code] + 1];
  for (int n = 1; n < static_cast<int>(start.size()); ++n)
    start[n] += start[n - 1];
  std::vector<Board::Code> order(kCodeCount);
  for (int code = 0; code < kCodeCount; ++code) {
    order[start[beads[code]]++] = static_cast<Board::Code>(code);
  }
  return order;
}

}  // namespace

Table Table::solve() {
  Table table;
  table.entries_.assign(kCodeCount, Entry{0, kNoMove});
  for (Board::Code code : codes_by_bead_count()) {
    const Board board = Board::from_code(code);
    int best_value = std::numeric_limits<int>::min();
    std::uint8_t best_pit = kNoMove;
    for (Pit pit : kAllPits) {
      if (!board.is_legal(pit)) continue;
      const MoveResult move = play(board, pit);
      const int value = move.net() - table.entries_[move.after.code()].value;
      if (value > best_value) {  // strict: ties keep the lower label
        best_value = value;
        best_pit = static_cast<std::uint8_t>(pit.index());
      }
    }
    if (best_pit != kNoMove) {
      table.entries_[code] = Entry{static_cast<std::int8_t>(best_value), best_pit};
    }
  }
  return table;
}

std::uint64_t Table::checksum() const {
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a, 64 bits
  const auto mix = [&](std::uint8_t byte) {
    hash ^= byte;
    hash *= 0x100000001b3ULL;
  };
  for (Board::Code code = 0; code < static_cast<Board::Code>(kCodeCount); ++code) {
    const Board board = Board::from_code(code);
    mix(static_cast<std::uint8_t>(value(board)));
    const auto best = best_move(board);
    mix(best ? static_cast<std::uint8_t>(best->index()) : std::uint8_t{0xff});
  }
  return hash;
}

int Table::move_value(const Board& board, Pit pit) const {
  assert(board.is_legal(pit));
  const MoveResult move = play(board, pit);
  return move.net() - value(move.after);
}

std::vector<MoveValue> Table::analyze(const Board& board) const {
  std::vector<MoveValue> moves;
  for (Pit pit : kAllPits) {
    if (board.is_legal(pit)) moves.push_back({pit, move_value(board, pit)});
  }
  std::stable_sort(moves.begin(), moves.end(),
                   [](const MoveValue& a, const MoveValue& b) { return a.value > b.value; });
  return moves;
}

}  // namespace ioiwari
