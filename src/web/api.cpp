// The calls the page's script (page/ioiwari.js) makes on the core, compiled to WebAssembly
// (docs/browser.md). Each is a thin front end over the core: the rules (play(), trace()), the
// solve (Table::solve()), the values and the analysis (Table), the moves to the end
// (EndDistance), the starts and the strategies. Boards and results pass through one buffer of
// 32-bit integers that the script reads and writes (io()): a board is its counts, pit 1 first.
//
// The page runs two instances of the module. One, in a Worker, solves a ring (solve()) and hands
// the solved table's two parts (table_part()) to the page; the other, on the page's own thread,
// takes them in (receive(), adopt()) and answers every other call, so the page answers clicks
// while a ring is solving.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "ioiwari/core/board.hpp"
#include "ioiwari/core/end_distance.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_geometry.hpp"
#include "ioiwari/core/ring_index.hpp"
#include "ioiwari/core/ring_solver.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/strategy.hpp"
#include "ioiwari/core/table.hpp"

#define IOIWARI_EXPORT(name) extern "C" __attribute__((export_name(#name)))

// Told how a solve goes: the layer (bead count) being solved, -1 while the index is made, of how
// many, and the classes done of all.
__attribute__((import_module("ioiwari"), import_name("progress"))) void progress(int layer,
                                                                                 int layers,
                                                                                 double done,
                                                                                 double classes);

namespace {

using namespace ioiwari;

// The most memory a solve may take: a module of 32 bits addresses 4 GiB, and the rest of it
// (the code, the stack, the starts, the allocator's own) fits in the last.
constexpr std::uint64_t kSolveMemory = std::uint64_t{3} << 30;

// A solved table's parts as another instance sent them, before adopt() takes them in.
struct Received {
  std::vector<std::uint64_t> lines;
  std::vector<std::int8_t> values;
};

// What the page has solved, and the buffer it talks through.
struct Session {
  std::optional<Table> table;
  std::optional<EndDistance> distance;  // over table
  std::vector<Board> starts;            // of the ring's default rule, by code
  Random random{1};
  std::array<std::int32_t, 512> io{};
  std::shared_ptr<const RingGeometry> received_geometry;
  std::shared_ptr<Received> received;

  void forget() {
    distance.reset();
    table.reset();
    starts.clear();
  }
  void use(Table solved) {
    table.emplace(std::move(solved));
    distance.emplace(*table);
    starts = ioiwari::starts(table->ring(), StartRule::defaults_for(table->ring()));
  }
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

// Solves the ring, the one the other calls play on, telling progress() as it goes: 0 when done,
// 1 for a ring not played, 2 for a ring whose solve takes more memory than the module has
// (kSolveMemory), which is left unsolved. Whatever was solved before is gone in every case.
IOIWARI_EXPORT(solve) int solve(int pits, int capacity) {
  Session& s = session();
  s.forget();
  const Ring ring{pits, capacity};
  if (!ring.playable()) return 1;
  const auto geometry = RingGeometry::of(ring);
  if (solve_bytes(*geometry, 1, 1, kSolveBatch) > kSolveMemory) return 2;
  SolveOptions options;
  options.progress = [](const SolveProgress& now) {
    progress(now.layer, now.layers, static_cast<double>(now.done),
             static_cast<double>(now.classes));
  };
  s.use(Table::solve(geometry, options));
  return 0;
}

// Where part `part` of the solved table is in the module's memory (0: the index's lines, 1: the
// classes' values), and its size in bytes: what the page copies to the other instance's
// received(). Null and 0 when nothing is solved.
IOIWARI_EXPORT(table_part) const void* table_part(int part) {
  const Session& s = session();
  if (!s.table) return nullptr;
  const RingTable& classes = *s.table->classes();
  return part == 0 ? static_cast<const void*>(classes.lines().data())
                   : static_cast<const void*>(classes.values().data());
}
IOIWARI_EXPORT(table_part_bytes) double table_part_bytes(int part) {
  const Session& s = session();
  if (!s.table) return 0;
  const RingTable& classes = *s.table->classes();
  return static_cast<double>(part == 0 ? classes.lines().size_bytes()
                                       : classes.values().size_bytes());
}

// Makes room for the parts of a solved table of the ring of `pits` and `capacity`, `lines` and
// `values` bytes long, which the page then copies to received(0) and received(1): 0, or 1 when
// the ring is not played or the sizes are not that ring's. Whatever was solved before is gone.
IOIWARI_EXPORT(receive) int receive(int pits, int capacity, double lines, double values) {
  Session& s = session();
  s.forget();
  s.received.reset();
  const Ring ring{pits, capacity};
  if (!ring.playable()) return 1;
  auto geometry = RingGeometry::of(ring);
  if (lines != static_cast<double>(geometry->index_bytes()) ||
      values != static_cast<double>(geometry->classes())) {
    return 1;
  }
  auto parts = std::make_shared<Received>();
  parts->lines.resize(static_cast<std::size_t>(geometry->lines()) * kLineWords);
  parts->values.resize(static_cast<std::size_t>(geometry->classes()));
  s.received_geometry = std::move(geometry);
  s.received = std::move(parts);
  return 0;
}
IOIWARI_EXPORT(received) void* received(int part) {
  Session& s = session();
  if (!s.received) return nullptr;
  return part == 0 ? static_cast<void*>(s.received->lines.data())
                   : static_cast<void*>(s.received->values.data());
}

// Takes in the parts received as the ring the other calls play on: 0, or 1 when nothing was
// received.
IOIWARI_EXPORT(adopt) int adopt() {
  Session& s = session();
  if (!s.received) return 1;
  const std::shared_ptr<Received> parts = std::move(s.received);
  s.use(Table(RingTable::in_memory(std::move(s.received_geometry), parts->lines, parts->values,
                                   parts, nullptr)));
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

// Every legal move of the buffer's board, best first as EndDistance ranks them: triples (pit
// label, value, moves to the end, the move included) from the buffer's start. Returns how many;
// -1 when it is no board.
IOIWARI_EXPORT(rank) int rank() {
  const auto board = board_in_io();
  if (!board) return -1;
  const std::vector<MoveOutlook> moves = session().distance->rank(*board);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    session().io[3 * i] = moves[i].pit.label();
    session().io[3 * i + 1] = moves[i].value;
    session().io[3 * i + 2] = moves[i].moves;
  }
  return static_cast<int>(moves.size());
}

// The best line from the buffer's board to the end, as EndDistance plays it: its pit labels
// from the buffer's start. Returns how many; -1 when it is no board.
IOIWARI_EXPORT(line) int line() {
  const auto board = board_in_io();
  if (!board) return -1;
  const std::vector<Pit> pits = session().distance->line(*board);
  for (std::size_t i = 0; i < pits.size(); ++i)
    session().io[i] = pits[i].label();
  return static_cast<int>(pits.size());
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
