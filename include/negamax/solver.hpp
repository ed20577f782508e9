// Memoized negamax over any game that meets negamax::Game (game.hpp).
//
// The value of a state, for the player to move, is
//   terminal_value(state)                                  when it has no move,
//   max over its moves m of  points(m) - value(next(m))    otherwise,
// and every state is searched once: its value and remoteness are kept in the memo. The search
// is a depth-first walk on an explicit stack, so the length of a game is limited by memory,
// not by the call stack. It is a full search (no pruning): once a state is solved, so is every
// state it can reach, which is what lets analyze() list every move's exact value.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "negamax/game.hpp"
#include "negamax/memo.hpp"

namespace negamax {

// A legal move with what it is worth to its mover under perfect play afterwards, and the plies
// from the state before it to the end of the game (the move itself included).
template <Game G>
struct MoveValue {
  typename G::Move move;
  typename G::Value value;
  Remoteness remoteness;
};

// What a state is worth to the player to move, how many plies perfect play has left, and the
// move that achieves both (nothing when the state has no move).
template <Game G>
struct Solution {
  typename G::Value value;
  Remoteness remoteness;
  std::optional<typename G::Move> best;
};

// Whether a move worth `value` with `remoteness` plies to go is strictly better for its mover
// than one worth `other_value` with `other_remoteness`. A higher value is better. In a
// win_loss or margin game, between equal values, a win is better sooner, a loss later, a draw
// sooner.
// Equal moves are not better than each other: the first in the game's order stays best.
template <Scoring scoring, class Value>
constexpr bool better(Value value, Remoteness remoteness, Value other_value,
                      Remoteness other_remoteness) {
  if (value != other_value) return value > other_value;
  if constexpr (scoring != Scoring::points) {
    return value < 0 ? remoteness > other_remoteness : remoteness < other_remoteness;
  } else {
    return false;
  }
}

template <class G>
class Solver {
  static_assert(check_game<G>());

 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using Value = typename G::Value;
  static constexpr Scoring scoring = scoring_of<G>();

  explicit Solver(G game = G{}) : game_(std::move(game)), memo_(game_) {}
  // The memo refers to the game inside the solver: a solver stays where it was made.
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  const G& game() const { return game_; }

  // The value of `state` for the player to move. Solves it, and every state it can reach, if
  // that has not been done yet.
  Value value(const State& state) { return search(state).value; }

  // The value of `state`, its remoteness and its best move. The remoteness is the number of
  // plies to the end when both players keep to best moves: along the first best move in a
  // points game, along the quickest win or the slowest loss in a win_loss game (see Scoring).
  // The best move is the first move in the game's order that achieves both.
  Solution<G> solve(const State& state) {
    const Slot entry = search(state);
    Solution<G> solution{entry.value, entry.remoteness, std::nullopt};
    Value best_value{};
    Remoteness best_remoteness = 0;
    for (const auto& move : game_.moves(state)) {
      const auto [value, remoteness] = rate(state, move);
      if (!solution.best || better<scoring>(value, remoteness, best_value, best_remoteness)) {
        solution.best = move;
        best_value = value;
        best_remoteness = remoteness;
      }
    }
    return solution;
  }

  // Every legal move of `state` with its value and remoteness, best first as better() orders
  // them; equally good moves keep the game's order.
  std::vector<MoveValue<G>> analyze(const State& state) {
    search(state);
    std::vector<MoveValue<G>> moves;
    for (const auto& move : game_.moves(state)) {
      const auto [value, remoteness] = rate(state, move);
      moves.push_back(MoveValue<G>{move, value, remoteness});
    }
    std::stable_sort(moves.begin(), moves.end(), [](const MoveValue<G>& a, const MoveValue<G>& b) {
      return better<scoring>(a.value, a.remoteness, b.value, b.remoteness);
    });
    return moves;
  }

  // How many states the solver has evaluated so far: each is searched once, then remembered.
  std::size_t positions() const { return positions_; }

 private:
  using Slot = Entry<Value>;
  using Moves =
      std::remove_cvref_t<decltype(std::declval<const G&>().moves(std::declval<const State&>()))>;

  // One state on the path from the root to the state being searched.
  struct Frame {
    State state;
    Moves moves;
    Slot* slot;            // the state's memo entry, marked as being searched
    std::size_t next = 0;  // the move searched next
    Value pending{};       // the points of moves[next], whose next state is searched above
    bool any = false;      // whether best holds a move yet
    Value best{};          // the best so far, as better() orders moves
    Remoteness best_remoteness = 0;
  };

  // The value and remoteness of `move` from the solved `state`, for its mover.
  std::pair<Value, Remoteness> rate(const State& state, const Move& move) {
    const Step<State, Value> step = game_.play(state, move);
    const Slot& next = memo_[step.next];
    return {static_cast<Value>(step.points - next.value), next.remoteness + 1};
  }

  static void fold(Frame& frame, Value points, const Slot& next) {
    const auto value = static_cast<Value>(points - next.value);
    const Remoteness remoteness = next.remoteness + 1;
    if (!frame.any || better<scoring>(value, remoteness, frame.best, frame.best_remoteness)) {
      frame.any = true;
      frame.best = value;
      frame.best_remoteness = remoteness;
    }
  }

  void push(const State& state, Slot& slot) {
    slot.remoteness = Slot::kSearching;
    Moves moves = game_.moves(state);
    stack_.push_back(Frame{state, std::move(moves), &slot});
  }

  // The solved entry of `state`: found in the memo, or searched depth first. Throws
  // std::logic_error when a move leads back to a state whose search is under way (the game
  // has a cycle); then, and when the game itself throws, the memo is left as it was before the
  // call, except for the states solved meanwhile, which are solved correctly.
  Slot search(const State& root) {
    Slot& root_slot = memo_[root];
    if (root_slot.solved()) return root_slot;
    try {
      push(root, root_slot);
      for (;;) {
        Frame* top = &stack_.back();
        // Fold in the moves whose next states are solved; descend into the first that is not.
        bool descended = false;
        while (top->next < std::ranges::size(top->moves)) {
          Step<State, Value> step = game_.play(top->state, top->moves[top->next]);
          Slot& slot = memo_[step.next];
          if (slot.solved()) {
            fold(*top, step.points, slot);
            ++top->next;
            continue;
          }
          if (slot.searching()) {
            throw std::logic_error(
                "negamax: a move leads back to a state being searched: "
                "the game has a cycle");
          }
          top->pending = step.points;
          push(step.next, slot);  // may move the stack: `top` is not used again
          descended = true;
          break;
        }
        if (descended) continue;
        // Every move is folded in: the state is solved.
        Frame& done = stack_.back();
        if (done.any) {
          done.slot->value = done.best;
          done.slot->remoteness = done.best_remoteness;
        } else {
          done.slot->value = static_cast<Value>(game_.terminal_value(done.state));
          done.slot->remoteness = 0;
        }
        ++positions_;
        const Slot& solved = *done.slot;
        stack_.pop_back();
        if (stack_.empty()) return solved;
        Frame& parent = stack_.back();
        fold(parent, parent.pending, solved);
        ++parent.next;
      }
    } catch (...) {
      for (Frame& frame : stack_)
        frame.slot->remoteness = Slot::kUnseen;
      stack_.clear();
      throw;
    }
  }

  G game_;
  MemoFor<G> memo_;
  std::vector<Frame> stack_;  // kept between searches, so that its memory is reused
  std::size_t positions_ = 0;
};

}  // namespace negamax
