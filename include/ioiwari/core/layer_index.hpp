// Positions within a layer: the index a solve past memory needs (docs/rings.md, "Past memory").
//
// RingIndex (ring_index.hpp) numbers a ring's canonical boards in one run of positions for the
// whole ring, so the classes of one bead count lie all over it. A solve that keeps only a few
// layers in memory needs each layer numbered on its own. A canonical board holds its fewest
// beads, t, in its top pit; the boards of B beads with t there have their other N-1 pits between
// t and C, adding up to B - t, and LayerIndex numbers them in code order: block by block of t,
// and within a block as the compositions of B - Nt into N-1 parts of 0..C-t (each pit less t),
// ranked in code order. A layer then has about as many positions as the ring's index gives it,
// all together.
//
// A rank is a sum of one table entry a pit: the compositions before a board are, pit by pit from
// the top, those that agree above the pit and hold less in it, and how many hold less there
// depends only on the pit, its digit and the beads of the pits below and at it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_index.hpp"

namespace ioiwari {

class LayerIndex {
 public:
  explicit LayerIndex(Ring ring);

  Ring ring() const { return ring_; }
  // The positions of the layer of `beads` beads (0..max_beads()).
  std::uint64_t positions(int beads) const { return starts_[slot(beads, ring_.capacity + 1)]; }

  // The position within its layer of a canonical board (given packed), which must hold its
  // fewest beads in its top pit, as canonical boards do; `beads` is its beads.
  std::uint64_t position(Packed canonical, int beads) const;

  // The board at `position` (below positions(beads)) of the layer of `beads`: position()'s
  // inverse.
  Packed board_at(int beads, std::uint64_t position) const;

  // Calls visit(packed, position) for every necklace of the layer of `beads` whose packed board
  // lies in [from, to), in code order (for_each_necklace(), ring_index.hpp), with its position:
  // the walk sets the digits from the top pit down, and adds each pit's table entry as it sets
  // it, which position() finds from the bottom up. A test holds the two equal.
  template <class Visit>
  void for_each_necklace(int beads, Packed from, Packed to, Visit&& visit) const;

  // A table for the position of a board with no bead in its top pit, as every move's successor
  // is (a move empties its own pit), two pits an entry: the sum over the pairs of pits
  // j = 0, 1, ... (pits 2j and 2j + 1, below the top) of entry ((j * sums + s) * base + h) * base
  // + l, where l and h are the pits' digits and s the beads at and below pit 2j + 1. (For an even
  // number of pits the last pair is pit N-2 and the empty top.) The wide expansion
  // (expansion_wide.cpp) gathers these entries eight boards at a time; a test holds the sum
  // equal to position().
  struct EmptyTop {
    const std::uint64_t* entries;
    int sums;  // max_beads() + 1
    int base;  // capacity + 1
  };
  EmptyTop empty_top() const { return {pairs_.data(), sums_, ring_.base()}; }

 private:
  std::size_t slot(int beads, int fewest) const {
    return static_cast<std::size_t>(beads) * static_cast<std::size_t>(ring_.capacity + 2) +
           static_cast<std::size_t>(fewest);
  }
  // How many strings of `length` digits 0..C-t add up to `sum` (0 past the table).
  std::uint64_t strings(int fewest, int length, int sum) const;
  // Where below_'s entries for the fewest count `fewest`, a pit with `length` - 1 pits under
  // it, and `sum` beads at and under it (less t each) start: one for each digit there.
  std::size_t below_slot(int fewest, int length, int sum) const {
    return ((static_cast<std::size_t>(fewest) * static_cast<std::size_t>(ring_.pits) +
             static_cast<std::size_t>(length)) *
                static_cast<std::size_t>(sums_) +
            static_cast<std::size_t>(sum)) *
           static_cast<std::size_t>(ring_.base());
  }

  Ring ring_;
  int sums_ = 0;                        // sums 0..max_beads()
  std::vector<std::uint64_t> strings_;  // [fewest][length][sum]
  // [fewest][length][sum][digit]: the strings of `length` digits 0..C-t adding up to `sum`
  // whose top digit is below `digit`.
  std::vector<std::uint64_t> below_;
  std::vector<std::uint64_t> starts_;  // [beads][fewest]: where each block starts, then the end
  std::vector<std::uint64_t> pairs_;   // EmptyTop's entries
};

template <class Visit>
void LayerIndex::for_each_necklace(int beads, Packed from, Packed to, Visit&& visit) const {
  const int pits = ring_.pits, capacity = ring_.capacity;
  std::array<int, kMaxPits + 1> a{};  // a[1..pits], a[1] the top pit's; a[0] stays 0
  int fewest = 0;
  // At depth t, pit pits - t takes digit d; `total` is the beads of the pits above it, `rank`
  // the entries of those below the top. As in ::for_each_necklace() (ring_index.hpp), every digit
  // holds the fewest count at least, and the last one is what the beads leave (its entry is 0:
  // no string of one digit adding up to it holds less in its top digit).
  const auto extend = [&](auto&& self, int t, int period, int total, Packed packed,
                          std::uint64_t rank) -> void {
    const int remaining = pits - t;  // pits after this one: this one is pit `remaining`
    if (remaining == 0) {
      const int d = beads - total;
      if (d < a[t - period] || d > capacity) return;
      if (pits % (d == a[t - period] ? period : t) != 0) return;
      const Packed board = packed | static_cast<Packed>(d);
      if (board >= from && board < to) visit(board, rank);
      return;
    }
    const int shift = 4 * remaining;
    for (int d = a[t - period]; d <= capacity; ++d) {
      const Packed prefix = packed | static_cast<Packed>(d) << shift;
      if (prefix >= to) break;
      if ((prefix | ((Packed{1} << shift) - 1)) < from) continue;
      if (total + d + remaining * (t == 1 ? d : fewest) > beads) break;
      if (total + d + remaining * capacity < beads) continue;
      std::uint64_t here = rank;
      if (t == 1) {
        fewest = d;
        here = starts_[slot(beads, d)];
      } else {
        // The beads at and below this pit, less the fewest count each.
        const int at_and_below = beads - total - (remaining + 1) * fewest;
        here += below_[below_slot(fewest, remaining + 1, at_and_below) +
                       static_cast<std::size_t>(d - fewest)];
      }
      a[t] = d;
      self(self, t + 1, d == a[t - period] ? period : t, total + d, prefix, here);
    }
  };
  extend(extend, 1, 1, 0, 0, 0);
}

// A board's layer and its position there in one word, as the layered expansion writes each
// successor's (expansion.hpp): the beads in the top byte, the position below. A layer's
// positions are below 2^56 on every ring (10^15 at most).
inline constexpr int kKeyBeadsShift = 56;
constexpr std::uint64_t layer_key(int beads, std::uint64_t position) {
  return static_cast<std::uint64_t>(beads) << kKeyBeadsShift | position;
}
constexpr int key_beads(std::uint64_t key) {
  return static_cast<int>(key >> kKeyBeadsShift);
}
constexpr std::uint64_t key_position(std::uint64_t key) {
  return key & ((std::uint64_t{1} << kKeyBeadsShift) - 1);
}

}  // namespace ioiwari
