// The solvers' expansions (expansion.hpp), the portable one and the wide one of each kind, each
// held to the rule's statement: sow() (sowing.hpp), the looped canonical_packed() and
// RingIndex::position() or LayerIndex::position(), move by move, on every class of the small
// rings and on random classes of every ring.
#include <algorithm>
#include <type_traits>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/expansion.hpp"
#include "ioiwari/core/layer_index.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_index.hpp"
#include "ioiwari/core/sowing.hpp"
#include "rule_moves.hpp"
#include "sanitized.hpp"

using namespace ioiwari;

namespace {

using test::Move;
using test::moves_by_the_rule;

// Expands `classes` with `expand` and compares every class with the rule's moves (and, for the
// ring's index, its own position). Returns how many classes differ (each reported).
template <class Function, class Index>
int differences(Function expand, const Index& index, const std::vector<Packed>& classes) {
  const Ring ring = index.ring();
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
    bool own_right = true;
    if constexpr (std::is_same_v<Index, RingIndex>)
      own_right = own[c] == index.position(classes[c]);
    if (mine != moves_by_the_rule(index, classes[c]) || !own_right) {
      if (++wrong <= 3) {
        FAIL_CHECK(ring.describe()
                   << ": class " << std::hex << classes[c] << std::dec << ": " << mine.size()
                   << " moves expanded, " << moves_by_the_rule(index, classes[c]).size()
                   << " by the rule");
      }
    }
  }
  CHECK(at == made);
  return wrong;
}

// The expansions to test: the portable one, and the wide one where this CPU runs it.
std::vector<std::pair<const char*, Expand>> expansions(int pits) {
  std::vector<std::pair<const char*, Expand>> all = {{"portable", portable_expander(pits)}};
  if (wide_expander(pits) != nullptr) all.emplace_back("wide", wide_expander(pits));
  return all;
}
std::vector<std::pair<const char*, LayerExpand>> layer_expansions(int pits) {
  std::vector<std::pair<const char*, LayerExpand>> all = {
      {"portable layered", portable_layer_expander(pits)}};
  if (wide_layer_expander(pits) != nullptr)
    all.emplace_back("wide layered", wide_layer_expander(pits));
  return all;
}

// Both kinds of both ways, on `classes` of `ring`: how many classes differ.
int all_differences(Ring ring, const std::vector<Packed>& classes) {
  int wrong = 0;
  const RingIndex index(ring);
  for (const auto& [name, expand] : expansions(ring.pits)) {
    INFO(name << " expansion");
    wrong += differences(expand, index, classes);
  }
  const LayerIndex layers(ring);
  for (const auto& [name, expand] : layer_expansions(ring.pits)) {
    INFO(name << " expansion");
    wrong += differences(expand, layers, classes);
  }
  return wrong;
}

}  // namespace

TEST_CASE("expansion: both ways make every move of every class of the small rings as the rule does",
          "[ring-solver][rules]") {
  if (wide_expander(kMinPits) == nullptr)
    WARN("this CPU runs no AVX-512: the wide way is not tested");
  // Under the sanitizers, the rings of up to 300,000 boards (42 of them).
  const std::uint64_t most = test::kSanitized ? 300'000 : 2'000'000;
  int rings = 0;
  for (int pits = kMinPits; pits <= 8; ++pits) {
    for (int capacity = kMinCapacity; capacity <= kMaxCapacity; ++capacity) {
      const Ring ring{pits, capacity};
      if (!ring.playable() || ring.code_count() > most) continue;
      ++rings;
      std::vector<Packed> classes;
      for_each_necklace(pits, capacity, -1, [&](Packed packed) { classes.push_back(packed); });
      REQUIRE(all_differences(ring, classes) == 0);
    }
  }
  CHECK(rings == (test::kSanitized ? 42 : 47));
}

TEST_CASE("expansion: both ways make the moves of random classes of every ring as the rule does",
          "[ring-solver][rules]") {
  Random random(25);
  for (int pits = kMinPits; pits <= kMaxPits; ++pits) {
    for (int capacity = kMinCapacity; capacity <= kMaxCapacity; ++capacity) {
      const Ring ring{pits, capacity};
      if (!ring.playable()) continue;
      // Random boards, and boards of full pits, whose hands skim and come round most.
      std::vector<Packed> classes;
      for (int trial = 0; trial < 400; ++trial) {
        Packed packed = 0;
        const int fullness = trial % 4;
        for (int pit = 0; pit < pits; ++pit) {
          const int beads =
              fullness == 0 && random.below(3) != 0 ? capacity : random.below(capacity + 1);
          packed |= static_cast<Packed>(beads) << (4 * pit);
        }
        classes.push_back(canonical_packed(packed, pits));
      }
      REQUIRE(all_differences(ring, classes) == 0);
    }
  }
}

TEST_CASE("expansion: the solver expands the wide way wherever the CPU runs it", "[ring-solver]") {
  for (int pits = kMinPits; pits <= kMaxPits; ++pits) {
    const Expand wide = wide_expander(pits);
    CHECK(expander(pits) == (wide != nullptr ? wide : portable_expander(pits)));
    const LayerExpand wide_layered = wide_layer_expander(pits);
    CHECK(layer_expander(pits) ==
          (wide_layered != nullptr ? wide_layered : portable_layer_expander(pits)));
  }
}
