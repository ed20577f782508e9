// The rotation classes of the IOI ring and the moves between them, as tables made when ioiwari
// is built (src/class_index_gen.cpp writes them with the rule of board.cpp): the game's
// structure, no value. The values are solved at startup, every time, by negamax over these
// moves (solver.cpp).
//
// Classes are numbered by bead count, then by code, so that a solve walks them in order and
// the classes of one bead count are a range. Every board code maps to its class, so a board's
// value is one look-up away, whichever rotation it is, and values are stored once a class.
#pragma once

#include <array>
#include <cstdint>

#include "ioiwari/core/constants.hpp"

namespace ioiwari::ioi_classes {

namespace burnside {

// Digit strings of `length` digits 0..kPitCapacity that add up to `sum`.
constexpr long long strings_with_sum(int length, int sum) {
  std::array<long long, kMaxBeads + 1> ways{};  // ways[t]: strings so far with digit sum t
  ways[0] = 1;
  for (int i = 0; i < length; ++i) {
    std::array<long long, kMaxBeads + 1> next{};
    for (int t = 0; t <= kMaxBeads; ++t) {
      for (int digit = 0; digit <= kPitCapacity && t + digit <= kMaxBeads; ++digit) {
        next[t + digit] += ways[t];
      }
    }
    ways = next;
  }
  return sum >= 0 && sum <= kMaxBeads ? ways[sum] : 0;
}

constexpr int euler_phi(int n) {
  int phi = 0;
  for (int k = 1; k <= n; ++k) {
    int a = k, b = n;
    while (b != 0) {
      const int r = a % b;
      a = b;
      b = r;
    }
    phi += a == 1 ? 1 : 0;
  }
  return phi;
}

}  // namespace burnside

// How many classes hold each number of beads. By Burnside's lemma, the classes with s beads
// number (1/n) times the sum, over the d dividing both n = kPits and s, of phi(d) times the
// strings of n/d digits 0..kPitCapacity whose digits add up to s/d.
inline constexpr std::array<int, kMaxBeads + 1> kByBeads = [] {
  std::array<int, kMaxBeads + 1> classes{};
  for (int beads = 0; beads <= kMaxBeads; ++beads) {
    long long fixed = 0;
    for (int d = 1; d <= kPits; ++d) {
      if (kPits % d == 0 && beads % d == 0) {
        fixed += burnside::euler_phi(d) * burnside::strings_with_sum(kPits / d, beads / d);
      }
    }
    classes[static_cast<std::size_t>(beads)] = static_cast<int>(fixed / kPits);
  }
  return classes;
}();

// How many classes there are: 39,996.
inline constexpr int kCount = [] {
  int total = 0;
  for (int count : kByBeads)
    total += count;
  return total;
}();

// The first class with each bead count: the classes of `beads` are kFirst[beads] up to
// kFirst[beads + 1].
inline constexpr std::array<int, kMaxBeads + 2> kFirst = [] {
  std::array<int, kMaxBeads + 2> first{};
  for (int beads = 0; beads <= kMaxBeads; ++beads) {
    first[static_cast<std::size_t>(beads) + 1] =
        first[static_cast<std::size_t>(beads)] + kByBeads[static_cast<std::size_t>(beads)];
  }
  return first;
}();

// A move of an empty pit, which is no move: its net is below any real move's value, so it is
// never the best.
inline constexpr std::int8_t kNoMove = -128;
static_assert(kNoMove < -2 * kMaxBeads);

// The class of every board code.
extern const std::uint16_t kClassOf[kCodeCount];
// The moves of every class's canonical board (the rotation with the smallest code), kPits a
// class in pit order: the class of the board after the move, and what the move nets its mover
// (kNoMove, to class 0, for an empty pit).
extern const std::uint16_t kAfter[kCount * kPits];
extern const std::int8_t kNet[kCount * kPits];

}  // namespace ioiwari::ioi_classes
