// How many rotation classes of a ring's boards hold each number of beads: Burnside's lemma,
// stated once, at compile time for the IOI ring's class index (class_index.hpp) and at run time
// for every other ring's geometry (ring_geometry.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <numeric>

#include "ioiwari/core/ring.hpp"

namespace ioiwari {

// By count of beads 0..ring.max_beads(); zero past it.
using LayerCounts = std::array<std::uint64_t, kMaxRingBeads + 1>;

// The classes with s beads number (1/n) times the sum, over the d dividing both n = ring.pits
// and s, of phi(d) times the strings of n/d digits 0..ring.capacity whose digits add up to s/d.
constexpr LayerCounts classes_by_beads(Ring ring) {
  const int n = ring.pits;
  const int most = ring.max_beads();
  // strings(length)[t]: digit strings of `length` digits with digit sum t.
  const auto strings = [&](int length) {
    LayerCounts ways{};
    ways[0] = 1;
    for (int i = 0; i < length; ++i) {
      LayerCounts next{};
      for (int t = 0; t <= most; ++t) {
        for (int d = 0; d <= ring.capacity && t + d <= most; ++d)
          next[static_cast<std::size_t>(t + d)] += ways[static_cast<std::size_t>(t)];
      }
      ways = next;
    }
    return ways;
  };
  const auto phi = [](int m) {
    int count = 0;
    for (int k = 1; k <= m; ++k)
      count += std::gcd(k, m) == 1 ? 1 : 0;
    return count;
  };
  LayerCounts classes{};
  for (int d = 1; d <= n; ++d) {
    if (n % d != 0) continue;
    const LayerCounts ways = strings(n / d);
    for (int s = 0; s <= most; s += d)
      classes[static_cast<std::size_t>(s)] +=
          static_cast<std::uint64_t>(phi(d)) * ways[static_cast<std::size_t>(s / d)];
  }
  for (std::uint64_t& count : classes)
    count /= static_cast<std::uint64_t>(n);
  return classes;
}

}  // namespace ioiwari
