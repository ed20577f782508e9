// The generic memoized negamax (include/negamax), on small games written here: checked against
// a plain recursion without memo, on closed forms, and on its edges (depth, cycles, errors).
// Nothing here knows Ioiwari: this program links the library alone.
#include <cstdint>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "../catch.hpp"
#include "negamax/negamax.hpp"

namespace {

// A game on an explicit graph: node i's moves go to targets[i] (in that order) and earn
// points[i]; a node with no move is worth terminal[i] to its mover. Dense key or hash.
struct Graph {
  std::vector<std::vector<int>> targets;
  std::vector<std::vector<int>> points;
  std::vector<int> terminal;
};

template <negamax::Scoring kScoring, bool kDense>
struct GraphGame {
  using State = int;
  using Move = int;  // the index of the edge
  using Value = int;
  static constexpr negamax::Scoring scoring = kScoring;

  const Graph* graph;

  std::vector<int> moves(int node) const {
    std::vector<int> edges;
    for (std::size_t e = 0; e < graph->targets[static_cast<std::size_t>(node)].size(); ++e)
      edges.push_back(static_cast<int>(e));
    return edges;
  }
  negamax::Step<int, int> play(int node, int edge) const {
    const auto n = static_cast<std::size_t>(node), e = static_cast<std::size_t>(edge);
    return {graph->targets[n][e], graph->points[n][e]};
  }
  int terminal_value(int node) const { return graph->terminal[static_cast<std::size_t>(node)]; }
  std::size_t key(int node) const requires kDense { return static_cast<std::size_t>(node); }
  std::size_t key_count() const requires kDense { return graph->targets.size(); }
  std::size_t hash(int node) const requires(!kDense) {
    return static_cast<std::size_t>(node) * 0x9e3779b97f4a7c15ULL;
  }
};

static_assert(negamax::Game<GraphGame<negamax::Scoring::points, true>>);
static_assert(negamax::Game<GraphGame<negamax::Scoring::points, false>>);
static_assert(negamax::DenseKeyed<GraphGame<negamax::Scoring::points, true>>);
static_assert(!negamax::DenseKeyed<GraphGame<negamax::Scoring::points, false>>);

// What a plain recursion finds: the value, the remoteness, and the best edge (-1: none).
struct Plain {
  int value;
  unsigned remoteness;
  int best;
};

// Negamax by plain recursion over every path, without memo, with the tie rules stated afresh:
// the highest value; then, in a win/loss or margin game (by_length), the quickest win, the
// slowest loss, the quickest draw; then the first edge.
Plain plain(const Graph& graph, int node, bool by_length) {
  const auto n = static_cast<std::size_t>(node);
  if (graph.targets[n].empty()) return {graph.terminal[n], 0, -1};
  Plain best{0, 0, -1};
  for (std::size_t e = 0; e < graph.targets[n].size(); ++e) {
    const Plain next = plain(graph, graph.targets[n][e], by_length);
    const int value = graph.points[n][e] - next.value;
    const unsigned remoteness = next.remoteness + 1;
    bool take = best.best < 0 || value > best.value;
    if (!take && value == best.value && by_length) {
      take = value < 0 ? remoteness > best.remoteness : remoteness < best.remoteness;
    }
    if (take) best = {value, remoteness, static_cast<int>(e)};
  }
  return best;
}

// A random game graph on `nodes` nodes whose edges all go to higher nodes (so it has no cycle).
// Win/loss graphs earn no points and end in -1, 0 or +1.
Graph random_graph(std::mt19937& random, int nodes, bool win_loss) {
  Graph graph;
  graph.targets.resize(static_cast<std::size_t>(nodes));
  graph.points.resize(static_cast<std::size_t>(nodes));
  for (int node = 0; node < nodes; ++node) {
    const auto n = static_cast<std::size_t>(node);
    const int edges = node + 1 < nodes ? static_cast<int>(random() % 4) : 0;
    for (int e = 0; e < edges; ++e) {
      const int target =
          node + 1 +
          static_cast<int>(random() % static_cast<unsigned>(std::min(4, nodes - node - 1)));
      graph.targets[n].push_back(target);
      graph.points[n].push_back(win_loss ? 0 : static_cast<int>(random() % 7) - 3);
    }
    graph.terminal.push_back(win_loss ? static_cast<int>(random() % 3) - 1
                                      : static_cast<int>(random() % 9) - 4);
  }
  return graph;
}

template <negamax::Scoring kScoring, bool kDense>
void check_against_plain_recursion(unsigned seed) {
  const bool win_loss = kScoring == negamax::Scoring::win_loss;
  const bool by_length = kScoring != negamax::Scoring::points;
  std::mt19937 random(seed);
  for (int trial = 0; trial < 300; ++trial) {
    const Graph graph = random_graph(random, 2 + trial % 18, win_loss);
    negamax::Solver<GraphGame<kScoring, kDense>> solver({&graph});
    for (int node = static_cast<int>(graph.targets.size()) - 1; node >= 0; --node) {
      INFO("trial " << trial << ", node " << node);
      const Plain expected = plain(graph, node, by_length);
      const auto solution = solver.solve(node);
      REQUIRE(solution.value == expected.value);
      REQUIRE(solution.remoteness == expected.remoteness);
      REQUIRE(solution.best.value_or(-1) == expected.best);
      // Every move's own value and remoteness, best first.
      const auto moves = solver.analyze(node);
      REQUIRE(moves.size() == graph.targets[static_cast<std::size_t>(node)].size());
      for (std::size_t i = 0; i < moves.size(); ++i) {
        const auto e = static_cast<std::size_t>(moves[i].move);
        const Plain next =
            plain(graph, graph.targets[static_cast<std::size_t>(node)][e], by_length);
        REQUIRE(moves[i].value == graph.points[static_cast<std::size_t>(node)][e] - next.value);
        REQUIRE(moves[i].remoteness == next.remoteness + 1);
        if (i > 0) {
          REQUIRE_FALSE(negamax::better<kScoring>(moves[i].value, moves[i].remoteness,
                                                  moves[i - 1].value, moves[i - 1].remoteness));
          if (!negamax::better<kScoring>(moves[i - 1].value, moves[i - 1].remoteness,
                                         moves[i].value, moves[i].remoteness)) {
            REQUIRE(moves[i - 1].move < moves[i].move);  // equal moves keep the game's order
          }
        }
      }
      if (!moves.empty()) REQUIRE(moves.front().move == *solution.best);
      // The library's own conformance check, which games run, agrees.
      REQUIRE_FALSE(negamax::check_against_plain_recursion(solver, node).has_value());
    }
    // Every node was searched exactly once, however many roots asked for it.
    REQUIRE(solver.positions() == graph.targets.size());
  }
}

// A game the memo cannot hold: a move's points grow each time it is played, so the solver's
// remembered values and a fresh search disagree. The conformance check must say so.
struct Fickle {
  using State = int;
  using Move = int;
  using Value = int;
  mutable int played = 0;

