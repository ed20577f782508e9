// The ring solver: the value of every rotation class of a ring, layer by layer of bead count.
//
// Every move takes a bead off the board, so a class's successors all hold fewer beads: solving
// the layers in order of bead count finds every successor solved already, and the classes of one
// layer are independent of each other. The solver works on a part of the ring's index
// (ring_index.hpp): all of it in one process (RingTable::solve), or a share on each process of a
// distributed solve (src/cluster), each with one LayeredSolve (below). It takes a layer's classes
// in batches, and for each batch:
//
//   1. makes every move of every class, and finds each successor's canonical board and its
//      position in the index (expansion.hpp: eight moves at once where the CPU has AVX-512, else
//      one by one, with copies of the rule that tests hold equal to sow(), sowing.hpp);
//   2. asks an Exchange for the successors' values;
//   3. keeps each class's best move value, and writes it (or, in a check, compares it).
//
// Only step 2 differs between one process and many: the local exchange looks the positions up in
// this process's memory; the distributed one sends each position to the process that holds it
// and waits for the answers. The algorithm is written once, here.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "ioiwari/core/board.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_geometry.hpp"
#include "ioiwari/core/ring_index.hpp"

namespace ioiwari {

// How a solve is going, after each piece of a layer.
struct SolveProgress {
  int layer = 0;              // the bead count being solved; -1 while the index is made
  int layers = 0;             // how many there are (0..max beads)
  std::uint64_t done = 0;     // classes solved (or indexed) so far
  std::uint64_t classes = 0;  // classes in all
  int threads = 0;            // the most threads that solved classes of one layer so far
};

struct SolveOptions {
  int threads = 0;  // 0: one per core
  // Told how the solve goes, from the thread that called the solve, now and then.
  std::function<void(const SolveProgress&)> progress;
  // The boards wanted: those of at most this many beads. A solver that works up by bead count
  // may stop there (the IOI ring's does); one that may not solves them all.
  int most_beads = kMaxRingBeads;
};

// The lines of a ring's index that one process holds. The lines are cut into stripes of
// 2^stripe_shift lines, dealt to the processes of a job in turn (stripe s to process s mod
// processes), so that each holds a little of every part of the index: about as many classes,
// and as many of the successors that all processes ask for, as any other. (A move empties a pit,
// so every successor lies in the index's first block: shares cut in one piece each would leave
// the first processes answering nearly every question.) A process alone holds one stripe of
// every line.
struct Share {
  __extension__ using Wide = unsigned __int128;
  int stripe_shift = 63;
  int processes = 1;
  int me = 0;
  // The ceiling of 2^64 / processes, for owner() and local() without a division (0 for one
  // process, which needs none): a division of 64 bits takes tens of cycles, and both are asked
  // for every successor that the processes of a job look up (with a division, two processes took
  // 1.5 times as long as one with two threads on 12 pits).
  std::uint64_t reciprocal = 0;
  // That reciprocal for a job of `processes` processes.
  static std::uint64_t reciprocal_for(int processes) {
    return processes == 1 ? 0 : ~std::uint64_t{0} / static_cast<std::uint64_t>(processes) + 1;
  }

  // The share of process `me` of `processes`, of stripes small enough that each process holds
  // 64 of them or more, and at most 4,096 lines (256 KiB of index) each.
  static Share of(const RingGeometry& geometry, int processes, int me);

