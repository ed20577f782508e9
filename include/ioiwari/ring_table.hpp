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
#include <vector>

#include "ioiwari/board.hpp"
#include "ioiwari/ring.hpp"

namespace ioiwari {

// How a solve is going, after each batch of classes.
struct SolveProgress {
  int layer = 0;              // the bead count being solved
  int layers = 0;             // how many there are (0..max beads)
  std::uint64_t done = 0;     // classes solved so far
  std::uint64_t classes = 0;  // classes in all
  int threads = 0;            // the most threads that solved classes of one batch so far
};

struct SolveOptions {
  int threads = 0;  // 0: one per core
  std::function<void(const SolveProgress&)> progress;
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

class RingTable {
 public:
  // Solves every class of `ring`.
  static std::shared_ptr<const RingTable> solve(Ring ring, const SolveOptions& options = {});

  // A table over storage that holds a solved ring's index and values (a file, say): `bitmap`,
  // `directory` and `values` as solve() lays them out, `keep` owning their memory.
  static std::shared_ptr<const RingTable> adopt(Ring ring, std::span<const std::uint64_t> bitmap,
                                                std::span<const std::uint64_t> directory,
                                                std::span<const std::int8_t> values,
                                                std::shared_ptr<const void> keep);

  Ring ring() const { return ring_; }
  std::uint64_t classes() const { return values_.size(); }

  // The value of `board` (a board of this ring) for the player to move.
  int value(const Board& board) const { return values_[class_of(board)]; }

  // The rank of `board`'s class: its canonical code's place among all canonical codes.
  std::uint64_t class_of(const Board& board) const;
  // The rank of a canonical code.
  std::uint64_t rank(std::uint64_t canonical_code) const;

  // A fingerprint of the values, in class order (FNV-1a over the bytes).
  std::uint64_t checksum() const;

  std::span<const std::uint64_t> bitmap() const { return bitmap_; }
  std::span<const std::uint64_t> directory() const { return directory_; }
  std::span<const std::int8_t> values() const { return values_; }

 private:
  RingTable() = default;

  Ring ring_;
  std::span<const std::uint64_t> bitmap_;
  std::span<const std::uint64_t> directory_;
  std::span<const std::int8_t> values_;
  std::shared_ptr<const void> keep_;
};

// The canonical code of the class of the board whose digits (pit 1 the lowest nibble, 4 bits a
// pit) are `packed`, on a ring of `pits` pits of base `base`.
std::uint64_t canonical_code(std::uint64_t packed, int pits, int base);

}  // namespace ioiwari