  std::vector<int> moves(int n) const { return n == 0 ? std::vector<int>{} : std::vector{1}; }
  negamax::Step<int, int> play(int n, int take) const { return {n - take, ++played}; }
  int terminal_value(int /*n*/) const { return 0; }
  std::size_t key(int n) const { return static_cast<std::size_t>(n); }
  std::size_t key_count() const { return 8; }
};

// Take 1 to kMost from a pile; whoever takes the last wins.
template <int kMost, bool kDense = true>
struct Subtraction {
  using State = long;
  using Move = long;
  using Value = int;
  static constexpr negamax::Scoring scoring = negamax::Scoring::win_loss;
  long max = 100;

  negamax::MoveList<long, kMost> moves(long n) const {
    negamax::MoveList<long, kMost> takes;
    for (long take = 1; take <= kMost && take <= n; ++take)
      takes.push_back(take);
    return takes;
  }
  negamax::Step<long, int> play(long n, long take) const { return {n - take, 0}; }
  int terminal_value(long /*n*/) const { return -1; }
  std::size_t key(long n) const requires kDense { return static_cast<std::size_t>(n); }
  std::size_t key_count() const requires kDense { return static_cast<std::size_t>(max) + 1; }
  std::size_t hash(long n) const requires(!kDense) { return std::hash<long>{}(n); }
};

}  // namespace

TEST_CASE("points games agree with a plain recursion on random graphs, dense key", "[negamax]") {
  check_against_plain_recursion<negamax::Scoring::points, true>(1);
}

TEST_CASE("points games agree with a plain recursion on random graphs, hashed", "[negamax]") {
  check_against_plain_recursion<negamax::Scoring::points, false>(2);
}

TEST_CASE("win/loss games agree with a plain recursion on random graphs, dense key", "[negamax]") {
  check_against_plain_recursion<negamax::Scoring::win_loss, true>(3);
}

TEST_CASE("win/loss games agree with a plain recursion on random graphs, hashed", "[negamax]") {
  check_against_plain_recursion<negamax::Scoring::win_loss, false>(4);
}

TEST_CASE("margin games agree with a plain recursion on random graphs, dense key", "[negamax]") {
  check_against_plain_recursion<negamax::Scoring::margin, true>(5);
}

TEST_CASE("margin games agree with a plain recursion on random graphs, hashed", "[negamax]") {
  check_against_plain_recursion<negamax::Scoring::margin, false>(6);
}

