#include "layer_folder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "file_kind.hpp"
#include "ioiwari/core/table_file.hpp"
#include "temporary_files.hpp"

namespace ioiwari {

namespace {

// Bytes a write or a read of a layer's file moves at once.
constexpr std::size_t kChunk = std::size_t{1} << 20;

// The version of a layer's files and manifest: a change to either, or to LayerIndex's order,
// makes it another, and a stopped solve's layers are then solved again, not taken up.
constexpr std::string_view kManifestHead = "ioiwari layer 2\n";
// The most bytes a manifest takes: one longer is no manifest. Its counts take at most 26 bytes
// for each of 256 values (" -128:" and 20 digits), 6,656 in all; its other lines, under 300.
constexpr std::size_t kManifestBytes = 9000;

// The kinds of a layer's files: its lines, its values, its manifest, and the moves deferred
// into it (never finished: always a part).
constexpr const char* kFileKinds[] = {"lines", "values", "layer", "deferred"};

}  // namespace

void layer_file_failed(const std::string& what, const std::string& path, int error) {
  throw TableFileError(TableFileError::Kind::unwritable, "the solve past memory cannot " + what +
                                                             " " + quoted_path(path) + ": " +
                                                             std::strerror(error));
}

LayerFile::~LayerFile() {
  if (fd_ >= 0) ::close(fd_);
}

void LayerFile::write(const void* data, std::uint64_t bytes) {
  const auto* at = static_cast<const unsigned char*>(data);
  while (bytes > 0) {
    const ssize_t done = ::write(fd_, at, std::min<std::uint64_t>(bytes, kChunk));
    if (done < 0) {
      if (errno == EINTR) continue;
      layer_file_failed("write", path_, errno);
    }
    at += done;
    bytes -= static_cast<std::uint64_t>(done);
  }
}

void LayerFile::read(void* data, std::uint64_t bytes, std::uint64_t offset) const {
  auto* at = static_cast<unsigned char*>(data);
  while (bytes > 0) {
    const ssize_t done =
        ::pread(fd_, at, std::min<std::uint64_t>(bytes, kChunk), static_cast<off_t>(offset));
    if (done < 0 && errno == EINTR) continue;
    if (done < 0) layer_file_failed("read", path_, errno);
    if (done == 0) layer_file_failed("read", path_, EIO);  // shorter than written: changed
    at += done;
    bytes -= static_cast<std::uint64_t>(done);
    offset += static_cast<std::uint64_t>(done);
  }
}

void LayerFile::sync() const {
  if (::fsync(fd_) != 0) layer_file_failed("sync", path_, errno);
}

std::uint64_t LayerFile::size() const {
  struct stat status {};
  if (::fstat(fd_, &status) != 0) layer_file_failed("stat", path_, errno);
  return static_cast<std::uint64_t>(status.st_size);
}

LayerFolder::LayerFolder(const std::string& where, Ring ring, LayerSizes sizes, TierCounts& counts)
    : ring_(ring), sizes_(std::move(sizes)), counts_(counts) {
  const std::string folder = where.empty() ? std::string(".") : where;
  path_ = folder + "/ioiwari-layers-" + std::to_string(ring.pits) + "-" +
          std::to_string(ring.capacity) + "-" +
          std::to_string(::geteuid());  // a user's own: another's in a shared /tmp is no bar
  {
    // A signal waits until the folder is registered: then its handler clears it.
    const SignalsHeld held;
    if (::mkdir(path_.c_str(), 0700) != 0 && errno != EEXIST)
      layer_file_failed("make the folder", path_, errno);
    const int fd = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) layer_file_failed("open the folder", path_, errno);
    struct stat status {};
    if (::fstat(fd, &status) != 0) {
      const int error = errno;
      ::close(fd);
      layer_file_failed("read the folder", path_, error);
    }
    // Its layers are believed as solved: a folder that another user could have written is not.
    // From here on every file in it is reached through `fd`, the folder checked: one renamed
    // into its place afterwards is never read.
    if (status.st_uid != ::geteuid() || (status.st_mode & 022) != 0) {
      ::close(fd);
      throw TableFileError(TableFileError::Kind::unwritable,
                           "the solve past memory cannot take up " + quoted_path(path_) +
                               ": another user owns it or may write in it");
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      ::close(fd);
      if (error == EWOULDBLOCK) {
        throw TableFileError(TableFileError::Kind::unwritable,
                             "the solve past memory cannot use " + quoted_path(path_) +
                                 ": another solve of " + ring.describe() + " is using it");
      }
      layer_file_failed("lock the folder", path_, error);
    }
    fd_ = fd;
    slot_ = remember_temporary(path_, Temporary::parts);
  }
  // What a killed solve left unfinished goes; its finished layers are kept from the empty board
  // up to the first that fails its manifest, and everything above that goes.
  for (int beads = 0; beads <= ring.max_beads(); ++beads) {
    for (const char* kind : kFileKinds)
      ::unlinkat(fd_, (name(kind, beads) + kPartSuffix).c_str(), 0);
  }
  int kept = 0;
  while (kept <= ring.max_beads() && this->kept(kept))
    ++kept;
  for (int beads = kept; beads <= ring.max_beads(); ++beads)
    remove_layer(beads);
  finished_ = kept;
}

