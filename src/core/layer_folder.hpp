// The folder of a solve past memory's layers (tier_solver.hpp): made, or taken up from a stopped
// solve, checked, locked, and every file in it reached through the handle that was checked.
//
// A solved layer B is finished there as three files: lines-B and values-B, each written under a
// name ending in kPartSuffix, synced and renamed, and then its manifest, layer-B (the ring, the
// layer, each file's size and SHA-256, and how many of its values are each value, of which
// format 5's code is made before the merge), written the same way. The moves deferred into a layer
// live in deferred-B.part while its solve needs them. The next solve of the ring in that folder
// keeps every layer in a row from the empty board up whose files match their manifest.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/sha256.hpp"
#include "ioiwari/core/table_compressed.hpp"
#include "ioiwari/core/tier_solver.hpp"

namespace ioiwari {

// Throws TableFileError (unwritable): the solve past memory cannot `what` the file at `path`.
[[noreturn]] void layer_file_failed(const std::string& what, const std::string& path, int error);

// A file of the layers' folder, written once in order and read back at any offset. Each failure
// throws TableFileError (unwritable), naming the file.
class LayerFile {
 public:
  // Takes `fd`, open on `path` (the path only names it in messages).
  LayerFile(int fd, std::string path) : path_(std::move(path)), fd_(fd) {}
  ~LayerFile();
  LayerFile(const LayerFile&) = delete;
  LayerFile& operator=(const LayerFile&) = delete;

  int fd() const { return fd_; }
  // Appends `bytes` bytes.
  void write(const void* data, std::uint64_t bytes);
  // Reads `bytes` bytes at `offset`, all of them.
  void read(void* data, std::uint64_t bytes, std::uint64_t offset) const;
  // Makes what was written durable: a finished layer survives a reboot, not only a kill.
  void sync() const;
  std::uint64_t size() const;

 private:
  std::string path_;
  int fd_ = -1;
};

// The bytes the files of each layer hold, by beads: its lines and its values.
struct LayerSizes {
  std::vector<std::uint64_t> lines;
  std::vector<std::uint64_t> values;
};

class LayerFolder {
 public:
  // The ring's folder of layers in `where` (ioiwari-layers-P-C-UID, UID the user's), made (mode
  // 700) or taken up: it must be this user's, no other user may write in it, and no other solve
  // may hold it (a lock, given back when this object goes). Its unfinished files are removed,
  // its finished layers kept up to the first that fails its manifest, and every file above that
  // removed. A signal removes its unfinished files (temporary_files.hpp). The bytes it writes,
  // reads and checks are counted into `counts`. Throws TableFileError (unwritable) when it cannot
  // be made, taken up or locked.
  LayerFolder(const std::string& where, Ring ring, LayerSizes sizes, TierCounts& counts);
  // Removes the unfinished files; every layer's files too once the table is written (written())
  // or the merge has begun to give them back (give_back()); then the folder, if it is empty.
  ~LayerFolder();
  LayerFolder(const LayerFolder&) = delete;
  LayerFolder& operator=(const LayerFolder&) = delete;

  const std::string& path() const { return path_; }
  // The layers finished in the folder, from the empty board up: what a stop now leaves.
  int finished() const { return finished_; }

  // Reads finished layer `beads`'s lines and values, all of them, into `lines` and `values`.
  void load(int beads, void* lines, void* values);
  // Finishes layer `beads` with these lines and values (their sizes those of LayerSizes).
  void finish(int beads, std::span<const unsigned char> lines,
              std::span<const unsigned char> values);
  // The values of every layer counted (all must be finished), as their manifests hold them.
  ValueCounts value_counts() const;
  // The lines or the values (`kind`: "lines" or "values") of finished layer `beads`, to read.
  std::unique_ptr<LayerFile> finished_file(const char* kind, int beads) const;

  // The file of the moves deferred into layer `beads`, made empty; and its removal.
  std::unique_ptr<LayerFile> make_deferred(int beads) const;
  void remove_deferred(int beads) const;

  // No layer is finished any more: the manifests go, then the lines' files. The values' files
  // stay, each to be opened (for reading and punching holes in) by take_values() and then gone.
  void give_back();
  std::unique_ptr<LayerFile> take_values(int beads);
  // The table is written: the folder goes with this object.
  void written() { written_ = true; }

 private:
  std::string name(const char* kind, int beads) const;
  std::string manifest(int beads, const Digest& lines, const Digest& values,
                       const ValueCounts& counts) const;
  bool kept(int beads);
  void remove_layer(int beads) const;
  void write_finished(const char* kind, int beads, const void* data, std::uint64_t bytes);
  // The file's digest, when it has `bytes` bytes; its values counted into `counts`, if given.
  std::optional<Digest> digest(const char* kind, int beads, std::uint64_t bytes,
                               ValueCounts* counts = nullptr);
  std::optional<std::string> small_file(const char* kind, int beads) const;
  int open_at(const std::string& file, int flags) const;

  Ring ring_;
  LayerSizes sizes_;
  TierCounts& counts_;
  std::vector<ValueCounts> value_counts_;  // of each finished layer
  std::string path_;
  int fd_ = -1;    // open and locked while this object lives
  int slot_ = -1;  // the folder's place among what a signal clears
  int finished_ = 0;
  bool given_back_ = false;
  bool written_ = false;
};

}  // namespace ioiwari