TEST_CASE("take 1 to 3: the multiples of 4 are lost, the winner hurries, the loser delays",
          "[negamax]") {
  negamax::Solver<Subtraction<3>> dense;
  negamax::Solver<Subtraction<3, false>> hashed;
  for (long n = 100; n >= 0; --n) {
    INFO("pile " << n);
    const auto solution = dense.solve(n);
    // A loser takes 1 each turn and the winner answers with 3: two plies a round of four.
    const auto rounds = static_cast<negamax::Remoteness>(n / 4);
    if (n % 4 == 0) {
      CHECK(solution.value == -1);
      CHECK(solution.remoteness == 2 * rounds);
      CHECK(solution.best == (n == 0 ? std::nullopt : std::optional<long>(1)));
    } else {
      CHECK(solution.value == 1);
      CHECK(solution.remoteness == 2 * rounds + 1);
      CHECK(solution.best == n % 4);
    }
    const auto same = hashed.solve(n);
    CHECK(same.value == solution.value);
    CHECK(same.remoteness == solution.remoteness);
    CHECK(same.best == solution.best);
  }
  CHECK(dense.positions() == 101);
  CHECK(hashed.positions() == 101);
}

TEST_CASE("a state with no move has its terminal value, remoteness 0 and no best move",
          "[negamax]") {
  negamax::Solver<Subtraction<3>> solver;
  const auto solution = solver.solve(0);
  CHECK(solution.value == -1);
  CHECK(solution.remoteness == 0);
  CHECK_FALSE(solution.best);
  CHECK(solver.analyze(0).empty());
  CHECK(solver.positions() == 1);
}

