// The move rule again, on packed digits and without branches: the ring solver's second copy of
// sow() (sowing.hpp, the rule's statement), for speed. sow() decides at every pit whether the
// hand skims or drops, and the CPU guesses those decisions wrong about 1.5 times a move, at some
// 15 cycles each: most of a solve's time went there. This copy decides every pit at once, with
// bit operations on all the digits, and covers every move whose walk visits each pit at most
// once; the others (a hand that comes round past the pit it was taken from) it leaves to sow().
// A test (tests/core/test_ring_solver.cpp, "sowing: the packed copy ...") holds the two equal on
// every board and move of every ring of up to 8 pits with at most 2 million boards, and on random
// boards of every ring.
#pragma once

#include <bit>
#include <cstdint>

#include "ioiwari/core/ring_index.hpp"

namespace ioiwari {

// How the solver finds the k-th pit that takes a bead: a loop-free sequence of steps on any CPU,
// or one instruction (PDEP) on an x86-64 CPU with BMI2 that runs it fast (the solver asks the CPU;
// see has_fast_pdep()).
enum class Select { portable, bmi2 };

// The lowest `rank`-th (1 = lowest) set bit of `bits`, alone, or 0 when fewer are set; `rank`
// is at most kMaxCapacity - 1.
[[gnu::always_inline]] inline std::uint64_t select_portable(std::uint64_t bits, int rank) {
  for (int cleared = 1; cleared < kMaxCapacity - 1; ++cleared)
    bits = cleared < rank ? bits & (bits - 1) : bits;
  return bits & (~bits + 1);
}
#if defined(__x86_64__) && defined(__GNUC__)
// PDEP written out, so that it needs no compiler target (which would keep it from being inlined
// into code built for every x86-64 CPU): only ever run where the CPU has it.
[[gnu::always_inline]] inline std::uint64_t select_bmi2(std::uint64_t bits, int rank) {
  std::uint64_t selected;
  asm("pdep %2, %1, %0" : "=r"(selected) : "r"(std::uint64_t{1} << (rank - 1)), "r"(bits));
  return selected;
}
#endif

// Plays the move from pit `pit` (0-based; it holds a bead) of the packed board `board` of a ring
// of N pits of capacity `capacity`, as sow() plays it, and sets `net` to the mover's bank gain
// less the opponent's. Returns false, changing nothing, when the hand would visit a pit a second
// time: the caller then plays the move with sow().
template <int N, Select kSelect>
[[gnu::always_inline]] inline bool sow_packed(Packed& board, int pit, int capacity, int& net) {
  constexpr Packed kMask = nibble_mask(N);
  constexpr Packed kOnes = kMask / 15;  // 1 in every pit
  constexpr Packed kHigh = kOnes << 3;  // the high bit of every pit
  constexpr Packed kLow = kOnes * 7;    // the other three
  const int hand = digit(board, pit);
  // Turn the ring so that the pit after `pit` is the lowest digit and `pit` the highest, then
  // empty `pit`: the hand then visits the digits from the lowest up. (Below 16 pits, a turn by
  // all N digits shifts every digit out one way and back in the other.)
  const int turn = 4 * (pit + 1);
  const auto turned = [](Packed bits, int by) {
    if constexpr (N == 16) {
      return std::rotr(bits, by);
    } else {
      return ((bits >> by) | (bits << (4 * N - by))) & kMask;
    }
  };
  Packed r = turned(board, turn) & ~(Packed{15} << (4 * (N - 1)));
  // The full pits (holding `capacity`), and the others, as the high bit of each digit: a digit
  // is zero after the XOR exactly when it was full.
  const Packed x = r ^ (kOnes * static_cast<Packed>(capacity));
  const Packed full = ~(((x & kLow) + kLow) | x) & kHigh;
  const Packed open = ~full & kHigh;
  // A hand of h beads drops h - 1 of them into the first h - 1 open pits, skimming every full
  // pit on its way; its last bead lands on the pit after the (h-1)-th open one. Every choice
  // below is arithmetic, not a branch.
  const int drops = hand - 1;
  Packed last_drop = 0;
  if constexpr (kSelect == Select::bmi2) {
#if defined(__x86_64__) && defined(__GNUC__)
    last_drop = select_bmi2(open, drops | static_cast<int>(drops == 0));
#endif
  } else {
    last_drop = select_portable(open, drops);
  }
  const int land = (std::countr_zero(last_drop) / 4 + 1) * static_cast<int>(drops != 0);
  if (land >= N) return false;  // fewer open pits than drops, or the last bead comes round
  const Packed walked = (Packed{1} << (4 * land)) - 1;
  const Packed skims = (full & walked) >> 3;  // 1 in each full pit walked past
  r = r + ((open & walked) >> 3) - skims;
  // The skims, added up in the top digit by one multiplication: fewer than N, so no digit of
  // the sum overflows.
  const int skimmed = static_cast<int>(((skims * kOnes) >> (4 * (N - 1))) & 15);
  const int beads = static_cast<int>((r >> (4 * land)) & 15);
  const int capture = static_cast<int>(beads > 0) & static_cast<int>(beads < capacity);
  net = skimmed - 1 + capture * (beads + 2);
  r &= ~(static_cast<Packed>(capture * 15) << (4 * land));
  board = turned(r, 4 * N - turn);
  return true;
}

}  // namespace ioiwari