LayerFolder::~LayerFolder() {
  for (int beads = 0; beads <= ring_.max_beads(); ++beads) {
    for (const char* kind : kFileKinds)
      ::unlinkat(fd_, (name(kind, beads) + kPartSuffix).c_str(), 0);
    // A table written, or a merge that gave the layers back, leaves nothing worth taking up.
    if (written_ || given_back_) remove_layer(beads);
  }
  // The folder goes when it is empty (finished layers stay for the next solve), and only when
  // the one at its path is still this one.
  struct stat mine {
  }, named{};
  if (::fstat(fd_, &mine) == 0 && ::lstat(path_.c_str(), &named) == 0 &&
      mine.st_dev == named.st_dev && mine.st_ino == named.st_ino)
    ::rmdir(path_.c_str());
  forget_temporary(slot_);
  ::close(fd_);
}

std::string LayerFolder::name(const char* kind, int beads) const {
  return std::string(kind) + "-" + std::to_string(beads);
}

int LayerFolder::open_at(const std::string& file, int flags) const {
  return ::openat(fd_, file.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, 0600);
}

void LayerFolder::remove_layer(int beads) const {
  // The manifest first: a stop in between leaves files that no manifest vouches for.
  for (const char* kind : {"layer", "lines", "values"})
    ::unlinkat(fd_, name(kind, beads).c_str(), 0);
}

std::string LayerFolder::manifest(int beads, const Digest& lines, const Digest& values,
                                  const ValueCounts& counts) const {
  const auto b = static_cast<std::size_t>(beads);
  std::string text = std::string(kManifestHead) + "ring " + std::to_string(ring_.pits) + " " +
                     std::to_string(ring_.capacity) + "\nlayer " + std::to_string(beads) +
                     "\nlines " + std::to_string(sizes_.lines[b]) + " " + hex(lines) + "\nvalues " +
                     std::to_string(sizes_.values[b]) + " " + hex(values) + "\ncounts";
  // Each value that occurs, from the least, and how many of the layer's classes it is.
  for (int value = -128; value < 128; ++value) {
    const std::uint64_t count = counts[static_cast<std::uint8_t>(value)];
    if (count > 0) text += " " + std::to_string(value) + ":" + std::to_string(count);
  }
  return text + "\n";
}

std::optional<std::string> LayerFolder::small_file(const char* kind, int beads) const {
  const int fd = open_at(name(kind, beads), O_RDONLY);
  if (fd < 0) return std::nullopt;
  const LayerFile file(fd, path_ + "/" + name(kind, beads));
  const std::uint64_t bytes = file.size();
  if (bytes > kManifestBytes) return std::nullopt;
  std::string text(static_cast<std::size_t>(bytes), '\0');
  file.read(text.data(), bytes, 0);
  return text;
}

std::optional<Digest> LayerFolder::digest(const char* kind, int beads, std::uint64_t bytes,
                                          ValueCounts* counts) {
  const int fd = open_at(name(kind, beads), O_RDONLY);
  if (fd < 0) return std::nullopt;
  const LayerFile file(fd, path_ + "/" + name(kind, beads));
  if (file.size() != bytes) return std::nullopt;
  Sha256 hash;
  std::vector<unsigned char> buffer(
      static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, bytes)));
  for (std::uint64_t at = 0; at < bytes; at += buffer.size()) {
    const auto here = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), bytes - at));
    file.read(buffer.data(), here, at);
    hash.update({buffer.data(), here});
    if (counts != nullptr)
      add_value_counts({reinterpret_cast<const std::int8_t*>(buffer.data()), here}, *counts);
    counts_.bytes_checked += here;
  }
  return hash.finish();
}

