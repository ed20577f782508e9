#include "ioiwari/core/tier_solver.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ioiwari/core/expansion.hpp"
#include "ioiwari/core/large_array.hpp"
#include "ioiwari/core/table_file.hpp"
#include "layer_folder.hpp"
#include "solver_parts.hpp"
#include "tier_merge.hpp"

namespace ioiwari {

namespace {

// A value no class has (every value is at most the ring's beads, below 128): a successor's value
// not read yet, and a class none of whose moves has been answered yet.
constexpr std::int8_t kUnknown = std::numeric_limits<std::int8_t>::min();

// Pieces of a layer per thread, as the ring solver's (ring_solver.cpp): each a run of whole lines,
// so that no two threads mark one word when the layer is indexed.
constexpr std::uint64_t kPiecesPerThread = 256;

// A move answered after its layer's pass: the successor's key (layer_key()), and the class (its
// piece of the layer, and its place among the piece's classes) with the move's net in the top
// byte.
struct Deferred {
  std::uint64_t key;
  std::uint64_t own_net;
};
constexpr int kNetShift = 56;
constexpr int kPieceShift = 40;  // a piece's classes are fewer than 2^40; its number below 2^16
constexpr std::uint64_t deferred_own_net(std::uint64_t piece, std::uint64_t local, int net) {
  return local | piece << kPieceShift |
         static_cast<std::uint64_t>(static_cast<std::uint8_t>(net)) << kNetShift;
}
// The deferred moves a thread keeps before it writes them to their layer's file.
constexpr std::size_t kDeferredBuffer = 1 << 12;
// The fewest deferred moves sorted and answered at once, whatever the memory left.
constexpr std::uint64_t kLeastDeferred = 1 << 12;

std::uint64_t lines_of(std::uint64_t positions) {
  return (positions + kLinePositions - 1) / kLinePositions;
}

// The bytes a ForwardReader reads at once.
constexpr std::uint64_t kReadAhead = std::uint64_t{1} << 20;

// Reads a file forward, a chunk at a time: the bytes at offsets that never decrease.
class ForwardReader {
 public:
  ForwardReader(const LayerFile& file, std::uint64_t size, std::atomic<std::uint64_t>& read)
      : file_(file),
        size_(size),
        read_(read),
        buffer_(static_cast<std::size_t>(std::min(kReadAhead, size))) {}

  // The `bytes` bytes at `offset`, at or after the last offset asked.
  const unsigned char* at(std::uint64_t offset, std::size_t bytes) {
    if (offset < first_ || offset + bytes > first_ + held_) {
      first_ = offset;
      held_ = static_cast<std::size_t>(std::min<std::uint64_t>(buffer_.size(), size_ - offset));
      file_.read(buffer_.data(), held_, offset);
      read_ += held_;
    }
    return buffer_.data() + (offset - first_);
  }

 private:
  const LayerFile& file_;
  std::uint64_t size_;
  std::atomic<std::uint64_t>& read_;
  std::vector<unsigned char> buffer_;
  std::uint64_t first_ = 0;
  std::size_t held_ = 0;
};

// Answers deferred `moves` into one layer, sorted by position, from its files: each raises its
// class's value in `values` (its rank the first of its piece's, in `first_ranks`, and its place
// in the piece) if it is better. Counts the bytes read into `bytes_read`.
void answer(const std::vector<Deferred>& moves, const LayerFile& lines_file,
            const LayerFile& values_file, const std::vector<std::uint64_t>& first_ranks,
            std::int8_t* values, std::uint64_t& bytes_read) {
  std::atomic<std::uint64_t> read{0};
  {
    ForwardReader line_reader(lines_file, lines_file.size(), read);
    ForwardReader value_reader(values_file, values_file.size(), read);
    for (const Deferred& move : moves) {
      const std::uint64_t position = key_position(move.key);
      std::uint64_t line[kLineWords];
      std::memcpy(line, line_reader.at(position / kLinePositions * kLineWords * 8, sizeof line),
                  sizeof line);
      const std::uint64_t rank = line_rank(line, position % kLinePositions);
      const auto value = static_cast<std::int8_t>(*value_reader.at(rank, 1));
      const std::uint64_t piece = (move.own_net >> kPieceShift) & 0xffff;
      const std::uint64_t own =
          first_ranks[piece] + (move.own_net & ((std::uint64_t{1} << kPieceShift) - 1));
      const auto net = static_cast<std::int8_t>(move.own_net >> kNetShift);
      const int mine = net - value;
      if (values[own] == kUnknown || mine > values[own])
        values[own] = static_cast<std::int8_t>(mine);
    }
  }
  bytes_read += read.load();
}

}  // namespace

// A layer in memory: its lines (over its positions) and its classes' values by rank.
class TierSolve::Layer {
 public:
  Layer(std::uint64_t positions, std::uint64_t classes)
      : lines_(lines_of(positions) * kLineWords), values_(classes) {}
  std::uint64_t lines() const { return lines_.size() / kLineWords; }
  std::uint64_t bytes() const { return lines_.size() * 8 + values_.size(); }
  std::uint64_t* line(std::uint64_t l) { return lines_.data() + kLineWords * l; }
  const std::uint64_t* line_words() const { return lines_.data(); }
  std::int8_t* values() { return values_.data(); }
  const std::int8_t* values() const { return values_.data(); }
  std::uint64_t classes() const { return values_.size(); }

