// Positions within a layer (layer_index.hpp): on every board of the small rings, against the
// boards themselves sorted into code order; on random boards of the large rings, each position
// against its board and the order of two boards' positions against their codes.
#include <algorithm>
#include <map>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/burnside.hpp"
#include "ioiwari/core/layer_index.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_index.hpp"

using namespace ioiwari;

namespace {

int beads_of(Packed packed, int pits) {
  int beads = 0;
  for (int pit = 0; pit < pits; ++pit)
    beads += digit(packed, pit);
  return beads;
}

// A random board of `ring` with its fewest beads in its top pit.
Packed random_positioned(Ring ring, Random& random) {
  Packed packed = 0;
  int fewest = ring.capacity;
  for (int pit = 0; pit + 1 < ring.pits; ++pit) {
    const int d = random.below(ring.base());
    fewest = std::min(fewest, d);
    packed |= static_cast<Packed>(d) << (4 * pit);
  }
  return packed | static_cast<Packed>(random.below(fewest + 1)) << (4 * (ring.pits - 1));
}

}  // namespace

TEST_CASE(
    "layer index: every board with its fewest beads on top, numbered in code order layer "
    "by layer, on every small ring") {
  for (int pits = 3; pits <= 8; ++pits) {
    for (int capacity = 1; capacity <= 6; ++capacity) {
      const Ring ring{pits, capacity};
      if (ring.code_count() > 2'000'000) continue;
      const LayerIndex index(ring);
      // The boards with their fewest beads in the top pit, by layer, in code order.
      std::map<int, std::vector<Packed>> layers;
      for (std::uint64_t code = 0; code < ring.code_count(); ++code) {
        const Packed packed = packed_of(code, ring);
        int fewest = ring.capacity;
        for (int pit = 0; pit < pits; ++pit)
          fewest = std::min(fewest, digit(packed, pit));
        if (digit(packed, pits - 1) == fewest) layers[beads_of(packed, pits)].push_back(packed);
      }
      for (int beads = 0; beads <= ring.max_beads(); ++beads) {
        const std::vector<Packed>& boards = layers[beads];
        INFO(pits << " pits of capacity " << capacity << ", " << beads << " beads");
        REQUIRE(index.positions(beads) == boards.size());
        for (std::size_t at = 0; at < boards.size(); ++at) {
          REQUIRE(index.position(boards[at], beads) == at);
          REQUIRE(index.board_at(beads, at) == boards[at]);
        }
      }
    }
  }
}

TEST_CASE(
    "layer index: a layer holds every class of its bead count, and about as many "
    "positions as classes times the pits") {
  for (const Ring ring : {Ring{8, 5}, Ring{9, 4}, Ring{12, 5}, Ring{15, 5}, Ring{16, 7}}) {
    const LayerIndex index(ring);
    const LayerCounts classes = classes_by_beads(ring);
    for (int beads = 0; beads <= ring.max_beads(); ++beads) {
      INFO(ring.pits << " pits of capacity " << ring.capacity << ", " << beads << " beads");
      const std::uint64_t count = classes[static_cast<std::size_t>(beads)];
      REQUIRE(index.positions(beads) >= count);
      REQUIRE(index.positions(beads) <= count * static_cast<std::uint64_t>(ring.pits));
    }
  }
}

TEST_CASE(
    "layer index: on random boards of large rings, a position is below its layer's size, "
    "gives its board back and orders as the codes do") {
  Random random(25);
  for (const Ring ring : {Ring{13, 5}, Ring{14, 5}, Ring{15, 5}, Ring{16, 5}, Ring{16, 7},
                          Ring{14, 9}, Ring{11, 9}}) {
    const LayerIndex index(ring);
    INFO(ring.pits << " pits of capacity " << ring.capacity);
    for (int trial = 0; trial < 20'000; ++trial) {
      const Packed a = random_positioned(ring, random);
      const int beads = beads_of(a, ring.pits);
      const std::uint64_t position = index.position(a, beads);
      REQUIRE(position < index.positions(beads));
      REQUIRE(index.board_at(beads, position) == a);
      // A second board of the same layer: a bead moved from one lower pit to another.
      Packed b = a;
      const int from = random.below(ring.pits - 1), to = random.below(ring.pits - 1);
      const int fewest = digit(a, ring.pits - 1);
      if (digit(b, from) > fewest && digit(b, to) < ring.capacity && from != to) {
        b -= Packed{1} << (4 * from);
        b += Packed{1} << (4 * to);
        REQUIRE((index.position(b, beads) < position) == (b < a));
      }
    }
  }
}

TEST_CASE("layer index: its walk gives every necklace of a layer, in order, with its position",
          "[ring-solver]") {
  for (const Ring ring : {Ring{3, 5}, Ring{5, 1}, Ring{6, 5}, Ring{7, 9}, Ring{8, 4}, Ring{9, 3}}) {
    const LayerIndex index(ring);
    const LayerCounts classes = classes_by_beads(ring);
    for (int beads = 0; beads <= ring.max_beads(); ++beads) {
      INFO(ring.pits << " pits of capacity " << ring.capacity << ", " << beads << " beads");
      // The walk of the whole layer against the plain walk, necklace by necklace.
      std::vector<Packed> plain;
      for_each_necklace(ring.pits, ring.capacity, beads,
                        [&](Packed packed) { plain.push_back(packed); });
      REQUIRE(plain.size() == classes[static_cast<std::size_t>(beads)]);
      std::size_t at = 0;
      bool agree = true;
      index.for_each_necklace(beads, 0, ~Packed{0}, [&](Packed packed, std::uint64_t position) {
        agree = agree && at < plain.size() && packed == plain[at] &&
                position == index.position(packed, beads);
        ++at;
      });
      REQUIRE(agree);
      REQUIRE(at == plain.size());
      // A range of it: the necklaces from the third to the last but two.
      if (plain.size() < 6) continue;
      std::vector<Packed> part;
      index.for_each_necklace(beads, plain[2], plain[plain.size() - 2],
                              [&](Packed packed, std::uint64_t) { part.push_back(packed); });
      REQUIRE(part == std::vector<Packed>(plain.begin() + 2, plain.end() - 2));
    }
  }
}
