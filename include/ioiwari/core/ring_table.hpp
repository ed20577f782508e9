// The solved table of any ring, one value per rotation class: the solver that scales.
//
// A class is stored once, by its rank among the canonical codes. Its rank is found through the
// index (ring_index.hpp): the canonical board's position, then one 64-byte line that holds the
// position's bit and the counts before it. The index costs about 0.4 bytes a class on a ring
// of 12 pits, and the values one byte a class. The classes are solved by layers of bead count,
// every layer shared among threads (ring_solver.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "ioiwari/core/board.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_geometry.hpp"
#include "ioiwari/core/ring_solver.hpp"

namespace ioiwari {

// A table that cannot be used: a table file that is damaged, crafted or changed (table_file.hpp),
// found when it is opened or when a look-up reads it.
class TableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where a table's index and values live when they are not in this process's memory (a table
// file): every word handed out is a copy, checked before it is handed out, so that nothing the
// storage holds can change what a look-up sees. Both throw TableError when the bytes cannot be
// read or fail their check.
class TableStorage {
 public:
  virtual ~TableStorage() = default;
  // Copies `count` words of the index from word `first` on into `out`.
  virtual void index_words(std::uint64_t first, std::size_t count, std::uint64_t* out) const = 0;
  // The value byte of the class of rank `rank`.
  virtual std::int8_t value_byte(Rank rank) const = 0;
  // Throws TableError saying that the table is damaged: `what` is wrong with it.
  [[noreturn]] virtual void damaged(const std::string& what) const = 0;
};

class RingTable {
 public:
  // Solves every class of the ring of `geometry`.
  static std::shared_ptr<const RingTable> solve(std::shared_ptr<const RingGeometry> geometry,
                                                const SolveOptions& options);

  // A table whose index lines and values, laid out as solve() lays them out, are read from
  // `storage` a few words at a time.
  static std::shared_ptr<const RingTable> over(std::shared_ptr<const RingGeometry> geometry,
                                               std::shared_ptr<const TableStorage> storage);
  // A table whose index lines and values are in this process's memory, laid out as solve() lays
  // them out (a table file read whole), kept alive by `owner`. `storage`, when given, says what
  // is wrong when the parts are found to disagree.
  static std::shared_ptr<const RingTable> in_memory(std::shared_ptr<const RingGeometry> geometry,
                                                    std::span<const std::uint64_t> lines,
                                                    std::span<const std::int8_t> values,
                                                    std::shared_ptr<const void> owner,
                                                    std::shared_ptr<const TableStorage> storage);

  Ring ring() const { return geometry_->ring(); }
  const RingGeometry& geometry() const { return *geometry_; }
  std::uint64_t classes() const { return geometry_->classes(); }

  // The value of `board` (a board of this ring) for the player to move. Checked: a value beyond
  // what the ring's beads allow is damage (TableError), never an answer.
  int value(const Board& board) const;
  // The value of the class of rank `rank` (below classes()), checked as value() checks it.
  int value_of(Rank rank) const;

  // The rank of `board`'s class: its canonical code's place among all canonical codes. Checked:
  // the position must be marked, and its line's counts must agree with its bits and with the
  // next line's first rank, so the rank is always below classes().
  Rank class_of(const Board& board) const;
  // The rank of the class at an index position (ring_index.hpp), checked as class_of() checks.
  Rank rank(Position position) const;

  // Throws TableError saying that the table is damaged at `board`: its value is not what its
  // moves give (the callers that see every move check this).
  [[noreturn]] void inconsistent(const Board& board, int value, int best) const;

  // Checks the whole table, which must be in memory: every line's counts against its bits and the
  // lines before it, the bits against the ring's classes (every canonical board marked, nothing
  // else), every value within the ring's range, and then every class's value against its moves', as
  // the solve computed it: only the ring's true solution passes. Takes about as long as a solve.
  // Throws TableError on the first fault.
  void verify(const SolveOptions& options) const;

  // Whether the index and values are in this process's memory, and then where.
  bool in_memory() const { return !storage_only_; }
  std::span<const std::uint64_t> lines() const { return lines_; }
  std::span<const std::int8_t> values() const { return values_; }

 private:
  explicit RingTable(std::shared_ptr<const RingGeometry> geometry)
      : geometry_(std::move(geometry)) {}
  [[noreturn]] void fault(const std::string& what) const;
  RingPart part() const;
  // Copies index line `at`'s words into words[0..7], and into words[8] the next line's first
  // word, or classes() after the last line.
  void line(std::uint64_t at, std::uint64_t* words) const;
  std::int8_t value_at(Rank rank) const;

  std::shared_ptr<const RingGeometry> geometry_;
  std::span<const std::uint64_t> lines_;         // in memory: the index
  std::span<const std::int8_t> values_;          // and the values
  std::shared_ptr<const void> owned_;            // what keeps them alive
  std::shared_ptr<const TableStorage> storage_;  // a file's: what reads them, or names damage
  bool storage_only_ = false;                    // whether they are read from storage_
};

}  // namespace ioiwari
