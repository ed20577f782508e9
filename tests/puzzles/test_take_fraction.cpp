// Take a fraction: the theory of the lost positions against the library's plain search, and
// the fast walk against the plain recurrence.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>

#include "../catch.hpp"
#include "../support/sanitized.hpp"
#include "negamax/conformance.hpp"
#include "negamax/solver.hpp"
#include "take_fraction/take_fraction.hpp"

using namespace puzzles::take_fraction;

TEST_CASE("take-fraction: the samples of the spec", "[take-fraction]") {
  CHECK(winning_move(7, 2) == std::nullopt);
  CHECK(winning_move(8, 2) == 1);
  CHECK(winning_move(10, 3) == 3);
  CHECK(winning_move(7, 3) == std::nullopt);
  CHECK(winning_move(12, 4) == 2);
  CHECK(winning_move(10, 4) == std::nullopt);
}

TEST_CASE("take-fraction: the theory agrees with plain search for every n <= 5000, m <= 12",
          "[take-fraction]") {
  // Under the sanitizers, n <= 1000.
  constexpr Grains kMax = ioiwari::test::kSanitized ? 1000 : 5000;
  for (Grains m = 2; m <= 12; ++m) {
    negamax::Solver<SearchGame> solver(SearchGame{m, kMax});
    Grains last_lost = 0;  // the largest lost position below n that the search found
    // 55,000 positions: each checked without Catch's macros, which cost more than the check
    // (under the sanitizers, most of the test), and the first that disagrees reported whole.
    for (Grains n = 1; n <= kMax; ++n) {
      const auto solution = solver.solve(n);
      const auto move = winning_move(n, m);
      // There is never more than one winning move.
      const auto moves = solver.analyze(n);
      const auto winning = std::count_if(moves.begin(), moves.end(),
                                         [](const auto& entry) { return entry.value == 1; });
      // The lost positions are the theory's: the largest below n is the one it names.
      const Grains named = largest_lost_below(n, m);
      if ((solution.value == 1) != move.has_value() || (move && solution.best != *move) ||
          winning != (move ? 1 : 0) || named != last_lost) {
        FAIL("n " << n << ", m " << m << ": search " << solution.value << " (best "
                  << (solution.best ? std::to_string(*solution.best) : std::string("none")) << ", "
                  << winning << " winning moves), theory "
                  << (move ? "wins with " + std::to_string(*move) : std::string("loses"))
                  << "; lost below: search " << last_lost << ", theory " << named);
      }
      if (solution.value == -1) last_lost = n;
    }
    CHECK(solver.positions() == kMax);  // 1..kMax: no move leaves 0 grains
  }
}

TEST_CASE("take-fraction: with m = 2 the lost positions are 2^k - 1, up to 10^18",
          "[take-fraction]") {
  for (int k = 1; k < 60; ++k) {
    const Grains lost = (Grains{1} << k) - 1;
    INFO("k " << k);
    CHECK(winning_move(lost, 2) == std::nullopt);
    CHECK(winning_move(lost + 1, 2) == 1);
    if (k > 1) CHECK(winning_move(lost - 1, 2) == (Grains{1} << (k - 1)) - 1);
  }
  // n = 10^18: the lost position below it is 2^59 - 1, and half of n reaches it.
  CHECK(winning_move(kMaxGrains, 2) == kMaxGrains - ((Grains{1} << 59) - 1));
  CHECK(winning_move(1, 2) == std::nullopt);
}

TEST_CASE("take-fraction: the fast walk finds the plain recurrence's lost positions",
          "[take-fraction]") {
  for (Grains m = 2; m <= 200; ++m) {
    for (Grains n = 1; n <= 3000; n += 1 + n / 50) {
      INFO("n " << n << ", m " << m);
      REQUIRE(largest_lost_below(n, m) == largest_lost_below_plainly(n, m));
    }
  }
  // Random m of three sizes, n over every order of magnitude: small m up to n = 2^60, where the
  // walk ends in plain steps (past (m-1)^3); middling m up to 2^50, through all three stretches;
  // large m, whose plain walk is long, fewer times, through the first two.
  std::mt19937_64 random(18);
  struct Sizes {
    Grains largest_m;
    int largest_bits;
    int trials;
  };
  for (const Sizes sizes : {Sizes{11, 60, 300}, Sizes{3001, 50, 300}, Sizes{kMaxDivisor, 50, 30}}) {
    for (int trial = 0; trial < sizes.trials; ++trial) {
      const Grains m = 2 + random() % (sizes.largest_m - 1);
      const Grains n = 1 + random() % (Grains{1} << (random() % sizes.largest_bits));
      INFO("n " << n << ", m " << m);
      REQUIRE(largest_lost_below(n, m) == largest_lost_below_plainly(n, m));
    }
  }
}

TEST_CASE("take-fraction: the extremes n = 10^18 with m = 2 and m = 10^6", "[take-fraction]") {
  for (Grains m : {Grains{2}, Grains{3}, Grains{999'999}, kMaxDivisor}) {
    INFO("m " << m);
    const Grains lost = largest_lost_below(kMaxGrains, m);
    CHECK(lost == largest_lost_below_plainly(kMaxGrains, m));
    const auto move = winning_move(kMaxGrains, m);
    if (move) {
      CHECK(*move == kMaxGrains - lost);
      CHECK(*move <= kMaxGrains / m);
      CHECK(winning_move(kMaxGrains - *move, m) == std::nullopt);
    } else {
      CHECK(kMaxGrains - lost > kMaxGrains / m);
    }
  }
  // Below m there is no move at all.
  CHECK(winning_move(kMaxDivisor - 1, kMaxDivisor) == std::nullopt);
  CHECK(winning_move(kMaxDivisor, kMaxDivisor) == 1);
}

TEST_CASE("take-fraction: the library's conformance check passes on every position up to 24",
          "[take-fraction]") {
  // Under the sanitizers, up to 20.
  constexpr Grains kMax = ioiwari::test::kSanitized ? 20 : 24;
  for (Grains m = 2; m <= 5; ++m) {
    negamax::Solver<SearchGame> solver(SearchGame{m, kMax});
    for (Grains n = 0; n <= kMax; ++n) {
      INFO("n " << n << ", m " << m);
      const auto fault = negamax::check_against_plain_recursion(solver, n);
      REQUIRE_FALSE(fault.has_value());
    }
  }
}
