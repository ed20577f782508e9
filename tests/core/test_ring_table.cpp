// Rings of other sizes: the move rule at the extreme capacities, rotation, the class index, and
// the per-class solver against the generic memoized negamax on every board of small rings.
#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/negamax_game.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/ring_index.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/table.hpp"
#include "negamax/solver.hpp"
#include "support.hpp"

using namespace ioiwari;

namespace {

Board board_of(std::vector<int> counts, Ring ring) {
  const auto board = Board::from_counts(counts, ring);
  REQUIRE(board);
  return *board;
}

// A random board of `ring`.
Board random_board(Random& random, Ring ring) {
  std::vector<int> counts;
  for (int i = 0; i < ring.pits; ++i)
    counts.push_back(random.below(ring.capacity + 1));
  return board_of(counts, ring);
}

}  // namespace

TEST_CASE("rings: a board carries its ring, and its code is in the ring's base", "[rings]") {
  const Ring ring{4, 2};  // base 3
  const Board board = board_of({2, 0, 1, 2}, ring);
  CHECK(board.ring() == ring);
  CHECK(board.size() == 4);
  CHECK(board.code() == 2 + 0 * 3 + 1 * 9 + 2 * 27);
  CHECK(Board::from_code(board.code(), ring) == board);
  CHECK(ring.code_count() == 81);
  CHECK_FALSE(Board::from_counts(std::vector{3, 0, 0, 0}, ring));  // above the capacity
  CHECK_FALSE(Board::from_counts(std::vector{1, 1, 1}, ring));     // too few pits
  CHECK(Pit::from_label(4, 4));
  CHECK_FALSE(Pit::from_label(5, 4));
  CHECK(Ring{13, 9}.code_count() == 10'000'000'000'000ULL);
}

TEST_CASE("rings: at capacity 1 every pit is full or empty, and no bead is ever captured",
          "[rings][rules]") {
  // 1 1 0 1 (capacity 1): pit 1's single bead is the last bead; it meets pit 2, full, and goes
  // to the opponent: 0 1 0 1.
  const Ring ring{4, 1};
  const MoveResult single = play(board_of({1, 1, 0, 1}, ring), Pit::at_index(0));
  CHECK(single.after == board_of({0, 1, 0, 1}, ring));
  CHECK(single.mover_gain == 0);
  CHECK(single.opponent_gain == 1);
  // On every board of every ring of capacity 1 a move gives its one bead away.
  for (int pits = kMinPits; pits <= 8; ++pits) {
    const Ring small{pits, 1};
    for (Board::Code code = 0; code < small.code_count(); ++code) {
      const Board board = Board::from_code(code, small);
      for (Pit pit : board.pits()) {
        if (!board.is_legal(pit)) continue;
        const MoveResult move = play(board, pit);
        REQUIRE(move.mover_gain == 0);
        REQUIRE(move.opponent_gain == 1);
        REQUIRE(move.after.total() == board.total() - 1);
      }
    }
  }
}

TEST_CASE("rings: at capacity 9 a full pit holds 9 and the last bead captures 1 to 8",
          "[rings][rules]") {
  const Ring ring{5, 9};
  // 3 9 8 0 0: pit 1's hand of 3 skims pit 2 (full: one bead to the mover), drops in pits 3 and
  // 4, and the last bead captures pit 5? No: it lands on pit 5, empty, and goes away.
  //   hand 3 at pit 2: 9 -> 8, mover +1; pit 3: 8 -> 9, hand 2; pit 4: 0 -> 1, hand 1;
  //   last bead on pit 5 (0): to the opponent.
  const MoveResult skim = play(board_of({3, 9, 8, 0, 0}, ring), Pit::at_index(0));
  CHECK(skim.after == board_of({0, 8, 9, 1, 0}, ring));
  CHECK(skim.mover_gain == 1);
  CHECK(skim.opponent_gain == 1);
  // 1 8 0 0 0: the single bead lands on pit 2's 8 beads and takes all nine.
  const MoveResult capture = play(board_of({1, 8, 0, 0, 0}, ring), Pit::at_index(0));
  CHECK(capture.after == board_of({0, 0, 0, 0, 0}, ring));
  CHECK(capture.mover_gain == 9);
  // 1 9 0 0 0: a full pit is not captured; the bead goes to the opponent.
  const MoveResult full = play(board_of({1, 9, 0, 0, 0}, ring), Pit::at_index(0));
  CHECK(full.after == board_of({0, 9, 0, 0, 0}, ring));
  CHECK(full.opponent_gain == 1);
  // 9 0 0 0 0: nine beads come round the ring of five; the emptied pit is an ordinary pit.
  //   drops in 2, 3, 4, 5, 1, 2, 3, 4 (hand 9 -> 1), the last bead lands on pit 5 (1): capture 2.
  const MoveResult round = play(board_of({9, 0, 0, 0, 0}, ring), Pit::at_index(0));
  CHECK(round.after == board_of({1, 2, 2, 2, 0}, ring));
  CHECK(round.mover_gain == 2);
  CHECK(round.opponent_gain == 0);
}

