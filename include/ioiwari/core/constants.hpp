// The numbers that define Ioiwari. Every other file names these; none spells them out.
#pragma once

namespace ioiwari {

// Pits on the ring, labelled 1..kPits clockwise.
inline constexpr int kPits = 7;

// The most beads a pit can hold: a sowing hand that meets a full pit skims it instead.
inline constexpr int kPitCapacity = 5;

// A board is a kPits-digit number in this base (one digit per pit, 0..kPitCapacity).
inline constexpr int kCodeBase = kPitCapacity + 1;

// How many board codes there are: kCodeBase to the power kPits.
inline constexpr int kCodeCount = [] {
  int n = 1;
  for (int i = 0; i < kPits; ++i)
    n *= kCodeBase;
  return n;
}();

// A legal start of the IOI task: kStartBeads beads, each pit holding
// kStartMinBeads..kStartMaxBeads of them.
inline constexpr int kStartBeads = 20;
inline constexpr int kStartMinBeads = 2;
inline constexpr int kStartMaxBeads = 4;

// The most beads any board can hold.
inline constexpr int kMaxBeads = kPits * kPitCapacity;

}  // namespace ioiwari
