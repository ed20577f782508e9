#include "twins_noughts_crosses/twins_noughts_crosses.hpp"

#include <ostream>
#include <string>

#include "negamax/solver.hpp"

namespace puzzles::twins_noughts_crosses {

namespace {

// kPower[i] is 3^i: the weight of square i's digit in a state's code.
constexpr std::array<int, kSquares + 1> kPower = [] {
  std::array<int, kSquares + 1> power{};
  power[0] = 1;
  for (int i = 1; i <= kSquares; ++i)
    power[i] = power[i - 1] * 3;
  return power;
}();

int letter_at(int code, int row, int column) {
  return code / kPower[row * kSide + column] % 3;
}

}  // namespace

int Weights::total() const {
  int sum = 0;
  for (const auto& row : vertical)
    for (int weight : row)
      sum += weight;
  for (const auto& row : horizontal)
    for (int weight : row)
      sum += weight;
  return sum;
}

negamax::MoveList<Game::Move, kSquares> Game::moves(const State& state) const {
  negamax::MoveList<Move, kSquares> squares;
  for (int square = 0; square < kSquares; ++square) {
    if (state.code / kPower[square] % 3 == 0) squares.push_back(square);
  }
  return squares;
}

negamax::Step<Game::State, int> Game::play(const State& state, Move square) const {
  const int letter = state.written % 2 == 0 ? 1 : 2;  // o for the first player, x for the second
  return {State{static_cast<std::uint16_t>(state.code + letter * kPower[square]),
                static_cast<std::uint8_t>(state.written + 1)},
          0};
}

int Game::terminal_value(const State& state) const {
  int first = 0;  // the weights of pairs with equal letters
  for (int r = 0; r < kSide; ++r) {
    for (int c = 0; c < kSide; ++c) {
      const int letter = letter_at(state.code, r, c);
      if (r + 1 < kSide && letter == letter_at(state.code, r + 1, c))
        first += weights.vertical[r][c];
      if (c + 1 < kSide && letter == letter_at(state.code, r, c + 1)) {
        first += weights.horizontal[r][c];
      }
    }
  }
  const int second = weights.total() - first;
  const bool first_to_move = state.written % 2 == 0;
  return first_to_move ? first - second : second - first;
}

std::size_t Game::key_count() const {
  return static_cast<std::size_t>(kPower[kSquares]);
}

Totals solve(const Weights& weights) {
  negamax::Solver<Game> solver(Game{weights});
  const int margin = solver.value(Game::State{});  // first - second, the first player to move
  const int total = weights.total();
  return {(total + margin) / 2, (total - margin) / 2};
}

namespace {

// Reads one line of `count` weights into `weights`; `name` says which line it is in messages.
void read_weights(LineReader& in, Where& where, const std::optional<std::string>& line,
                  int* weights, int count, const std::string& name) {
  if (!line) where.fail("input ended before " + name);
  where.line = in.line();
  const auto words = split(*line);
  if (words.size() > static_cast<std::size_t>(count)) {
    where.fail(quoted(words[static_cast<std::size_t>(count)]) + " after the " +
               std::to_string(count) + " weights of " + name);
  }
  if (words.size() < static_cast<std::size_t>(count)) {
    where.fail(name + " has " + std::to_string(words.size()) + " of its " + std::to_string(count) +
               " weights");
  }
  for (int i = 0; i < count; ++i) {
    weights[i] = static_cast<int>(number_in(words[static_cast<std::size_t>(i)], 0, kMaxWeight,
                                            name + " weight " + std::to_string(i + 1), where));
  }
}

}  // namespace

void solve(LineReader& in, std::ostream& out) {
  Where where{0, 0};
  for (;;) {
    auto first_line = in.next_nonblank();
    if (!first_line && where.case_number > 0) return;  // every case answered
    ++where.case_number;
    where.line = in.line();
    Weights weights;
    for (int i = 0; i < kSide - 1; ++i) {
      read_weights(in, where, i == 0 ? first_line : in.next(), weights.vertical[i].data(), kSide,
                   "b row " + std::to_string(i + 1));
    }
    for (int i = 0; i < kSide; ++i) {
      read_weights(in, where, in.next(), weights.horizontal[i].data(), kSide - 1,
                   "c row " + std::to_string(i + 1));
    }
    const Totals totals = solve(weights);
    answer(out, std::to_string(totals.first) + "\n" + std::to_string(totals.second));
  }
}

const Program kProgram{
    "twins-noughts-crosses", "both totals of Twins' noughts and crosses with perfect play",
    "Input: two lines of three weights b (b[i][j] pays for squares (i,j) and (i+1,j)), "
    "then three lines of two weights c (c[i][j] pays for squares (i,j) and (i,j+1)), all "
    "0 to 100. Several such cases may follow each other; blank lines between cases are "
    "skipped. The first player writes o, the second x, until the grid is full; a pair pays "
    "the first player when its letters match, else the second.\n"
    "Output: for each case the first player's total, then the second's, each on a line.\n"
    "Example: \"0 15 0 / 0 0 25 / 20 10 / 0 0 / 25 0\" -> 15 and 80. Solved by the "
    "generic memoized negamax over the 3^9 grids.\n",
    solve};

}  // namespace puzzles::twins_noughts_crosses
