// The true roots that a reader holds table files to (table_file.hpp): ioiwari's own, built in
// (known_root(), table_format.hpp), and those a user recorded by verifying a table of a ring that
// has none built in (`ioiwari verify`): the list in the user's own file. docs/table-format.md
// ("True roots") says what is promised of each.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/sha256.hpp"

namespace ioiwari {

// A line of a user's list of roots: "PITS CAPACITY ROOT", the root in 64 hexadecimal digits.
struct RecordedRoot {
  Ring ring;
  Digest root;
};

// The roots recorded in the list at `path`: none when there is no such file. The list is
// trusted only as far as its writers are: it must be a regular file of this process's user in a
// folder of the same user, neither writable by any other user. Throws TableFileError
// (unreadable) when it is not, or when a line of it is no root, naming the file and the line.
std::vector<RecordedRoot> read_root_list(const std::string& path);

// Records `root` as the true root of `ring` in the list at `path`, in place of the ring's line
// if it has one. The list is read as read_root_list() reads it (its folder, made with mode 0700
// where missing, included), then written whole to a temporary file beside it, flushed, and
// renamed over it, under a lock that other recorders wait for: a reader sees the old list or
// the new one, and no record is lost. Throws TableFileError (unreadable, unwritable).
void record_root(const std::string& path, Ring ring, const Digest& root);

// A user's list of roots reached through its folder, opened once and checked: the list is read
// and written through that handle, so a folder renamed, or another put in its place, after the
// check (its parent may be writable by other users) is never the one read or written.
// read_root_list() and record_root() are this class's open() and read() or record().
class RootList {
 public:
  // The folder of the list at `path`, opened and checked as read_root_list() says: nothing
  // when the folder does not exist. Throws TableFileError (unreadable) when it is not trusted.
  static std::optional<RootList> open(const std::string& path);
  // The list's roots, read through the folder opened: none when there is no list.
  std::vector<RecordedRoot> read() const;
  // Records `root` as record_root() says, through the folder opened.
  void record(Ring ring, const Digest& root) const;

  RootList(RootList&& other) noexcept;
  RootList& operator=(RootList&&) = delete;
  RootList(const RootList&) = delete;
  RootList& operator=(const RootList&) = delete;
  ~RootList();

 private:
  RootList(int folder, std::string path);
  int folder_;
  std::string path_;  // as given: what messages name
  std::string name_;  // the list's name in its folder
};

class RootBook {
 public:
  // Where a ring's true root comes from.
  enum class Source { none, built_in, recorded };

  // ioiwari's own roots.
  static RootBook built_in() { return RootBook(true, {}); }
  // No root at all (tests of rings that are not solved here, and of recorded roots).
  static RootBook none() { return RootBook(false, {}); }
  // The same roots and those recorded in the list at `path`, which is read when a ring with
  // no built-in root is asked for.
  RootBook with_list(std::string path) const { return RootBook(built_in_, std::move(path)); }

  struct TrueRoot {
    Digest root;
    Source source;  // built_in or recorded
  };
  // The true root of `ring`: built in, else recorded; nothing when neither. Throws
  // TableFileError when the list is asked for and cannot be trusted or read.
  std::optional<TrueRoot> find(Ring ring) const;
  // The list's path: empty when there is none.
  const std::string& list() const { return list_; }

 private:
  RootBook(bool built_in, std::string list) : built_in_(built_in), list_(std::move(list)) {}
  std::optional<Digest> recorded(Ring ring) const;
  bool built_in_;
  std::string list_;
};

}  // namespace ioiwari
