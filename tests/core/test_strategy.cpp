// The opponents' strategies choose legal moves of the kind they promise, reproducibly.
#include <set>

#include "catch.hpp"
#include "ioiwari/core/strategy.hpp"
#include "support.hpp"

using namespace ioiwari;
using ioiwari::test::perfect_moves;
using ioiwari::test::table;

namespace {}  // namespace

TEST_CASE("strategies are named both ways", "[strategy]") {
  for (Strategy strategy : kAllStrategies)
    CHECK(strategy_named(name(strategy)) == strategy);
  CHECK_FALSE(strategy_named("perfect"));
}

TEST_CASE("each strategy picks a legal move of the promised kind", "[strategy]") {
  Random random(11);
  for (int trial = 0; trial < 3000; ++trial) {
    const auto code = static_cast<Board::Code>(1 + random.below(kCodeCount - 1));
    const Board board = Board::from_code(code, Ring::ioi());
    int best = -kMaxBeads - 1, worst = kMaxBeads + 1, greediest = -kMaxBeads - 1;
    for (Pit pit : Board(Ring::ioi()).pits()) {
      if (!board.is_legal(pit)) continue;
      best = std::max(best, table().move_value(board, pit));
      worst = std::min(worst, table().move_value(board, pit));
      greediest = std::max(greediest, play(board, pit).net());
    }
    for (Strategy strategy : kAllStrategies) {
      const Pit pit = choose_move(strategy, board, table(), random);
      REQUIRE(board.is_legal(pit));
      if (strategy == Strategy::optimal) REQUIRE(table().move_value(board, pit) == best);
      if (strategy == Strategy::weakest) REQUIRE(table().move_value(board, pit) == worst);
      if (strategy == Strategy::greedy) REQUIRE(play(board, pit).net() == greediest);
    }
  }
}

TEST_CASE("ties are drawn at random, and the same seed draws the same", "[strategy]") {
  // 1 1 1 1 1 1 1: the random strategy must reach every pit, the same way for the same seed.
  const Board board = *Board::from_counts(std::vector{1, 1, 1, 1, 1, 1, 1}, Ring::ioi());
  std::set<int> seen;
  Random a(5), b(5);
  for (int i = 0; i < 200; ++i) {
    const Pit pit = choose_move(Strategy::random, board, table(), a);
    REQUIRE(pit == choose_move(Strategy::random, board, table(), b));
    seen.insert(pit.label());
  }
  CHECK(seen.size() == static_cast<std::size_t>(kPits));
}
