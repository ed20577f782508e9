// The ring solver's expansions (expansion.hpp), the portable one and the wide one, each held to
// the rule's statement: sow() (sowing.hpp), the looped canonical_packed() and
// RingIndex::position(), move by move, on every class of the small rings and on random classes of
// every ring.
#include <algorithm>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/expansion.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_index.hpp"
#include "ioiwari/core/sowing.hpp"

using namespace ioiwari;

namespace {

using Move = std::pair<int, std::uint64_t>;  // a net gain and a successor's position

// Every move of one canonical class, by the rule's statement.
std::vector<Move> moves_by_the_rule(const RingIndex& index, Packed packed) {
  const Ring ring = index.ring();
  std::vector<Move> moves;
  for (int pit = 0; pit < ring.pits; ++pit) {
    if (digit(packed, pit) == 0) continue;
    PackedPits pits{packed};
    const Sown sown = sow(pits, pit, ring.pits, ring.capacity, [](SowKind, int, int) {});
    moves.emplace_back(sown.mover_gain - sown.opponent_gain,
                       index.position(canonical_packed(pits.bits, ring.pits)));
  }
  std::sort(moves.begin(), moves.end());
  return moves;
}

// Expands `classes` with `expand` and compares every class with the rule's moves. Returns how
// many classes differ (each reported).
int differences(Expand expand, const RingIndex& index, const std::vector<Packed>& classes) {
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
    if (mine != moves_by_the_rule(index, classes[c]) || own[c] != index.position(classes[c])) {
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

}  // namespace

TEST_CASE("expansion: both ways make every move of every class of the small rings as the rule does",
          "[ring-solver][rules]") {
  if (wide_expander(kMinPits) == nullptr)
    WARN("this CPU runs no AVX-512: the wide way is not tested");
  int rings = 0;
  for (int pits = kMinPits; pits <= 8; ++pits) {
    for (int capacity = kMinCapacity; capacity <= kMaxCapacity; ++capacity) {
      const Ring ring{pits, capacity};
      if (!ring.playable() || ring.code_count() > 2'000'000) continue;
      ++rings;
      const RingIndex index(ring);
      std::vector<Packed> classes;
      for_each_necklace(pits, capacity, -1, [&](Packed packed) { classes.push_back(packed); });
      for (const auto& [name, expand] : expansions(pits)) {
        INFO(name << " expansion");
        REQUIRE(differences(expand, index, classes) == 0);
      }
    }
  }
  CHECK(rings == 47);
}

TEST_CASE("expansion: both ways make the moves of random classes of every ring as the rule does",
          "[ring-solver][rules]") {
  Random random(25);
  for (int pits = kMinPits; pits <= kMaxPits; ++pits) {
    for (int capacity = kMinCapacity; capacity <= kMaxCapacity; ++capacity) {
      const Ring ring{pits, capacity};
      if (!ring.playable()) continue;
      const RingIndex index(ring);
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
      for (const auto& [name, expand] : expansions(pits)) {
        INFO(name << " expansion");
        REQUIRE(differences(expand, index, classes) == 0);
      }
    }
  }
}

TEST_CASE("expansion: the solver expands the wide way wherever the CPU runs it", "[ring-solver]") {
  for (int pits = kMinPits; pits <= kMaxPits; ++pits) {
    const Expand wide = wide_expander(pits);
    CHECK(expander(pits) == (wide != nullptr ? wide : portable_expander(pits)));
  }
}