 private:
  LargeArray<std::uint64_t> lines_;
  LargeArray<std::int8_t> values_;
};

// One layer's pass, shared by its threads: the layers in memory below it, and the files of the
// moves deferred to each deeper layer.
class TierSolve::Pass {
 public:
  Pass(TierSolve& solve, int beads) : solve_(solve) {
    lowest_ = std::max(0, beads - solve.window_);
    lines_.assign(static_cast<std::size_t>(beads), nullptr);
    values_.assign(static_cast<std::size_t>(beads), nullptr);
    for (int b = lowest_; b < beads; ++b) {
      lines_[static_cast<std::size_t>(b)] =
          solve.layers_[static_cast<std::size_t>(b)]->line_words();
      values_[static_cast<std::size_t>(b)] = solve.layers_[static_cast<std::size_t>(b)]->values();
    }
    deferred_.resize(static_cast<std::size_t>(lowest_));
    deferred_counts_.assign(static_cast<std::size_t>(lowest_), 0);
  }

  int lowest() const { return lowest_; }
  // The lines and the values of the layers in memory, by beads (null below lowest()).
  const std::uint64_t* const* lines() const { return lines_.data(); }
  const std::int8_t* const* values() const { return values_.data(); }

  // Appends deferred moves into layer `below` to its file.
  void defer(int below, const std::vector<Deferred>& moves) {
    const std::lock_guard lock(mutex_);
    auto& file = deferred_[static_cast<std::size_t>(below)];
    if (!file) file = solve_.folder_->make_deferred(below);
    file->write(moves.data(), moves.size() * sizeof(Deferred));
    deferred_counts_[static_cast<std::size_t>(below)] += moves.size();
    solve_.counts_.bytes_written += moves.size() * sizeof(Deferred);
  }
  // The file of the moves deferred into layer `below`, and how many: none when there are none.
  std::unique_ptr<LayerFile> take_deferred(int below, std::uint64_t& count) {
    count = deferred_counts_[static_cast<std::size_t>(below)];
    return std::move(deferred_[static_cast<std::size_t>(below)]);
  }

