#include "ioiwari/core/root_book.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <utility>

#include "file_kind.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/core/table_format.hpp"

namespace ioiwari {

namespace {

using Kind = TableFileError::Kind;

// No list of roots is this long: a line a ring, and there are fewer than 130 rings.
constexpr off_t kMostListBytes = 1 << 16;

[[noreturn]] void refuse(Kind kind, const std::string& path, const std::string& why) {
  throw TableFileError(kind, "the list of roots " + quoted_path(path) + " " + why);
}

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// Refuses a file or folder that another user could have written, or that is not this user's.
void check_owner(const std::string& path, const struct stat& status, const std::string& what) {
  if (status.st_uid != ::geteuid()) {
    refuse(Kind::unreadable, path,
           "is not trusted: " + what + " belongs to user " + std::to_string(status.st_uid) +
               ", not to this user (" + std::to_string(::geteuid()) + ")");
  }
  if ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    std::ostringstream mode;
    mode << std::oct << (status.st_mode & 07777);
    refuse(Kind::unreadable, path,
           "is not trusted: other users may write " + what + " (mode " + mode.str() + ")");
  }
}

std::vector<RecordedRoot> parse(const std::string& path, const std::string& text) {
  std::vector<RecordedRoot> roots;
  std::istringstream lines(text);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const auto bad = [&](const std::string& why) {
      refuse(Kind::unreadable, path, "has a bad line " + std::to_string(number) + ": " + why);
    };
    std::istringstream words(line);
    std::string pits, capacity, hex_root, more;
    words >> pits >> capacity >> hex_root;
    if (hex_root.empty() || (words >> more) || line != pits + " " + capacity + " " + hex_root)
      bad("not PITS CAPACITY ROOT");
    const auto number_of = [&](const std::string& word) {
      if (word.empty() || word.size() > 2 || (word.size() > 1 && word[0] == '0') ||
          word.find_first_not_of("0123456789") != std::string::npos)
        bad("not PITS CAPACITY ROOT");
      return std::stoi(word);
    };
    const Ring ring{number_of(pits), number_of(capacity)};
    if (!ring.playable()) bad("no ring ioiwari plays");
    const std::optional<Digest> root = parse_digest(hex_root);
    if (!root) bad("the root is not 64 hexadecimal digits");
    if (std::any_of(roots.begin(), roots.end(),
                    [&](const RecordedRoot& known) { return known.ring == ring; })) {
      bad("a second root of " + ring.describe());
    }
    roots.push_back({ring, *root});
  }
  return roots;
}

}  // namespace

RootList::RootList(int folder, std::string path)
    : folder_(folder), path_(std::move(path)), name_(path_.substr(path_.rfind('/') + 1)) {}

RootList::RootList(RootList&& other) noexcept
    : folder_(std::exchange(other.folder_, -1)),
      path_(std::move(other.path_)),
      name_(std::move(other.name_)) {}

RootList::~RootList() {
  if (folder_ >= 0) ::close(folder_);
}

std::optional<RootList> RootList::open(const std::string& path) {
  const std::string folder = folder_of(path);
  // The folder may be reached through links; the one reached is checked, and everything after
  // is done through this handle, so that a folder renamed or put in its place after the check
  // (its parent may be writable by others) is never the one read or written.
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    if (errno == ENOTDIR) refuse(Kind::unreadable, path, "is in no folder");
    refuse(Kind::unreadable, path, "cannot be read: " + std::string(std::strerror(errno)));
  }
  RootList list(fd, path);
  struct stat status {};
  if (::fstat(fd, &status) != 0)
    refuse(Kind::unreadable, path, "cannot be read: " + std::string(std::strerror(errno)));
  check_owner(path, status, "its folder");
  return list;
}

