// A hashed game whose State cannot be compared: the compiler must say so by name.
#include "negamax/negamax.hpp"

struct Position {
  int beads;
};

struct NoEquality {
  using State = Position;
  using Move = int;
  using Value = int;
  negamax::MoveList<int, 1> moves(const Position&) const { return {}; }
  negamax::Step<Position, int> play(const Position& state, int) const { return {state, 0}; }
  int terminal_value(const Position&) const { return 0; }
  std::size_t hash(const Position& state) const { return static_cast<std::size_t>(state.beads); }
};

int main() {
  negamax::Solver<NoEquality> solver;
  return solver.value(Position{0});
}
