// Writing table files: a temporary file beside the target, filled, flushed and renamed over it.
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "coded_parts.hpp"
#include "file_kind.hpp"
#include "ioiwari/core/table_compressed.hpp"
#include "ioiwari/core/table_file.hpp"
#include "temporary_files.hpp"
#include "textio/number.hpp"

namespace ioiwari {

namespace {

// The alignment direct I/O wants.
constexpr std::size_t kDirectAlignment = TableLayout::kPageBytes;

// The memory a table in steps takes on the way, as a solve past memory counts it: format 4's
// stage, or format 5's three runs (each up to a page's code past its size) and its page.
static_assert(TableOutput::kStepsBytes >= TableOutput::kStageBytes &&
              TableOutput::kStepsBytes >=
                  3 * (CodedParts::kRunBytes + kMostPageCodeBytes) + kCodedPageClasses);

[[noreturn]] void unwritable(const std::string& path, const std::string& why) {
  throw TableFileError(TableFileError::Kind::unwritable,
                       "cannot write the table " + quoted_path(path) + ": " + why);
}

// The regular file that `path` names, following symbolic links: the path itself when nothing is
// there yet.
std::string resolve_target(const std::string& path) {
  std::string at = path;
  for (int links = 0;; ++links) {
    struct stat status {};
    if (::lstat(at.c_str(), &status) != 0) {
      if (errno == ENOENT) return at;  // a new file: its folder is checked when it is opened
      unwritable(path, std::strerror(errno));
    }
    if (S_ISLNK(status.st_mode)) {
      if (links == 40) unwritable(path, "too many symbolic links");
      std::string link(PATH_MAX, '\0');
      const ssize_t length = ::readlink(at.c_str(), link.data(), link.size());
      if (length < 0) unwritable(path, std::strerror(errno));
      link.resize(static_cast<std::size_t>(length));
      const auto slash = at.rfind('/');
      at = link.starts_with('/') || slash == std::string::npos ? link
                                                               : at.substr(0, slash + 1) + link;
      continue;
    }
    if (!S_ISREG(status.st_mode)) {
      unwritable(path, (at == path ? "it is " : "it leads to " + quoted_path(at) + ", ") +
                           kind_of(status.st_mode) + "; a table is written only to a regular file");
    }
    return at;
  }
}

// Whether `name` is a temporary file of a write of `base`: BASE.tmp-PID-SERIAL.
bool is_temporary_of(std::string_view name, std::string_view base) {
  const std::string prefix = std::string(base) + ".tmp-";
  if (!name.starts_with(prefix)) return false;
  name.remove_prefix(prefix.size());
  const auto dash = name.find('-');
  if (dash == 0 || dash == std::string_view::npos || dash + 1 == name.size()) return false;
  const auto digits = [](std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  return digits(name.substr(0, dash)) && digits(name.substr(dash + 1));
}

// Removes the temporary files of `base` in `directory` that no live writer holds: a writer
// keeps its own locked until it is done, so a lock that can be taken belongs to a dead one.
void remove_dead_temporaries(int directory, const std::string& base) {
  const int listing = ::dup(directory);
  if (listing < 0) return;
  DIR* folder = ::fdopendir(listing);
  if (folder == nullptr) {
    ::close(listing);
    return;
  }
  std::vector<std::string> dead;
  while (const dirent* entry = ::readdir(folder)) {
    if (!is_temporary_of(entry->d_name, base)) continue;
    const int fd = ::openat(directory, entry->d_name,
                            O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat status {};
    if (::fstat(fd, &status) == 0 && S_ISREG(status.st_mode) &&
        ::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      ::unlinkat(directory, entry->d_name, 0);  // under the lock: no writer can hold it now
    }
    ::close(fd);
  }
  ::closedir(folder);
}

}  // namespace

// Memory that runs out here (the block hashes, sized by the ring) is a refusal, as the reader's.
TableOutput::TableOutput(const std::string& path, const RingGeometry& geometry, TableFormat format,
                         Room room) try
    : geometry_(geometry), digest_(geometry.layout()), format_(format) {
  if (path.empty()) unwritable(path, "no file name");
  target_ = resolve_target(path);
  const auto slash = target_.rfind('/');
  const std::string folder = slash == std::string::npos ? "."
                             : slash == 0               ? "/"
                                                        : target_.substr(0, slash);
  const std::string base = slash == std::string::npos ? target_ : target_.substr(slash + 1);
  if (base.empty() || base == "." || base == "..") unwritable(path, "it names a directory");
  directory_ = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_ < 0) {
    unwritable(path, "the directory " + quoted_path(folder) + ": " + std::strerror(errno));
  }
  try {
    remove_dead_temporaries(directory_, base);
    {
      std::string name;
      fd_ = open_temporary(name, slot_);
      // Format 4's parts go with direct I/O where the file system takes it (not tmpfs, say).
      if (format_ == TableFormat::plain)
        direct_ = ::openat(directory_, name.c_str(), O_WRONLY | O_DIRECT | O_NOFOLLOW | O_CLOEXEC);
    }
    if (direct_ >= 0) {
      stage_.reset(static_cast<unsigned char*>(std::aligned_alloc(kDirectAlignment, kStageBytes)));
      if (!stage_) unwritable(path, "no memory for the staging buffer");
    }
    // Room for the whole file, taken now: a full file system shows before the solve, not after.
    if (room == Room::now) reserve();
  } catch (...) {
    discard();
    throw;
  }
} catch (const std::bad_alloc&) {
  unwritable(path, "no memory for it in what this process may take");
}

std::uint64_t TableOutput::bytes_in_steps() const {
  const TableLayout& layout = geometry_.layout();
  if (format_ == TableFormat::plain) return layout.file_bytes;
  // 4 bits a value, and a byte a page for its last, partial byte.
  const std::uint64_t coded =
      coded_ ? coded_->most_coded_bytes()
             : (layout.classes + 1) / 2 + CompressedLayout::of(layout, 0).value_pages;
  return CompressedLayout::of(layout, coded).file_bytes;
}

int TableOutput::open_temporary(std::string& name, int& slot) {
  const auto slash = target_.rfind('/');
  const std::string base = slash == std::string::npos ? target_ : target_.substr(slash + 1);
  // A signal waits until the file is registered for removal: then its handler removes it.
  const SignalsHeld held;
  int fd = -1;
  for (unsigned serial = 0; fd < 0; ++serial) {
    name = base + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(serial);
    fd = ::openat(directory_, name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                  0644);
    if (fd < 0 && (errno != EEXIST || serial == 1000)) {
      unwritable(target_, "cannot create a file beside it: " + std::string(std::strerror(errno)));
    }
  }
  const std::string path = (slash == std::string::npos ? "" : target_.substr(0, slash + 1)) + name;
  ::flock(fd, LOCK_EX);  // ours while we live: see remove_dead_temporaries()
  slot = remember_temporary(path, Temporary::file);
  if (fd_ < 0) temporary_ = path;
  return fd;
}

std::uint64_t TableOutput::free_bytes() const {
  struct statvfs space {};
  if (fd_ < 0 || ::fstatvfs(fd_, &space) != 0) return 0;
  return static_cast<std::uint64_t>(space.f_bavail) * space.f_frsize;
}

void TableOutput::reserve() {
  const std::uint64_t bytes = bytes_in_steps();
  if (reserved_ >= bytes) return;
  if (fd_ < 0) unwritable(target_, "the table was written already");
  const int reserved = ::posix_fallocate(fd_, 0, static_cast<off_t>(bytes));
  if (reserved == ENOSPC || reserved == EDQUOT || reserved == EFBIG) {
    const auto slash = target_.rfind('/');
    const std::string folder = slash == std::string::npos ? "."
                               : slash == 0               ? "/"
                                                          : target_.substr(0, slash);
    const std::string why = "the table needs " + textio::bytes_text(bytes) + " and " +
                            quoted_path(folder) + " has " + textio::bytes_text(free_bytes()) +
                            " free";
    discard();
    unwritable(target_, why);
  }
  if (reserved != 0) {
    discard();
    unwritable(target_, std::strerror(reserved));
  }
  reserved_ = bytes;
}

void TableOutput::set_value_counts(const ValueCounts& counts) {
  if (format_ != TableFormat::compressed) throw std::logic_error("format 4 codes no values");
  if (coded_ || digest_.next_offset() != geometry_.layout().lines_offset)
    throw std::logic_error("the values' counts are given once, before the parts");
  coded_ = std::make_unique<CodedParts>(
      geometry_.layout(), counts,
      [this](std::uint64_t offset, std::span<const unsigned char> bytes) {
        write_at(offset, bytes);
      });
  if (reserved_ > 0) reserve();  // reserved already: now for the exact bound
}

TableOutput::~TableOutput() {
  discard();
}

void TableOutput::FreeAligned::operator()(unsigned char* bytes) const {
  std::free(bytes);
}

void TableOutput::discard() {
  if (direct_ >= 0) ::close(direct_);
  direct_ = -1;
  if (fd_ >= 0) {
    const auto slash = temporary_.rfind('/');
    ::unlinkat(directory_, temporary_.c_str() + (slash == std::string::npos ? 0 : slash + 1), 0);
    ::close(fd_);
    fd_ = -1;
  }
  forget_temporary(slot_);
  slot_ = -1;
  if (directory_ >= 0) ::close(directory_);
  directory_ = -1;
}

bool TableOutput::write_through(int fd, std::uint64_t offset,
                                std::span<const unsigned char> bytes) {
  const bool first_direct = fd == direct_;
  while (!bytes.empty()) {
    std::size_t chunk = std::min<std::size_t>(bytes.size(), std::size_t{1} << 24);
    if (fail_after_ != 0 && written_ + chunk > fail_after_) {
      chunk = static_cast<std::size_t>(fail_after_ > written_ ? fail_after_ - written_ : 0);
      if (chunk == 0) {
        discard();
        unwritable(target_, "the write was interrupted");
      }
    }
    const ssize_t done = ::pwrite(fd, bytes.data(), chunk, static_cast<off_t>(offset));
    if (done < 0) {
      if (errno == EINTR) continue;
      if (errno == EINVAL && first_direct && chunk == bytes.size()) return false;
      const std::string why = std::strerror(errno);
      discard();
      unwritable(target_, why);
    }
    bytes = bytes.subspan(static_cast<std::size_t>(done));
    offset += static_cast<std::uint64_t>(done);
    written_ += static_cast<std::uint64_t>(done);
  }
  return true;
}

void TableOutput::write_at(std::uint64_t offset, std::span<const unsigned char> bytes) {
  write_through(fd_, offset, bytes);
}

void TableOutput::flush_stage() {
  if (staged_ == 0) return;
  const std::size_t whole = (staged_ + kDirectAlignment - 1) / kDirectAlignment * kDirectAlignment;
  std::fill(stage_.get() + staged_, stage_.get() + whole, static_cast<unsigned char>(0));
  const std::span<const unsigned char> bytes(stage_.get(), whole);
  if (direct_ < 0 || !write_through(direct_, stage_offset_, bytes)) {
    // A file system that took O_DIRECT when the file was opened and refuses its writes: the
    // file's own descriptor writes from here on.
    if (direct_ >= 0) ::close(direct_);
    direct_ = -1;
    write_at(stage_offset_, bytes);
  }
  stage_offset_ += whole;
  staged_ = 0;
}

void TableOutput::append(std::span<const unsigned char> bytes) {
  if (fd_ < 0) unwritable(target_, "the table was written already");
  while (!bytes.empty()) {
    // Within the part the digest is in: the zeros after it were reserved, not written.
    const std::uint64_t at = digest_.next_offset();
    const auto take =
        static_cast<std::size_t>(std::min<std::uint64_t>(digest_.room(), bytes.size()));
    if (take == 0) unwritable(target_, "more bytes than the table holds");
    digest_.append(bytes.first(take));
    if (format_ == TableFormat::compressed) {
      if (!coded_) throw std::logic_error("format 5 in steps without the values' counts");
      coded_->pass(at, bytes.first(take));
    } else if (direct_ < 0) {
      flush_stage();  // what was staged before direct I/O was refused
      write_at(at, bytes.first(take));
    } else {
      // Staged, from the page where a part begins (every part begins a block) to its end.
      if (staged_ > 0 && at != stage_offset_ + staged_) flush_stage();
      if (staged_ == 0) stage_offset_ = at;
      for (std::size_t done = 0; done < take;) {
        const std::size_t here = std::min(take - done, kStageBytes - staged_);
        std::copy_n(bytes.data() + done, here, stage_.get() + staged_);
        staged_ += here;
        done += here;
        if (staged_ == kStageBytes) flush_stage();
      }
    }
    bytes = bytes.subspan(take);
  }
}

void TableOutput::commit(std::uint64_t classes) {
  if (fd_ < 0) unwritable(target_, "the table was written already");
  if (!digest_.complete()) unwritable(target_, "the table is incomplete");
  if (classes != geometry_.layout().classes) {
    unwritable(target_, "the table has " + std::to_string(classes) + " classes; " +
                            geometry_.ring().describe() + " has " +
                            std::to_string(geometry_.layout().classes));
  }
  flush_stage();
  const Digest root = digest_.root();
  if (format_ == TableFormat::compressed) {
    if (!coded_) throw std::logic_error("format 5 in steps without the values' counts");
    const std::uint64_t coded = coded_->finish();
    const CompressedLayout c = CompressedLayout::of(geometry_.layout(), coded);
    write_at(c.page_hashes_offset, digest_.page_hashes());
    write_at(c.block_hashes_offset, digest_.block_hashes());
    write_at(c.top_hashes_offset, digest_.top_hashes());
    write_at(0, TableHeader::compressed(geometry_, root, coded, coded_->code().lengths()).block());
    // The room reserved for the coded values' bound, beyond the file's end, goes back.
    if (::ftruncate(fd_, static_cast<off_t>(c.file_bytes)) != 0) {
      const std::string why = std::strerror(errno);
      discard();
      unwritable(target_, why);
    }
    finish(root, c.file_bytes);
    return;
  }
  write_at(0, TableHeader::of(geometry_, root).block());
  write_at(geometry_.layout().page_hashes_offset, digest_.page_hashes());
  write_at(geometry_.layout().block_hashes_offset, digest_.block_hashes());
  write_at(geometry_.layout().top_hashes_offset, digest_.top_hashes());
  finish(root, geometry_.layout().file_bytes);
}

void TableOutput::finish(const Digest& root, std::uint64_t size) {
  const auto fail = [&](const char* step) {
    const std::string why = std::string(step) + ": " + std::strerror(errno);
    discard();
    unwritable(target_, why);
  };
  if (::fsync(fd_) != 0) fail("fsync");
  const auto slash = temporary_.rfind('/');
  const char* temporary_name = temporary_.c_str() + (slash == std::string::npos ? 0 : slash + 1);
  const auto target_slash = target_.rfind('/');
  const char* target_name =
      target_.c_str() + (target_slash == std::string::npos ? 0 : target_slash + 1);
  if (::renameat(directory_, temporary_name, directory_, target_name) != 0) fail("rename");
  ::fsync(directory_);  // the rename itself, on disk
  ::close(fd_);
  fd_ = -1;
  discard();
  root_ = root;
  size_ = size;
}

void TableOutput::commit(const RingTable& table, std::uint64_t fail_after) {
  if (table.ring() != geometry_.ring()) unwritable(target_, "a table of another ring");
  if (!table.in_memory()) unwritable(target_, "a table that is not in memory");
  fail_after_ = fail_after;
  const auto bytes_of = [](auto span) {
    return std::span(reinterpret_cast<const unsigned char*>(span.data()), span.size_bytes());
  };
  if (format_ == TableFormat::compressed) {
    ValueCounts counts{};
    add_value_counts(table.values(), counts);
    set_value_counts(counts);
  }
  append(bytes_of(table.lines()));
  append(bytes_of(table.values()));
  commit(table.classes());
}

Digest save_table(const RingTable& table, const std::string& path, std::uint64_t fail_after) {
  TableOutput output(path, table.geometry(), TableFormat::plain);
  output.commit(table, fail_after);
  return output.root();
}

}  // namespace ioiwari
