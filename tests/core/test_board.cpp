// The move rule, case by case. Boards are written pit 1 first; an arrow shows the sowing.
#include <algorithm>
#include <sstream>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/board.hpp"
#include "ioiwari/core/random.hpp"
#include "reference.hpp"

using namespace ioiwari;

namespace {

Board board(std::vector<int> counts) {
  return *Board::from_counts(counts, Ring::ioi());
}
Pit pit(int label) {
  return *Pit::from_label(label, kPits);
}

}  // namespace

TEST_CASE("a pit is named by label 1..7 and stored by index 0..6", "[board]") {
  CHECK(Pit::from_label(1, kPits)->index() == 0);
  CHECK(Pit::from_label(kPits, kPits)->index() == kPits - 1);
  CHECK_FALSE(Pit::from_label(0, kPits));
  CHECK_FALSE(Pit::from_label(kPits + 1, kPits));
  CHECK_FALSE(Pit::from_label(-1, kPits));
  CHECK(Board(Ring::ioi()).next(pit(kPits)) == pit(1));  // the ring closes
  CHECK(Board(Ring::ioi()).next(pit(3)) == pit(4));
  for (int i = 0; i < kPits; ++i)
    CHECK(Board(Ring::ioi()).pits()[static_cast<std::size_t>(i)].label() == i + 1);
}

TEST_CASE("boards are made only from seven counts of 0..5", "[board]") {
  CHECK(Board::from_counts(std::vector{0, 0, 0, 0, 0, 0, 0}, Ring::ioi()));
  CHECK(Board::from_counts(std::vector{5, 5, 5, 5, 5, 5, 5}, Ring::ioi()));
  CHECK_FALSE(Board::from_counts(std::vector{1, 1, 1, 1, 1, 1}, Ring::ioi()));
  CHECK_FALSE(Board::from_counts(std::vector{1, 1, 1, 1, 1, 1, 1, 1}, Ring::ioi()));
  CHECK_FALSE(Board::from_counts(std::vector{1, 1, 1, 6, 1, 1, 1}, Ring::ioi()));
  CHECK_FALSE(Board::from_counts(std::vector{1, 1, 1, -1, 1, 1, 1}, Ring::ioi()));
}

TEST_CASE("a board prints its counts pit 1 first", "[board]") {
  std::ostringstream out;
  out << board({4, 3, 2, 4, 2, 3, 2});
  CHECK(out.str() == "4 3 2 4 2 3 2");
}

TEST_CASE("every code round-trips through its board, pit 1 the lowest digit", "[board]") {
  for (Board::Code code = 0; code < static_cast<Board::Code>(kCodeCount); ++code) {
    REQUIRE(Board::from_code(code, Ring::ioi()).code() == code);
  }
  CHECK(board({1, 0, 0, 0, 0, 0, 0}).code() == 1);
  CHECK(board({0, 1, 0, 0, 0, 0, 0}).code() == static_cast<Board::Code>(kCodeBase));
  CHECK(board({5, 5, 5, 5, 5, 5, 5}).code() == static_cast<Board::Code>(kCodeCount - 1));
}

TEST_CASE("the last bead captures a pit holding 1 to 4", "[board][rules]") {
  // 1 3 0 0 0 0 0, play 1: the single bead lands on pit 2 (3 beads) and takes all four.
  for (int held = 1; held <= kPitCapacity - 1; ++held) {
    const MoveResult move = play(board({1, held, 0, 0, 0, 0, 0}), pit(1));
    CHECK(move.after == board({0, 0, 0, 0, 0, 0, 0}));
    CHECK(move.mover_gain == held + 1);
    CHECK(move.opponent_gain == 0);
  }
}

TEST_CASE("the last bead into an empty pit goes to the opponent", "[board][rules]") {
  // 0 0 2 0 0 0 0, play 3: a bead drops in pit 4, the last reaches empty pit 5.
  const MoveResult move = play(board({0, 0, 2, 0, 0, 0, 0}), pit(3));
  CHECK(move.after == board({0, 0, 0, 1, 0, 0, 0}));
  CHECK(move.mover_gain == 0);
  CHECK(move.opponent_gain == 1);
}