std::vector<RecordedRoot> RootList::read() const {
  // Not followed if it is a link: the file itself must be this user's.
  const int fd =
      ::openat(folder_, name_.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return {};
    if (errno == ELOOP) refuse(Kind::unreadable, path_, "is a symbolic link: it is not trusted");
    refuse(Kind::unreadable, path_, "cannot be read: " + std::string(std::strerror(errno)));
  }
  std::string text;
  struct stat status {};
  const bool stated = ::fstat(fd, &status) == 0;
  try {
    if (!stated)
      refuse(Kind::unreadable, path_, "cannot be read: " + std::string(std::strerror(errno)));
    if (!S_ISREG(status.st_mode)) refuse(Kind::unreadable, path_, "is " + kind_of(status.st_mode));
    check_owner(path_, status, "it");
    if (status.st_size > kMostListBytes)
      refuse(Kind::unreadable, path_, "is too long to be a list (over 65,536 bytes)");
    text.resize(static_cast<std::size_t>(status.st_size) + 1);
    std::size_t got = 0;
    for (;;) {
      const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0)
        refuse(Kind::unreadable, path_, "cannot be read: " + std::string(std::strerror(errno)));
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
      if (got == text.size()) refuse(Kind::unreadable, path_, "grew while it was read");
    }
    text.resize(got);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return parse(path_, text);
}

void RootList::record(Ring ring, const Digest& root) const {
  const auto cannot = [&](const std::string& what) {
    refuse(Kind::unwritable, path_, "cannot be written: " + what + ": " + std::strerror(errno));
  };
  const std::string lock_name = name_ + ".lock";
  const int lock =
      ::openat(folder_, lock_name.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (lock < 0) cannot("its lock " + path_ + ".lock");
  while (::flock(lock, LOCK_EX) != 0) {
    if (errno != EINTR) {
      ::close(lock);
      cannot("its lock " + path_ + ".lock");
    }
  }
  const std::string temporary = name_ + ".new-" + std::to_string(::getpid());
  int fd = -1;
  try {
    std::vector<RecordedRoot> roots = read();
    std::erase_if(roots, [&](const RecordedRoot& known) { return known.ring == ring; });
    roots.push_back({ring, root});
    std::sort(roots.begin(), roots.end(), [](const RecordedRoot& a, const RecordedRoot& b) {
      return a.ring.pits != b.ring.pits ? a.ring.pits < b.ring.pits
                                        : a.ring.capacity < b.ring.capacity;
    });
    std::string text =
        "# The true roots of table files checked by 'ioiwari verify': PITS CAPACITY ROOT.\n";
    for (const RecordedRoot& known : roots) {
      text += std::to_string(known.ring.pits) + " " + std::to_string(known.ring.capacity) + " " +
              hex(known.root) + "\n";
    }
    ::unlinkat(folder_, temporary.c_str(), 0);
    fd = ::openat(folder_, temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                  0600);
    if (fd < 0) cannot("cannot make " + temporary);
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) cannot("cannot write " + temporary);
      done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) cannot("cannot write " + temporary);
    ::close(fd);
    fd = -1;
    if (::renameat(folder_, temporary.c_str(), folder_, name_.c_str()) != 0)
      cannot("cannot rename " + temporary);
    ::fsync(folder_);
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlinkat(folder_, temporary.c_str(), 0);
    ::close(lock);
    throw;
  }
  ::close(lock);
}

std::vector<RecordedRoot> read_root_list(const std::string& path) {
  const std::optional<RootList> list = RootList::open(path);
  return list ? list->read() : std::vector<RecordedRoot>{};
}

void record_root(const std::string& path, Ring ring, const Digest& root) {
  const std::string folder = folder_of(path);
  // The folder and any missing above it, private, as the XDG base directories ask.
  for (std::size_t at = 1; at <= folder.size(); ++at) {
    if (at != folder.size() && folder[at] != '/') continue;
    const std::string part = folder.substr(0, at);
    if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST)
      refuse(Kind::unwritable, path,
             "cannot be written: cannot make " + part + ": " + std::strerror(errno));
  }
  const std::optional<RootList> list = RootList::open(path);
  if (!list) refuse(Kind::unwritable, path, "cannot be written: its folder went away");
  list->record(ring, root);
}

std::optional<Digest> RootBook::recorded(Ring ring) const {
  if (list_.empty()) return std::nullopt;
  for (const RecordedRoot& known : read_root_list(list_))
    if (known.ring == ring) return known.root;
  return std::nullopt;
}

std::optional<RootBook::TrueRoot> RootBook::find(Ring ring) const {
  if (built_in_) {
    if (const auto known = known_root(ring)) return TrueRoot{*known, Source::built_in};
  }
  if (const auto known = recorded(ring)) return TrueRoot{*known, Source::recorded};
  return std::nullopt;
}

}  // namespace ioiwari
