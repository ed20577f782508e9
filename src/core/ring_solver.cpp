#include "ioiwari/core/ring_solver.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <deque>
#include <limits>
#include <utility>

#include "ioiwari/core/expansion.hpp"
#include "solver_parts.hpp"

namespace ioiwari {

namespace {

// Pieces per thread: enough that a thread left with the last, largest piece of a layer waits
// little, few enough that finding each piece's first necklace again for every layer costs little.
constexpr std::uint64_t kPiecesPerThread = 4096;

// No class found wrong, in a check.
constexpr std::uint64_t kNoneWrong = std::numeric_limits<std::uint64_t>::max();

// The packed boards that lines [first, end) hold: from the first line's first position's board
// to the end's.
struct BoardRange {
  Packed from, to;
};
BoardRange boards_of(const RingIndex& index, std::uint64_t first_line, std::uint64_t end_line) {
  return {index.board_at(first_line * kLinePositions), index.board_at(end_line * kLinePositions)};
}

// The ranks within `part` of the classes at `positions` (marked positions of the lines it holds),
// in place; their lines asked for kAhead places ahead, and each class's value
// as soon as its rank is known.
[[gnu::always_inline]] inline void ranks_body(const RingPart& part, std::uint64_t* positions,
                                              std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (i + kAhead < count) {
      __builtin_prefetch(part.line(positions[i + kAhead]));
    }
    positions[i] = part.rank(positions[i]);
    __builtin_prefetch(part.values + positions[i]);
  }
}

// The popcount of a rank is one instruction where the CPU has POPCNT; a build for every x86-64
// CPU otherwise calls a function for it (7% of a solve). So the ranks are built both ways, and
// the way is chosen by asking the CPU once (CPUID), when a ring is first solved: not at every
// program's start, as the compiler's own dispatch (target_clones) would, which costs a game of
// the IOI ring tens of microseconds on a virtual machine, where CPUID traps.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt"))) void ranks_popcnt(const RingPart& part, std::uint64_t* positions,
                                                    std::size_t count) {
  ranks_body(part, positions, count);
}
#endif
void ranks_plain(const RingPart& part, std::uint64_t* positions, std::size_t count) {
  ranks_body(part, positions, count);
}
void ranks(const RingPart& part, std::uint64_t* positions, std::size_t count) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (has_popcnt()) return ranks_popcnt(part, positions, count);
#endif
  ranks_plain(part, positions, count);
}

// One thread's batch of classes of one layer, and what the solver works out for them.
class Batch {
 public:
  Batch(const RingPart& part, Exchange& exchange, std::int8_t* write,
        std::atomic<std::uint64_t>* wrong)
      : part_(part),
        exchange_(exchange),
        write_(write),
        wrong_(wrong),
        expand_(expander(part.index().ring().pits)),
        classes_(exchange.batch()),
        moves_(classes_.size()),
        own_(classes_.size()),
        successors_(classes_.size() * static_cast<std::size_t>(part.index().ring().pits) +
                    kExpansionSlack),
        nets_(successors_.size()),
        values_(successors_.size()) {}

  bool full() const { return count_ == classes_.size(); }
  bool empty() const { return count_ == 0; }
  void add(Packed canonical) { classes_[count_++] = canonical; }

  // Solves the classes added since the last call, with one call of the exchange.
  void solve() {
    expand();
    exchange_.values(successors(), values());
    settle();
  }

  // The three steps apart, for a pipelined exchange: the moves (step 1), the successors' positions
  // they found and where their values go (step 2), and each class's best (step 3), after which
  // the batch takes new classes.
  void expand() {
    successors_found_ =
        expand_(part_.index(), part_.index().ring().capacity, classes_.data(), count_,
                {moves_.data(), own_.data(), nets_.data(), successors_.data()});
  }
  std::span<std::uint64_t> successors() { return std::span(successors_).first(successors_found_); }
  std::span<std::int8_t> values() { return std::span(values_).first(successors_found_); }
  void settle() {
    ranks(part_, own_.data(), count_);
    std::size_t at = 0;
    for (std::size_t c = 0; c < count_; ++c) {
      int best = moves_[c] == 0 ? 0 : std::numeric_limits<int>::min();  // 0: the empty board
      for (int m = 0; m < moves_[c]; ++m, ++at)
        best = std::max(best, nets_[at] - values_[at]);
      if (write_ != nullptr) {
        write_[own_[c]] = static_cast<std::int8_t>(best);
      } else if (part_.values[own_[c]] != best) {
        std::uint64_t none = kNoneWrong;
        wrong_->compare_exchange_strong(none, own_[c]);
      }
    }
    count_ = 0;
  }

