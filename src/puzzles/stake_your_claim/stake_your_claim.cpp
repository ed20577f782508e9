#include "stake_your_claim/stake_your_claim.hpp"

#include <algorithm>
#include <ostream>
#include <utility>

#include "negamax/solver.hpp"

namespace puzzles::stake_your_claim {

Game::Game(std::vector<std::string> rows) : side_(static_cast<int>(rows.size())) {
  for (const std::string& row : rows)
    cells_ += row;
  for (int cell = 0; cell < static_cast<int>(cells_.size()); ++cell) {
    if (cells_[static_cast<std::size_t>(cell)] == kEmpty) empties_.push_back(cell);
  }
  power_.push_back(1);
  for (std::size_t i = 0; i < empties_.size(); ++i)
    power_.push_back(power_.back() * 3);
  const auto zeros = std::count(cells_.begin(), cells_.end(), '0');
  const auto ones = std::count(cells_.begin(), cells_.end(), '1');
  first_mover_ = zeros == ones ? '0' : '1';
}

char Game::mover(const State& state) const {
  const bool first = state.filled % 2 == 0;
  return first == (first_mover_ == '0') ? '0' : '1';
}

negamax::MoveList<Game::Move, kMaxEmpty> Game::moves(const State& state) const {
  negamax::MoveList<Move, kMaxEmpty> empty;
  for (std::size_t i = 0; i < empties_.size(); ++i) {
    if (state.code / power_[i] % 3 == 0) empty.push_back(static_cast<Move>(i));
  }
  return empty;
}

negamax::Step<Game::State, int> Game::play(const State& state, Move empty) const {
  const std::uint32_t digit = mover(state) == '0' ? 1 : 2;
  return {State{state.code + digit * power_[empty], static_cast<std::uint8_t>(state.filled + 1)},
          0};
}

int Game::terminal_value(const State& state) const {
  std::string full = cells_;
  for (std::size_t i = 0; i < empties_.size(); ++i) {
    const std::uint32_t digit = state.code / power_[i] % 3;
    full[static_cast<std::size_t>(empties_[i])] = digit == 1 ? '0' : '1';
  }
  const char me = mover(state);
  const char other = me == '0' ? '1' : '0';
  return largest_group(full, side_, me) - largest_group(full, side_, other);
}

std::size_t Game::key_count() const {
  return power_.back();
}

int largest_group(const std::string& cells, int side, char digit) {
  std::vector<bool> seen(cells.size(), false);
  std::vector<int> stack;
  int largest = 0;
  for (int start = 0; start < static_cast<int>(cells.size()); ++start) {
    if (cells[static_cast<std::size_t>(start)] != digit || seen[static_cast<std::size_t>(start)]) {
      continue;
    }
    int size = 0;
    seen[static_cast<std::size_t>(start)] = true;
    stack.push_back(start);
    while (!stack.empty()) {
      const int cell = stack.back();
      stack.pop_back();
      ++size;
      const int row = cell / side, column = cell % side;
      const std::pair<int, int> neighbours[] = {
          {row - 1, column}, {row + 1, column}, {row, column - 1}, {row, column + 1}};
      for (const auto& [r, c] : neighbours) {
        if (r < 0 || r >= side || c < 0 || c >= side) continue;
        const auto next = static_cast<std::size_t>(r * side + c);
        if (cells[next] == digit && !seen[next]) {
          seen[next] = true;
          stack.push_back(static_cast<int>(next));
        }
      }
    }
    largest = std::max(largest, size);
  }
  return largest;
}

Answer solve(const std::vector<std::string>& rows) {
  negamax::Solver<Game> solver{Game(rows)};
  const auto solution = solver.solve(Game::State{});
  const Game& game = solver.game();
  return {game.row_of(*solution.best), game.column_of(*solution.best), solution.value};
}

namespace {

// Reads and checks the `side` rows of one grid.
std::vector<std::string> read_grid(LineReader& in, Where& where, int side) {
  const Where header = where;
  std::vector<std::string> rows;
  long long zeros = 0, ones = 0, empty = 0;
  for (int r = 1; r <= side; ++r) {
    const auto line = in.next();
    if (!line) {
      where.fail("input ended after " + std::to_string(r - 1) + " of the " + std::to_string(side) +
                 " rows");
    }
    where.line = in.line();
    const std::string_view row = trim(*line);
    const std::string name = "row " + std::to_string(r) + " " + quoted(row);
    if (row.size() != static_cast<std::size_t>(side)) {
      where.fail(name + " has " + std::to_string(row.size()) + " squares, " + std::to_string(side) +
                 " expected");
    }
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (row[c] != '0' && row[c] != '1' && row[c] != kEmpty) {
        where.fail(name + ": square " + std::to_string(c + 1) + " is " + quoted(row.substr(c, 1)) +
                   ", not 0, 1 or .");
      }
    }
    zeros += std::count(row.begin(), row.end(), '0');
    ones += std::count(row.begin(), row.end(), '1');
    empty += std::count(row.begin(), row.end(), kEmpty);
    rows.emplace_back(row);
  }
  if (empty < 1 || empty > kMaxEmpty) {
    header.fail("the grid has " + std::to_string(empty) + " empty squares, 1 to " +
                std::to_string(kMaxEmpty) + " expected");
  }
  if (zeros != ones && zeros != ones + 1) {
    header.fail("the grid has " + std::to_string(zeros) + " 0s and " + std::to_string(ones) +
                " 1s: player 0 has as many digits as player 1, or one more");
  }
  return rows;
}

}  // namespace

void solve(LineReader& in, std::ostream& out) {
  Where where{0, 0};
  while (const auto side = next_case_size(in, where, kMaxSide, "the size n")) {
    const Answer best = solve(read_grid(in, where, static_cast<int>(*side)));
    std::string line = "(";  // appended: GCC 12 warns falsely (-Wrestrict) on "(" + std::string
    line.append(std::to_string(best.row)).append(",").append(std::to_string(best.column));
    line.append(") ").append(std::to_string(best.difference));
    answer(out, line);
  }
}

const Program kProgram{
    "stake-your-claim", "the best move and forced difference in Stake your claim",
    "Input: grids, each a line with n (1 <= n <= 8) and then n rows of n squares, each "
    "0, 1 or . (empty), with 1 to 10 empty squares and as many 0s as 1s or one more; a "
    "line \"0\" ends the input. Player 0 moves when the digits are equally many, else "
    "player 1. On the full grid a player scores their largest group of equal digits "
    "joined through edges; each plays for (own score - other's).\n"
    "Output: for each grid \"(r,c) s\": the best move for the player to move (0-based row "
    "and column; among equal moves the smallest row, then column) and the difference "
    "that player can force. Solved by the generic memoized negamax.\n",
    solve};

}  // namespace puzzles::stake_your_claim
