// The rotation classes of the IOI ring, as a table made when ioiwari is built: structure only,
// no value (src/class_index_gen.cpp writes it; the values are solved at startup, every time).
//
// Classes are numbered by bead count, then by code, so that a solve walks them in order and
// the classes of one bead count are a range. Every board code maps to its class, so a board's
// value is one look-up away, whichever rotation it is, and values are stored once a class.
#pragma once

#include <array>
#include <cstdint>

#include "ioiwari/constants.hpp"

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

// A class's canonical board (the rotation with the smallest code), packed in 32 bits: its
// digits kDigitBits a pit from pit 1, then the mask of its full pits (bit i: pit i holds
// kPitCapacity). Four bytes a class, so that a solve reads as little of the index as it can.
inline constexpr int kDigitBits = 3;  // a digit 0..kPitCapacity
inline constexpr int kFullShift = kPits * kDigitBits;
static_assert(kPitCapacity < (1 << kDigitBits) && kFullShift + kPits <= 32);

constexpr std::uint32_t record(std::uint32_t digits, std::uint32_t full) {
  return digits | full << kFullShift;
}
constexpr int digit_of(std::uint32_t record, int pit) {
  return static_cast<int>((record >> (kDigitBits * pit)) & ((1u << kDigitBits) - 1));
}
constexpr unsigned full_of(std::uint32_t record) {
  return record >> kFullShift;
}
// The board's code: its digits as a number in base kCodeBase, pit 1 the lowest.
constexpr int code_of(std::uint32_t record) {
  int code = 0;
  for (int pit = kPits - 1; pit >= 0; --pit)
    code = code * kCodeBase + digit_of(record, pit);
  return code;
}

// The class of every board code.
extern const std::uint16_t kClassOf[kCodeCount];
// The canonical board of every class, as record() packs it.
extern const std::uint32_t kRecord[kCount];

}  // namespace ioiwari::ioi_classes
