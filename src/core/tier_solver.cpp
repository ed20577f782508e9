#include "ioiwari/core/tier_solver.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "file_kind.hpp"
#include "ioiwari/core/expansion.hpp"
#include "ioiwari/core/large_array.hpp"
#include "ioiwari/core/table_file.hpp"
#include "solver_parts.hpp"
#include "temporary_files.hpp"

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

// Bytes a write or a read of a layer's file moves at once.
constexpr std::size_t kChunk = std::size_t{1} << 20;

// The lines of the ring's index that the merge walks at once: the most (512 KiB of lines), and
// the fewest, when memory is short.
constexpr std::uint64_t kMergeLines = 1 << 13;
constexpr std::uint64_t kLeastMergeLines = 1 << 6;

// The most memory the merge takes when it walks `lines` lines at once: the stage of the table's
// writer, and for each thread (and the buffer they copy) a chunk's lines and, at most, a value
// in and a value out for each of its positions.
std::uint64_t merge_bytes(std::uint64_t lines, int threads) {
  return TableOutput::kStageBytes + static_cast<std::uint64_t>(std::max(1, threads) + 1) * lines *
                                        (kLineWords * sizeof(std::uint64_t) + 2 * kLinePositions);
}

// Runs make(k, buffer) for k = 0 .. count-1 on `threads` threads, each with a buffer of its own
// (copies of `buffer`), and take(k, buffer) after each, in order of k: a thread whose turn has
// not come waits for it.
template <class Buffer, class Make, class Take>
void in_order(std::uint64_t count, int threads, const Buffer& buffer, Make&& make, Take&& take) {
  std::atomic<std::uint64_t> next{0};
  std::mutex mutex;
  std::condition_variable turn_came;
  std::uint64_t turn = 0;
  std::exception_ptr failed;
  on_threads(threads, [&](int) {
    Buffer mine = buffer;
    for (std::uint64_t k = next++; k < count; k = next++) {
      try {
        make(k, mine);
      } catch (...) {
        const std::lock_guard lock(mutex);
        if (!failed) failed = std::current_exception();
      }
      std::unique_lock lock(mutex);
      turn_came.wait(lock, [&] { return turn == k; });
      if (!failed) {
        try {
          take(k, mine);
        } catch (...) {
          failed = std::current_exception();
        }
      }
      ++turn;
      turn_came.notify_all();
    }
  });
  if (failed) std::rethrow_exception(failed);
}

std::uint64_t lines_of(std::uint64_t positions) {
  return (positions + kLinePositions - 1) / kLinePositions;
}

[[noreturn]] void file_failed(const std::string& what, const std::string& path, int error) {
  throw TableFileError(TableFileError::Kind::unwritable, "the solve past memory cannot " + what +
                                                             " " + quoted_path(path) + ": " +
                                                             std::strerror(error));
}

// A layer's file, written once in order and read back at any offset.
class LayerFile {
 public:
  LayerFile(std::string path, int flags) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), flags | O_CLOEXEC, 0600);
    if (fd_ < 0) file_failed("open", path_, errno);
  }
  // Takes `fd`, open on `path`.
  LayerFile(int fd, std::string path) : path_(std::move(path)), fd_(fd) {}
  ~LayerFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  LayerFile(const LayerFile&) = delete;
  LayerFile& operator=(const LayerFile&) = delete;

  const std::string& path() const { return path_; }
  int fd() const { return fd_; }

  // Appends `bytes` bytes.
  void write(const void* data, std::uint64_t bytes) {
    const auto* at = static_cast<const unsigned char*>(data);
    while (bytes > 0) {
      const ssize_t done = ::write(fd_, at, std::min<std::uint64_t>(bytes, kChunk));
      if (done < 0) {
        if (errno == EINTR) continue;
        file_failed("write", path_, errno);
      }
      at += done;
      bytes -= static_cast<std::uint64_t>(done);
    }
  }
  // Reads `bytes` bytes at `offset`, all of them.
  void read(void* data, std::uint64_t bytes, std::uint64_t offset) const {
    auto* at = static_cast<unsigned char*>(data);
    while (bytes > 0) {
      const ssize_t done =
          ::pread(fd_, at, std::min<std::uint64_t>(bytes, kChunk), static_cast<off_t>(offset));
      if (done < 0 && errno == EINTR) continue;
      if (done < 0) file_failed("read", path_, errno);
      if (done == 0) file_failed("read", path_, EIO);  // shorter than written: changed under us
      at += done;
      bytes -= static_cast<std::uint64_t>(done);
      offset += static_cast<std::uint64_t>(done);
    }
  }
  // Makes what was written durable: a finished layer survives a reboot, not only a kill.
  void sync() const {
    if (::fsync(fd_) != 0) file_failed("sync", path_, errno);
  }
  std::uint64_t size() const {
    struct stat status {};
    if (::fstat(fd_, &status) != 0) file_failed("stat", path_, errno);
    return static_cast<std::uint64_t>(status.st_size);
  }

 private:
  std::string path_;
  int fd_ = -1;
};

