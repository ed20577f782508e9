// Table files, like endgame tablebases: a solved ring written once (`ioiwari solve`, or
// `ioiwari-mpi solve` on many machines) and read by every command given `--table FILE`.
//
// A file may have been copied, downloaded, cut short, damaged or crafted, and it may change while
// a command reads it. For a ring whose true root is known, built in or recorded by the user
// (root_book.hpp), no file makes a command print a value or play a move the ring does not have,
// whatever its bytes; for any other ring, a file is used only when the command is told to trust
// it (TableReading), and its values are then the file's:
// - A file is authenticated (table_format.hpp): every block has a SHA-256 hash, and the list
//   of hashes hashes to a root. A table of a ring whose true root is known is used only when its
//   root is that root. `verify` solves a ring whose root is not known and compares.
// - Nothing is read from the file in place. The blocks a look-up needs are copied into memory
//   the reader owns, each copy checked against its hash before any byte of it is used, and the
//   hashes themselves were copied and checked against the root when the file was opened. So a
//   file changed or cut short under the reader can change nothing it uses.
// Every refusal is a TableFileError, one line that names the file. The layout, field by field, is
// in docs/table-format.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/root_book.hpp"
#include "ioiwari/core/sha256.hpp"
#include "ioiwari/core/table_compressed.hpp"
#include "ioiwari/core/table_format.hpp"

