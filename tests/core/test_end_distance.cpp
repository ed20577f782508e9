// The moves to the end (EndDistance) against the generic negamax's plain search of the same
// rule (Scoring::margin), which knows nothing of the table: on every board of the IOI ring and
// of small rings.
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/end_distance.hpp"
#include "ioiwari/core/negamax_game.hpp"
#include "ioiwari/core/random.hpp"
#include "negamax/conformance.hpp"
#include "negamax/solver.hpp"
#include "support.hpp"

using namespace ioiwari;

namespace {

// Ioiwari where moves of equal value are told apart by their length, as EndDistance tells them.
struct MarginGame : NegamaxGame {
  static constexpr negamax::Scoring scoring = negamax::Scoring::margin;
};
static_assert(negamax::Game<MarginGame>);

// Every board of `ring` (or every `step`th), its moves to the end and its ranked moves.
void check_ring(const Table& table, Ring ring, Board::Code step) {
  EndDistance distance(table);
  negamax::Solver<MarginGame> solver(MarginGame{{ring}});
  for (Board::Code code = 0; code < ring.code_count(); code += step) {
    const Board board = Board::from_code(code, ring);
    INFO("board " << board);
    const auto solution = solver.solve(board);
    REQUIRE(distance.moves(board) == static_cast<int>(solution.remoteness));
    const auto expected = solver.analyze(board);
    const std::vector<MoveOutlook> ranked = distance.rank(board);
    REQUIRE(ranked.size() == expected.size());
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      REQUIRE(ranked[i].pit == expected[i].move);
      REQUIRE(ranked[i].value == expected[i].value);
      REQUIRE(ranked[i].moves == static_cast<int>(expected[i].remoteness));
    }
    // The line is the first ranked move each time, as long as the moves to the end say.
    const std::vector<Pit> line = distance.line(board);
    REQUIRE(static_cast<int>(line.size()) == distance.moves(board));
    if (!line.empty()) REQUIRE(line.front() == *solution.best);
  }
}

}  // namespace

TEST_CASE("the moves to the end equal a plain search's on the IOI ring", "[end_distance]") {
  check_ring(test::table(), Ring::ioi(), 7);
}

TEST_CASE("the moves to the end equal a plain search's on small rings", "[end_distance]") {
  for (const Ring ring : {Ring{3, 9}, Ring{4, 4}, Ring{5, 3}, Ring{6, 2}, Ring{8, 1}}) {
    INFO("ring " << ring.describe());
    const Table table = Table::solve(ring, SolveOptions{});
    check_ring(table, ring, 1);
  }
}

TEST_CASE("the winner ends soonest and the loser lasts longest among moves of equal value",
          "[end_distance]") {
  // On 4 3 2 4 2 3 2, pits 2, 4 and 7 are all worth +2; the ranking puts the quickest first,
  // and there are boards on the way where the value alone leaves a choice of lengths.
  EndDistance distance(test::table());
  Random random(44);
  int choices = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Board board =
        Board::from_code(static_cast<Board::Code>(random.below(kCodeCount)), Ring::ioi());
    const std::vector<MoveOutlook> ranked = distance.rank(board);
    if (ranked.size() < 2 || ranked[0].value != ranked[1].value) continue;
    INFO("board " << board);
    if (ranked[0].moves != ranked[1].moves) ++choices;
    if (ranked[0].value >= 0) {
      CHECK(ranked[0].moves <= ranked[1].moves);
    } else {
      CHECK(ranked[0].moves >= ranked[1].moves);
    }
    CHECK(distance.moves(board) == ranked[0].moves);
  }
  // Enough boards where the rule decides for the check to mean something.
  CHECK(choices > 100);
}
