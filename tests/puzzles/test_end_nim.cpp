// End-Nim for two sides: the theory against the library's exhaustive search.
#include <random>
#include <vector>

#include "../catch.hpp"
#include "end_nim/end_nim.hpp"
#include "negamax/conformance.hpp"
#include "negamax/solver.hpp"

using namespace puzzles::end_nim;

namespace {

// The outcome class of `row` by exhaustive search: who wins with Left to move, and with Right.
Outcome searched(negamax::Solver<SearchGame>& solver, const std::vector<Boxes>& row) {
  const bool left_wins = solver.value(SearchGame::start(row, true)) == 1;
  const bool right_wins = solver.value(SearchGame::start(row, false)) == 1;
  return outcome_of(left_wins, right_wins);
}

char letter(Outcome outcome) {
  return static_cast<char>(outcome);
}

// Calls visit(row) for every row of 1..max_heaps heaps of 1..max_boxes boxes.
template <class Visit>
void for_each_row(int max_heaps, int max_boxes, Visit&& visit) {
  for (int heaps = 1; heaps <= max_heaps; ++heaps) {
    std::vector<Boxes> row(static_cast<std::size_t>(heaps), 1);
    for (;;) {
      visit(row);
      std::size_t i = 0;
      while (i < row.size() && row[i] == max_boxes)
        row[i++] = 1;
      if (i == row.size()) break;
      ++row[i];
    }
  }
}

}  // namespace

TEST_CASE("end-nim: the samples of the spec", "[end-nim]") {
  const std::vector<std::pair<std::vector<Boxes>, char>> samples = {
      {{5}, 'N'},       {{1, 1}, 'P'},    {{3, 2}, 'L'},   {{2, 3}, 'R'},
      {{3, 5, 2}, 'N'}, {{2, 1, 2}, 'P'}, {{1, 2, 1}, 'N'}};
  negamax::Solver<SearchGame> solver;
  for (const auto& [row, expected] : samples) {
    CHECK(letter(outcome(row)) == expected);
    CHECK(letter(searched(solver, row)) == expected);
  }
}

TEST_CASE(
    "end-nim: the theory agrees with exhaustive search on every row of up to 6 heaps of "
    "up to 6 boxes",
    "[end-nim]") {
  negamax::Solver<SearchGame> solver;
  int rows = 0;
  std::array<int, 128> classes{};
  for_each_row(6, 6, [&](const std::vector<Boxes>& row) {
    const Outcome expected = searched(solver, row);
    INFO("row of " << row.size() << " heaps, first " << row.front() << ", last " << row.back());
    REQUIRE(letter(outcome(row)) == letter(expected));
    ++rows;
    ++classes[static_cast<std::size_t>(letter(expected))];
  });
  CHECK(rows == 6 + 36 + 216 + 1296 + 7776 + 46656);
  // Every class occurs, so no comparison above could pass by always answering one letter.
  for (char c : {'L', 'R', 'N', 'P'})
    CHECK(classes[static_cast<std::size_t>(c)] > 1000);
}

TEST_CASE(
    "end-nim: the theory agrees with exhaustive search on random rows of up to 8 heaps of "
    "up to 12 boxes",
    "[end-nim]") {
  std::mt19937 random(2001);
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<Boxes> row(1 + random() % 8);
    for (Boxes& heap : row)
      heap = 1 + static_cast<Boxes>(random() % 12);
    negamax::Solver<SearchGame> solver;  // a fresh memo a row keeps memory small
    INFO("trial " << trial);
    REQUIRE(letter(outcome(row)) == letter(searched(solver, row)));
  }
}

TEST_CASE("end-nim: alpha and beta are the thresholds the search finds", "[end-nim]") {
  // alpha(w): the largest y with Right to move losing on w y; beta(w): the largest x with Left
  // to move losing on x w. Searched for every y (and x) up to a bound past any threshold.
  negamax::Solver<SearchGame> solver;
  for_each_row(4, 5, [&](const std::vector<Boxes>& w) {
    const Thresholds expected = thresholds(w);
    Boxes alpha = 0, beta = 0;
    for (Boxes end = 1; end <= 30; ++end) {
      std::vector<Boxes> right = w, left = w;
      right.push_back(end);
      left.insert(left.begin(), end);
      if (solver.value(SearchGame::start(right, false)) == -1) alpha = end;
      if (solver.value(SearchGame::start(left, true)) == -1) beta = end;
    }
    INFO("w of " << w.size() << " heaps, first " << w.front());
    REQUIRE(expected.alpha == alpha);
    REQUIRE(expected.beta == beta);
  });
}

TEST_CASE("end-nim: the extremes: one heap, and 1000 heaps of 10^9", "[end-nim]") {
  CHECK(outcome(std::vector<Boxes>{1}) == Outcome::next);
  CHECK(outcome(std::vector<Boxes>{kMaxBoxes}) == Outcome::next);
  // Equal heaps: the thresholds of a stretch of c's are c, 0, c, 0, ... by its length, so a
  // row of an even number of them is P and of an odd number N (a small case searched below).
  std::vector<Boxes> row(kMaxHeaps, kMaxBoxes);
  CHECK(outcome(row) == Outcome::previous);
  row.pop_back();
  CHECK(outcome(row) == Outcome::next);
  negamax::Solver<SearchGame> solver;
  CHECK(searched(solver, {7, 7, 7, 7, 7, 7}) == Outcome::previous);
  CHECK(searched(solver, {7, 7, 7, 7, 7}) == Outcome::next);
  // One box more at either end decides it: the thresholds stay within 64 bits at the extremes.
  std::vector<Boxes> tilted(kMaxHeaps, kMaxBoxes);
  tilted.front() = kMaxBoxes;
  tilted.back() = kMaxBoxes - 1;
  CHECK(outcome(tilted) == Outcome::left);
  CHECK(searched(solver, {7, 7, 7, 7, 7, 6}) == Outcome::left);
}

TEST_CASE("end-nim: the library's conformance check passes on small rows, either side to move",
          "[end-nim]") {
  negamax::Solver<SearchGame> solver;
  const std::vector<std::vector<Boxes>> rows = {{1},    {4},       {1, 1},    {3, 2},
                                                {2, 3}, {2, 1, 2}, {3, 1, 2}, {1, 2, 1, 1}};
  for (const auto& row : rows) {
    for (const bool left : {true, false}) {
      INFO("row of " << row.size() << " heaps, " << (left ? "Left" : "Right") << " to move");
      const auto fault =
          negamax::check_against_plain_recursion(solver, SearchGame::start(row, left));
      REQUIRE_FALSE(fault.has_value());
    }
  }
}