 private:
  TierSolve& solve_;
  int lowest_;
  std::vector<const std::uint64_t*> lines_;
  std::vector<const std::int8_t*> values_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<LayerFile>> deferred_;
  std::vector<std::uint64_t> deferred_counts_;
};

namespace {

// The ranks of the successors whose keys are `keys` and whose layers are in memory (`lowest` and
// above) into `ranks`, their lines asked for kAhead places ahead and each value as soon as its
// rank is known (ring_solver.cpp's ranks_body(), for layers apart).
[[gnu::always_inline]] inline void layer_ranks_body(const std::uint64_t* const* lines,
                                                    const std::int8_t* const* values, int lowest,
                                                    const std::uint64_t* keys, std::uint64_t* ranks,
                                                    std::size_t count) {
  const auto line_of = [&](std::uint64_t key) {
    return lines[key_beads(key)] + kLineWords * (key_position(key) / kLinePositions);
  };
  for (std::size_t i = 0; i < count; ++i) {
    if (i + kAhead < count && key_beads(keys[i + kAhead]) >= lowest)
      __builtin_prefetch(line_of(keys[i + kAhead]));
    const int beads = key_beads(keys[i]);
    if (beads < lowest) continue;
    ranks[i] = line_rank(line_of(keys[i]), key_position(keys[i]) % kLinePositions);
    __builtin_prefetch(values[beads] + ranks[i]);
  }
}
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt"))) void layer_ranks_popcnt(const std::uint64_t* const* lines,
                                                          const std::int8_t* const* values,
                                                          int lowest, const std::uint64_t* keys,
                                                          std::uint64_t* ranks, std::size_t count) {
  layer_ranks_body(lines, values, lowest, keys, ranks, count);
}
#endif
void layer_ranks(const std::uint64_t* const* lines, const std::int8_t* const* values, int lowest,
                 const std::uint64_t* keys, std::uint64_t* ranks, std::size_t count) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (has_popcnt()) return layer_ranks_popcnt(lines, values, lowest, keys, ranks, count);
#endif
  layer_ranks_body(lines, values, lowest, keys, ranks, count);
}

// One thread's batch of classes of one layer (the ring solver's Batch, ring_solver.cpp, for
// layers apart): their moves made, their successors' values read from the layers in memory, the
// moves into deeper layers deferred.
class TierBatch {
 public:
  TierBatch(const LayerIndex& index, LayerExpand expand)
      : index_(index),
        expand_(expand),
        classes_(kSolveBatch),
        moves_(kSolveBatch),
        own_(kSolveBatch),
        keys_(kSolveBatch * static_cast<std::size_t>(index.ring().pits) + kExpansionSlack),
        ranks_(keys_.size()),
        nets_(keys_.size()),
        values_(keys_.size()) {}

  bool full() const { return count_ == classes_.size(); }
  // The piece whose classes come next, and where their values go, in the piece's order. The
  // batch must be empty.
  void start(std::uint64_t piece, std::vector<std::int8_t>& values) {
    piece_ = piece;
    write_ = &values;
  }
  // Adds the piece's next class.
  void add(Packed canonical) {
    classes_[count_++] = canonical;
    write_->push_back(0);
  }

  template <class Pass>
  void solve(Pass& pass, std::vector<std::vector<Deferred>>& deferred, std::uint64_t& moves) {
    if (count_ == 0) return;
    const std::size_t made = expand_(index_, index_.ring().capacity, classes_.data(), count_,
                                     {moves_.data(), own_.data(), nets_.data(), keys_.data()});
    moves += made;
    const int lowest = pass.lowest();
    layer_ranks(pass.lines(), pass.values(), lowest, keys_.data(), ranks_.data(), made);
    for (std::size_t i = 0; i < made; ++i) {
      const int beads = key_beads(keys_[i]);
      values_[i] = beads < lowest ? kUnknown : pass.values()[beads][ranks_[i]];
    }
    std::size_t at = 0;
    const std::uint64_t first = write_->size() - count_;
    for (std::size_t c = 0; c < count_; ++c) {
      const std::uint64_t own = first + c;
      int best = moves_[c] == 0 ? 0 : kUnknown;  // 0: no move, the empty board
      for (int m = 0; m < moves_[c]; ++m, ++at) {
        if (values_[at] == kUnknown) {
          auto& into = deferred[static_cast<std::size_t>(key_beads(keys_[at]))];
          into.push_back({keys_[at], deferred_own_net(piece_, own, nets_[at])});
          if (into.size() == kDeferredBuffer) {
            pass.defer(key_beads(keys_[at]), into);
            into.clear();
          }
          continue;
        }
        best = std::max(best, nets_[at] - values_[at]);
      }
      (*write_)[own] = static_cast<std::int8_t>(best);
    }
    count_ = 0;
  }

 private:
  const LayerIndex& index_;
  LayerExpand expand_;
  std::vector<std::int8_t>* write_ = nullptr;
  std::uint64_t piece_ = 0;
  std::size_t count_ = 0;
  std::vector<Packed> classes_;
  std::vector<std::uint8_t> moves_;
  std::vector<std::uint64_t> own_;
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint64_t> ranks_;
  std::vector<std::int8_t> nets_;
  std::vector<std::int8_t> values_;
};

}  // namespace

