#include "end_nim/end_nim.hpp"

#include <algorithm>
#include <cassert>
#include <ostream>
#include <stdexcept>
#include <string>

#include "negamax/fnv.hpp"

namespace puzzles::end_nim {

Outcome outcome_of(bool left_starts_and_wins, bool right_starts_and_wins) {
  if (left_starts_and_wins) return right_starts_and_wins ? Outcome::next : Outcome::left;
  return right_starts_and_wins ? Outcome::right : Outcome::previous;
}

Thresholds thresholds(std::span<const Boxes> w) {
  // shorter[i] holds alpha and beta of the stretch of the current length minus one that starts
  // at heap i; a pass makes them the stretches one heap longer.
  const std::size_t k = w.size();
  std::vector<Thresholds> shorter(k + 1), longer(k + 1);  // length 0: all zero
  for (std::size_t length = 1; length <= k; ++length) {
    for (std::size_t i = 0; i + length <= k; ++i) {
      const Thresholds& without_first = shorter[i + 1];  // w[i+1 .. i+length-1]
      const Thresholds& without_last = shorter[i];       // w[i .. i+length-2]
      const Boxes first = w[i];
      const Boxes last = w[i + length - 1];
      longer[i].alpha =
          first > without_first.beta ? first - without_first.beta + without_first.alpha : 0;
      longer[i].beta =
          last > without_last.alpha ? last - without_last.alpha + without_last.beta : 0;
    }
    std::swap(shorter, longer);
  }
  return shorter[0];
}

Outcome outcome(std::span<const Boxes> row) {
  assert(!row.empty());
  if (row.size() == 1) return Outcome::next;  // the player to move takes the whole heap
  const Boxes x = row.front();
  const Boxes y = row.back();
  const auto [alpha, beta] = thresholds(row.subspan(1, row.size() - 2));
  const bool left_wins_first = y <= alpha || x - beta > y - alpha;
  const bool right_wins_first = x <= beta || y - alpha > x - beta;
  return outcome_of(left_wins_first, right_wins_first);
}

SearchGame::State SearchGame::start(std::span<const Boxes> row, bool left_to_move) {
  if (row.size() > kMaxSearchHeaps) throw std::invalid_argument("end-nim search: too many heaps");
  State state;
  state.count = static_cast<std::uint8_t>(row.size());
  state.left_to_move = left_to_move;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] < 1 || row[i] > kMaxSearchBoxes) {
      throw std::invalid_argument("end-nim search: a heap out of range");
    }
    state.heaps[i] = static_cast<std::uint8_t>(row[i]);
  }
  return state;
}

namespace {

// The heap the player to move takes from: the leftmost for Left, the rightmost for Right (the
// same heap when only one is left).
std::size_t end_heap(const SearchGame::State& state) {
  return state.left_to_move ? 0 : state.count - 1u;
}

}  // namespace

negamax::MoveList<SearchGame::Move, SearchGame::kMaxSearchBoxes> SearchGame::moves(
    const State& state) const {
  negamax::MoveList<Move, kMaxSearchBoxes> takes;
  if (state.count == 0) return takes;
  for (int take = 1; take <= state.heaps[end_heap(state)]; ++take)
    takes.push_back(take);
  return takes;
}

negamax::Step<SearchGame::State, int> SearchGame::play(const State& state, Move take) const {
  State next = state;
  const std::size_t at = end_heap(state);
  next.heaps[at] = static_cast<std::uint8_t>(next.heaps[at] - take);
  if (next.heaps[at] == 0) {
    // The emptied heap leaves the row; the others keep their order from the left.
    std::copy(next.heaps.begin() + static_cast<std::ptrdiff_t>(at) + 1, next.heaps.end(),
              next.heaps.begin() + static_cast<std::ptrdiff_t>(at));
    next.heaps.back() = 0;
    --next.count;
  }
  next.left_to_move = !state.left_to_move;
  return {next, 0};
}

std::size_t SearchGame::hash(const State& state) const {
  negamax::Fnv1a hash;  // over the heaps, the count and the side
  for (std::uint8_t heap : state.heaps)
    hash.add(heap);
  hash.add(state.count);
  hash.add(state.left_to_move ? 1 : 0);
  return static_cast<std::size_t>(hash.value());
}

void solve(LineReader& in, std::ostream& out) {
  Where where{0, 0};
  while (const auto heaps = next_case_size(in, where, kMaxHeaps, "the number of heaps")) {
    const auto sizes_line = in.next();
    if (!sizes_line) where.fail("input ended before the line of heap sizes");
    where.line = in.line();
    const auto sizes = split(*sizes_line);
    const auto count = static_cast<std::size_t>(*heaps);
    if (sizes.size() > count) {
      where.fail(quoted(sizes[count]) + " after the " + std::to_string(count) + " heap sizes");
    }
    if (sizes.size() < count) {
      where.fail("the line has " + std::to_string(sizes.size()) + " of the " +
                 std::to_string(count) + " heap sizes");
    }
    std::vector<Boxes> row;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      row.push_back(number_in(sizes[i], 1, kMaxBoxes, "heap " + std::to_string(i + 1), where));
    }
    answer(out, std::string(1, static_cast<char>(outcome(row))));
  }
}

const Program kProgram{
    "end-nim", "the outcome class of rows of End-Nim for two sides",
    "Input: rows, each a line with the number of heaps n (1 <= n <= 1000) and then a line "
    "with the n heap sizes (1 to 10^9 boxes); a line \"0\" ends the input. Left takes boxes "
    "from the leftmost heap, Right from the rightmost, both from the last heap; a player "
    "who cannot move loses.\n"
    "Output: for each row its outcome class: L (Left wins, whoever starts), R (Right wins, "
    "whoever starts), N (whoever starts wins) or P (whoever starts loses).\n"
    "Example: \"3 2\" -> L, \"2 1 2\" -> P. Answered from the theory (docs/puzzles.md), in "
    "milliseconds for 1000 heaps.\n",
    solve};

}  // namespace puzzles::end_nim
