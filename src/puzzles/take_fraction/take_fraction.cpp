#include "take_fraction/take_fraction.hpp"

#include <ostream>
#include <string>

namespace puzzles::take_fraction {

// Why the lost positions are what they are. From r >= m a move reaches exactly the positions
// f(r) = r - floor(r/m) .. r-1, and f never decreases and grows by at most 1 from r to r+1.
// A position is lost when none of those is lost. So after a lost position p the next one is the
// smallest r with f(r) > p, which is r = p + floor(p/(m-1)) + 1; every position in between can
// eat down to p, and no two lost positions lie in one reach (the higher would reach the lower).
//
// With d = m-1 and p = s*d + t (0 <= t < d), a step adds s+1 to p. The walk below keeps s and t
// instead of dividing at every step:
// - while s+1 < d, the step stays s+1 until t passes d: those steps are taken together;
// - while s+1 = a*d + b with a < d, one step is a few additions: t gains b (and may carry into
//   s), s gains a (plus the carry), and b gains the same, carrying into a;
// - beyond that (p >= about d^3, reached only when d is small) the plain step, with a division.
Grains largest_lost_below(Grains n, Grains m) {
  const Grains d = m - 1;
  if (n <= m) return n - 1;  // every position below m is lost: there is no move
  Grains p = d, s = 1, t = 0;
  while (s + 1 < d) {
    const Grains step = s + 1;
    const Grains to_carry = (d - t + step - 1) / step;  // steps until t reaches d
    const Grains room = (n - 1 - p) / step;             // steps that stay below n
    if (room < to_carry) return p + room * step;
    p += to_carry * step;
    t = t + to_carry * step - d;
    s += 1;
  }
  Grains a = (s + 1) / d, b = (s + 1) % d;
  while (a < d) {
    if (p + s + 1 >= n) return p;
    p += s + 1;
    const Grains carry = t + b >= d ? 1 : 0;
    t = t + b - carry * d;
    s += a + carry;
    b += a + carry;
    if (b >= d) {
      b -= d;
      ++a;
    }
  }
  for (;;) {
    const Grains next = p + p / d + 1;
    if (next >= n) return p;
    p = next;
  }
}

Grains largest_lost_below_plainly(Grains n, Grains m) {
  if (n <= m) return n - 1;
  Grains p = m - 1;
  for (;;) {
    const Grains next = p + p / (m - 1) + 1;
    if (next >= n) return p;
    p = next;
  }
}

std::optional<Grains> winning_move(Grains n, Grains m) {
  if (n < m) return std::nullopt;  // no move at all
  const Grains lost = largest_lost_below(n, m);
  if (lost < n - n / m) return std::nullopt;  // out of reach: n is lost itself
  return n - lost;
}

std::vector<Grains> SearchGame::moves(Grains r) const {
  std::vector<Grains> eat;
  for (Grains k = 1; k <= r / m; ++k)
    eat.push_back(k);
  return eat;
}

void solve(LineReader& in, std::ostream& out) {
  Where where{0, 0};
  while (const auto line = in.next_nonblank()) {
    where = {where.case_number + 1, in.line()};
    const auto words = split(*line);
    if (words.size() < 2) where.fail("m is missing after n " + quoted(words[0]));
    if (words.size() > 2) where.fail(quoted(words[2]) + " after n and m");
    const auto n =
        static_cast<Grains>(number_in(words[0], 1, static_cast<long long>(kMaxGrains), "n", where));
    const auto m = static_cast<Grains>(number_in(words[1], static_cast<long long>(kMinDivisor),
                                                 static_cast<long long>(kMaxDivisor), "m", where));
    const auto move = winning_move(n, m);
    answer(out, move ? std::to_string(*move) : "-1");
  }
}

const Program kProgram{
    "take-fraction", "the winning move of Take a fraction, or -1",
    "Input: lines \"n m\" (1 <= n <= 10^18, 2 <= m <= 10^6) to the end of input; blank "
    "lines are skipped. n grains lie on the table; a move eats 1 to floor(r/m) of the r "
    "grains left, and a player who cannot move loses.\n"
    "Output: for each line, the grains the player to move must eat to win (there is never "
    "more than one winning move), or -1 when every move loses.\n"
    "Example: \"8 2\" -> 1, \"7 2\" -> -1. Answered from the theory of the lost positions, in "
    "well under a second per line for any n and m.\n",
    solve};

}  // namespace puzzles::take_fraction
