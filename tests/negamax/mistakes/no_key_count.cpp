// A game whose memo key has no bound: the compiler must say so by name.
#include "negamax/negamax.hpp"

struct NoKeyCount {
  using State = int;
  using Move = int;
  using Value = int;
  negamax::MoveList<int, 1> moves(int) const { return {}; }
  negamax::Step<int, int> play(int state, int) const { return {state, 0}; }
  int terminal_value(int) const { return 0; }
  std::size_t key(int state) const { return static_cast<std::size_t>(state); }
};

int main() {
  negamax::Solver<NoKeyCount> solver;
  return solver.value(0);
}
