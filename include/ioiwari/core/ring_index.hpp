// The index of a ring's rotation classes: where each class lies, and how its rank is found.
//
// A class is named by its canonical board, the rotation with the smallest code (board.hpp).
// The solver and the table files find a class's value by the class's rank among all canonical
// codes, in code order. The rank comes from the index, in two steps:
//
// 1. Position. A canonical board's highest pit (pit N) holds its fewest beads, t, for the
//    rotation that starts at a pit of fewest beads is the smallest. So the canonical boards
//    with t there have every other pit between t and C, and they are numbered in base C+1-t
//    by their other N-1 pits, less t each: the block of boards with t in pit N has
//    (C+1-t)^(N-1) positions, and the blocks follow each other for t = 0, 1, ..., C. A
//    position is thus a few multiplications from the packed digits, and positions follow code
//    order. There are about 1.1 * (C+1)^(N-1) of them: N+1 times fewer than codes.
//
// 2. Rank. The index is an array of 64-byte lines, each holding 384 positions: a bit per
//    position, set when a canonical board lies there, and in the same line the rank of its
//    first position and the bits set before each of its six words. A rank is one line read
//    from memory and one popcount.
//
// At 12 pits of capacity 5 the index is 70 MB for 181 million classes, 0.38 bytes a class; a
// bitmap over every code would take 4 times as much (and a second read for its counts).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <utility>

#include "ioiwari/core/ring.hpp"

