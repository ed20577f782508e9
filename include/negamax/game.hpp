// What a game gives the memoized negamax solver (solver.hpp), stated as C++20 concepts.
//
// The library knows nothing of any particular game. A game is a class G with
//
//   using State = ...;   a position, the side to move included when it matters (in a
//                        partizan game the players have different moves)
//   using Move  = ...;   one move, as the game's players name it
//   using Value = ...;   a signed arithmetic type: what the player to move can force
//
//   moves(state)           the legal moves, in the game's order (a sized random-access range:
//                          std::vector, std::array, or negamax::MoveList below). Ties between
//                          equally good moves go to the first in this order.
//   play(state, move)      a Step: the next state, and the points the move earns its mover
//                          (0 in a game that scores only at the end)
//   terminal_value(state)  the value, for the player to move, of a state with no move
//
// and one of two memo keys:
//
//   key(state), key_count()   a dense index below a known bound: the memo is a flat table
//   hash(state)               a hash of a State that is equality comparable: a hash map
//
// Optionally `static constexpr negamax::Scoring scoring = Scoring::win_loss;` for a game whose
// values only say who wins (see Scoring). Every move passes the turn to the other player, and
// no sequence of moves may come back to a state (the solver detects a cycle and throws).
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <new>
#include <ranges>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace negamax {

// Plies from a state to the end of the game (see solver.hpp for which line is counted).
using Remoteness = std::uint32_t;

// How the solver breaks ties between moves of equal value, and so how it counts remoteness.
enum class Scoring {
  // The value is a score (a margin of points, a difference of territory). Moves of equal value
  // are equal: the first in the game's order is best, and the remoteness is counted along that
  // move's line.
  points,
  // The value only says who wins (+1 win, -1 loss, 0 draw for the player to move). Among moves
  // of equal value a winner prefers the quickest win and a loser the slowest loss, so the
  // remoteness is that of a game in which the winner hurries and the loser delays.
  win_loss,
  // The value is a margin, as in points, and among moves of equal value the length decides as
  // in win_loss: the player a move leaves ahead (value above 0) prefers the quickest end, the
  // one it leaves behind the slowest, and a level one the quickest: the length a student asks
  // for beside a margin.
  margin,
};

// What a move does: the state after it, and the points it earns the player who made it.
template <class State, class Value>
struct Step {
  State next;
  Value points{};
};

// A list of at most `Capacity` moves held inline, for games that know the most moves a state
// can have: no allocation per state searched. Moves must be trivially copyable values; they
// need no default constructor (no slot is filled until push_back). A move beyond `Capacity` is
// a bug in the game: push_back throws std::length_error, in every build, instead of writing
// past the list.
template <class Move, std::size_t Capacity>
class MoveList {
  static_assert(std::is_trivially_copyable_v<Move> && std::is_trivially_destructible_v<Move>);

