// Every move of a class by the rule's statement: sow() (sowing.hpp), the looped
// canonical_packed() and the index's own position. What the expansions are held to, by the
// command line's test (tests/core/test_expansion.cpp) and in WebAssembly by the page's
// (tests/web/expansion_check.cpp); it needs no test framework.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "ioiwari/core/layer_index.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_index.hpp"
#include "ioiwari/core/sowing.hpp"

namespace ioiwari::test {

using Move = std::pair<int, std::uint64_t>;  // a net gain and a successor's key

// A successor's key by the rule's own functions: its position in the ring's index, or its beads
// (counted pit by pit) and its position in their layer.
inline std::uint64_t key_by_the_rule(const RingIndex& index, Packed canonical) {
  return index.position(canonical);
}
inline std::uint64_t key_by_the_rule(const LayerIndex& index, Packed canonical) {
  int beads = 0;
  for (int pit = 0; pit < index.ring().pits; ++pit)
    beads += digit(canonical, pit);
  return layer_key(beads, index.position(canonical, beads));
}

// Every move of one canonical class, sorted.
template <class Index>
std::vector<Move> moves_by_the_rule(const Index& index, Packed packed) {
  const Ring ring = index.ring();
  std::vector<Move> moves;
  for (int pit = 0; pit < ring.pits; ++pit) {
    if (digit(packed, pit) == 0) continue;
    PackedPits pits{packed};
    const Sown sown = sow(pits, pit, ring.pits, ring.capacity, [](SowKind, int, int) {});
    moves.emplace_back(sown.mover_gain - sown.opponent_gain,
                       key_by_the_rule(index, canonical_packed(pits.bits, ring.pits)));
  }
  std::sort(moves.begin(), moves.end());
  return moves;
}

}  // namespace ioiwari::test
