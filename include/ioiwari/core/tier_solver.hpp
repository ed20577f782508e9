// The solve past memory: a ring whose table does not fit this machine's memory, solved layer by
// layer of bead count with only a few layers in memory and the rest on disk (docs/rings.md,
// "Past memory").
//
// Every move takes a bead or more off the board, and most take few: on 15 pits 99.5% of moves
// take at most 6. So the solve keeps in memory the layer being solved and the `window` solved
// layers just below it, each numbered on its own (LayerIndex, layer_index.hpp: its 64-byte lines
// and a byte a class, as the ring's index does for the whole ring); each layer goes to a file once
// solved, and leaves memory when the window has passed it. A layer's pass is the ring solver's
// (ring_solver.hpp): batches of classes, every move made eight at a time (the layered
// expansion, expansion.hpp), each successor's value read from its layer in memory. A successor
// in a layer below the window is not read then: the move is written down (its class's rank, its
// net, the successor's layer and position), and once the pass is over the moves into each deeper
// layer are sorted by position and answered in one sweep of that layer's files, in order, each
// raising its class's value if it is better. Then the layer is whole.
//
// At the end the layers are merged back into the table file's order (code order): one walk of
// every class for the ring's index, one more for the values, each class's value taken in turn
// from its layer's file. The file is the one the solve in memory writes, byte for byte (a test
// holds the two equal).
//
// A stopped solve is taken up where it stopped: each solved layer is finished in the ring's own
// folder of layers (src/core/layer_folder.hpp says how), and the next solve of the ring there
// keeps the finished layers, loads the window below the first one it solves, and solves the
// rest. The folder goes once the table is written.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ioiwari/core/layer_index.hpp"
#include "ioiwari/core/ring_geometry.hpp"
#include "ioiwari/core/ring_solver.hpp"

namespace ioiwari {

class LayerFolder;
class TableOutput;

// The bytes a layer takes in memory: its lines (64 a line of 384 positions) and its values.
std::uint64_t layer_bytes(const LayerIndex& index, const LayerCounts& classes, int beads);

// The most memory a solve past memory with `window` solved layers in memory takes: the largest
// `window` + 1 layers in a row, room to sort deferred moves in (a sixteenth of the largest
// layer), and the threads' batches; or, if more, the least that the merge which writes its table
// takes.
std::uint64_t tier_bytes(const LayerIndex& index, const LayerCounts& classes, int window,
                         int threads);

// The widest window whose solve takes at most `memory` bytes, or -1 when not even a layer
// alone does.
int widest_window(const LayerIndex& index, const LayerCounts& classes, std::uint64_t memory,
                  int threads);

// What a solve past memory did, for its report.
struct TierCounts {
  int window = 0;
  std::uint64_t moves = 0;            // every move of every class
  std::uint64_t deferred = 0;         // moves answered after their layer's pass
  std::uint64_t sweeps = 0;           // sorted runs of them, each answered in one sweep
  std::uint64_t deferred_layers = 0;  // layers below the window that a layer's pass deferred to
  std::uint64_t bytes_written = 0;    // to the layers' files
  std::uint64_t bytes_read = 0;       // from them, for the deferred moves and the merge
  std::uint64_t peak_layers = 0;      // the most bytes of layers in memory at once
  int kept_layers = 0;                // layers a stopped solve had finished, taken up
  std::uint64_t bytes_checked = 0;    // of their files, hashed to take them up
};

struct TierOptions {
  SolveOptions solve;
  // The most memory the solve may take: its window is the widest that fits (widest_window()).
  std::uint64_t memory = 0;
  // The solved layers kept in memory below the one being solved, when 0 or more: then `memory`
  // is not asked (tests).
  int window = -1;
};

// A solve past memory of one ring. Its files live in the ring's folder of layers, made by open()
// or taken up from a stopped solve, and removed once the table is written. SIGINT, SIGTERM and
// SIGHUP remove its unfinished files and leave its finished layers (temporary_files.hpp). Throws
// TableFileError (unwritable) when the folder cannot be made or locked, or a file cannot be
// written or read back.
class TierSolve {
 public:
  TierSolve(std::shared_ptr<const RingGeometry> geometry, TierOptions options);
  ~TierSolve();
  TierSolve(const TierSolve&) = delete;
  TierSolve& operator=(const TierSolve&) = delete;

  // The solved layers it keeps in memory below the one it solves: -1 when options.memory takes
  // not even one layer, and then it cannot solve.
  int window() const { return window_; }
  // The most memory it takes (tier_bytes()), for a window of 0 or more; the least memory any
  // window takes (a window of 0).
  std::uint64_t memory_bytes() const;
  std::uint64_t least_memory_bytes() const;
  // The folder of the layers' files, once open.
  const std::string& folder() const;
  // The bytes the layers' files take on disk at most, during the solve and after it.
  std::uint64_t disk_bytes() const;
  // The layers, and their files' bytes, that open() took up from a stopped solve.
  int kept_layers() const { return counts_.kept_layers; }
  std::uint64_t kept_bytes() const;
  // The layers finished so far, in the folder: what a stop now leaves to take up.
  int finished_layers() const;

  // Makes the ring's folder of layers in `folder` (mode 700), or takes up the one a stopped
  // solve left there: it must be a folder of this user's that no other user can write, and no
  // other solve may hold it (a lock, given back when this solve ends). Its unfinished files are
  // removed, its finished layers checked against their manifests and kept up to the first that
  // fails, and every file above that removed.
  void open(const std::string& folder);
  // Solves every layer that open() did not keep, in order, each to its files. Needs a window of
  // 0 or more.
  void solve();
  // What the merge does with the layers' files: keeps them until the table is written, so that a
  // stop during the merge takes up at the merge (their bytes and the table's on disk at once);
  // or gives them back to the disk as it reads them (a stop during the merge solves again).
  enum class Merge { keep_layers, give_back };
  // Writes the solved table to `output` (its lines, then its values, then commit()), and then
  // removes the layers' folder.
  void write(TableOutput& output, Merge merge);

  const TierCounts& counts() const { return counts_; }

 private:
  class Layer;
  class Pass;
  void solve_layer(int beads);
  void load_layer(int beads);

  std::shared_ptr<const RingGeometry> geometry_;
  LayerIndex index_;
  TierOptions options_;
  int threads_;
  int window_;
  std::uint64_t deferred_room_ = 0;      // the deferred moves sorted and answered at once
  std::uint64_t merge_lines_ = 0;        // the lines of the ring's index write() merges at once
  std::unique_ptr<LayerFolder> folder_;  // once open
  std::vector<std::unique_ptr<Layer>> layers_;  // by beads: those in memory, else null
  TierCounts counts_;
  bool solved_ = false;
};

}  // namespace ioiwari
