// What format 5 stores in place of format 4's bytes (docs/table-format.md, "Version 5"): the
// values of each page of 4,096 classes coded with one canonical Huffman code for the file, and
// of the index only the first rank of every page of 64 lines, the lines found again by walking
// their canonical boards. Each page of format 4 is made again from these alone, and checked
// against format 4's page hash: a file of version 5 has its ring's format-4 root.
//
// table_entropy (tests/programs) measured why: the values take 2.7 to 3.0 bits a class under an
// order-0 code (format 4: 8), and the index's bits are all found again by the canonical test in
// about a microsecond a line.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ioiwari/core/ring_index.hpp"

namespace ioiwari {

// The classes whose values one coded page holds: a page of format 4's values.
inline constexpr std::uint64_t kCodedPageClasses = 4096;
// The longest code of a value, in bits, and so the most bytes a coded page takes.
inline constexpr int kMostCodeBits = 12;
inline constexpr std::uint64_t kMostPageCodeBytes = kCodedPageClasses * kMostCodeBits / 8;
// The lines whose first rank the index keeps: a page of format 4's index.
inline constexpr std::uint64_t kIndexPageLines = 64;

// The number of classes with each value byte (a value's two's complement), from which a table's
// code is made.
using ValueCounts = std::array<std::uint64_t, 256>;
// Adds `values` to `counts`.
void add_value_counts(std::span<const std::int8_t> values, ValueCounts& counts);

// A canonical Huffman code of the 256 bytes a value may be, from each byte's code length
// (0: the byte never occurs). Lengths from counts are Huffman's, made deterministic and at most
// kMostCodeBits long (lengths_for()); the codes are canonical: by length, then by byte, each the
// next number, written from the most significant bit.
class ValueCode {
 public:
  using Lengths = std::array<std::uint8_t, 256>;

  // The lengths of the code of `counts` (the number of classes with each value byte), as
  // docs/table-format.md defines them: Huffman's merging of the two lightest (weight, then the
  // earlier made: the bytes in order, then the merged nodes in the order made), and, while any
  // length is over kMostCodeBits, again with every count halved (rounded up, 0 staying 0).
  static Lengths lengths_for(const ValueCounts& counts);

  // The code of `lengths`, or nothing when they are no code: a length over kMostCodeBits, or
  // more codes than the lengths have room for (Kraft's sum over 1). A code whose sum is under 1
  // (one value alone) is a code: the bit strings it leaves unused are refused as they are read.
  static std::optional<ValueCode> of(const Lengths& lengths);

  const Lengths& lengths() const { return lengths_; }

  // Appends the code of `values` to `out`: their codes in order, then zero bits to a whole byte.
  void encode(std::span<const std::int8_t> values, std::vector<unsigned char>& out) const;
  // Decodes `into.size()` values from `bytes`, which must hold exactly their codes and the zero
  // bits after them to a whole byte; false when they do not (a damaged or crafted page).
  bool decode(std::span<const unsigned char> bytes, std::span<std::int8_t> into) const;

 private:
  ValueCode() = default;
  Lengths lengths_{};
  std::array<std::uint16_t, 256> codes_{};
  // For every kMostCodeBits-bit string, the byte whose code starts it and the code's length (0:
  // no code starts it).
  std::vector<std::uint16_t> table_;
  // For every kMostCodeBits-bit string, the codes that lie whole in it, read one after another
  // from its start as table_ reads them, at most kRunCodes: their bytes (the first lowest), how
  // many (bits 32 to 39: 0 when no code starts the string) and their bits (bits 40 to 47).
  // decode() reads a few codes a look-up with it; table_ is its rule, which the tests hold it to.
  static constexpr int kRunCodes = 4;
  std::vector<std::uint64_t> runs_;
};

// Writes lines `first` to `first + count - 1` of the index of the ring of `index` (format 4's
// lines: ring_index.hpp), the first of them of rank `rank`, into `lines` (kLineWords words each),
// by walking the canonical boards of their positions. Lines past the last are zero. Returns the
// rank after the last line.
std::uint64_t make_index_lines(const RingIndex& index, std::uint64_t first, std::uint64_t count,
                               std::uint64_t rank, std::uint64_t* lines);

}  // namespace ioiwari
