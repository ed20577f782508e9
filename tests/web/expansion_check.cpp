// A module of its own for the page's tests (modules.test.cjs): the wide expansion the page's
// module with SIMD runs (expansion_simd128.cpp), held move by move to the rule's statement, as
// tests/core/test_expansion.cpp holds the command line's ways: to the rule's moves
// (tests/support/rule_moves.hpp). It runs where the page's module runs, in
// WebAssembly; Node calls it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "ioiwari/core/expansion.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_index.hpp"
#include "ioiwari/core/sowing.hpp"
#include "rule_moves.hpp"

using namespace ioiwari;

namespace {

using test::Move;
using test::moves_by_the_rule;

// Expands `classes` with the wide expansion and counts the classes whose moves (in any order),
// move count or own position differ from the rule's; -1 when the module has no wide expansion.
int differences(Ring ring, const std::vector<Packed>& classes) {
  const Expand expand = wide_expander(ring.pits);
  if (expand == nullptr) return -1;
  const RingIndex index(ring);
  const std::size_t count = classes.size();
  const std::size_t most = count * static_cast<std::size_t>(ring.pits) + kExpansionSlack;
  std::vector<std::uint8_t> moves(count);
  std::vector<std::uint64_t> own(count), successors(most);
  std::vector<std::int8_t> nets(most);
  const std::size_t made = expand(index, ring.capacity, classes.data(), count,
                                  {moves.data(), own.data(), nets.data(), successors.data()});
  int wrong = 0;
  std::size_t at = 0;
  for (std::size_t c = 0; c < count; ++c) {
    std::vector<Move> mine;
    for (int m = 0; m < moves[c] && at < made; ++m, ++at)
      mine.emplace_back(nets[at], successors[at]);
    std::sort(mine.begin(), mine.end());
    if (mine != moves_by_the_rule(index, classes[c]) || own[c] != index.position(classes[c]))
      ++wrong;
  }
  return at == made ? wrong : wrong + 1;
}

}  // namespace

#define CHECK_EXPORT(name) extern "C" __attribute__((export_name(#name)))

// Every class of the ring of `pits` and `capacity`: how many differ (-1: no wide expansion,
// -2: no game on that ring).
CHECK_EXPORT(every_class) int every_class(int pits, int capacity) {
  const Ring ring{pits, capacity};
  if (!ring.playable()) return -2;
  std::vector<Packed> classes;
  for_each_necklace(pits, capacity, -1, [&](Packed packed) { classes.push_back(packed); });
  return differences(ring, classes);
}

// `count` random classes of the ring, from `seed`: a third with digits at random, a third with
// most pits full (skims, and hands that come round), a third with most pits empty (captures,
// and hands of one bead).
CHECK_EXPORT(random_classes)
int random_classes(int pits, int capacity, int count, std::uint32_t seed) {
  const Ring ring{pits, capacity};
  if (!ring.playable()) return -2;
  Random random(seed);
  std::vector<Packed> classes;
  for (int c = 0; c < count; ++c) {
    const int style = c % 3;
    Packed packed = 0;
    for (int pit = 0; pit < pits; ++pit) {
      int beads = random.below(capacity + 1);
      if (style == 1 && random.below(2) == 0) beads = capacity;
      if (style == 2 && random.below(2) == 0) beads = 0;
      packed |= static_cast<Packed>(beads) << (4 * pit);
    }
    classes.push_back(canonical_packed(packed, pits));
  }
  return differences(ring, classes);
}