std::uint64_t layer_bytes(const LayerIndex& index, const LayerCounts& classes, int beads) {
  return lines_of(index.positions(beads)) * kLineWords * 8 +
         classes[static_cast<std::size_t>(beads)];
}

std::uint64_t tier_bytes(const LayerIndex& index, const LayerCounts& classes, int window,
                         int threads) {
  const int top = index.ring().max_beads();
  std::uint64_t most = 0;
  for (int beads = 0; beads <= top; ++beads) {
    std::uint64_t in_memory = 0;
    for (int b = std::max(0, beads - window); b <= beads; ++b)
      in_memory += layer_bytes(index, classes, b);
    most = std::max(most, in_memory);
  }
  // The deferred moves sorted at once: a sixteenth of the largest layer's bytes at least.
  std::uint64_t largest = 0;
  for (int beads = 0; beads <= top; ++beads)
    largest = std::max(largest, layer_bytes(index, classes, beads));
  most += largest / 16;
  // A thread's batch: its classes, and each move's key, rank, net and value; its deferred moves.
  const auto per_class =
      static_cast<std::uint64_t>(8 + 1 + 8 + index.ring().pits * (8 + 8 + 1 + 1));
  const std::uint64_t batch = kSolveBatch * per_class + static_cast<std::uint64_t>(top + 1) *
                                                            kDeferredBuffer * sizeof(Deferred);
  most += static_cast<std::uint64_t>(std::max(1, threads)) * batch;
  // The merge that writes the table comes after, with every layer on disk.
  return std::max(most, merge_bytes(kLeastMergeLines, threads));
}

int widest_window(const LayerIndex& index, const LayerCounts& classes, std::uint64_t memory,
                  int threads) {
  int window = -1;
  while (window < index.ring().max_beads() &&
         tier_bytes(index, classes, window + 1, threads) <= memory)
    ++window;
  return window;
}

TierSolve::TierSolve(std::shared_ptr<const RingGeometry> geometry, TierOptions options)
    : geometry_(std::move(geometry)),
      index_(geometry_->ring()),
      options_(std::move(options)),
      threads_(solve_threads(options_.solve)),
      window_(options_.window >= 0
                  ? options_.window
                  : widest_window(index_, geometry_->layer_classes(), options_.memory, threads_)) {
  const Ring ring = geometry_->ring();
  if (ring.max_beads() >= 128) {
    throw std::invalid_argument("the solve past memory keeps values in a byte: " + ring.describe() +
                                " has too many beads");
  }
  counts_.window = window_;
  layers_.resize(static_cast<std::size_t>(ring.max_beads() + 1));
  // The memory the window leaves, for the deferred moves sorted at once.
  const std::uint64_t window_bytes = memory_bytes();
  deferred_room_ = std::max(
      kLeastDeferred,
      options_.memory > window_bytes ? (options_.memory - window_bytes) / sizeof(Deferred) : 0);
  // The merge walks as many lines at once as the memory the solve may take allows.
  const std::uint64_t merge_room = std::max(window_bytes, options_.memory);
  merge_lines_ = kLeastMergeLines;
  while (merge_lines_ < kMergeLines && merge_bytes(2 * merge_lines_, threads_) <= merge_room)
    merge_lines_ *= 2;
}

TierSolve::~TierSolve() = default;

const std::string& TierSolve::folder() const {
  static const std::string none;
  return folder_ ? folder_->path() : none;
}

int TierSolve::finished_layers() const {
  return folder_ ? folder_->finished() : 0;
}

std::uint64_t TierSolve::kept_bytes() const {
  std::uint64_t bytes = 0;
  for (int beads = 0; beads < counts_.kept_layers; ++beads)
    bytes += layer_bytes(index_, geometry_->layer_classes(), beads);
  return bytes;
}

