// Stake your claim: the library's answers against an independent search written here, on the
// samples, on random grids, and at the extremes of one and ten empty squares.
#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "../catch.hpp"
#include "negamax/conformance.hpp"
#include "stake_your_claim/stake_your_claim.hpp"

using namespace puzzles::stake_your_claim;

namespace {

// The largest group of `digit`, counted afresh: repeatedly grow a set of cells until it is
// closed under edge neighbours, from each cell.
int slow_largest_group(const std::vector<std::string>& grid, char digit) {
  const int n = static_cast<int>(grid.size());
  int largest = 0;
  for (int start = 0; start < n * n; ++start) {
    if (grid[static_cast<std::size_t>(start / n)][static_cast<std::size_t>(start % n)] != digit) {
      continue;
    }
    std::vector<bool> in(static_cast<std::size_t>(n * n), false);
    in[static_cast<std::size_t>(start)] = true;
    for (bool grew = true; grew;) {
      grew = false;
      for (int cell = 0; cell < n * n; ++cell) {
        const int r = cell / n, c = cell % n;
        if (in[static_cast<std::size_t>(cell)] ||
            grid[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] != digit) {
          continue;
        }
        const bool touches = (r > 0 && in[static_cast<std::size_t>(cell - n)]) ||
                             (r + 1 < n && in[static_cast<std::size_t>(cell + n)]) ||
                             (c > 0 && in[static_cast<std::size_t>(cell - 1)]) ||
                             (c + 1 < n && in[static_cast<std::size_t>(cell + 1)]);
        if (touches) in[static_cast<std::size_t>(cell)] = grew = true;
      }
    }
    largest = std::max(largest, static_cast<int>(std::count(in.begin(), in.end(), true)));
  }
  return largest;
}

// The best (own - other's) for the player to move on `grid`, by a search memoized in a map of
// whole grids; the player to move follows the spec's rule on the digits' counts.
int slow_value(std::vector<std::string>& grid, std::map<std::vector<std::string>, int>& memo) {
  if (auto found = memo.find(grid); found != memo.end()) return found->second;
  int zeros = 0, ones = 0;
  for (const std::string& row : grid) {
    zeros += static_cast<int>(std::count(row.begin(), row.end(), '0'));
    ones += static_cast<int>(std::count(row.begin(), row.end(), '1'));
  }
  const char me = zeros == ones ? '0' : '1';
  const char other = me == '0' ? '1' : '0';
  int best = -1000;
  bool full = true;
  for (std::string& row : grid) {
    for (char& square : row) {
      if (square != '.') continue;
      full = false;
      square = me;
      best = std::max(best, -slow_value(grid, memo));
      square = '.';
    }
  }
  if (full) best = slow_largest_group(grid, me) - slow_largest_group(grid, other);
  memo.emplace(grid, best);
  return best;
}

// The answer by the slow search: every move's value, and the first best in row-major order.
Answer slow_answer(std::vector<std::string> grid) {
  std::map<std::vector<std::string>, int> memo;
  int zeros = 0, ones = 0;
  for (const std::string& row : grid) {
    zeros += static_cast<int>(std::count(row.begin(), row.end(), '0'));
    ones += static_cast<int>(std::count(row.begin(), row.end(), '1'));
  }
  const char me = zeros == ones ? '0' : '1';
  Answer best{-1, -1, -1000};
  for (std::size_t r = 0; r < grid.size(); ++r) {
    for (std::size_t c = 0; c < grid.size(); ++c) {
      if (grid[r][c] != '.') continue;
      grid[r][c] = me;
      const int value = -slow_value(grid, memo);
      grid[r][c] = '.';
      if (value > best.difference) best = {static_cast<int>(r), static_cast<int>(c), value};
    }
  }
  return best;
}

// A random grid of side n with `empty` empty squares and a legal count of each digit.
std::vector<std::string> random_grid(std::mt19937& random, int n, int empty) {
  std::string cells(static_cast<std::size_t>(n * n), '.');
  std::vector<int> order(cells.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = static_cast<int>(i);
  std::shuffle(order.begin(), order.end(), random);
  const int filled = n * n - empty;
  for (int i = 0; i < filled; ++i)
    cells[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = i % 2 == 0 ? '0' : '1';
  std::vector<std::string> grid;
  for (int r = 0; r < n; ++r)
    grid.push_back(cells.substr(static_cast<std::size_t>(r * n), static_cast<std::size_t>(n)));
  return grid;
}

}  // namespace

TEST_CASE("stake: the samples of the spec", "[stake]") {
  CHECK(solve({"01.1", "00..", ".01.", "...1"}) == Answer{1, 2, 2});
  CHECK(solve({"0.01", "0.01", "1..0", ".1.."}) == Answer{2, 2, -1});
}

TEST_CASE("stake: the largest group joins through edges only", "[stake]") {
  // 0 1 0      the 0 at the top left touches no other 0 (its 0 neighbour is diagonal);
  // 1 0 0      the other five 0s join through edges: the largest group of 0s is 5.
  // 1 0 0      The 1s: one on its own, two joined down the left edge: 2.
  const std::string cells = "010100100";
  CHECK(largest_group(cells, 3, '0') == 5);
  CHECK(largest_group(cells, 3, '1') == 2);
  CHECK(largest_group("0110", 2, '0') == 1);  // a diagonal is not a group
  CHECK(largest_group("0101", 2, '0') == 2);  // a column is
  CHECK(largest_group("1111", 2, '0') == 0);  // no such digit
  CHECK(largest_group("0", 1, '0') == 1);
}

TEST_CASE("stake: the library agrees with an independent search on random grids", "[stake]") {
  std::mt19937 random(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + trial % 8;
    const int empty = 1 + static_cast<int>(random() % static_cast<unsigned>(std::min(n * n, 7)));
    const auto grid = random_grid(random, n, empty);
    INFO("trial " << trial << ": " << n << "x" << n << ", first row " << grid.front());
    REQUIRE(solve(grid) == slow_answer(grid));
  }
}

TEST_CASE("stake: the extremes, one empty square and ten on the largest grid", "[stake]") {
  // One square left: the only move, and the score it makes.
  CHECK(solve({"."}) == Answer{0, 0, 1});         // player 0 writes the only digit: 1 - 0
  CHECK(solve({"01", "0."}) == Answer{1, 1, 0});  // player 1 completes a column: 2 - 2
  std::mt19937 random(10);
  for (int trial = 0; trial < 3; ++trial) {
    const auto grid = random_grid(random, 8, 10);
    INFO("trial " << trial);
    CHECK(solve(grid) == slow_answer(grid));
  }
  // Ties go to the smallest row, then column: on an empty 2x2 every first move is equal.
  CHECK(solve({"..", ".."}) == slow_answer({"..", ".."}));
  CHECK(solve({"..", ".."}).row == 0);
  CHECK(solve({"..", ".."}).column == 0);
}

TEST_CASE("stake-your-claim: the library's conformance check passes on small grids",
          "[stake-your-claim]") {
  const std::vector<std::vector<std::string>> grids = {
      {"01.1", "00..", ".01.", "...1"}, {"0.", ".1"}, {"...", ".0.", "1.."}};
  for (const auto& rows : grids) {
    INFO("grid " << rows.front() << "...");
    negamax::Solver<Game> solver(Game{rows});
    const auto fault = negamax::check_against_plain_recursion(solver, Game::State{});
    REQUIRE_FALSE(fault.has_value());
  }
}
