// The library's conformance check, offered to every game: what Solver says of a state against a
// plain recursion over every line of play from it, without memo, with the rules of value and of
// ties stated afresh here. A game runs it on states small enough for a search without memo; it
// catches a game whose rules the memo cannot hold (moves or points that depend on anything but
// the state, a key or hash that two different states share) and any fault of the solver.
#pragma once

#include <concepts>
#include <cstddef>
#include <optional>
#include <ranges>
#include <string>
#include <vector>

#include "negamax/game.hpp"
#include "negamax/solver.hpp"

namespace negamax {

// What the plain recursion finds of a state: its value, its remoteness, and its best move's
// place in the game's order of its moves (nothing when it has no move).
template <Game G>
struct PlainSolution {
  typename G::Value value{};
  Remoteness remoteness = 0;
  std::optional<std::size_t> best;
};

// The value of `state` by plain recursion: without a move, the game's terminal value; else the
// best over its moves of points - value(next), the highest value first, then (in a win_loss
// or margin game) the quickest win, the slowest loss and the quickest draw, then the first move.
template <Game G>
PlainSolution<G> plain_solve(const G& game, const typename G::State& state) {
  constexpr bool by_length = scoring_of<G>() != Scoring::points;
  const auto moves = game.moves(state);
  PlainSolution<G> best;
  if (std::ranges::size(moves) == 0) {
    best.value = game.terminal_value(state);
    return best;
  }
  for (std::size_t at = 0; at < std::ranges::size(moves); ++at) {
    const auto step = game.play(state, moves[at]);
    const PlainSolution<G> next = plain_solve(game, step.next);
    const auto value = static_cast<typename G::Value>(step.points - next.value);
    const Remoteness remoteness = next.remoteness + 1;
    bool take = !best.best || value > best.value;
    if (!take && by_length && value == best.value) {
      take = value < 0 ? remoteness > best.remoteness : remoteness < best.remoteness;
    }
    if (take) best = {value, remoteness, at};
  }
  return best;
}

// Checks what `solver` says of `state` (its value, remoteness and best move, and every move's
// value and remoteness, best first, equal moves in the game's order) against plain_solve().
// Returns the first disagreement, said in words, or nothing.
template <Game G>
requires std::equality_comparable<typename G::Move> std::optional<std::string>
check_against_plain_recursion(Solver<G>& solver, const typename G::State& state) {
  const G& game = solver.game();
  const auto text = [](auto number) { return std::to_string(number); };
  const PlainSolution<G> expected = plain_solve(game, state);
  const Solution<G> solution = solver.solve(state);
  if (solution.value != expected.value) {
    return "the value is " + text(solution.value) + ", not " + text(expected.value);
  }
  if (solution.remoteness != expected.remoteness) {
    return "the remoteness is " + text(solution.remoteness) + ", not " + text(expected.remoteness);
  }
  const auto moves = game.moves(state);
  const auto place = [&](const typename G::Move& move) -> std::optional<std::size_t> {
    for (std::size_t at = 0; at < std::ranges::size(moves); ++at) {
      if (moves[at] == move) return at;
    }
    return std::nullopt;
  };
  if ((solution.best ? place(*solution.best) : std::nullopt) != expected.best) {
    return expected.best
               ? "the best move is not move " + text(*expected.best + 1) + " in the game's order"
               : std::string("a state with no move has a best move");
  }
  // Every move, rated afresh, in the order analyze() must give: best first, stable.
  struct Rated {
    std::size_t place;
    typename G::Value value;
    Remoteness remoteness;
  };
  std::vector<Rated> rated;
  for (std::size_t at = 0; at < std::ranges::size(moves); ++at) {
    const auto step = game.play(state, moves[at]);
    const PlainSolution<G> next = plain_solve(game, step.next);
    rated.push_back(
        {at, static_cast<typename G::Value>(step.points - next.value), next.remoteness + 1});
  }
  std::ranges::stable_sort(rated, [](const Rated& a, const Rated& b) {
    return better<scoring_of<G>()>(a.value, a.remoteness, b.value, b.remoteness);
  });
  const std::vector<MoveValue<G>> analysis = solver.analyze(state);
  if (analysis.size() != rated.size()) {
    return "analyze() lists " + text(analysis.size()) + " moves, not " + text(rated.size());
  }
  for (std::size_t i = 0; i < rated.size(); ++i) {
    const std::string which = "analyze()'s move " + text(i + 1);
    if (place(analysis[i].move) != rated[i].place) {
      return which + " is not move " + text(rated[i].place + 1) + " in the game's order";
    }
    if (analysis[i].value != rated[i].value) {
      return which + " is worth " + text(analysis[i].value) + ", not " + text(rated[i].value);
    }
    if (analysis[i].remoteness != rated[i].remoteness) {
      return which + " has the remoteness " + text(analysis[i].remoteness) + ", not " +
             text(rated[i].remoteness);
    }
  }
  return std::nullopt;
}

}  // namespace negamax