TEST_CASE("rings: rotating a board rotates every move, on rings of every size", "[rings]") {
  Random random(13);
  for (int pits = kMinPits; pits <= kMaxPits; ++pits) {
    for (int capacity = kMinCapacity; capacity <= kMaxCapacity; ++capacity) {
      const Ring ring{pits, capacity};
      for (int trial = 0; trial < 20; ++trial) {
        const Board board = random_board(random, ring);
        const int steps = random.below(pits);
        const Board turned = board.rotated(steps);
        REQUIRE(turned.canonical() == board.canonical());
        REQUIRE(canonical_code(0, pits, ring.base()) == 0);
        for (Pit pit : board.pits()) {
          if (!board.is_legal(pit)) continue;
          const MoveResult move = play(board, pit);
          const MoveResult moved = play(turned, Pit::at_index((pit.index() + steps) % pits));
          INFO(ring.describe() << ", board " << board << ", pit " << pit.label());
          REQUIRE(moved.after == move.after.rotated(steps));
          REQUIRE(moved.mover_gain == move.mover_gain);
          REQUIRE(moved.opponent_gain == move.opponent_gain);
        }
      }
    }
  }
}

TEST_CASE("rings: the solver's packed canonical code is the board's, on every board", "[rings]") {
  // The second statement of what a class is (canonical_code(), for speed) against the first
  // (Board::canonical()), on every board of every ring of up to 8 pits the suite builds.
  for (int pits = kMinPits; pits <= 8; ++pits) {
    for (int capacity = kMinCapacity; capacity <= 5; ++capacity) {
      const Ring ring{pits, capacity};
      if (ring.code_count() > 2'000'000) continue;
      INFO(ring.describe());
      for (Board::Code code = 0; code < ring.code_count(); ++code) {
        const Board board = Board::from_code(code, ring);
        std::uint64_t packed = 0;
        for (Pit pit : board.pits())
          packed |= static_cast<std::uint64_t>(board.beads(pit)) << (4 * pit.index());
        REQUIRE(canonical_code(packed, pits, ring.base()) == board.canonical().code());
      }
    }
  }
}

TEST_CASE("rings: Burnside's count of classes is the count of canonical codes", "[rings]") {
  for (int pits = kMinPits; pits <= 6; ++pits) {
    for (int capacity = 1; capacity <= 4; ++capacity) {
      const Ring ring{pits, capacity};
      std::map<int, std::uint64_t> counted;
      for (Board::Code code = 0; code < ring.code_count(); ++code) {
        const Board board = Board::from_code(code, ring);
        if (board.canonical() == board) ++counted[board.total()];
      }
      const LayerCounts layers = classes_by_beads(ring);
      INFO(ring.describe());
      for (std::size_t beads = 0; beads < layers.size(); ++beads)
        REQUIRE(layers[beads] == counted[static_cast<int>(beads)]);
    }
  }
  // The IOI ring: 39,996 classes, as its own solver finds.
  CHECK(RingGeometry(Ring::ioi()).classes() == 39996);
}

TEST_CASE(
    "rings: every board of the rings of 3, 4 and 5 pits, capacities 2 to 5, agrees with "
    "the memoized negamax library",
    "[rings]") {
  for (int pits = 3; pits <= 5; ++pits) {
    for (int capacity = 2; capacity <= 5; ++capacity) {
      const Ring ring{pits, capacity};
      const Table table = Table::solve(ring, {});
      negamax::Solver<NegamaxGame> oracle(NegamaxGame{ring});
      std::set<std::uint64_t> classes;
      for (Board::Code code = 0; code < ring.code_count(); ++code) {
        const Board board = Board::from_code(code, ring);
        INFO(ring.describe() << ", board " << board);
        const auto solution = oracle.solve(board);
        REQUIRE(table.value(board) == solution.value);
        REQUIRE(table.best_move(board) == solution.best);
        // A board and its rotations share a class; a class is one rank.
        const Rank rank = table.classes()->class_of(board);
        REQUIRE(raw(rank) < table.classes()->classes());
        REQUIRE(rank == table.classes()->class_of(board.canonical()));
        classes.insert(raw(rank));
      }
      CHECK(classes.size() == table.classes()->classes());
      CHECK(table.positions() == table.classes()->classes());
    }
  }
}

