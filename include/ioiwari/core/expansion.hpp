// Step 1 of the ring solver (ring_solver.hpp): every move of a batch of classes, each
// successor's canonical board and its position in the index. It is most of a solve's work, so
// it is written twice, and the solver takes the faster way this CPU runs:
//
// - the portable expansion (expansion.cpp): one move at a time, sowing with sow_packed()
//   (packed_sowing.hpp, the rule's copy without branches) or, for the moves that copy leaves,
//   with sow() (sowing.hpp, the rule's statement);
// - the wide expansion (expansion_wide.cpp), for x86-64 CPUs with AVX-512: all the moves of a
//   class at once, one pit a 64-bit lane of a 512-bit register, with the same bit operations as
//   sow_packed(); it too leaves to sow() the moves whose hand comes round past its own pit;
// - in the page's module with WebAssembly's SIMD, the wide expansion is expansion_simd128.cpp's
//   instead: two moves at once, one a 64-bit lane, each turned beforehand so that both lanes
//   shift alike (the page's other module, for browsers without SIMD, has no wide way).
//
// Each way comes in two kinds, by what it writes for a successor: its position in the ring's
// index (the solve in memory), or its layer and its position there (layer_key(), layer_index.hpp:
// the solve past memory, tier_solver.hpp).
//
// A test (tests/core/test_expansion.cpp) holds both equal to sow(), canonical_packed(),
// RingIndex::position() and LayerIndex::position() on every board of the small rings and on
// random boards of every ring; tests/web/modules.test.cjs does the same for the SIMD one.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ioiwari/core/layer_index.hpp"
#include "ioiwari/core/ring_index.hpp"

namespace ioiwari {

// Where a batch's expansion goes: for each class, how many moves it has and its own position;
// for each move, its net gain and its successor's position, the moves of each class together and
// the classes in order (a class's moves in any order). The move arrays need room for
// kExpansionSlack entries past the last move: the wide way stores eight lanes at a time.
struct Expansion {
  std::uint8_t* moves;
  std::uint64_t* own;
  std::int8_t* nets;
  std::uint64_t* successors;
};
inline constexpr std::size_t kExpansionSlack = 16;

// Makes every move of `count` canonical classes of `index`'s ring (its capacity `capacity`).
// Returns how many successors it found.
using Expand = std::size_t (*)(const RingIndex& index, int capacity, const Packed* classes,
                               std::size_t count, const Expansion& out);

// The same, writing each successor's layer_key() of `index` instead, and leaving `own` alone (the
// solve past memory counts its classes' ranks as it walks them).
using LayerExpand = std::size_t (*)(const LayerIndex& index, int capacity, const Packed* classes,
                                    std::size_t count, const Expansion& out);

// What each kind writes for a successor (given its canonical board), one at a time: its position
// in the ring's index, or its layer_key().
inline std::uint64_t successor_key(const RingIndex& index, Packed canonical) {
  return index.position(canonical);
}
inline std::uint64_t successor_key(const LayerIndex& index, Packed canonical) {
  const int beads = beads_of(canonical);
  return layer_key(beads, index.position(canonical, beads));
}

// The portable expansion for rings of `pits` pits: with PDEP where the CPU runs it fast.
Expand portable_expander(int pits);
LayerExpand portable_layer_expander(int pits);
// The wide expansion for rings of `pits` pits, or nullptr where this CPU (or its operating
// system) does not run AVX-512; in the page's module, the SIMD one, or nullptr in the plain one.
Expand wide_expander(int pits);
LayerExpand wide_layer_expander(int pits);
// The expansion the solvers use: the wide one where the CPU runs it, else the portable one.
Expand expander(int pits);
LayerExpand layer_expander(int pits);

}  // namespace ioiwari