TEST_CASE("the last bead onto a full pit goes to the opponent, and the pit stays full",
          "[board][rules]") {
  // 0 0 0 0 0 1 5, play 6: one bead in hand meets pit 7 holding 5. No skim with the last bead.
  const MoveResult move = play(board({0, 0, 0, 0, 0, 1, 5}), pit(6));
  CHECK(move.after == board({0, 0, 0, 0, 0, 0, 5}));
  CHECK(move.mover_gain == 0);
  CHECK(move.opponent_gain == 1);
}

TEST_CASE("a hand of several beads skims full pits and keeps its beads", "[board][rules]") {
  // 3 5 5 0 0 0 0, play 1: skim 2 (5->4), skim 3 (5->4), drop in 4 and 5,
  // the last bead reaches empty pit 6 and goes to the opponent.
  const MoveResult move = play(board({3, 5, 5, 0, 0, 0, 0}), pit(1));
  CHECK(move.after == board({0, 4, 4, 1, 1, 0, 0}));
  CHECK(move.mover_gain == 2);
  CHECK(move.opponent_gain == 1);
}

TEST_CASE("the sowing wraps from pit 7 to pit 1", "[board][rules]") {
  // 1 0 0 0 0 0 3, play 7: drops in 1 (1->2) and 2 (0->1); the last bead reaches pit 3,
  // which is empty, so it goes to the opponent.
  const MoveResult move = play(board({1, 0, 0, 0, 0, 0, 3}), pit(7));
  CHECK(move.after == board({2, 1, 0, 0, 0, 0, 0}));
  CHECK(move.opponent_gain == 1);
  // 1 0 2 0 0 0 3, play 7: same, but pit 3 holds 2: capture 3.
  const MoveResult capture = play(board({1, 0, 2, 0, 0, 0, 3}), pit(7));
  CHECK(capture.after == board({2, 1, 0, 0, 0, 0, 0}));
  CHECK(capture.mover_gain == 3);
}

TEST_CASE("a move that comes round treats the emptied pit as an ordinary pit", "[board][rules]") {
  // The statement's example: 5 0 0 5 5 0 0, play 1.
  //   pit:  1  2  3  4  5  6  7
  //   hand 5 -> drop 2, drop 3, skim 4, skim 5, drop 6, drop 7, last bead on pit 1 (now 0).
  const MoveResult move = play(board({5, 0, 0, 5, 5, 0, 0}), pit(1));
  CHECK(move.after == board({0, 1, 1, 4, 4, 1, 1}));
  CHECK(move.mover_gain == 2);
  CHECK(move.opponent_gain == 1);

  // Coming round to a pit that received a bead earlier in the same move: 5 5 5 5 5 5 5, play 1.
  // Skims 2..7 (6 beads), then the hand of 5 drops in 1, 2, 3, 4 and the last bead lands on 5
  // (4 beads after its skim): a capture of 5.
  const MoveResult round = play(board({5, 5, 5, 5, 5, 5, 5}), pit(1));
  CHECK(round.after == board({1, 5, 5, 5, 0, 4, 4}));
  CHECK(round.mover_gain == 6 + 5);
  CHECK(round.opponent_gain == 0);
}

TEST_CASE("the statement's worked example, move by move", "[board][rules]") {
  struct Step {
    int label;
    std::vector<int> after;
    int mover_gain, opponent_gain;
  };
  // Banks from the table: 3/0, 3/4, 8/4, 8/9, 10/9, 11/9.
  const std::vector<Step> steps = {
      {2, {4, 0, 3, 5, 0, 3, 2}, 3, 0}, {3, {4, 0, 0, 4, 1, 4, 0}, 4, 0},
      {5, {4, 0, 0, 4, 0, 0, 0}, 5, 0}, {4, {0, 0, 0, 0, 1, 1, 1}, 5, 0},
      {5, {0, 0, 0, 0, 0, 0, 1}, 2, 0}, {7, {0, 0, 0, 0, 0, 0, 0}, 0, 1},
  };
  Board now = board({4, 3, 2, 4, 2, 3, 2});
  for (const Step& step : steps) {
    INFO("play " << step.label << " on " << now);
    const MoveResult move = play(now, pit(step.label));
    CHECK(move.after == board(step.after));
    CHECK(move.mover_gain == step.mover_gain);
    CHECK(move.opponent_gain == step.opponent_gain);
    now = move.after;
  }
}