  std::uint64_t stripe_lines() const { return std::uint64_t{1} << stripe_shift; }
  // The process that holds `line`: its stripe mod processes, by Lemire's remainder by
  // multiplication ((stripe * reciprocal mod 2^64) * processes / 2^64), exact for every stripe
  // below 2^32, which every ring of up to 16 pits has (fewer than 2^31 lines).
  int owner(std::uint64_t line) const {
    if (processes == 1) return 0;
    const std::uint64_t low = reciprocal * (line >> stripe_shift);
    return static_cast<int>((static_cast<Wide>(low) * static_cast<unsigned>(processes)) >> 64);
  }
  // Where `line` (one this share holds) is among the share's lines, counted from 0: its stripe
  // divided by processes (stripe * reciprocal / 2^64, exact as owner() is), then its place in it.
  std::uint64_t local(std::uint64_t line) const {
    if (processes == 1) return line;
    const auto stripe =
        static_cast<std::uint64_t>((static_cast<Wide>(line >> stripe_shift) * reciprocal) >> 64);
    return (stripe << stripe_shift) | (line & (stripe_lines() - 1));
  }
  // Calls visit(first, end) for each run of lines [first, end) the share holds, of the `lines`
  // of an index, in order.
  template <class Visit>
  void for_each_stripe(std::uint64_t lines, Visit&& visit) const {
    const std::uint64_t size = stripe_lines(), step = size * static_cast<std::uint64_t>(processes);
    for (std::uint64_t first = size * static_cast<std::uint64_t>(me); first < lines;
         first += step) {
      visit(first, std::min(lines, first + size));
      if (lines - first <= step) break;  // no overflow past the last line
    }
  }
  // How many of the `lines` of an index the share holds.
  std::uint64_t lines_held(std::uint64_t lines) const;
};

// The lines of a share cut into pieces, which the threads take in turn, with the classes of each
// layer in each piece.
class Pieces {
 public:
  // Cuts the lines `share` holds of `geometry`'s index into pieces for `threads` threads.
  Pieces(const RingGeometry& geometry, const Share& share, int threads);

  std::size_t size() const { return bounds_.size(); }
  std::uint64_t first_line(std::size_t piece) const { return bounds_[piece].first; }
  std::uint64_t end_line(std::size_t piece) const { return bounds_[piece].second; }
  // The classes of `layer` in `piece`, once the lines have been surveyed.
  std::uint64_t classes(std::size_t piece, int layer) const {
    return counts_[piece * static_cast<std::size_t>(layers_) + static_cast<std::size_t>(layer)];
  }
  std::uint64_t& classes(std::size_t piece, int layer) {
    return counts_[piece * static_cast<std::size_t>(layers_) + static_cast<std::size_t>(layer)];
  }
  // The classes of `layer` in all the pieces.
  std::uint64_t layer_classes(int layer) const;
  // The classes in all.
  std::uint64_t total() const;

 private:
  int layers_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> bounds_;
  std::vector<std::uint64_t> counts_;
};

// The counts that the index writes in a line's second word, from the line's bits.
std::uint64_t line_counts(const std::uint64_t* line);

// The part of a ring's table that one process holds: the lines of its share, and the values of
// the classes marked in them. Its lines' first words count the part's own classes: ranks within
// the part, from 0 (for a process alone, the classes' ranks).
struct RingPart {
  const RingGeometry* geometry = nullptr;
  Share share;
  std::uint64_t classes = 0;             // the classes of the lines held
  const std::uint64_t* lines = nullptr;  // the share's lines in order
  const std::int8_t* values = nullptr;   // their classes' values in order

  const RingIndex& index() const { return geometry->index(); }
  // The line that holds `position`, which must be a position of the lines held.
  const std::uint64_t* line(std::uint64_t position) const {
    return lines + kLineWords * share.local(position / kLinePositions);
  }
  // The rank within the part of the class at `position`, which must be a marked position of
  // the lines held.
  std::uint64_t rank(std::uint64_t position) const {
    return line_rank(line(position), position % kLinePositions);
  }
};

// Looks up the values of the classes at `positions` (marked positions of the lines `part` holds)
// into `values`, asking for many lines and values from memory at once. `positions` is left
// holding the classes' ranks within the part.
void look_up(const RingPart& part, std::span<std::uint64_t> positions,
             std::span<std::int8_t> values);

// The classes of a batch, within one process.
inline constexpr std::size_t kSolveBatch = 1024;

// How the solver learns the values of a batch's successors (step 2 above).
class Exchange {
 public:
  virtual ~Exchange() = default;
  // The classes of a batch, whose successors' values one call of values() finds: a few
  // thousand keep a batch's work in a core's cache; an exchange between processes takes more,
  // so that a message carries more.
  virtual std::size_t batch() const { return kSolveBatch; }
  // Whether values() may be called by several threads at once.
  virtual bool concurrent() const = 0;
  // Before a layer, with one thread: this process has `batches` batches of the layer (of
  // batch() classes, the last perhaps fewer); returns how many times it must call values() for
  // the layer, at least `batches` (more when other processes have more, and wait for this one's
  // answers).
  virtual std::uint64_t rounds(int layer, std::uint64_t batches) = 0;
  // The values of the classes at `positions` (canonical positions of any of the ring's lines,
  // all in lower layers) into `values`. May overwrite `positions`.
  virtual void values(std::span<std::uint64_t> positions, std::span<std::int8_t> values) = 0;