// Reads a file forward, a chunk at a time: the bytes at offsets that never decrease.
class ForwardReader {
 public:
  ForwardReader(const LayerFile& file, std::uint64_t size, std::atomic<std::uint64_t>& read)
      : file_(file),
        size_(size),
        read_(read),
        buffer_(static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, size))) {}

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

// The version of a layer's files and manifest: a change to either, or to LayerIndex's order,
// makes it another, and a stopped solve's layers are then solved again, not taken up.
constexpr std::string_view kManifestHead = "ioiwari layer 1\n";
// The most bytes a manifest takes: one longer is no manifest.
constexpr std::size_t kManifestBytes = 512;

// Writes `bytes` to `part` (a name ending in kPartSuffix), syncs it and renames it to `path`.
void write_finished(const std::string& part, const std::string& path, const void* data,
                    std::uint64_t bytes) {
  {
    std::optional<LayerFile> created;
    {
      const PartCreation creating;
      created.emplace(part, O_WRONLY | O_CREAT | O_TRUNC);
    }
    LayerFile& file = *created;
    file.write(data, bytes);
    file.sync();
  }
  if (::rename(part.c_str(), path.c_str()) != 0) file_failed("rename", part, errno);
}

// The SHA-256 of the file at `path`, if it has exactly `bytes` bytes; counts what it read.
std::optional<Digest> file_digest(const std::string& path, std::uint64_t bytes,
                                  std::uint64_t& read) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  const LayerFile file(fd, path);
  if (file.size() != bytes) return std::nullopt;
  Sha256 hash;
  std::vector<unsigned char> buffer(
      static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, bytes)));
  for (std::uint64_t at = 0; at < bytes; at += buffer.size()) {
    const auto here = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), bytes - at));
    file.read(buffer.data(), here, at);
    hash.update({buffer.data(), here});
    read += here;
  }
  return hash.finish();
}

// The text of the file at `path`, if it is a regular file of at most kManifestBytes bytes.
std::optional<std::string> small_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  const LayerFile file(fd, path);
  const std::uint64_t bytes = file.size();
  if (bytes > kManifestBytes) return std::nullopt;
  std::string text(static_cast<std::size_t>(bytes), '\0');
  file.read(text.data(), bytes, 0);
  return text;
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
    if (!file) {
      const PartCreation creating;
      file = std::make_unique<LayerFile>(solve_.path("deferred", below) + kPartSuffix,
                                         O_RDWR | O_CREAT | O_TRUNC);
    }
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

namespace {

// The kinds of a layer's files: its lines, its values, its manifest, and the moves deferred
// into it (never finished: always a part).
constexpr const char* kFileKinds[] = {"lines", "values", "layer", "deferred"};

}  // namespace

TierSolve::~TierSolve() {
  if (folder_fd_ < 0) return;
  const Ring ring = geometry_->ring();
  for (int beads = 0; beads <= ring.max_beads(); ++beads) {
    for (const char* kind : kFileKinds)
      ::unlink((path(kind, beads) + kPartSuffix).c_str());
    // A table written, or a merge that gave the layers back, leaves nothing worth taking up.
    if (written_ || given_back_) remove_layer_files(beads);
  }
  ::rmdir(folder_.c_str());  // only when empty: finished layers stay for the next solve
  forget_temporary(slot_);
  ::close(folder_fd_);
}