namespace ioiwari {

class Board;

// A board as its digits, 4 bits a pit, pit 1 in the lowest nibble (every capacity is below 16).
// Two packed boards of one ring compare as their codes do: both are positional numbers with
// the same digits in the same order.
using Packed = std::uint64_t;

constexpr Packed nibble_mask(int pits) {
  return pits >= 16 ? ~Packed{0} : (Packed{1} << (4 * pits)) - 1;
}

constexpr int digit(Packed packed, int pit) {
  return static_cast<int>((packed >> (4 * pit)) & 15);
}

Packed pack(const Board& board);

// A packed board's pits as sow() (sowing.hpp) holds them, so that the solver moves with the
// Board's own rule.
struct PackedPits {
  Packed bits;
  constexpr int get(int pit) const { return digit(bits, pit); }
  // A count never goes below 0 nor above 15, so no change carries into the next pit's nibble;
  // a negative change wraps round in unsigned arithmetic as a subtraction.
  constexpr void add(int pit, int beads) {
    bits += static_cast<Packed>(static_cast<std::int64_t>(beads)) << (4 * pit);
  }
};

// The smallest of the rotations of `packed`: Board::canonical() (board.hpp) on packed digits,
// for speed. Turning the ring by one pit moves every digit up a nibble and the top one to the
// bottom. A test holds the two equal on every board of the rings the suite builds.
constexpr Packed canonical_packed(Packed packed, int pits) {
  const int top = 4 * (pits - 1);
  const Packed mask = nibble_mask(pits);
  Packed best = packed;
  for (int turn = 1; turn < pits; ++turn) {
    packed = ((packed << 4) & mask) | (packed >> top);
    best = packed < best ? packed : best;
  }
  return best;
}

// canonical_packed() on a ring of N pits, with every rotation written out, so that they are
// computed side by side rather than each from the last: the solver's. A test holds the two equal.
template <int N, std::size_t... Turn>
[[gnu::always_inline]] constexpr Packed canonical_packed(Packed packed,
                                                         std::index_sequence<Turn...>) {
  constexpr Packed kMask = nibble_mask(N);
  // Turned by t + 1 pits: every digit up t + 1 nibbles, the top t + 1 ones to the bottom.
  const auto turned = [packed](int t) {
    return ((packed << (4 * (t + 1))) & kMask) | (packed >> (4 * (N - 1 - t)));
  };
  Packed best = packed;
  ((best = turned(static_cast<int>(Turn)) < best ? turned(static_cast<int>(Turn)) : best), ...);
  return best;
}
template <int N>
[[gnu::always_inline]] constexpr Packed canonical_packed(Packed packed) {
  return canonical_packed<N>(packed, std::make_index_sequence<N - 1>{});
}

// The powers of a base that turn packed digits into a number: base, base^2, base^4, base^8.
struct Radix {
  std::uint64_t b1 = 0, b2 = 0, b4 = 0, b8 = 0;
  static constexpr Radix of(int base) {
    const auto b = static_cast<std::uint64_t>(base);
    return {b, b * b, b * b * b * b, b * b * b * b * b * b * b * b};
  }
};

// The number whose digits in `radix`'s base are `digits` (each below the base, 16 at most, the
// lowest nibble the lowest digit): digits paired into bytes, bytes into 16-bit lanes, lanes into
// 32-bit ones and those into one, each step a multiplication within every lane at once. No lane
// overflows, for a base of at most 10: a byte holds at most 99, 16 bits 9999, 32 bits 10^8 - 1.
constexpr std::uint64_t number_of(Packed digits, Radix radix) {
  constexpr std::uint64_t kBytes = 0x0f0f0f0f0f0f0f0f, kShorts = 0x00ff00ff00ff00ff;
  constexpr std::uint64_t kInts = 0x0000ffff0000ffff;
  std::uint64_t x = (digits & kBytes) + ((digits >> 4) & kBytes) * radix.b1;
  x = (x & kShorts) + ((x >> 8) & kShorts) * radix.b2;
  x = (x & kInts) + ((x >> 16) & kInts) * radix.b4;
  return (x & 0xffffffff) + (x >> 32) * radix.b8;
}

// The beads of a packed board: its nibbles added in pairs into bytes, then the bytes by one
// multiplication (at most 16 * 9 = 144, which a byte holds).
constexpr int beads_of(Packed packed) {
  constexpr std::uint64_t kBytes = 0x0f0f0f0f0f0f0f0f;
  const std::uint64_t pairs = (packed & kBytes) + ((packed >> 4) & kBytes);
  return static_cast<int>((pairs * 0x0101010101010101) >> 56);
}

// The code of a packed board (Board::code(), board.hpp).
constexpr std::uint64_t code_of(Packed packed, int base) {
  return number_of(packed, Radix::of(base));
}

// The packed board of a code.
constexpr Packed packed_of(std::uint64_t code, Ring ring) {
  Packed packed = 0;
  for (int pit = 0; pit < ring.pits; ++pit) {
    packed |= static_cast<Packed>(code % static_cast<std::uint64_t>(ring.base())) << (4 * pit);
    code /= static_cast<std::uint64_t>(ring.base());
  }
  return packed;
}

// The canonical code of the class of the board whose digits are `packed`.
constexpr std::uint64_t canonical_code(Packed packed, int pits, int base) {
  return code_of(canonical_packed(packed, pits), base);
}

// The index's lines: 8 words of 64 bits. Word 0 is the rank of the line's first position; word
// 1 holds, for k = 1..5, the bits set in words 2..k+1 at bits 9(k-1)..9k-1 (the rest of it is
// zero); words 2..7 hold the line's 384 positions, position 64j + i of the line at bit i of word
// 2 + j.
inline constexpr int kLineWords = 8;
inline constexpr int kLinePositions = 384;
inline constexpr int kCountBits = 9;
inline constexpr std::uint64_t kCountsMask = (std::uint64_t{1} << (5 * kCountBits)) - 1;

// The bits set in the line's words before its `word`-th bit word (0..5).
constexpr std::uint64_t count_before(const std::uint64_t* line, std::uint64_t word) {
  return ((line[1] << kCountBits) >> (kCountBits * word)) & ((1u << kCountBits) - 1);
}

// The rank of the class at bit `bit` (0..383, set) of `line`.
[[gnu::always_inline]] inline std::uint64_t line_rank(const std::uint64_t* line,
                                                      std::uint64_t bit) {
  const std::uint64_t below = (std::uint64_t{1} << (bit & 63)) - 1;
  return line[0] + count_before(line, bit >> 6) +
         static_cast<std::uint64_t>(std::popcount(line[2 + (bit >> 6)] & below));
}

// The rank of the class at `position` (whose bit is set) in `lines`, whose first line holds
// positions from 0.
[[gnu::always_inline]] inline std::uint64_t rank_at(const std::uint64_t* lines,
                                                    std::uint64_t position) {
  return line_rank(lines + kLineWords * (position / kLinePositions), position % kLinePositions);
}

// Whether a canonical board lies at `position`.
constexpr bool marked(const std::uint64_t* lines, std::uint64_t position) {
  const std::uint64_t* line = lines + kLineWords * (position / kLinePositions);
  const std::uint64_t bit = position % kLinePositions;
  return (line[2 + (bit >> 6)] >> (bit & 63) & 1) != 0;
}

// A class's rank (its canonical code's place among all canonical codes) and a canonical board's
// position in the index: two numbers of different kinds, kept apart by their types where they
// cross an interface. (The solver's batches hold them as plain numbers, converted in place.)
enum class Rank : std::uint64_t {};
enum class Position : std::uint64_t {};
constexpr std::uint64_t raw(Rank rank) {
  return static_cast<std::uint64_t>(rank);
}
constexpr std::uint64_t raw(Position position) {
  return static_cast<std::uint64_t>(position);
}

// Where the canonical boards of a ring lie (above, step 1).
class RingIndex {
 public:
  explicit RingIndex(Ring ring);

