#include <bit>
#include <cstdio>
#include "negamax/negamax.hpp"

struct TicTacToe {  // x moves first; three in a row wins
  struct State {
    unsigned x = 0, o = 0;  // bit i set: square i (0..8, row by row) holds an x / an o
  };
  using Move = int;   // the square
  using Value = int;  // +1 win, 0 draw, -1 loss, for the player to move
  static constexpr auto scoring = negamax::Scoring::win_loss;
  static bool line(unsigned marks) {  // three in a row, a column or a diagonal
    for (unsigned mask : {7u, 56u, 448u, 73u, 146u, 292u, 273u, 84u})
      if ((marks & mask) == mask) return true;
    return false;
  }
  negamax::MoveList<int, 9> moves(const State& s) const {
    negamax::MoveList<int, 9> free;
    for (int i = 0; i < 9 && !line(s.x) && !line(s.o); ++i)
      if (((s.x | s.o) >> i & 1) == 0) free.push_back(i);
    return free;
  }
  negamax::Step<State, int> play(State s, int square) const {  // 0 points: only the end counts
    (std::popcount(s.x) > std::popcount(s.o) ? s.o : s.x) |= 1u << square;
    return {s, 0};
  }
  int terminal_value(const State& s) const {  // a line: the last mover won; else a draw
    return line(s.x) || line(s.o) ? -1 : 0;
  }
  std::size_t key(const State& s) const { return s.x << 9 | s.o; }  // a flat memo: 2^18 entries
  std::size_t key_count() const { return 1 << 18; }
};

int main() {
  negamax::Solver<TicTacToe> solver;
  const auto solved = solver.solve({});
  std::printf("value %d, best square %d, %u plies, %zu positions\n", solved.value, *solved.best,
              solved.remoteness, solver.positions());
}