std::string TierSolve::path(const char* kind, int beads) const {
  return folder_ + "/" + kind + "-" + std::to_string(beads);
}

void TierSolve::remove_layer_files(int beads) const {
  // The manifest first: a stop in between leaves files that no manifest vouches for.
  for (const char* kind : {"layer", "lines", "values"})
    ::unlink(path(kind, beads).c_str());
}

std::string TierSolve::manifest(int beads, const Digest& lines, const Digest& values) const {
  const Ring ring = geometry_->ring();
  return std::string(kManifestHead) + "ring " + std::to_string(ring.pits) + " " +
         std::to_string(ring.capacity) + "\nlayer " + std::to_string(beads) + "\nlines " +
         std::to_string(lines_of(index_.positions(beads)) * kLineWords * 8) + " " + hex(lines) +
         "\nvalues " + std::to_string(geometry_->layer_classes()[static_cast<std::size_t>(beads)]) +
         " " + hex(values) + "\n";
}

std::uint64_t TierSolve::kept_bytes() const {
  std::uint64_t bytes = 0;
  for (int beads = 0; beads < counts_.kept_layers; ++beads)
    bytes += layer_bytes(index_, geometry_->layer_classes(), beads);
  return bytes;
}

void TierSolve::open(const std::string& folder) {
  if (folder_fd_ >= 0) throw std::logic_error("TierSolve::open twice");
  const Ring ring = geometry_->ring();
  const std::string where = folder.empty() ? std::string(".") : folder;
  const std::string path =
      where + "/ioiwari-layers-" + std::to_string(ring.pits) + "-" + std::to_string(ring.capacity) +
      "-" + std::to_string(::geteuid());  // a user's own: another's in a shared /tmp is no bar
  {
    // A signal waits until the folder is registered: then its handler clears it.
    const SignalsHeld held;
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
      file_failed("make the folder", path, errno);
    const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) file_failed("open the folder", path, errno);
    struct stat status {};
    if (::fstat(fd, &status) != 0) {
      const int error = errno;
      ::close(fd);
      file_failed("read the folder", path, error);
    }
    // Its layers are believed as solved: a folder that another user could have written is not.
    if (status.st_uid != ::geteuid() || (status.st_mode & 022) != 0) {
      ::close(fd);
      throw TableFileError(TableFileError::Kind::unwritable,
                           "the solve past memory cannot take up " + quoted_path(path) +
                               ": another user owns it or may write in it");
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      ::close(fd);
      if (error == EWOULDBLOCK) {
        throw TableFileError(TableFileError::Kind::unwritable,
                             "the solve past memory cannot use " + quoted_path(path) +
                                 ": another solve of " + ring.describe() + " is using it");
      }
      file_failed("lock the folder", path, error);
    }
    folder_ = path;
    folder_fd_ = fd;
    slot_ = remember_temporary(folder_, Temporary::parts);
  }
  // What a killed solve left unfinished goes; its finished layers are kept from the empty board
  // up to the first that fails its manifest, and everything above that goes.
  int kept = 0;
  for (int beads = 0; beads <= ring.max_beads(); ++beads) {
    for (const char* kind : kFileKinds)
      ::unlink((this->path(kind, beads) + kPartSuffix).c_str());
  }
  while (kept <= ring.max_beads() && layer_kept(kept))
    ++kept;
  for (int beads = kept; beads <= ring.max_beads(); ++beads)
    remove_layer_files(beads);
  counts_.kept_layers = finished_ = kept;
}

bool TierSolve::layer_kept(int beads) {
  const std::optional<std::string> text = small_file(path("layer", beads));
  if (!text || !text->starts_with(kManifestHead)) return false;
  const std::optional<Digest> lines =
      file_digest(path("lines", beads), lines_of(index_.positions(beads)) * kLineWords * 8,
                  counts_.bytes_checked);
  if (!lines) return false;
  const std::optional<Digest> values = file_digest(
      path("values", beads), geometry_->layer_classes()[static_cast<std::size_t>(beads)],
      counts_.bytes_checked);
  return values && *text == manifest(beads, *lines, *values);
}

