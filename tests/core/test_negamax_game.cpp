// Ioiwari as a game of the generic memoized negamax (include/negamax): the library solves every
// board on its own and must agree with the fast table everywhere.
#include "catch.hpp"
#include "ioiwari/core/match.hpp"
#include "ioiwari/core/negamax_game.hpp"
#include "ioiwari/core/random.hpp"
#include "negamax/conformance.hpp"
#include "negamax/solver.hpp"
#include "support.hpp"

using namespace ioiwari;
using ioiwari::test::table;

static_assert(negamax::Game<NegamaxGame>);
static_assert(negamax::DenseKeyed<NegamaxGame>);

TEST_CASE("the generic negamax agrees with the table on every one of the 6^7 boards", "[negamax]") {
  negamax::Solver<NegamaxGame> solver(NegamaxGame{Ring::ioi()});
  for (Board::Code code = 0; code < static_cast<Board::Code>(kCodeCount); ++code) {
    const Board board = Board::from_code(code, Ring::ioi());
    INFO("board " << board);
    const auto solution = solver.solve(board);
    REQUIRE(solution.value == table().value(board));
    // Ties go to the first move in the game's order, the lowest label, as in the table.
    REQUIRE(solution.best == table().best_move(board));
  }
  // Every board was evaluated once: the library knows no rotation classes.
  CHECK(solver.positions() == static_cast<std::size_t>(kCodeCount));
}

TEST_CASE("the generic negamax's remoteness is the length of the table's best line", "[negamax]") {
  negamax::Solver<NegamaxGame> solver(NegamaxGame{Ring::ioi()});
  Random random(2001);
  for (int trial = 0; trial < 2000; ++trial) {
    const Board board =
        Board::from_code(static_cast<Board::Code>(random.below(kCodeCount)), Ring::ioi());
    Match line(board);
    while (!line.over())
      line.play(*table().best_move(line.board()));
    INFO("board " << board);
    REQUIRE(solver.solve(board).remoteness == line.history().size());
    // analyze() lists the same moves and values as the table's, in the same order.
    const auto moves = solver.analyze(board);
    const auto expected = table().analyze(board);
    REQUIRE(moves.size() == expected.size());
    for (std::size_t i = 0; i < moves.size(); ++i) {
      REQUIRE(moves[i].move == expected[i].pit);
      REQUIRE(moves[i].value == expected[i].value);
    }
  }
}

TEST_CASE("the library's conformance check passes on random boards of up to 6 beads", "[negamax]") {
  negamax::Solver<NegamaxGame> solver(NegamaxGame{Ring::ioi()});
  Random random(7);
  int checked = 0;
  for (Board::Code code = 0; code < static_cast<Board::Code>(kCodeCount) && checked < 300;
       code += static_cast<Board::Code>(1 + random.below(13))) {
    const Board board = Board::from_code(code, Ring::ioi());
    if (board.total() > 6) continue;
    INFO("board " << board);
    const auto fault = negamax::check_against_plain_recursion(solver, board);
    REQUIRE_FALSE(fault.has_value());
    ++checked;
  }
  CHECK(checked > 200);
}