void TierSolve::open(const std::string& folder) {
  if (folder_) throw std::logic_error("TierSolve::open twice");
  const Ring ring = geometry_->ring();
  LayerSizes sizes;
  for (int beads = 0; beads <= ring.max_beads(); ++beads) {
    sizes.lines.push_back(lines_of(index_.positions(beads)) * kLineWords * 8);
    sizes.values.push_back(geometry_->layer_classes()[static_cast<std::size_t>(beads)]);
  }
  folder_ = std::make_unique<LayerFolder>(folder, ring, std::move(sizes), counts_);
  counts_.kept_layers = folder_->finished();
}

void TierSolve::load_layer(int beads) {
  auto layer = std::make_unique<Layer>(index_.positions(beads),
                                       geometry_->layer_classes()[static_cast<std::size_t>(beads)]);
  folder_->load(beads, layer->line(0), layer->values());
  layers_[static_cast<std::size_t>(beads)] = std::move(layer);
}

std::uint64_t TierSolve::memory_bytes() const {
  return tier_bytes(index_, geometry_->layer_classes(), std::max(0, window_), threads_);
}

std::uint64_t TierSolve::least_memory_bytes() const {
  return tier_bytes(index_, geometry_->layer_classes(), 0, threads_);
}

std::uint64_t TierSolve::disk_bytes() const {
  const Ring ring = geometry_->ring();
  std::uint64_t bytes = 0;
  for (int beads = 0; beads <= ring.max_beads(); ++beads)
    bytes += layer_bytes(index_, geometry_->layer_classes(), beads);
  return bytes;
}

void TierSolve::solve() {
  if (window_ < 0) throw std::logic_error("TierSolve::solve without a window");
  if (!folder_) throw std::logic_error("TierSolve::solve before open");
  const Ring ring = geometry_->ring();
  // The window below the first layer to solve comes back from its files.
  const int first = counts_.kept_layers;
  for (int beads = std::max(0, first - window_); beads < first; ++beads)
    load_layer(beads);
  for (int beads = first; beads <= ring.max_beads(); ++beads) {
    solve_layer(beads);
    // The next layer keeps the `window` layers below it.
    const int leaving = beads - window_;
    if (leaving >= 0) layers_[static_cast<std::size_t>(leaving)].reset();
  }
  solved_ = true;
}