void TierSolve::load_layer(int beads) {
  auto layer = std::make_unique<Layer>(index_.positions(beads),
                                       geometry_->layer_classes()[static_cast<std::size_t>(beads)]);
  const LayerFile lines(path("lines", beads), O_RDONLY);
  lines.read(layer->line(0), layer->lines() * kLineWords * 8, 0);
  const LayerFile values(path("values", beads), O_RDONLY);
  values.read(layer->values(), layer->classes(), 0);
  counts_.bytes_read += layer->bytes();
  layers_[static_cast<std::size_t>(beads)] = std::move(layer);
}

void TierSolve::finish_layer(int beads, const Layer& layer) {
  const auto* lines = reinterpret_cast<const unsigned char*>(layer.line_words());
  const std::uint64_t lines_bytes = layer.lines() * kLineWords * 8;
  const auto* values = reinterpret_cast<const unsigned char*>(layer.values());
  write_finished(path("lines", beads) + kPartSuffix, path("lines", beads), lines, lines_bytes);
  write_finished(path("values", beads) + kPartSuffix, path("values", beads), values,
                 layer.classes());
  const std::string text = manifest(beads, sha256({lines, static_cast<std::size_t>(lines_bytes)}),
                                    sha256({values, static_cast<std::size_t>(layer.classes())}));
  write_finished(path("layer", beads) + kPartSuffix, path("layer", beads), text.data(),
                 text.size());
  if (::fsync(folder_fd_) != 0) file_failed("sync", folder_, errno);
  counts_.bytes_written += lines_bytes + layer.classes() + text.size();
  finished_ = beads + 1;
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
  if (folder_fd_ < 0) throw std::logic_error("TierSolve::solve before open");
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
    const LayerFile lines_file(path("lines", below), O_RDONLY);
    const LayerFile values_file(path("values", below), O_RDONLY);
    for (std::uint64_t first = 0; first < count; first += deferred_room_) {
      const std::uint64_t here = std::min(deferred_room_, count - first);
      std::vector<Deferred> moves_into(here);
      file->read(moves_into.data(), here * sizeof(Deferred), first * sizeof(Deferred));
      counts_.bytes_read += here * sizeof(Deferred);
      ++counts_.sweeps;
      std::sort(moves_into.begin(), moves_into.end(),
                [](const Deferred& a, const Deferred& b) { return a.key < b.key; });
      answer(moves_into, lines_file, values_file, first_ranks, layer.values(), counts_.bytes_read);
    }
    file.reset();
    ::unlink((path("deferred", below) + kPartSuffix).c_str());
  }
  if (std::find(layer.values(), layer.values() + classes, kUnknown) != layer.values() + classes) {
    throw std::logic_error("the solve past memory left a class of " + ring.describe() +
                           " without a value");
  }
  finish_layer(beads, layer);
  if (options_.solve.progress) {
    progress.done = before + classes;
    options_.solve.progress(progress);
  }
}