TEST_CASE("the depth of a game is not limited by the call stack", "[negamax]") {
  // Take 1 or 2: a pile of a million is a million plies deep when the loser delays. A
  // recursive search would need a million frames; the explicit stack needs memory only.
  constexpr long kPile = 1'000'000;
  negamax::Solver<Subtraction<2>> solver(Subtraction<2>{kPile});
  const auto lost = solver.solve(kPile - 1);  // 999,999 = 3 * 333,333: lost
  CHECK(lost.value == -1);
  CHECK(lost.remoteness == 2 * 333'333);
  const auto won = solver.solve(kPile);  // take 1 to 999,999
  CHECK(won.value == 1);
  CHECK(won.best == 1);
  CHECK(won.remoteness == 2 * 333'333 + 1);
  CHECK(solver.positions() == kPile + 1);
}

namespace {

// A game with a cycle among the states 1, 2 and 3 (reached from 0), and a dead end at 4.
struct Cyclic {
  using State = int;
  using Move = int;  // the next state
  using Value = int;
  std::vector<int> moves(int state) const {
    switch (state) {
      case 0:
        return {4, 1};
      case 1:
        return {2};
      case 2:
        return {3};
      case 3:
        return {1};
      default:
        return {};
    }
  }
  negamax::Step<int, int> play(int /*state*/, int next) const { return {next, 1}; }
  int terminal_value(int /*state*/) const { return 0; }
  std::size_t key(int state) const { return static_cast<std::size_t>(state); }
  std::size_t key_count() const { return 5; }
};

// A game whose rules fail on the state 3's second move: play() throws there.
struct Faulty {
  using State = int;
  using Move = int;
  using Value = int;
  std::vector<int> moves(int state) const {
    if (state >= 5) return {};
    return {1, 2};
  }
  negamax::Step<int, int> play(int state, int step) const {
    if (state == 3 && step == 2) throw std::runtime_error("no rule for 3 + 2");
    return {state + step, 1};
  }
  int terminal_value(int /*state*/) const { return 0; }
  std::size_t hash(int state) const { return static_cast<std::size_t>(state); }
};

// A game whose key overruns its own bound: state 0's one move leads to state `next`, whose key
// is `next`, while key_count() is 2.
struct Overrun {
  using State = int;
  using Move = int;
  using Value = int;
  int next = 7;
  std::vector<int> moves(int state) const {
    return state == 0 ? std::vector<int>{1} : std::vector<int>{};
  }
  negamax::Step<int, int> play(int /*state*/, int /*move*/) const { return {next, 0}; }
  int terminal_value(int /*state*/) const { return 0; }
  std::size_t key(int state) const { return static_cast<std::size_t>(state); }
  std::size_t key_count() const { return 2; }
};

// A game that gives a state more moves than its MoveList holds: state 0 has `moves` moves, each
// to a state with none, in a list of 3.
struct Crowded {
  using State = int;
  using Move = int;
  using Value = int;
  int count = 4;
  negamax::MoveList<int, 3> moves(int state) const {
    negamax::MoveList<int, 3> list;
    for (int m = 1; state == 0 && m <= count; ++m)
      list.push_back(m);
    return list;
  }
  negamax::Step<int, int> play(int /*state*/, int move) const { return {move, move}; }
  int terminal_value(int /*state*/) const { return 0; }
  std::size_t key(int state) const { return static_cast<std::size_t>(state); }
  std::size_t key_count() const { return 5; }
};

}  // namespace

TEST_CASE("a cycle is reported, not searched forever, and the solver stays usable", "[negamax]") {
  negamax::Solver<Cyclic> solver;
  CHECK_THROWS_AS(solver.solve(0), std::logic_error);
  CHECK_THROWS_AS(solver.solve(2), std::logic_error);  // the marks of the failed search are gone
  CHECK(solver.value(4) == 0);                         // the dead end was solved on the way
  CHECK(solver.positions() == 1);
}

TEST_CASE("an exception from the game leaves the memo consistent", "[negamax]") {
  negamax::Solver<Faulty> solver;
  CHECK_THROWS_AS(solver.solve(0), std::runtime_error);
  // 0 -> 1 -> 2 -> 3 -> 4 -> {5, 6} solved 5, 6 and 4 before 3's second move failed: they
  // stay solved; 0..3 are as if never asked.
  const std::size_t solved = solver.positions();
  CHECK(solved == 3);
  CHECK(solver.value(4) == 1);  // 4 -> 5 (1 point, then nothing) or 4 -> 6 (1 point)
  CHECK(solver.positions() == solved);
  CHECK_THROWS_AS(solver.solve(1), std::runtime_error);
}

TEST_CASE("a key beyond key_count() is an error, not a stray write", "[negamax]") {
  negamax::Solver<Overrun> far;
  CHECK_THROWS_AS(far.solve(0), std::out_of_range);
  // The first key out of range is key_count() itself.
  negamax::Solver<Overrun> at_bound(Overrun{2});
  CHECK_THROWS_AS(at_bound.solve(0), std::out_of_range);
  negamax::Solver<Overrun> last(Overrun{1});
  CHECK(last.solve(0).value == 0);
}

TEST_CASE("a move list that would overflow throws in every build type", "[negamax]") {
  negamax::MoveList<int, 2> list;
  list.push_back(1);
  list.push_back(2);
  CHECK_THROWS_AS(list.push_back(3), std::length_error);
  CHECK(list.size() == 2);  // nothing was written past the list
  CHECK(list[1] == 2);
  // Through the solver: a game with one move too many is an error, and one that fits solves.
  negamax::Solver<Crowded> crowded;
  CHECK_THROWS_AS(crowded.solve(0), std::length_error);
  negamax::Solver<Crowded> fits(Crowded{3});
  CHECK(fits.solve(0).value == 3);
}

TEST_CASE("analyze puts quicker wins and slower losses first in a win/loss game", "[negamax]") {
  // Node 0 moves to: a loss in 2 (node 1), a win in 3 (node 3), a loss in 4 (node 5), a win in
  // 1 (node 8), a loss in 2 again (node 1).
  Graph graph;
  graph.targets = {{1, 3, 5, 8, 1}, {2}, {}, {4}, {7}, {6}, {9}, {}, {}, {10}, {}};
  graph.points.clear();
  for (const auto& edges : graph.targets)
    graph.points.emplace_back(edges.size(), 0);
  graph.terminal.assign(graph.targets.size(), -1);
  negamax::Solver<GraphGame<negamax::Scoring::win_loss, true>> solver({&graph});
  const auto moves = solver.analyze(0);
  REQUIRE(moves.size() == 5);
  const std::vector<std::pair<int, int>> expected = {{3, 1}, {1, 1}, {2, -1}, {0, -1}, {4, -1}};
  for (std::size_t i = 0; i < moves.size(); ++i) {
    INFO("place " << i);
    CHECK(moves[i].move == expected[i].first);
    CHECK(moves[i].value == expected[i].second);
  }
  CHECK(moves[0].remoteness == 1);
  CHECK(moves[1].remoteness == 3);
  CHECK(moves[2].remoteness == 4);
  CHECK(moves[3].remoteness == 2);
  CHECK(solver.solve(0).best == 3);
  CHECK(solver.solve(0).remoteness == 1);
}

TEST_CASE("a move list holds moves without default-constructing any", "[negamax]") {
  struct NoDefault {
    explicit NoDefault(int v) : value(v) {}
    int value;
  };
  negamax::MoveList<NoDefault, 3> list;
  CHECK(list.empty());
  list.push_back(NoDefault(4));
  list.push_back(NoDefault(9));
  CHECK(list.size() == 2);
  CHECK(list[1].value == 9);
  int sum = 0;
  for (const NoDefault& move : list)
    sum += move.value;
  CHECK(sum == 13);
}

TEST_CASE("the conformance check finds a game whose moves depend on more than the state",
          "[negamax]") {
  negamax::Solver<Fickle> solver;
  const auto fault = negamax::check_against_plain_recursion(solver, 5);
  REQUIRE(fault.has_value());
  CHECK(fault->starts_with("the value is "));
}