 public:
  void push_back(const Move& move) {
    if (size_ == Capacity) {
      throw std::length_error("negamax: a MoveList of " + std::to_string(Capacity) +
                              " moves is full: the game gives a state more moves than it said");
    }
    std::construct_at(reinterpret_cast<Move*>(bytes_) + size_++, move);
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move& operator[](std::size_t i) const { return begin()[i]; }
  const Move* begin() const { return std::launder(reinterpret_cast<const Move*>(bytes_)); }
  const Move* end() const { return begin() + size_; }

 private:
  alignas(Move) std::byte bytes_[Capacity * sizeof(Move)];
  std::size_t size_ = 0;
};

// A range of moves the solver can keep and walk by index while it searches a state's children.
template <class Range, class Move>
concept MoveRange = std::ranges::random_access_range<Range> && std::ranges::sized_range<Range> &&
    std::convertible_to<std::ranges::range_reference_t<const Range&>, Move>;

// The part of a game every solver needs: moves, their effect, and the value at the end.
template <class G>
concept Rules = requires(const G& game, const typename G::State& state,
                         const typename G::Move& move) {
  typename G::State;
  typename G::Move;
  typename G::Value;
  requires std::is_arithmetic_v<typename G::Value> && std::is_signed_v<typename G::Value>;
  requires std::copyable<typename G::State> && std::copyable<typename G::Move>;
  { game.moves(state) } -> MoveRange<typename G::Move>;
  { game.play(state, move) } -> std::same_as<Step<typename G::State, typename G::Value>>;
  { game.terminal_value(state) } -> std::convertible_to<typename G::Value>;
};

// A game whose states number below key_count(), each with its own key: the memo is a table.
template <class G>
concept DenseKeyed = requires(const G& game, const typename G::State& state) {
  { game.key(state) } -> std::convertible_to<std::size_t>;
  { game.key_count() } -> std::convertible_to<std::size_t>;
};

// A game whose states are hashed and compared: the memo is a hash map.
template <class G>
concept Hashed = std::equality_comparable<typename G::State> &&
    requires(const G& game, const typename G::State& state) {
  { game.hash(state) } -> std::convertible_to<std::size_t>;
};

// Everything the solver needs: the rules and one of the two memo keys. A game that offers both
// keys gets the flat table.
template <class G>
concept Game = Rules<G> &&(DenseKeyed<G> || Hashed<G>);

// Checks that G is a game, one requirement at a time: a game that misses one is told which, by
// name, in the first error the compiler prints. Solver runs it; a game's author may run it too:
// static_assert(negamax::check_game<MyGame>());
template <class G>
consteval bool check_game() {
  constexpr bool state = requires {
    typename G::State;
  };
  constexpr bool move = requires {
    typename G::Move;
  };
  constexpr bool value = requires {
    typename G::Value;
  };
  static_assert(state, "negamax: the game needs `using State = ...;`, a position");
  static_assert(move, "negamax: the game needs `using Move = ...;`, one move");
  static_assert(value, "negamax: the game needs `using Value = ...;`, what a player can force");
  if constexpr (state && move && value) {
    using State = typename G::State;
    using Move = typename G::Move;
    using Value = typename G::Value;
    static_assert(std::is_arithmetic_v<Value> && std::is_signed_v<Value>,
                  "negamax: the game's Value must be a signed arithmetic type");
    static_assert(std::copyable<State>, "negamax: the game's State must be copyable");
    static_assert(std::copyable<Move>, "negamax: the game's Move must be copyable");
    constexpr bool moves = requires(const G& game, const State& s) {
      game.moves(s);
    };
    static_assert(moves, "negamax: the game needs `moves(const State&) const`, the legal moves");
    if constexpr (moves) {
      using Moves = decltype(std::declval<const G&>().moves(std::declval<const State&>()));
      static_assert(MoveRange<Moves, Move>,
                    "negamax: moves(state) must return a sized random-access range of Move "
                    "(std::vector, std::array, negamax::MoveList)");
    }
    static_assert(
        requires(const G& game, const State& s, const Move& m) { game.play(s, m); },
        "negamax: the game needs `play(const State&, const Move&) const`");
    if constexpr (requires(const G& game, const State& s, const Move& m) { game.play(s, m); }) {
      static_assert(std::same_as<decltype(std::declval<const G&>().play(
                                     std::declval<const State&>(), std::declval<const Move&>())),
                                 Step<State, Value>>,
                    "negamax: play(state, move) must return negamax::Step<State, Value>");
    }
    static_assert(
        requires(const G& game, const State& s) {
          { game.terminal_value(s) } -> std::convertible_to<Value>;
        },
        "negamax: the game needs `terminal_value(const State&) const`, the value of a state "
        "with no move");
    constexpr bool key = requires(const G& game, const State& s) {
      { game.key(s) } -> std::convertible_to<std::size_t>;
    };
    constexpr bool key_count = requires(const G& game) {
      { game.key_count() } -> std::convertible_to<std::size_t>;
    };
    constexpr bool hash = requires(const G& game, const State& s) {
      { game.hash(s) } -> std::convertible_to<std::size_t>;
    };
    static_assert(key || hash,
                  "negamax: the game needs a memo key: `key(const State&) const` with "
                  "`key_count() const` (a flat table), or `hash(const State&) const` (a hash map)");
    static_assert(!key || key_count || hash,
                  "negamax: the game has key(state) but no `key_count() const`, the bound of its "
                  "keys");
    static_assert(!hash || key || std::equality_comparable<State>,
                  "negamax: the game has hash(state), so State needs `operator==`");
  }
  return true;
}

// The scoring a game declares, or Scoring::points when it declares none.
template <class G>
constexpr Scoring scoring_of() {
  if constexpr (requires { G::scoring; }) {
    return G::scoring;
  } else {
    return Scoring::points;
  }
}

}  // namespace negamax