TEST_CASE("a board's canonical form is its rotation with the smallest code", "[board]") {
  const Board b = board({4, 3, 2, 4, 2, 3, 2});
  Board::Code smallest = b.code();
  for (int steps = 1; steps < kPits; ++steps)
    smallest = std::min(smallest, b.rotated(steps).code());
  CHECK(b.canonical().code() == smallest);
  for (int steps = 0; steps < kPits; ++steps)
    CHECK(b.rotated(steps).canonical() == b.canonical());
  CHECK(Board(Ring::ioi()).canonical() == Board(Ring::ioi()));
}

TEST_CASE("rotating the board rotates the move", "[board][rules]") {
  Random random(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const Board b =
        Board::from_code(static_cast<Board::Code>(random.below(kCodeCount)), Ring::ioi());
    const int steps = random.below(kPits);
    for (Pit p : Board(Ring::ioi()).pits()) {
      if (!b.is_legal(p)) continue;
      const MoveResult straight = play(b, p);
      const MoveResult turned = play(b.rotated(steps), Pit::at_index((p.index() + steps) % kPits));
      REQUIRE(turned.after == straight.after.rotated(steps));
      REQUIRE(turned.mover_gain == straight.mover_gain);
      REQUIRE(turned.opponent_gain == straight.opponent_gain);
    }
  }
}

TEST_CASE("every move on every board agrees with the independent statement of the rules",
          "[board][rules]") {
  for (Board::Code code = 0; code < static_cast<Board::Code>(kCodeCount); ++code) {
    const Board b = Board::from_code(code, Ring::ioi());
    std::vector<int> pits;
    for (Pit p : Board(Ring::ioi()).pits())
      pits.push_back(b.beads(p));
    for (Pit p : Board(Ring::ioi()).pits()) {
      if (!b.is_legal(p)) continue;
      const MoveResult move = play(b, p);
      const reference::Outcome expected = reference::sow(pits, p.label());
      REQUIRE(move.after == board(expected.pits));
      REQUIRE(move.mover_gain == expected.mover);
      REQUIRE(move.opponent_gain == expected.opponent);
    }
  }
}

TEST_CASE("random games conserve beads, lower the count every move, and end", "[board][property]") {
  Random random(2001);
  for (int game = 0; game < 5000; ++game) {
    Board now = Board::from_code(static_cast<Board::Code>(random.below(kCodeCount)), Ring::ioi());
    const int total = now.total();
    int banks = 0;
    int moves = 0;
    while (!now.empty()) {
      std::vector<Pit> legal;
      for (Pit p : Board(Ring::ioi()).pits()) {
        if (now.is_legal(p)) legal.push_back(p);
      }
      REQUIRE_FALSE(legal.empty());  // a non-empty board always has a move
      const MoveResult move = play(now, legal[random.below(static_cast<int>(legal.size()))]);
      REQUIRE(move.after.total() < now.total());
      REQUIRE(move.mover_gain >= 0);
      REQUIRE(move.opponent_gain >= 0);
      banks += move.mover_gain + move.opponent_gain;
      REQUIRE(move.after.total() + banks == total);
      now = move.after;
      REQUIRE(++moves <= kMaxBeads);
    }
  }
}

TEST_CASE("there are 357 IOI starts, 51 up to rotation", "[board]") {
  int starts = 0;
  int classes = 0;
  for (Board::Code code = 0; code < static_cast<Board::Code>(kCodeCount); ++code) {
    const Board b = Board::from_code(code, Ring::ioi());
    if (!b.is_ioi_start()) continue;
    ++starts;
    // Count each class once, at its smallest code.
    bool smallest = true;
    for (int steps = 1; steps < kPits; ++steps)
      smallest &= b.rotated(steps).code() >= code;
    classes += smallest ? 1 : 0;
  }
  CHECK(starts == 357);
  CHECK(classes == 51);
}
