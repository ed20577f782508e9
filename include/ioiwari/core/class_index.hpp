// The rotation classes of the IOI ring and the moves between them, as tables made when ioiwari
// is built (src/core/class_index_gen.cpp writes them with the rule of board.cpp): the game's
// structure, no value. The values are solved at startup, every time, by negamax over these
// moves (table.cpp).
//
// Classes are numbered by bead count, then by code, so that a solve walks them in order and
// the classes of one bead count are a range. Every board code maps to its class, so a board's
// value is one look-up away, whichever rotation it is, and values are stored once a class.
#pragma once

#include <array>
#include <cstdint>

#include "ioiwari/core/burnside.hpp"
#include "ioiwari/core/constants.hpp"
#include "ioiwari/core/ring.hpp"

namespace ioiwari::ioi_classes {

// How many classes hold each number of beads (burnside.hpp).
inline constexpr std::array<int, kMaxBeads + 1> kByBeads = [] {
  const LayerCounts layers = classes_by_beads(Ring::ioi());
  std::array<int, kMaxBeads + 1> classes{};
  for (std::size_t beads = 0; beads < classes.size(); ++beads)
    classes[beads] = static_cast<int>(layers[beads]);
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