  Ring ring() const { return ring_; }
  // How many positions and lines there are.
  std::uint64_t positions() const { return blocks_[static_cast<std::size_t>(ring_.base())]; }
  std::uint64_t lines() const { return (positions() + kLinePositions - 1) / kLinePositions; }

  // The position of a canonical board (given packed). The board must be canonical: its top
  // digit must be its smallest.
  [[gnu::always_inline]] std::uint64_t position(Packed canonical) const {
    const auto fewest = static_cast<std::size_t>(canonical >> top_shift_);
    const Packed rest = (canonical & rest_mask_) - fewest * rest_ones_;
    return blocks_[fewest] + number_of(rest, radixes_[fewest]);
  }

  // The packed board at a position (below positions()), the inverse of position(); past the last
  // position, a value above every board's.
  Packed board_at(std::uint64_t position) const;

 private:
  Ring ring_;
  int top_shift_ = 0;                                     // 4(N-1): the top digit's place
  Packed rest_mask_ = 0;                                  // the other N-1 digits
  Packed rest_ones_ = 0;                                  // 1 in each of them
  std::array<std::uint64_t, kMaxCapacity + 2> blocks_{};  // where the block of each t starts
  std::array<Radix, kMaxCapacity + 1> radixes_{};         // base C+1-t for the block of t
};

// Calls visit(packed) for every necklace of `pits` digits 0..capacity whose digits add up to
// `sum` (every sum when `sum` is negative) and whose packed board lies in [from, to): the strings
// a[1..pits] that no rotation makes lexicographically smaller, packed with a[1] as the top
// nibble, so that each is its class's canonical board. This is the algorithm of Fredricksen,
// Kessler and Maiorana, constant time per necklace, with the subtrees that cannot reach the sum
// or the range cut off; it visits the necklaces in increasing order of their codes.
//
// For one sum, every digit is at least a[1] (a necklace starts at its smallest digit), which
// bounds the beads still to come from below as the capacity bounds them from above, and the
// last digit is what the sum leaves: it is set, not searched. So a layer's walk visits about two
// nodes a necklace, where searching the last digit and bounding the rest by 0 took twice the
// time (12 pits: 37 ns a necklace, 19 ns now). LayerIndex::for_each_necklace() (layer_index.hpp)
// walks a layer the same way, ranking as it goes; tests hold each to every canonical board of
// small rings (test_ring_solver.cpp, test_layer_index.cpp).
template <class Visit>
void for_each_necklace(int pits, int capacity, int sum, Packed from, Packed to, Visit&& visit) {
  std::array<int, kMaxPits + 1> a{};  // a[1..pits]; a[0] stays 0
  const auto extend = [&](auto&& self, int t, int period, int total, Packed packed) -> void {
    const int remaining = pits - t;  // places after this one
    const int shift = 4 * remaining;
    if (sum >= 0 && remaining == 0) {
      // The last digit is the sum's rest.
      const int d = sum - total;
      if (d < a[t - period] || d > capacity) return;
      if (pits % (d == a[t - period] ? period : t) != 0) return;
      const Packed board = packed | static_cast<Packed>(d);
      if (board >= from && board < to) visit(board);
      return;
    }
    for (int d = a[t - period]; d <= capacity; ++d) {
      const Packed prefix = packed | static_cast<Packed>(d) << shift;
      if (prefix >= to) break;  // the subtree's smallest board is past the range
      // The subtree's largest board (every later nibble 15) is before the range.
      if ((prefix | ((Packed{1} << shift) - 1)) < from) continue;
      if (sum >= 0) {
        // Every later digit holds a[1] at least (d itself, for the first digit).
        if (total + d + remaining * (t == 1 ? d : a[1]) > sum) break;
        if (total + d + remaining * capacity < sum) continue;
      }
      a[t] = d;
      if (remaining == 0) {
        if (pits % (d == a[t - period] ? period : t) == 0) visit(prefix);
        continue;
      }
      self(self, t + 1, d == a[t - period] ? period : t, total + d, prefix);
    }
  };
  extend(extend, 1, 1, 0, 0);
}

template <class Visit>
void for_each_necklace(int pits, int capacity, int sum, Visit&& visit) {
  for_each_necklace(pits, capacity, sum, 0, ~Packed{0}, visit);
}

}  // namespace ioiwari
