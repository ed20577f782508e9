// Table files, like endgame tablebases: a solved ring written once (`ioiwari solve`) and mapped
// read-only by every command given `--table FILE`, so that many processes share one copy.
//
// The file is a 4096-byte header, then the table's index and values as RingTable lays them out
// (README, "Table files", gives every field):
//   magic "IOIWARI-TABLE\n" and two zero bytes, format version, a byte-order mark, the rules
//   (pits, capacity), the class count, the sizes of the three parts, and a checksum of them.
// It is written to a temporary file beside the target and renamed over it only when complete,
// so an interrupted solve never leaves a file that looks whole.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "ioiwari/ring.hpp"
#include "ioiwari/ring_table.hpp"

namespace ioiwari {

inline constexpr std::uint32_t kTableFormatVersion = 1;
inline constexpr std::size_t kTableHeaderBytes = 4096;

// Why a file was refused. Each kind is its own one-line message.
class TableFileError : public std::runtime_error {
 public:
  enum class Kind {
    unreadable,   // cannot be opened or mapped
    not_a_table,  // no magic, an unknown version or byte order, sizes that fit no ring
    truncated,    // shorter than its header says
    checksum,     // the checksum of its contents fails
    other_rules,  // a table of another ring than the command's
    unwritable,   // cannot be written (save_table)
  };
  TableFileError(Kind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// Writes `table` to `path` atomically: a temporary file in the same folder, flushed to disk,
// then renamed over `path`. On any failure the temporary file is removed and `path` is left as
// it was. `fail_after`, when not zero, makes the write fail after that many bytes (tests).
void save_table(const RingTable& table, const std::string& path, std::uint64_t fail_after = 0);

// Maps the table at `path` read-only and checks it: its header, its size, its checksum, and
// that it is a table of `ring`. Throws TableFileError.
std::shared_ptr<const RingTable> load_table(const std::string& path, Ring ring);

// The checksum of a table file's contents: a 64-bit hash of the bytes after the header.
std::uint64_t table_checksum(const unsigned char* bytes, std::uint64_t size);

}  // namespace ioiwari