namespace ioiwari {

// Why a file was refused, or why a table read from one cannot be used.
class TableFileError : public TableError {
 public:
  enum class Kind {
    unreadable,    // cannot be opened or read, or is not a regular file
    not_a_table,   // no magic, an unknown version or byte order, a layout that fits no ring
    old_version,   // a table of an older format version: the ring must be solved again
    truncated,     // shorter than its header says
    checksum,      // a part fails its hash: the header, the list of block hashes, or a block
    damaged,       // its hashes match but its parts disagree, or its padding is not zero
    other_rules,   // a table of another ring than the command's
    wrong_root,    // not the true table of its ring: its root is not the ring's
    unknown_root,  // a ring whose true root is not known, and the command was not told to trust it
    changed,       // the file changed while a command was using it
    too_large,     // reading it needs more memory than the process may take
    unwritable,    // cannot be written: a path that is no regular file, a missing directory,
                   // no room, or a failed write (TableOutput)
  };
  TableFileError(Kind kind, const std::string& message) : TableError(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// How a command reads a table file.
struct TableReading {
  // The true roots of the rings: built in, and those the user recorded.
  RootBook roots = RootBook::built_in();
  // Whether a table of a ring whose true root is not known may be used (the user said so). A
  // ring whose root is known is never read from a file with another root.
  bool trust_unknown_root = false;
  // The most memory the checked copies of the file's blocks may take; the least is a few
  // blocks. Blocks beyond it are read and checked again when they are needed again.
  std::uint64_t cache_bytes = 0;
  // The most memory the process may take (0: not known). A file whose hashes alone would take
  // more than half of it is refused (too_large) before anything is reserved for it.
  std::uint64_t memory = 0;
};

// A table file being written. Making one checks the path and prepares the file before any work
// is done: the target must be a regular file or not exist yet (a symbolic link is followed, and
// stays a link to the new table); a temporary file is created beside it and the table's whole
// size is reserved there. So a path that names a device, a FIFO, a socket or a directory, a
// missing or read-only directory, or a file system without room is refused at once. Making one
// also removes the temporary files that earlier writes of the same target left when they died
// (a live writer's is kept: it holds a lock on it).
//
// commit() writes the table, flushes it to disk and renames it over the target; until then the
// target is untouched. The temporary file is removed when a write fails, when the object is
// destroyed without a commit, and when SIGINT, SIGTERM or SIGHUP ends the process meanwhile
// (temporary_files.hpp). Throws TableFileError (unwritable).
class CodedParts;

class TableOutput {
 public:
  // When the table's room is reserved: at once, or by reserve() (a solve past memory, whose
  // layers' files take the disk until the table is written from them).
  enum class Room { now, later };
  // The memory format 4 takes to stage the parts' bytes for direct I/O. Writes of 1 MiB went as
  // fast as writes of 4 MiB here (1.1 GB/s, dd with oflag=direct).
  static constexpr std::size_t kStageBytes = std::size_t{1} << 20;
  // The most memory the bytes of a table written in steps take on their way to the file (a solve
  // past memory counts it): format 4's stage, or format 5's runs of its parts
  // (src/core/coded_parts.hpp).
  static constexpr std::size_t kStepsBytes = std::size_t{4} << 20;
  // A file for the table of the ring of `geometry`, which must outlive it, in `format`.
  TableOutput(const std::string& path, const RingGeometry& geometry, TableFormat format,
              Room room = Room::now);
  ~TableOutput();
  TableOutput(const TableOutput&) = delete;
  TableOutput& operator=(const TableOutput&) = delete;

  // The file the table goes to: the path, or where its symbolic links lead.
  const std::string& target() const { return target_; }
  // The temporary file the table is written to first.
  const std::string& temporary() const { return temporary_; }
  TableFormat format() const { return format_; }
  // The disk the table takes at most: format 4's file, or format 5's, whose coded values are
  // reckoned at 4 bits a value until set_value_counts() gives their exact bound (every ring
  // measured takes under 3.4: docs/table-format.md); a file that takes more than was reserved
  // fails its write as a full disk does.
  std::uint64_t bytes_in_steps() const;
  // Once committed: the size of the file written.
  std::uint64_t size() const { return size_; }
  // Reserves bytes_in_steps(), if not yet done.
  void reserve();
  // The bytes free in the target's folder.
  std::uint64_t free_bytes() const;

  // Writes `table` (of the ring given above, in memory), then renames it over the target.
  // `fail_after`, when not zero, makes the write fail after that many bytes (tests).
  void commit(const RingTable& table, std::uint64_t fail_after = 0);

  // The same in steps, for a table that is not in this process's memory (a solve past memory
  // merges it from its layers' files, a distributed solve gathers it from its processes): format
  // 4's bytes of the parts in file order, the index's lines and then the values, in pieces of any
  // size, each block hashed as its bytes pass; then commit() with the table's class count writes
  // the header and the hashes and renames the file over the target. Format 5 is coded from them
  // as they pass (no format-4 file is written), with the code of the values' counts: those are
  // given first, by set_value_counts().
  void set_value_counts(const ValueCounts& counts);
  void append(std::span<const unsigned char> bytes);
  void commit(std::uint64_t classes);

  // Once committed: the table's root.
  const Digest& root() const { return root_; }

 private:
  // Makes a temporary file beside the target and registers it; its descriptor.
  int open_temporary(std::string& name, int& slot);
  // Syncs the temporary file and renames it over the target.
  void finish(const Digest& root, std::uint64_t size);
  void discard();
  void write_at(std::uint64_t offset, std::span<const unsigned char> bytes);
  // Writes `bytes` at `offset` through `fd`, all of them, failing after fail_after_ bytes; false
  // when `fd` is direct_ and the file system refuses direct I/O for it (EINVAL), nothing written.
  bool write_through(int fd, std::uint64_t offset, std::span<const unsigned char> bytes);
  // Writes what is staged (padded with zeros to whole pages: the format's reserved zeros) with
  // direct I/O, and empties the stage.
  void flush_stage();
  const RingGeometry& geometry_;
  TableDigest digest_;
  Digest root_{};
  std::uint64_t written_ = 0, fail_after_ = 0;
  std::string target_, temporary_;
  int directory_ = -1;  // the target's folder
  int fd_ = -1;         // the temporary file, locked while it is ours
  // The same file opened for direct I/O, for the parts' bytes, or -1 where its file system does
  // not take direct I/O (then they go through fd_). Through the page cache a virtual machine here
  // wrote 0.24 GB/s, with direct I/O in pieces of 1 MiB 1.1 GB/s: 14 pits' 8.1 GB took 47 s to
  // write. The parts' bytes are staged in whole pages for it, aligned as direct I/O wants.
  int direct_ = -1;
  struct FreeAligned {
    void operator()(unsigned char* bytes) const;
  };
  std::unique_ptr<unsigned char[], FreeAligned> stage_;
  std::uint64_t stage_offset_ = 0;  // where the staged bytes go in the file
  std::size_t staged_ = 0;
  int slot_ = -1;                      // its place among the files that a signal removes
  std::uint64_t reserved_ = 0;         // the bytes reserved
  std::unique_ptr<CodedParts> coded_;  // format 5's parts, once the values' counts are given
  TableFormat format_;
  std::uint64_t size_ = 0;
};

// Writes `table` to `path` through a TableOutput, in format 4; returns its root.
Digest save_table(const RingTable& table, const std::string& path, std::uint64_t fail_after = 0);

// Opens the table at `path` after checking that it is a regular file, its header, its size, its
// list of block hashes against its root, its root against the ring's true root (or `reading`'s
// trust, for a ring with none known) and its ring against `ring`. Throws TableFileError, and
// too_large where the memory runs out. The blocks are read and checked as look-ups need them; a
// block that fails then throws TableFileError too.
std::shared_ptr<const RingTable> load_table(const std::string& path,
                                            std::shared_ptr<const RingGeometry> geometry,
                                            const TableReading& reading);

// The ring a table file is of, and its format, from its header, checked as load_table() checks
// it before it looks at the root. Throws TableFileError.
struct TableKind {
  Ring ring;
  TableFormat format;
};
TableKind table_kind(const std::string& path);
// Its ring alone.
Ring table_ring(const std::string& path);

// What copy_table() made: the source's format version, and the copy's root and size.
struct TableCopy {
  std::uint32_t version = 0;
  Digest root{};
  std::uint64_t size = 0;
};
// Copies the table file at `path`, of the ring of `geometry`, to a table file at `out` in
// `format` (TableOutput), every page read and checked as a look-up reads it; the file's root
// must be the ring's true root, built in or in `roots`, and is the copy's. The file is opened
// and checked (header, sizes, top hashes and root, within `memory`) before anything is made for
// the copy, whose hashes its sizes ask memory for. Throws TableFileError: too_large where the
// memory runs out reading, unwritable where it runs out writing.
TableCopy copy_table(const std::string& path, std::shared_ptr<const RingGeometry> geometry,
                     const RootBook& roots, std::uint64_t memory, const std::string& out,
                     TableFormat format);

// How verify_table() checks a file.
struct VerifyOptions {
  RootBook roots = RootBook::built_in();
  // For a ring whose true root is not known, which is solved to check the file: the solve's
  // options, the most memory it may take (past which it solves past memory; 0: no limit), and
  // the folder where a solve past memory keeps its layers and its table.
  SolveOptions solve;
  std::uint64_t memory = 0;
  std::string work = ".";
};

// What verify_table() found in a sound file.
struct TableCheck {
  Ring ring;
  std::uint64_t classes = 0;
  std::uint64_t bytes = 0;   // the file's size
  std::uint64_t blocks = 0;  // blocks checked against their hashes
  Digest root{};
  // Where the ring's true root came from: built in or recorded (the file's root is it), or none,
  // when the ring was solved and its table found to be the file's, byte for byte.
  RootBook::Source source = RootBook::Source::none;
  bool solved_past_memory = false;
};

// Checks a whole table file, whatever its ring, reading it once through a block's memory:
// every field of the header and every byte of its padding, every block against its hashes, the
// hashes against the root, and the root against the ring's true root where it is known. Where
// it is not, solves the ring (in memory, or past it beyond options.memory) and compares the two
// tables, naming where the file first differs. Throws TableFileError on the first fault: a
// file that is not the true table of its ring is wrong_root.
TableCheck verify_table(const std::string& path, const VerifyOptions& options);

}  // namespace ioiwari