void TierSolve::write(TableOutput& output, Merge merge) {
  if (!solved_) throw std::logic_error("TierSolve::write before solve");
  const Ring ring = geometry_->ring();
  const RingIndex& ring_index = geometry_->index();
  const auto layers = static_cast<std::size_t>(ring.max_beads() + 1);
  const bool give_back = merge == Merge::give_back;
  if (give_back) {
    // No layer is finished any more: the manifests go first, and then the lines' files.
    given_back_ = true;
    finished_ = 0;
    for (int beads = 0; beads <= ring.max_beads(); ++beads) {
      ::unlink(path("layer", beads).c_str());
      ::unlink(path("lines", beads).c_str());
    }
  }
  output.reserve();

  // The ring's index is cut into chunks of lines, each walked by any thread and appended in
  // order: first the lines, then (a second walk) the values, each class's from its layer's file.
  const std::uint64_t all_lines = geometry_->lines();
  const std::uint64_t chunks = (all_lines + merge_lines_ - 1) / merge_lines_;
  const auto chunk_lines = [&](std::uint64_t chunk) {
    return std::min(merge_lines_, all_lines - chunk * merge_lines_);
  };
  const auto walk = [&](std::uint64_t chunk, auto&& visit) {
    const std::uint64_t first = chunk * merge_lines_ * kLinePositions;
    const std::uint64_t end = first + chunk_lines(chunk) * kLinePositions;
    for_each_necklace(ring.pits, ring.capacity, -1, ring_index.board_at(first),
                      ring_index.board_at(end), visit);
  };
  const auto bytes_of = [](const auto& vector, std::size_t count) {
    return std::span(reinterpret_cast<const unsigned char*>(vector.data()),
                     count * sizeof(vector[0]));
  };
  // The classes of each layer in each chunk, then where each chunk's start in each layer.
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(chunks) * layers, 0);

  std::uint64_t rank = 0;
  in_order(
      chunks, threads_, std::vector<std::uint64_t>(merge_lines_ * kLineWords),
      [&](std::uint64_t chunk, std::vector<std::uint64_t>& lines) {
        std::fill(lines.begin(), lines.end(), 0);
        const std::uint64_t first = chunk * merge_lines_;
        std::uint64_t* here = counts.data() + chunk * layers;
        walk(chunk, [&](Packed packed) {
          const std::uint64_t position = ring_index.position(packed) - first * kLinePositions;
          lines[kLineWords * (position / kLinePositions) + 2 + position % kLinePositions / 64] |=
              std::uint64_t{1} << (position % 64);
          ++here[beads_of(packed)];
        });
      },
      [&](std::uint64_t chunk, std::vector<std::uint64_t>& lines) {
        rank = count_lines(lines.data(), chunk_lines(chunk), rank);
        output.append(bytes_of(lines, chunk_lines(chunk) * kLineWords));
      });

  std::vector<std::unique_ptr<LayerFile>> files(layers);
  for (int beads = 0; beads <= ring.max_beads(); ++beads) {
    files[static_cast<std::size_t>(beads)] =
        std::make_unique<LayerFile>(path("values", beads), give_back ? O_RDWR : O_RDONLY);
    if (give_back) ::unlink(path("values", beads).c_str());  // gone when closed
  }
  std::vector<std::uint64_t> starts(counts.size() + layers, 0);
  for (std::uint64_t chunk = 0; chunk < chunks; ++chunk)
    for (std::size_t b = 0; b < layers; ++b)
      starts[(chunk + 1) * layers + b] = starts[chunk * layers + b] + counts[chunk * layers + b];
  std::atomic<std::uint64_t> read{0};
  struct Values {
    std::vector<std::int8_t> out;
    std::vector<std::vector<std::int8_t>> in;  // each layer's values of the chunk
  };
  in_order(
      chunks, threads_, Values{{}, std::vector<std::vector<std::int8_t>>(layers)},
      [&](std::uint64_t chunk, Values& values) {
        std::uint64_t total = 0;
        std::vector<std::size_t> taken(layers, 0);
        for (std::size_t b = 0; b < layers; ++b) {
          const std::uint64_t count = counts[chunk * layers + b];
          values.in[b].resize(count);
          files[b]->read(values.in[b].data(), count, starts[chunk * layers + b]);
          read += count;
          total += count;
        }
        values.out.resize(total);
        std::size_t at = 0;
        walk(chunk, [&](Packed packed) {
          const auto b = static_cast<std::size_t>(beads_of(packed));
          values.out[at++] = values.in[b][taken[b]++];
        });
      },
      [&](std::uint64_t chunk, Values& values) {
        output.append(bytes_of(values.out, values.out.size()));
        // The layers' bytes merged so far go back to the disk as the merge goes.
        if (give_back && chunk % 64 == 63) {
          for (std::size_t b = 0; b < layers; ++b) {
            const std::uint64_t done = starts[(chunk + 1) * layers + b] / kChunk * kChunk;
            if (done > 0) {
              ::fallocate(files[b]->fd(), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
                          static_cast<off_t>(done));
            }
          }
        }
      });
  counts_.bytes_read += read.load();
  files.clear();
  output.commit(rank);
  written_ = true;
}

}  // namespace ioiwari
