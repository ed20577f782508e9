// A game that forgot its Value type: the compiler must say so by name.
#include "negamax/negamax.hpp"

struct NoValue {
  using State = int;
  using Move = int;
  negamax::MoveList<int, 1> moves(int) const { return {}; }
  int terminal_value(int) const { return 0; }
  std::size_t key(int state) const { return static_cast<std::size_t>(state); }
  std::size_t key_count() const { return 1; }
};

int main() {
  negamax::Solver<NoValue> solver;
  return 0;
}