TEST_CASE("rings: the per-class solver agrees with the IOI table on all of its boards", "[rings]") {
  const auto classes = RingTable::solve(RingGeometry::of(Ring::ioi()), {});
  CHECK(classes->classes() == 39996);
  const Table& ioi = test::table();
  for (Board::Code code = 0; code < Ring::ioi().code_count(); ++code) {
    const Board board = Board::from_code(code, Ring::ioi());
    REQUIRE(classes->value(board) == ioi.value(board));
  }
  // One checksum, whichever way the table was made.
  CHECK(Table(classes).checksum() == ioi.checksum());
}

TEST_CASE(
    "rings: every board of 8 pits of capacity 4, whose layers span many pieces and batches, "
    "agrees with the memoized negamax library",
    "[rings]") {
  // Its largest layer holds 4,783 classes: more than four batches of the solve (kSolveBatch),
  // spread over its index's 253 lines, each a piece of its own (ring_solver.hpp, Pieces), so a
  // piece or a batch that skipped or repeated a class would show here.
  const Ring ring{8, 4};
  const LayerCounts layers = classes_by_beads(ring);
  CHECK(*std::max_element(layers.begin(), layers.end()) == 4783);
  CHECK(RingIndex(ring).lines() == 253);
  const Table table = Table::solve(ring, {});
  negamax::Solver<NegamaxGame> oracle(NegamaxGame{ring});
  for (Board::Code code = 0; code < ring.code_count(); ++code) {
    const Board board = Board::from_code(code, ring);
    INFO("board " << board);
    const auto solution = oracle.solve(board);
    REQUIRE(table.value(board) == solution.value);
    REQUIRE(table.best_move(board) == solution.best);
  }
}

TEST_CASE("rings: one thread and several solve the same table, and several really work",
          "[rings]") {
  // 9 pits of capacity 5: layers of up to 85,266 classes, cut into the pieces that four
  // threads share.
  const Ring ring{9, 5};
  SolveOptions one;
  one.threads = 1;
  int alone_threads = 0;
  one.progress = [&](const SolveProgress& progress) { alone_threads = progress.threads; };
  SolveOptions four;
  four.threads = 4;
  std::vector<SolveProgress> seen;
  four.progress = [&](const SolveProgress& progress) { seen.push_back(progress); };
  const auto alone = RingTable::solve(RingGeometry::of(ring), one);
  const auto shared = RingTable::solve(RingGeometry::of(ring), four);
  CHECK(Table(alone).checksum() == Table(shared).checksum());
  CHECK(alone_threads == 1);
  REQUIRE_FALSE(seen.empty());
  // More than one thread solved classes of one batch: the solve ran in parallel.
  CHECK(seen.back().threads >= 2);
  CHECK(seen.back().threads <= 4);
  CHECK(seen.back().done == seen.back().classes);
  CHECK(seen.back().classes == alone->classes());
  CHECK(seen.back().layers == ring.max_beads() + 1);
  // The index reports first (layer -1), then the layers, each count growing within its stage.
  for (std::size_t i = 1; i < seen.size(); ++i) {
    CHECK(seen[i].layer >= seen[i - 1].layer);
    if (seen[i].layer >= 0 && seen[i - 1].layer >= 0) CHECK(seen[i].done > seen[i - 1].done);
  }
  CHECK(seen.front().layer == -1);  // 1,119,796 classes: one report of the index
}

TEST_CASE("rings: the index reports its last count, whichever thread took the last piece",
          "[rings]") {
  // A small ring is a few pieces; with many threads the helpers usually take them all before
  // thread 0, the one that reports, starts.
  const Ring ring{6, 4};
  for (const int threads : {1, 2, 16, 64}) {
    INFO(threads << " threads");
    SolveOptions options;
    options.threads = threads;
    std::vector<SolveProgress> index;
    options.progress = [&](const SolveProgress& progress) {
      if (progress.layer < 0) index.push_back(progress);
    };
    const auto table = RingTable::solve(RingGeometry::of(ring), options);
    REQUIRE_FALSE(index.empty());
    CHECK(index.back().done == table->classes());
    CHECK(index.back().classes == table->classes());
  }
}

TEST_CASE("rings: values are the same for rotated boards, on every ring that solves quickly",
          "[rings]") {
  Random random(7);
  for (int pits = kMinPits; pits <= 8; ++pits) {
    const Ring ring{pits, pits <= 6 ? 6 : 4};
    const Table table = Table::solve(ring, {});
    for (int trial = 0; trial < 300; ++trial) {
      const Board board = random_board(random, ring);
      for (int steps = 1; steps < pits; ++steps)
        REQUIRE(table.value(board.rotated(steps)) == table.value(board));
    }
  }
}
