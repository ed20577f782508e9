// The solved table of any ring, one entry per rotation class: the solver that scales.
//
// A class is stored once, under its canonical code (the smallest code among the rotations of
// its boards). Its entry is found by rank: a bitmap over all codes marks the canonical ones,
// and a directory of running counts makes the rank of a code a few popcounts. The index costs
// one bit per code (about N/8 bytes per class on a ring of N pits) and the values one byte per
// class. Why this index and not necklace ranking: ranking a necklace takes O(N^2) steps and
// more, per successor of every class solved, while a rank here is a look-up in memory.
//
// Classes are solved by layers of bead count, as the IOI table is: every move removes a bead,
// so a class's successors are all in lower layers, already solved, and the classes of one layer
// are independent of each other. Each layer is shared among threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "ioiwari/core/board.hpp"
#include "ioiwari/core/ring.hpp"

namespace ioiwari {

// How a solve is going, after each batch of classes.
struct SolveProgress {
  int layer = 0;              // the bead count being solved; -1 while the index is made
  int layers = 0;             // how many there are (0..max beads)
  std::uint64_t done = 0;     // classes solved so far
  std::uint64_t classes = 0;  // classes in all
  int threads = 0;            // the most threads that solved classes of one batch so far
};

struct SolveOptions {
  int threads = 0;  // 0: one per core
  std::function<void(const SolveProgress&)> progress;
  // The boards wanted: those of at most this many beads. A solver that works up by bead count
  // may stop there (the IOI ring's does); one that may not solves them all.
  int most_beads = kMaxRingBeads;
};

// What a table of `ring` takes in memory, in bytes, while it is solved (the index, the values,
// and the largest batch of classes at work) and once it is solved or loaded.
struct TableSize {
  std::uint64_t classes = 0;
  std::uint64_t bitmap_bytes = 0;     // one bit per code
  std::uint64_t directory_bytes = 0;  // a running count per 512 codes
  std::uint64_t values_bytes = 0;     // one byte per class
  std::uint64_t working_bytes = 0;    // the solver's batches, besides the table
  std::uint64_t table_bytes() const { return bitmap_bytes + directory_bytes + values_bytes; }
  std::uint64_t solve_bytes() const { return table_bytes() + working_bytes; }
};
TableSize table_size(Ring ring);

// How many rotation classes of `ring`'s boards hold each number of beads (Burnside's lemma).
std::vector<std::uint64_t> classes_by_beads(Ring ring);

// A table that cannot be used: a table file that is damaged or changed (table_file.hpp), found
// when it is opened or when a look-up reads it.
class TableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where a table's index and values live when they are not the solver's own memory (a mapped
// table file): it checks bytes before they are read, says what is wrong when a look-up finds the
// parts of the table disagreeing, and notices when the bytes change under the reader.
class TableStorage {
 public:
  virtual ~TableStorage() = default;
  // Checks the `size` bytes at `data`, which lie in the table's storage, before they are read.
  // Throws TableError when they are not what was written.
  virtual void vouch(const void* data, std::size_t size) const = 0;
  // Throws TableError saying that the table is damaged: `what` is wrong with it.
  [[noreturn]] virtual void damaged(const std::string& what) const = 0;
  // Throws TableError when the storage has changed since it was first read.
  virtual void check_unchanged() const = 0;
};

class RingTable {
 public:
  // Solves every class of `ring`.
  static std::shared_ptr<const RingTable> solve(Ring ring, const SolveOptions& options = {});

  // A table over storage that holds a solved ring's index and values: `bitmap`, `directory` and
  // `values` as solve() lays them out, inside `storage`, which is asked to vouch for them as they
  // are read.
  static std::shared_ptr<const RingTable> adopt(Ring ring, std::span<const std::uint64_t> bitmap,
                                                std::span<const std::uint64_t> directory,
                                                std::span<const std::int8_t> values,
                                                std::shared_ptr<const TableStorage> storage);

  Ring ring() const { return ring_; }
  std::uint64_t classes() const { return values_.size(); }

  // The value of `board` (a board of this ring) for the player to move. Checked: a value beyond
  // what the ring's beads allow is damage (TableError), never an answer.
  int value(const Board& board) const;

  // The rank of `board`'s class: its canonical code's place among all canonical codes. Checked:
  // the code must be marked in the bitmap, and the directory must agree with the bitmap around
  // it, so the rank is always below classes().
  std::uint64_t class_of(const Board& board) const;
  // The rank of a canonical code, checked as class_of() checks it.
  std::uint64_t rank(std::uint64_t canonical_code) const;

  // Throws TableError saying that the table is damaged at `board`: its value is not what its
  // moves give (the callers that see every move check this).
  [[noreturn]] void inconsistent(const Board& board, int value, int best) const;

  // Throws TableError when the table's storage has changed since it was read: a table file
  // rewritten in place. Nothing for a table a solve made.
  void check_unchanged() const;

  // Checks the whole table: the directory against the bitmap, the bitmap against the ring's
  // classes (every necklace marked, nothing else), every value within the ring's range, and then
  // every class's value against its moves', as the solve computed it: only the ring's true
  // solution passes. Takes about as long as a solve. Throws TableError on the first fault.
  void verify(const SolveOptions& options = {}) const;

  // A fingerprint of the values, in class order (FNV-1a over the bytes).
  std::uint64_t checksum() const;

  std::span<const std::uint64_t> bitmap() const { return bitmap_; }
  std::span<const std::uint64_t> directory() const { return directory_; }
  std::span<const std::int8_t> values() const { return values_; }

 private:
  RingTable() = default;
  template <class T>
  void vouch(std::span<const T> part) const;
  [[noreturn]] void fault(const std::string& what) const;

  Ring ring_;
  std::span<const std::uint64_t> bitmap_;
  std::span<const std::uint64_t> directory_;
  std::span<const std::int8_t> values_;
  std::shared_ptr<const void> owned_;            // a solve's memory
  std::shared_ptr<const TableStorage> storage_;  // or storage that checks what is read
};

// The canonical code of the class of the board whose digits (pit 1 the lowest nibble, 4 bits a
// pit) are `packed`, on a ring of `pits` pits of base `base`: Board::canonical().code() (board.hpp)
// computed on packed digits for speed; a test holds the two equal on every board of the rings
// the suite builds.
std::uint64_t canonical_code(std::uint64_t packed, int pits, int base);

}  // namespace ioiwari
