// Twins' noughts and crosses: the library's totals against a plain minimax over every order of
// play, written here without memo.
#include <array>
#include <random>

#include "../catch.hpp"
#include "negamax/conformance.hpp"
#include "twins_noughts_crosses/twins_noughts_crosses.hpp"

using namespace puzzles::twins_noughts_crosses;

namespace {

// The first player's total with perfect play from `grid` (0 empty, 1 o, 2 x), by plain
// minimax: the first player maximises it, the second minimises it.
int plain_first_total(const Weights& weights, std::array<int, 9>& grid, int written) {
  if (written == 9) {
    int first = 0;
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        if (r < 2 && grid[r * 3 + c] == grid[(r + 1) * 3 + c]) first += weights.vertical[r][c];
        if (c < 2 && grid[r * 3 + c] == grid[r * 3 + c + 1]) first += weights.horizontal[r][c];
      }
    }
    return first;
  }
  const bool first_moves = written % 2 == 0;
  int best = first_moves ? -1 : 1 << 20;
  for (int& square : grid) {
    if (square != 0) continue;
    square = first_moves ? 1 : 2;
    const int total = plain_first_total(weights, grid, written + 1);
    square = 0;
    best = first_moves ? std::max(best, total) : std::min(best, total);
  }
  return best;
}

Weights weights_of(std::array<int, 6> b, std::array<int, 6> c) {
  Weights weights;
  for (int i = 0; i < 6; ++i) {
    weights.vertical[static_cast<std::size_t>(i / 3)][static_cast<std::size_t>(i % 3)] =
        b[static_cast<std::size_t>(i)];
    weights.horizontal[static_cast<std::size_t>(i / 2)][static_cast<std::size_t>(i % 2)] =
        c[static_cast<std::size_t>(i)];
  }
  return weights;
}

}  // namespace

TEST_CASE("twins: the samples of the spec", "[twins]") {
  const Totals one = solve(weights_of({0, 15, 0, 0, 0, 25}, {20, 10, 0, 0, 25, 0}));
  CHECK(one.first == 15);
  CHECK(one.second == 80);
  const Totals two = solve(weights_of({18, 22, 15, 11, 16, 17}, {4, 25, 22, 15, 10, 4}));
  CHECK(two.first == 72);
  CHECK(two.second == 107);
}

TEST_CASE("twins: all-zero weights pay nobody", "[twins]") {
  const Totals totals = solve(Weights{});
  CHECK(totals.first == 0);
  CHECK(totals.second == 0);
}

TEST_CASE("twins: the library agrees with plain minimax over every order of play", "[twins]") {
  std::mt19937 random(9);
  for (int trial = 0; trial < 6; ++trial) {
    std::array<int, 6> b{}, c{};
    for (int& weight : b)
      weight = static_cast<int>(random() % 101);
    for (int& weight : c)
      weight = static_cast<int>(random() % 101);
    if (trial == 0) c = {100, 100, 100, 100, 100, 100};  // the largest weights
    const Weights weights = weights_of(b, c);
    std::array<int, 9> grid{};
    const Totals totals = solve(weights);
    INFO("trial " << trial);
    CHECK(totals.first == plain_first_total(weights, grid, 0));
    CHECK(totals.first + totals.second == weights.total());
  }
}

TEST_CASE("twins-noughts-crosses: the library's conformance check passes from the empty grid",
          "[twins-noughts-crosses]") {
  std::mt19937 random(2001);
  for (int trial = 0; trial < 2; ++trial) {
    Game game;
    for (auto& row : game.weights.vertical)
      for (int& weight : row)
        weight = static_cast<int>(random() % (kMaxWeight + 1));
    for (auto& row : game.weights.horizontal)
      for (int& weight : row)
        weight = static_cast<int>(random() % (kMaxWeight + 1));
    INFO("trial " << trial);
    negamax::Solver<Game> solver(game);
    const auto fault = negamax::check_against_plain_recursion(solver, Game::State{});
    REQUIRE_FALSE(fault.has_value());
  }
}
