// The true roots of the table files of the rings ioiwari can solve on one machine: written by
// scripts/known-roots, which solves each ring and reads its root; the tests solve the small ones
// again and hold them to these (tests/core/test_table_format.cpp).
#include <algorithm>
#include <bit>
#include <iterator>

#include "ioiwari/core/table_format.hpp"

namespace ioiwari {

namespace {

struct KnownRoot {
  int pits, capacity;
  const char* root;
};

// Little-endian files, by pits and then capacity; the last entry marks the end.
constexpr KnownRoot kKnownRoots[] = {
#include "known_roots.inc"
    {0, 0, nullptr},
};
constexpr const KnownRoot* kEnd = std::end(kKnownRoots) - 1;

}  // namespace

std::optional<Digest> known_root(Ring ring) {
  if constexpr (std::endian::native != std::endian::little) return std::nullopt;
  const auto* found = std::find_if(std::begin(kKnownRoots), kEnd, [&](const KnownRoot& known) {
    return known.pits == ring.pits && known.capacity == ring.capacity;
  });
  if (found == kEnd) return std::nullopt;
  return parse_digest(found->root);
}

std::size_t known_roots() {
  return static_cast<std::size_t>(kEnd - std::begin(kKnownRoots));
}

}  // namespace ioiwari