  // A pipelined exchange (for a solve of one thread) also takes a round in two calls, so that
  // its messages travel while the solver makes the next batches' moves: start() with a batch's
  // positions (kept until its finish), then, after the start() of depth() batches more, finish()
  // with where the first batch's values go. Each round is started once and finished once, in
  // order.
  virtual bool pipelined() const { return false; }
  // How many rounds a pipelined exchange keeps started and not finished: finish() comes after the
  // start() of the depth()-th batch after.
  virtual std::size_t depth() const { return 1; }
  virtual void start(std::span<std::uint64_t> positions) { started_.push_back(positions); }
  virtual void finish(std::span<std::int8_t> values) {
    this->values(started_.front(), values);
    started_.pop_front();
  }

 private:
  std::deque<std::span<std::uint64_t>> started_;
};

// The exchange within one process, which holds the whole ring.
class LocalExchange final : public Exchange {
 public:
  explicit LocalExchange(const RingPart& part) : part_(part) {}
  bool concurrent() const override { return true; }
  std::uint64_t rounds(int, std::uint64_t batches) override { return batches; }
  void values(std::span<std::uint64_t> positions, std::span<std::int8_t> values) override {
    look_up(part_, positions, values);
  }

 private:
  const RingPart& part_;
};

// The memory that one process takes to solve an equal share (of `processes`) of `geometry`'s
// table with `threads` threads (one per core when 0, as SolveOptions::threads) of batches of
// `batch` classes: its share of the index and the values, the threads' batches, and the pieces'
// counts by layer.
std::uint64_t solve_bytes(const RingGeometry& geometry, int processes, int threads,
                          std::size_t batch);

// The layered solve of one process's share of a ring (above): the lines it holds, cut into
// pieces for its threads. First index() (or check_index(), for a table that claims to be
// solved), which counts the pieces' classes by layer; then solve() (or check()).
class LayeredSolve {
 public:
  // The lines `share` holds of `geometry`'s index, on options.threads threads (one per core when
  // 0).
  LayeredSolve(const RingGeometry& geometry, const Share& share, SolveOptions options);

  int threads() const { return threads_; }
  const Pieces& pieces() const { return pieces_; }

  // Marks the canonical boards of the share's lines in `lines` (zeroed; the share's lines in
  // order) and writes each line's counts, the ranks within the share from 0. Returns how many
  // classes the lines hold.
  std::uint64_t index(std::span<std::uint64_t> lines);
  // Checks that `lines` marks every canonical board of the share's lines: the code of one that
  // it does not mark, if any.
  std::optional<Board::Code> check_index(std::span<const std::uint64_t> lines);

  // Solves every layer of `part` (the share, indexed) in order, writing each class's value to
  // `values` (the share's, as part.values). `exchange` finds the successors' values: one that
  // is not concurrent needs a solve of one thread.
  void solve(const RingPart& part, Exchange& exchange, std::span<std::int8_t> values);
  // The same, but checks part.values instead: the rank within the part of a class whose value
  // is not what its moves give, if any.
  std::optional<Rank> check(const RingPart& part, Exchange& exchange);

 private:
  void layers(const RingPart& part, Exchange& exchange, std::int8_t* write,
              std::atomic<std::uint64_t>* wrong);
  const RingGeometry& geometry_;
  Share share_;
  SolveOptions options_;
  int threads_;
  Pieces pieces_;
  bool indexed_ = false;
};

}  // namespace ioiwari
