// The numbers of a ring of Ioiwari (docs/rules.md, "Any ring"): its pits and their
// capacity, and the rule that says which boards are starts. No ring is a default: the IOI's is
// named (Ring::ioi()), and every other is a value made from the command line and handed down.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ioiwari/core/constants.hpp"

namespace ioiwari {

inline constexpr int kMinPits = 3;
inline constexpr int kMaxPits = 16;
inline constexpr int kMinCapacity = 1;
inline constexpr int kMaxCapacity = 9;
// The most beads a board of any ring holds: a value (the most a player can net from a board) is
// one signed byte in the tables.
inline constexpr int kMaxRingBeads = 127;

// The pits and what a pit holds at most: all that the move rule and a board's code depend on.
struct Ring {
  int pits = 0;  // a ring of no pits, which nothing plays, until one is given
  int capacity = 0;

  // The ring of the IOI task: 7 pits of at most 5 beads.
  static constexpr Ring ioi() { return {kPits, kPitCapacity}; }

  // A board's code is a `pits`-digit number in this base.
  constexpr int base() const { return capacity + 1; }
  constexpr int max_beads() const { return pits * capacity; }
  // Whether ioiwari plays this ring: kMinPits..kMaxPits pits, capacity kMinCapacity..kMaxCapacity,
  // and at most kMaxRingBeads beads in all.
  constexpr bool playable() const {
    return pits >= kMinPits && pits <= kMaxPits && capacity >= kMinCapacity &&
           capacity <= kMaxCapacity && pits * capacity <= kMaxRingBeads;
  }
  // How many boards there are: base^pits (below 2^64 for every playable ring).
  constexpr std::uint64_t code_count() const {
    std::uint64_t count = 1;
    for (int i = 0; i < pits; ++i)
      count *= static_cast<std::uint64_t>(base());
    return count;
  }
  // The ring of the IOI task, whose table is solved by a path of its own (table.cpp).
  constexpr bool is_ioi() const { return *this == ioi(); }
  // "7 pits, capacity 5".
  std::string describe() const;

  friend constexpr bool operator==(const Ring&, const Ring&) = default;
};

// Which boards are starts: every pit holds min_beads..max_beads, and all hold `beads`.
struct StartRule {
  int min_beads = 0;  // no start, until a rule is given
  int max_beads = -1;
  int beads = 0;

  // The rule of the IOI task: 20 beads, 2 to 4 a pit.
  static constexpr StartRule ioi() { return {kStartMinBeads, kStartMaxBeads, kStartBeads}; }

  // The defaults of a ring, which give the IOI's rule for its ring: 2 to 4 beads a pit (4
  // capped at the capacity), 3N-1 beads in all.
  static constexpr StartRule defaults_for(Ring ring) {
    return {kStartMinBeads, kStartMaxBeads < ring.capacity ? kStartMaxBeads : ring.capacity,
            3 * ring.pits - 1};
  }
  // "20 beads, 2 to 4 a pit".
  std::string describe() const;

  friend constexpr bool operator==(const StartRule&, const StartRule&) = default;
};

}  // namespace ioiwari
