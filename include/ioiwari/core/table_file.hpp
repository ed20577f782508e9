// Table files, like endgame tablebases: a solved ring written once (`ioiwari solve`) and mapped
// read-only by every command given `--table FILE`, so that many processes share one copy.
//
// A file may have been copied, downloaded, cut short, damaged or crafted, and it may change while
// a command reads it. Reading one is safe whatever its bytes: it is checked the way a database
// checks its pages. The header and the list of block checksums are checked when the file is
// opened; every block of 64 KiB is checked against its checksum the first time a look-up reads
// from it; and every look-up checks what it reads against the rest of the table (ring_table.hpp).
// So a look-up never reads outside the file and never uses a value the ring cannot have. A
// change to the file while it is in use ends the command with one line (exit status 7), never a
// signal. The layout, field by field, is in docs/table-format.md.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_table.hpp"

namespace ioiwari {

inline constexpr std::uint32_t kTableFormatVersion = 3;

// Why a file was refused, or why a table read from one cannot be used. Each kind is its own
// one-line message, which names the file.
class TableFileError : public TableError {
 public:
  enum class Kind {
    unreadable,   // cannot be opened or mapped, or is not a regular file
    not_a_table,  // no magic, an unknown version or byte order, a layout that fits no ring
    truncated,    // shorter than its header says
    checksum,     // a part fails its checksum: the header, the block list, or a block
    damaged,      // its checksums match but its parts disagree (a crafted or buggy file)
    other_rules,  // a table of another ring than the command's
    changed,      // the file changed while a command was using it
    unwritable,   // cannot be written: a path that is no regular file, a missing directory,
                  // no room, or a failed write (TableOutput)
  };
  TableFileError(Kind kind, const std::string& message) : TableError(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// Where a file's parts lie, a pure function of the ring: the 64 KiB header block, then the
// index's lines and the values, each starting on a block boundary, then the checksums of the
// blocks between the header block and the checksums, 8 bytes each.
struct TableLayout {
  static constexpr std::uint64_t kBlockBytes = 64 * 1024;
  std::uint64_t lines_offset = 0, values_offset = 0, sums_offset = 0;
  std::uint64_t blocks = 0;      // checked blocks: (sums_offset - kBlockBytes) / kBlockBytes
  std::uint64_t file_bytes = 0;  // the whole file
};
TableLayout table_layout(Ring ring);

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
// destroyed without a commit, and when SIGINT, SIGTERM or SIGHUP ends the process meanwhile.
// Throws TableFileError (unwritable).
class TableOutput {
 public:
  TableOutput(const std::string& path, Ring ring);
  ~TableOutput();
  TableOutput(const TableOutput&) = delete;
  TableOutput& operator=(const TableOutput&) = delete;

  // The file the table goes to: the path, or where its symbolic links lead.
  const std::string& target() const { return target_; }
  // The temporary file the table is written to first.
  const std::string& temporary() const { return temporary_; }
  // The size of the file to be written.
  std::uint64_t bytes() const { return layout_.file_bytes; }

  // Writes `table` (of the ring given above), then renames it over the target. `fail_after`,
  // when not zero, makes the write fail after that many bytes (tests).
  void commit(const RingTable& table, std::uint64_t fail_after = 0);

  // The same in steps, for a table that is not in this process's memory (a distributed solve
  // gathers it from its processes): the parts' bytes in file order, the index's lines and then
  // the values, in pieces of any size, each block's checksum computed as its bytes pass; then
  // commit() with the table's class count writes the header and the checksums and renames the
  // file over the target.
  void append(std::span<const unsigned char> bytes);
  void commit(std::uint64_t classes);

 private:
  struct Stream;
  void discard();
  void write_at(std::uint64_t offset, std::span<const unsigned char> bytes);
  Ring ring_;
  TableLayout layout_;
  std::unique_ptr<Stream> stream_;
  std::uint64_t written_ = 0, fail_after_ = 0;
  std::string target_, temporary_;
  int directory_ = -1;  // the target's folder
  int fd_ = -1;         // the temporary file, locked while it is ours
  int slot_ = -1;       // its place among the files that a signal removes
};

// Writes `table` to `path` through a TableOutput.
void save_table(const RingTable& table, const std::string& path, std::uint64_t fail_after = 0);

// Maps the table at `path` read-only after checking that it is a regular file, and its header,
// its size, its list of block checksums and its rules against `ring`. Throws TableFileError. The
// blocks themselves are checked as look-ups first read them; a failed check then throws
// TableFileError too, as does RingTable::check_unchanged() after the file has changed.
std::shared_ptr<const RingTable> load_table(const std::string& path, Ring ring);

// What verify_table() found in a sound file.
struct TableCheck {
  Ring ring;
  std::uint64_t classes = 0;
  std::uint64_t bytes = 0;   // the file's size
  std::uint64_t blocks = 0;  // blocks checked against their checksums
};

// Checks a whole table file, whatever its ring: every block against its checksum, and the table
// as RingTable::verify() checks it. Throws TableFileError on the first fault.
TableCheck verify_table(const std::string& path, const SolveOptions& options = {});

// The checksum of a table file's parts: a 64-bit hash of `size` bytes, eight at a time in four
// lanes, each word through a bijection of its lane, so that any one changed word changes it.
std::uint64_t table_checksum(const unsigned char* bytes, std::uint64_t size);

}  // namespace ioiwari