bool LayerFolder::kept(int beads) {
  const std::optional<std::string> text = small_file("layer", beads);
  if (!text || !text->starts_with(kManifestHead)) return false;
  const auto b = static_cast<std::size_t>(beads);
  const std::optional<Digest> lines = digest("lines", beads, sizes_.lines[b]);
  if (!lines) return false;
  ValueCounts counts{};
  const std::optional<Digest> values = digest("values", beads, sizes_.values[b], &counts);
  if (!values || *text != manifest(beads, *lines, *values, counts)) return false;
  value_counts_.push_back(counts);
  return true;
}

void LayerFolder::write_finished(const char* kind, int beads, const void* data,
                                 std::uint64_t bytes) {
  const std::string part = name(kind, beads) + kPartSuffix;
  {
    std::unique_ptr<LayerFile> file;
    {
      const PartCreation creating;
      const int fd = open_at(part, O_WRONLY | O_CREAT | O_TRUNC);
      if (fd < 0) layer_file_failed("open", path_ + "/" + part, errno);
      file = std::make_unique<LayerFile>(fd, path_ + "/" + part);
    }
    file->write(data, bytes);
    file->sync();
  }
  if (::renameat(fd_, part.c_str(), fd_, name(kind, beads).c_str()) != 0)
    layer_file_failed("rename", path_ + "/" + part, errno);
  counts_.bytes_written += bytes;
}

void LayerFolder::load(int beads, void* lines, void* values) {
  const auto b = static_cast<std::size_t>(beads);
  finished_file("lines", beads)->read(lines, sizes_.lines[b], 0);
  finished_file("values", beads)->read(values, sizes_.values[b], 0);
  counts_.bytes_read += sizes_.lines[b] + sizes_.values[b];
}

void LayerFolder::finish(int beads, std::span<const unsigned char> lines,
                         std::span<const unsigned char> values) {
  write_finished("lines", beads, lines.data(), lines.size());
  write_finished("values", beads, values.data(), values.size());
  ValueCounts counts{};
  add_value_counts({reinterpret_cast<const std::int8_t*>(values.data()), values.size()}, counts);
  const std::string text = manifest(beads, sha256(lines), sha256(values), counts);
  write_finished("layer", beads, text.data(), text.size());
  if (::fsync(fd_) != 0) layer_file_failed("sync", path_, errno);
  value_counts_.resize(static_cast<std::size_t>(beads));
  value_counts_.push_back(counts);
  finished_ = beads + 1;
}

ValueCounts LayerFolder::value_counts() const {
  if (finished_ != ring_.max_beads() + 1 ||
      value_counts_.size() != static_cast<std::size_t>(finished_))
    throw std::logic_error("the values of layers not finished are not counted");
  ValueCounts all{};
  for (const ValueCounts& layer : value_counts_)
    for (std::size_t b = 0; b < all.size(); ++b)
      all[b] += layer[b];
  return all;
}

std::unique_ptr<LayerFile> LayerFolder::finished_file(const char* kind, int beads) const {
  const int fd = open_at(name(kind, beads), O_RDONLY);
  if (fd < 0) layer_file_failed("open", path_ + "/" + name(kind, beads), errno);
  return std::make_unique<LayerFile>(fd, path_ + "/" + name(kind, beads));
}

std::unique_ptr<LayerFile> LayerFolder::make_deferred(int beads) const {
  const std::string part = name("deferred", beads) + kPartSuffix;
  const PartCreation creating;
  const int fd = open_at(part, O_RDWR | O_CREAT | O_TRUNC);
  if (fd < 0) layer_file_failed("open", path_ + "/" + part, errno);
  return std::make_unique<LayerFile>(fd, path_ + "/" + part);
}

void LayerFolder::remove_deferred(int beads) const {
  ::unlinkat(fd_, (name("deferred", beads) + kPartSuffix).c_str(), 0);
}

void LayerFolder::give_back() {
  given_back_ = true;
  finished_ = 0;
  for (int beads = 0; beads <= ring_.max_beads(); ++beads) {
    ::unlinkat(fd_, name("layer", beads).c_str(), 0);
    ::unlinkat(fd_, name("lines", beads).c_str(), 0);
  }
}

std::unique_ptr<LayerFile> LayerFolder::take_values(int beads) {
  const int fd = open_at(name("values", beads), O_RDWR);
  if (fd < 0) layer_file_failed("open", path_ + "/" + name("values", beads), errno);
  auto file = std::make_unique<LayerFile>(fd, path_ + "/" + name("values", beads));
  ::unlinkat(fd_, name("values", beads).c_str(), 0);  // gone when closed
  return file;
}

}  // namespace ioiwari