 private:
  const RingPart& part_;
  Exchange& exchange_;
  std::int8_t* write_;
  std::atomic<std::uint64_t>* wrong_;
  Expand expand_;
  std::size_t count_ = 0;
  std::size_t successors_found_ = 0;
  std::vector<Packed> classes_;
  std::vector<std::uint8_t> moves_;
  std::vector<std::uint64_t> own_;
  std::vector<std::uint64_t> successors_;
  std::vector<std::int8_t> nets_;
  std::vector<std::int8_t> values_;
};

// A stage's last report, `done` in all, unless thread 0's last piece made it. Only thread 0
// reports as it goes, and the other threads may take the last pieces (on a small ring, every
// piece before thread 0 starts).
void report_last(const SolveOptions& options, SolveProgress& progress, std::uint64_t done) {
  if (!options.progress || progress.done == done) return;
  progress.done = done;
  options.progress(progress);
}

// Calls on_board(packed) for every canonical board of every piece, the pieces shared among
// `threads` threads, and counts the boards by layer into `pieces`.
template <class OnBoard>
void survey(const RingGeometry& geometry, Pieces& pieces, int threads, const SolveOptions& options,
            OnBoard&& on_board) {
  const Ring ring = geometry.ring();
  std::atomic<std::size_t> next{0};
  std::atomic<std::uint64_t> done{0};
  SolveProgress progress;
  progress.layer = -1;
  progress.layers = ring.max_beads() + 1;
  progress.classes = geometry.classes();
  on_threads(threads, [&](int thread) {
    for (std::size_t p = next++; p < pieces.size(); p = next++) {
      const BoardRange range =
          boards_of(geometry.index(), pieces.first_line(p), pieces.end_line(p));
      std::uint64_t found = 0;
      for_each_necklace(ring.pits, ring.capacity, -1, range.from, range.to, [&](Packed packed) {
        on_board(packed);
        ++pieces.classes(p, beads_of(packed));
        ++found;
      });
      done += found;
      if (thread == 0 && options.progress) {
        progress.done = done.load();
        options.progress(progress);
      }
    }
  });
  report_last(options, progress, done.load());
}

}  // namespace

Share Share::of(const RingGeometry& geometry, int processes, int me) {
  Share share;
  share.processes = processes;
  share.me = me;
  if (processes == 1) return share;
  share.reciprocal = reciprocal_for(processes);
  constexpr int kMostShift = 12;  // 4,096 lines
  const std::uint64_t fair = geometry.lines() / (64 * static_cast<std::uint64_t>(processes));
  share.stripe_shift = 0;
  while (share.stripe_shift < kMostShift && (std::uint64_t{2} << share.stripe_shift) <= fair)
    ++share.stripe_shift;
  return share;
}

std::uint64_t Share::lines_held(std::uint64_t lines) const {
  std::uint64_t held = 0;
  for_each_stripe(lines, [&](std::uint64_t first, std::uint64_t end) { held += end - first; });
  return held;
}

Pieces::Pieces(const RingGeometry& geometry, const Share& share, int threads)
    : layers_(geometry.ring().max_beads() + 1) {
  // About kPiecesPerThread a thread in all, each stripe cut into as many as its share of them.
  const std::uint64_t lines = share.lines_held(geometry.lines());
  const std::uint64_t wanted = std::max<std::uint64_t>(
      1, std::min(lines, kPiecesPerThread * static_cast<std::uint64_t>(threads)));
  share.for_each_stripe(geometry.lines(), [&](std::uint64_t first, std::uint64_t end) {
    const std::uint64_t size = end - first;
    const std::uint64_t pieces =
        std::max<std::uint64_t>(1, size * wanted / std::max<std::uint64_t>(1, lines));
    for (std::uint64_t p = 0; p < pieces; ++p)
      bounds_.emplace_back(first + size * p / pieces, first + size * (p + 1) / pieces);
  });
  if (bounds_.empty()) bounds_.emplace_back(0, 0);  // a share of no line: one empty piece
  counts_.assign(bounds_.size() * static_cast<std::size_t>(layers_), 0);
}

