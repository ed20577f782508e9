// What the solve past memory (tier_solver.cpp) asks of its merge (tier_merge.cpp, where
// TierSolve::write() merges the layers' files into the table file's order): the memory it takes.
#pragma once

#include <cstdint>

namespace ioiwari {

// The lines of the ring's index that the merge walks at once: the most (512 KiB of lines), and
// the fewest, when memory is short.
constexpr std::uint64_t kMergeLines = 1 << 13;
constexpr std::uint64_t kLeastMergeLines = 1 << 6;

// The most memory the merge takes when it walks `lines` lines at once: the stage of the table's
// writer, and for each thread (and the buffer they copy) a chunk's lines and, at most, a value
// in and a value out for each of its positions.
std::uint64_t merge_bytes(std::uint64_t lines, int threads);

}  // namespace ioiwari