void TierSolve::solve_layer(int beads) {
  const Ring ring = geometry_->ring();
  const std::uint64_t positions = index_.positions(beads);
  const std::uint64_t classes = geometry_->layer_classes()[static_cast<std::size_t>(beads)];
  auto& slot = layers_[static_cast<std::size_t>(beads)];
  slot = std::make_unique<Layer>(positions, classes);
  Layer& layer = *slot;
  std::uint64_t in_memory = 0;
  for (const auto& held : layers_)
    in_memory += held ? held->bytes() : 0;
  counts_.peak_layers = std::max(counts_.peak_layers, in_memory);

  // The pieces: runs of whole lines.
  const std::uint64_t lines = layer.lines();
  const std::uint64_t pieces = std::max<std::uint64_t>(
      1, std::min({lines, kPiecesPerThread * static_cast<std::uint64_t>(threads_),
                   std::uint64_t{1} << 16}));  // a deferred move names its piece in 16 bits
  const auto piece_lines = [&](std::uint64_t p) { return lines * p / pieces; };
  const auto board_from = [&](std::uint64_t line) {
    const std::uint64_t position = line * kLinePositions;
    return position < positions ? index_.board_at(beads, position) : ~Packed{0};
  };

  // One walk of each piece marks its classes' bits and solves them, in batches, into values of
  // the piece's own; the pieces' values are placed in the layer in order as they are done, and
  // the first rank of each piece kept for the moves deferred.
  Pass pass(*this, beads);
  const LayerExpand expand = layer_expander(ring.pits);
  std::atomic<std::uint64_t> next{0}, moves{0}, done{0};
  SolveProgress progress;
  progress.layer = beads;
  progress.layers = ring.max_beads() + 1;
  progress.classes = geometry_->classes();
  progress.threads = threads_;
  std::uint64_t before = 0;
  for (int b = 0; b < beads; ++b)
    before += geometry_->layer_classes()[static_cast<std::size_t>(b)];
  if (options_.solve.progress) {  // the layer begun: every layer is reported, however small
    progress.done = before;
    options_.solve.progress(progress);
  }
  std::mutex placing;
  std::map<std::uint64_t, std::vector<std::int8_t>> finished;  // done, not placed yet
  std::uint64_t placed = 0, rank = 0;
  std::vector<std::uint64_t> first_ranks(pieces + 1, 0);
  const auto place = [&](std::uint64_t piece, std::vector<std::int8_t>& values) {
    const std::lock_guard lock(placing);
    finished.emplace(piece, std::move(values));
    for (auto first = finished.begin(); first != finished.end() && first->first == placed;
         first = finished.begin()) {
      if (rank + first->second.size() > classes) break;  // more than Burnside's: found below
      std::copy(first->second.begin(), first->second.end(), layer.values() + rank);
      first_ranks[placed++] = rank;
      rank += first->second.size();
      finished.erase(first);
    }
  };
  on_threads(threads_, [&](int thread) {
    TierBatch batch(index_, expand);
    std::vector<std::vector<Deferred>> deferred(static_cast<std::size_t>(pass.lowest()));
    std::uint64_t made = 0;
    for (std::uint64_t p = next++; p < pieces; p = next++) {
      std::vector<std::int8_t> values;
      batch.start(p, values);
      index_.for_each_necklace(
          beads, board_from(piece_lines(p)), board_from(piece_lines(p + 1)),
          [&](Packed packed, std::uint64_t position) {
            layer.line(position / kLinePositions)[2 + position % kLinePositions / 64] |=
                std::uint64_t{1} << (position % 64);
            batch.add(packed);
            if (batch.full()) batch.solve(pass, deferred, made);
          });
      batch.solve(pass, deferred, made);
      done += values.size();
      place(p, values);
      if (thread == 0 && options_.solve.progress) {
        progress.done = before + done.load();
        options_.solve.progress(progress);
      }
    }
    for (int below = 0; below < pass.lowest(); ++below) {
      if (!deferred[static_cast<std::size_t>(below)].empty())
        pass.defer(below, deferred[static_cast<std::size_t>(below)]);
    }
    moves += made;
  });
  counts_.moves += moves.load();
  if (placed != pieces || rank != classes || count_lines(layer.line(0), lines, 0) != classes) {
    throw std::logic_error("the solve past memory found a layer of " + ring.describe() +
                           " that Burnside's count does not");
  }

  for (int below = 0; below < pass.lowest(); ++below) {
    std::uint64_t count = 0;
    std::unique_ptr<LayerFile> file = pass.take_deferred(below, count);
    if (!file) continue;
    counts_.deferred += count;
    ++counts_.deferred_layers;
    // The moves into `below`, as many at a time as the memory left takes, each time sorted by
    // the successor's position and answered in one sweep of its files.
    const std::unique_ptr<LayerFile> lines_file = folder_->finished_file("lines", below);
    const std::unique_ptr<LayerFile> values_file = folder_->finished_file("values", below);
    for (std::uint64_t first = 0; first < count; first += deferred_room_) {
      const std::uint64_t here = std::min(deferred_room_, count - first);
      std::vector<Deferred> moves_into(here);
      file->read(moves_into.data(), here * sizeof(Deferred), first * sizeof(Deferred));
      counts_.bytes_read += here * sizeof(Deferred);
      ++counts_.sweeps;
      std::sort(moves_into.begin(), moves_into.end(),
                [](const Deferred& a, const Deferred& b) { return a.key < b.key; });
      answer(moves_into, *lines_file, *values_file, first_ranks, layer.values(),
             counts_.bytes_read);
    }
    file.reset();
    folder_->remove_deferred(below);
  }
  if (std::find(layer.values(), layer.values() + classes, kUnknown) != layer.values() + classes) {
    throw std::logic_error("the solve past memory left a class of " + ring.describe() +
                           " without a value");
  }
  folder_->finish(beads,
                  {reinterpret_cast<const unsigned char*>(layer.line_words()),
                   static_cast<std::size_t>(layer.lines() * kLineWords * 8)},
                  {reinterpret_cast<const unsigned char*>(layer.values()),
                   static_cast<std::size_t>(layer.classes())});
  if (options_.solve.progress) {
    progress.done = before + classes;
    options_.solve.progress(progress);
  }
}

}  // namespace ioiwari