std::uint64_t Pieces::layer_classes(int layer) const {
  std::uint64_t sum = 0;
  for (std::size_t p = 0; p < size(); ++p)
    sum += classes(p, layer);
  return sum;
}

std::uint64_t Pieces::total() const {
  std::uint64_t sum = 0;
  for (std::uint64_t count : counts_)
    sum += count;
  return sum;
}

std::uint64_t line_counts(const std::uint64_t* line) {
  std::uint64_t before = 0, counts = 0;
  for (int word = 0; word < 6; ++word) {
    if (word > 0) counts |= before << (kCountBits * (word - 1));
    before += static_cast<std::uint64_t>(std::popcount(line[2 + word]));
  }
  return counts;
}

void look_up(const RingPart& part, std::span<std::uint64_t> positions,
             std::span<std::int8_t> values) {
  // Two passes: the ranks from the lines, which asks for each value, then the values by rank,
  // each asked for again kAhead places ahead (a little faster still: 15.5-16.9 s against
  // 17.1-17.4 s on 12 pits).
  ranks(part, positions.data(), positions.size());
  const std::size_t count = positions.size();
  for (std::size_t i = 0; i < count; ++i) {
    if (i + kAhead < count) __builtin_prefetch(part.values + positions[i + kAhead]);
    values[i] = part.values[positions[i]];
  }
}

std::uint64_t solve_bytes(const RingGeometry& geometry, int processes, int threads,
                          std::size_t batch) {
  const auto each = static_cast<std::uint64_t>(processes);
  SolveOptions options;
  options.threads = threads;
  const auto workers = static_cast<std::uint64_t>(solve_threads(options));
  // A class of a batch: its board, its moves' count and its own rank; each of its moves (at most
  // kMaxPits): a successor's position, its net and its value.
  const std::uint64_t per_class = 8 + 1 + 8 + static_cast<std::uint64_t>(kMaxPits) * (8 + 1 + 1);
  const std::uint64_t pieces = std::min(geometry.lines() / each + 1, kPiecesPerThread * workers);
  return geometry.table_bytes() / each + workers * batch * per_class +
         pieces * static_cast<std::uint64_t>(geometry.ring().max_beads() + 1) * 8;
}

LayeredSolve::LayeredSolve(const RingGeometry& geometry, const Share& share, SolveOptions options)
    : geometry_(geometry),
      share_(share),
      options_(std::move(options)),
      threads_(solve_threads(options_)),
      pieces_(geometry, share, threads_) {}

std::uint64_t LayeredSolve::index(std::span<std::uint64_t> lines) {
  const RingIndex& index = geometry_.index();
  // Each piece's lines are its own: no two threads write one word.
  survey(geometry_, pieces_, threads_, options_, [&](Packed packed) {
    const std::uint64_t position = index.position(packed);
    const std::uint64_t bit = position % kLinePositions;
    const std::uint64_t word = kLineWords * share_.local(position / kLinePositions) + 2 + bit / 64;
    lines[static_cast<std::size_t>(word)] |= std::uint64_t{1} << (bit % 64);
  });
  indexed_ = true;
  return count_lines(lines.data(), lines.size() / kLineWords, 0);
}

std::optional<Board::Code> LayeredSolve::check_index(std::span<const std::uint64_t> lines) {
  const RingIndex& index = geometry_.index();
  const int base = geometry_.ring().base();
  constexpr std::uint64_t kNone = ~std::uint64_t{0};
  std::atomic<std::uint64_t> unmarked{kNone};
  survey(geometry_, pieces_, threads_, options_, [&](Packed packed) {
    const std::uint64_t position = index.position(packed);
    const std::uint64_t* line = lines.data() + kLineWords * share_.local(position / kLinePositions);
    if (!marked(line, position % kLinePositions)) {
      std::uint64_t none = kNone;
      unmarked.compare_exchange_strong(none, code_of(packed, base));
    }
  });
  indexed_ = true;
  if (unmarked.load() == kNone) return std::nullopt;
  return unmarked.load();
}

void LayeredSolve::solve(const RingPart& part, Exchange& exchange, std::span<std::int8_t> values) {
  assert(values.size() == part.classes);
  layers(part, exchange, values.data(), nullptr);
}

