// The calls the page's script (page/ioiwari.js) makes on the core, compiled to WebAssembly
// (docs/browser.md). Each is a thin front end over the core: the rules (play(), trace()), the
// solve (Table::solve()), the values and the analysis (Table), the starts and the strategies.
// Boards and results pass through one buffer of 32-bit integers that the script reads and writes
// (io()): a board is its counts, pit 1 first.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "ioiwari/core/board.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_geometry.hpp"
#include "ioiwari/core/ring_solver.hpp"
#include "ioiwari/core/strategy.hpp"
#include "ioiwari/core/table.hpp"

#define IOIWARI_EXPORT(name) extern "C" __attribute__((export_name(#name)))

namespace {

using namespace ioiwari;

// The most memory a solve may take: a module of 32 bits addresses 4 GiB, and the rest of it
// (the code, the stack, the starts, the allocator's own) fits in the last.
constexpr std::uint64_t kSolveMemory = std::uint64_t{3} << 30;

// What the page has solved, and the buffer it talks through.
struct Session {
  std::optional<Table> table;
  std::vector<Board> starts;  // of the ring's default rule, by code
  Random random{1};
  std::array<std::int32_t, 512> io{};
};

Session& session() {
  static Session state;
  return state;
}

// The board in the buffer's first pits: nothing when it is no board of the solved ring, or when
// no ring is solved.
std::optional<Board> board_in_io() {
  Session& s = session();
  if (!s.table) return std::nullopt;
  const Ring ring = s.table->ring();
  std::vector<int> counts(s.io.begin(), s.io.begin() + ring.pits);
  return Board::from_counts(counts, ring);
}

void board_to_io(const Board& board, std::size_t at) {
  for (Pit pit : board.pits())
    session().io[at + static_cast<std::size_t>(pit.index())] = board.beads(pit);
}

}  // namespace

// The buffer, for the script to read and write.
IOIWARI_EXPORT(io) std::int32_t* io() {
  return session().io.data();
}

// The rotation classes of the ring of `pits` and `capacity`, what a solve of it takes the time
// of; 0 for a ring not played.
IOIWARI_EXPORT(ring_classes) double ring_classes(int pits, int capacity) {
  const Ring ring{pits, capacity};
  if (!ring.playable()) return 0;
  return static_cast<double>(RingGeometry(ring).classes());
}

// Solves the ring, the one the other calls play on: 0 when done, 1 for a ring not played, 2
// for a ring whose solve takes more memory than the module has (kSolveMemory), which is left
// unsolved. Whatever was solved before is gone in every case.
IOIWARI_EXPORT(solve) int solve(int pits, int capacity) {
  Session& s = session();
  s.table.reset();
  s.starts.clear();
  const Ring ring{pits, capacity};
  if (!ring.playable()) return 1;
  const auto geometry = RingGeometry::of(ring);
  if (solve_bytes(*geometry, 1, 1, kSolveBatch) > kSolveMemory) return 2;
  s.table.emplace(Table::solve(geometry, SolveOptions{}));
  s.starts = starts(ring, StartRule::defaults_for(ring));
  return 0;
}

// The value of the buffer's board for the player to move; -1000 when it is no board.
IOIWARI_EXPORT(board_value) int board_value() {
  const auto board = board_in_io();
  return board ? session().table->value(*board) : -1000;
}

// Every legal move of the buffer's board and its value, best first: pairs (pit label, value)
// from the buffer's start. Returns how many; -1 when it is no board.
IOIWARI_EXPORT(analyze) int analyze() {
  const auto board = board_in_io();
  if (!board) return -1;
  const std::vector<PitValue> moves = session().table->analyze(*board);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    session().io[2 * i] = moves[i].pit.label();
    session().io[2 * i + 1] = moves[i].value;
  }
  return static_cast<int>(moves.size());
}

// Seeds the strategies' random choices.
IOIWARI_EXPORT(seed) void seed(std::uint32_t low, std::uint32_t high) {
  session().random = Random((std::uint64_t{high} << 32) | low);
}

// The move `strategy` (0 optimal, 1 greedy, 2 random, 3 weakest) plays on the buffer's board:
// optimal plays the lowest-labelled best move, as the terminal game does. 0 when there is none.
IOIWARI_EXPORT(choose) int choose(int strategy) {
  const auto board = board_in_io();
  if (!board || board->empty()) return 0;
  const Table& table = *session().table;
  if (strategy == 0) return table.best_move(*board)->label();
  constexpr Strategy kStrategies[] = {Strategy::optimal, Strategy::greedy, Strategy::random,
                                      Strategy::weakest};
  if (strategy < 0 || strategy > 3) return 0;
  return choose_move(kStrategies[strategy], *board, table, session().random).label();
}

// Plays pit `label` of the buffer's board: the board after it goes to the buffer's start, the
// mover's gain to [32] and the opponent's to [33], and what the hand did, step by step, from
// [34]: their number, then for each its kind (0 drop, 1 skim, 2 capture, 3 given away), pit
// label and beads. Returns 0, or 1 when the move is not legal.
IOIWARI_EXPORT(play) int play_move(int label) {
  const auto board = board_in_io();
  if (!board) return 1;
  const auto pit = Pit::from_label(label, board->size());
  if (!pit || !board->is_legal(*pit)) return 1;
  const MoveTrace traced = trace(*board, *pit);
  Session& s = session();
  board_to_io(traced.result.after, 0);
  s.io[32] = traced.result.mover_gain;
  s.io[33] = traced.result.opponent_gain;
  const std::size_t most = (s.io.size() - 35) / 3;
  const std::size_t steps = std::min(traced.steps.size(), most);
  s.io[34] = static_cast<std::int32_t>(steps);
  for (std::size_t i = 0; i < steps; ++i) {
    const SowStep& step = traced.steps[i];
    s.io[35 + 3 * i] = static_cast<std::int32_t>(step.kind);
    s.io[36 + 3 * i] = step.pit.label();
    s.io[37 + 3 * i] = step.beads;
  }
  return 0;
}

// How many starts the ring's default rule has, and the `index`th of them into the buffer (0;
// 1 when there is no such start).
IOIWARI_EXPORT(start_count) int start_count() {
  return static_cast<int>(session().starts.size());
}
IOIWARI_EXPORT(start_at) int start_at(int index) {
  const std::vector<Board>& all = session().starts;
  if (index < 0 || static_cast<std::size_t>(index) >= all.size()) return 1;
  board_to_io(all[static_cast<std::size_t>(index)], 0);
  return 0;
}