std::optional<Rank> LayeredSolve::check(const RingPart& part, Exchange& exchange) {
  std::atomic<std::uint64_t> wrong{kNoneWrong};
  layers(part, exchange, nullptr, &wrong);
  if (wrong.load() == kNoneWrong) return std::nullopt;
  return Rank{wrong.load()};
}

void LayeredSolve::layers(const RingPart& part, Exchange& exchange, std::int8_t* write,
                          std::atomic<std::uint64_t>* wrong) {
  assert(indexed_ && (threads_ == 1 || exchange.concurrent()));
  assert(threads_ == 1 || !exchange.pipelined());
  const Ring ring = geometry_.ring();
  const Pieces& pieces = pieces_;
  const SolveOptions& options = options_;
  const int threads = threads_;
  // Every thread's batch, made before any thread starts, so that no thread can fail to make it;
  // a pipelined exchange (one thread) takes turns with one batch more than its rounds in flight.
  const bool pipelined = exchange.pipelined();
  const std::size_t turns = pipelined ? exchange.depth() + 1 : 1;
  std::vector<Batch> batches;
  batches.reserve(static_cast<std::size_t>(threads) + turns - 1);
  for (std::size_t t = 0; t < static_cast<std::size_t>(threads) + turns - 1; ++t)
    batches.emplace_back(part, exchange, write, wrong);
  // The pipelined way to solve a full batch: expand it and start its round, then, with as many
  // rounds in flight as the exchange keeps, finish the oldest and settle its batch. `waiting`
  // holds the batches whose rounds have started and not finished, oldest first.
  std::deque<Batch*> waiting;
  const auto finish_oldest = [&] {
    exchange.finish(waiting.front()->values());
    waiting.front()->settle();
    waiting.pop_front();
  };
  const auto launch = [&](Batch& batch) {
    batch.expand();
    exchange.start(batch.successors());
    waiting.push_back(&batch);
    if (waiting.size() > exchange.depth()) finish_oldest();
  };
  SolveProgress progress;
  progress.layers = ring.max_beads() + 1;
  progress.classes = pieces.total();
  std::uint64_t solved = 0;  // classes of the layers before this one
  for (int layer = 0; layer <= ring.max_beads(); ++layer) {
    progress.layer = layer;
    const std::uint64_t classes = pieces.layer_classes(layer);
    const std::uint64_t size = exchange.batch();
    const std::uint64_t rounds = exchange.rounds(layer, (classes + size - 1) / size);
    std::atomic<std::size_t> next{0};
    std::atomic<std::uint64_t> done{0};
    std::atomic<int> working{0};
    std::uint64_t calls = 0;  // the exchange calls of thread 0
    on_threads(threads, [&](int thread) {
      Batch* batch = &batches[static_cast<std::size_t>(thread)];
      // Solves the batch, or (pipelined) launches it and takes the other batch.
      const auto solve_batch = [&] {
        if (pipelined) {
          launch(*batch);
          batch = &batches[static_cast<std::size_t>(batch - batches.data() + 1) % turns];
        } else {
          batch->solve();
        }
        if (thread == 0) ++calls;
      };
      bool worked = false;
      for (std::size_t p = next++; p < pieces.size(); p = next++) {
        const std::uint64_t here = pieces.classes(p, layer);
        if (here == 0) continue;
        const BoardRange range =
            boards_of(geometry_.index(), pieces.first_line(p), pieces.end_line(p));
        for_each_necklace(ring.pits, ring.capacity, layer, range.from, range.to,
                          [&](Packed packed) {
                            batch->add(packed);
                            if (batch->full()) solve_batch();
                          });
        worked = true;
        done += here;
        if (thread == 0 && options.progress) {
          progress.done = solved + done.load();
          options.progress(progress);
        }
      }
      if (!batch->empty()) solve_batch();
      if (worked) ++working;
      // A single thread made exactly the calls its batches needed; the exchange may want more,
      // made with an empty batch; and a pipelined one finishes the layer's last round.
      if (threads == 1) {
        while (calls < rounds)
          solve_batch();
      }
      while (!waiting.empty())
        finish_oldest();
    });
    solved += classes;
    progress.threads = std::max(progress.threads, working.load());
    report_last(options, progress, solved);
  }
}

}  // namespace ioiwari
