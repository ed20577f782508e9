#include "ioiwari/core/layer_index.hpp"

#include <cassert>

namespace ioiwari {

LayerIndex::LayerIndex(Ring ring) : ring_(ring), sums_(ring.max_beads() + 1) {
  const int pits = ring.pits, capacity = ring.capacity;
  strings_.assign(static_cast<std::size_t>(capacity + 1) * static_cast<std::size_t>(pits) *
                      static_cast<std::size_t>(sums_),
                  0);
  for (int fewest = 0; fewest <= capacity; ++fewest) {
    const int most = capacity - fewest;
    const auto at = [&](int length, int sum) -> std::uint64_t& {
      return strings_[(static_cast<std::size_t>(fewest) * static_cast<std::size_t>(pits) +
                       static_cast<std::size_t>(length)) *
                          static_cast<std::size_t>(sums_) +
                      static_cast<std::size_t>(sum)];
    };
    at(0, 0) = 1;
    for (int length = 1; length < pits; ++length)
      for (int sum = 0; sum < sums_; ++sum)
        for (int d = 0; d <= most && d <= sum; ++d)
          at(length, sum) += at(length - 1, sum - d);
  }
  below_.assign(strings_.size() * static_cast<std::size_t>(ring.base()), 0);
  for (int fewest = 0; fewest <= capacity; ++fewest)
    for (int length = 1; length < pits; ++length)
      for (int sum = 0; sum < sums_; ++sum) {
        std::uint64_t* entries = below_.data() + below_slot(fewest, length, sum);
        std::uint64_t count = 0;
        for (int d = 0; d <= capacity; ++d) {
          entries[d] = count;
          count += strings(fewest, length - 1, sum - d);
        }
      }
  starts_.assign(static_cast<std::size_t>(sums_) * static_cast<std::size_t>(capacity + 2), 0);
  for (int beads = 0; beads < sums_; ++beads) {
    std::uint64_t start = 0;
    for (int fewest = 0; fewest <= capacity; ++fewest) {
      starts_[slot(beads, fewest)] = start;
      const int rest = beads - pits * fewest;
      if (rest >= 0) start += strings(fewest, pits - 1, rest);
    }
    starts_[slot(beads, capacity + 1)] = start;
  }
  // The pairs' entries: below_'s for fewest 0, for the low pit and the high one (the top pit,
  // always empty here, adds nothing).
  const int base = ring.base(), top = pits - 1;
  const int pairs = (top + 1) / 2;
  pairs_.assign(static_cast<std::size_t>(pairs) * static_cast<std::size_t>(sums_) *
                    static_cast<std::size_t>(base) * static_cast<std::size_t>(base),
                0);
  for (int pair = 0; pair < pairs; ++pair) {
    const int low = 2 * pair, high = low + 1;
    for (int sum = 0; sum < sums_; ++sum)
      for (int h = 0; h <= capacity; ++h)
        for (int l = 0; l <= capacity; ++l) {
          const int below_high = sum - h;  // the beads at and below the low pit
          if (below_high < l) continue;    // no board has it
          std::uint64_t entry =
              below_[below_slot(0, low + 1, below_high) + static_cast<std::size_t>(l)];
          if (high < top)
            entry += below_[below_slot(0, high + 1, sum) + static_cast<std::size_t>(h)];
          pairs_[((static_cast<std::size_t>(pair) * static_cast<std::size_t>(sums_) +
                   static_cast<std::size_t>(sum)) *
                      static_cast<std::size_t>(base) +
                  static_cast<std::size_t>(h)) *
                     static_cast<std::size_t>(base) +
                 static_cast<std::size_t>(l)] = entry;
        }
  }
}

std::uint64_t LayerIndex::strings(int fewest, int length, int sum) const {
  if (sum < 0 || sum >= sums_) return 0;
  return strings_[(static_cast<std::size_t>(fewest) * static_cast<std::size_t>(ring_.pits) +
                   static_cast<std::size_t>(length)) *
                      static_cast<std::size_t>(sums_) +
                  static_cast<std::size_t>(sum)];
}

std::uint64_t LayerIndex::position(Packed canonical, int beads) const {
  // From the bottom pit up: the beads at and below each pit (less t each) are then known as
  // the walk reaches it, and the pits' table entries are independent reads.
  const int top = ring_.pits - 1;
  const int fewest = digit(canonical, top);
  std::uint64_t rank = starts_[slot(beads, fewest)];
  int at_and_below = 0;
  for (int pit = 0; pit < top; ++pit) {
    const int d = digit(canonical, pit) - fewest;
    at_and_below += d;
    rank += below_[below_slot(fewest, pit + 1, at_and_below) + static_cast<std::size_t>(d)];
  }
  assert(at_and_below == beads - ring_.pits * fewest);
  return rank;
}

Packed LayerIndex::board_at(int beads, std::uint64_t position) const {
  assert(position < positions(beads));
  int fewest = 0;
  while (position >= starts_[slot(beads, fewest + 1)])
    ++fewest;
  std::uint64_t rest = position - starts_[slot(beads, fewest)];
  const int top = ring_.pits - 1;
  Packed packed = static_cast<Packed>(fewest) << (4 * top);
  int left = beads - ring_.pits * fewest;
  for (int pit = top - 1; pit >= 0; --pit) {
    int d = 0;
    for (;; ++d) {
      const std::uint64_t with = strings(fewest, pit, left - d);
      if (rest < with) break;
      rest -= with;
    }
    packed |= static_cast<Packed>(d + fewest) << (4 * pit);
    left -= d;
  }
  return packed;
}

}  // namespace ioiwari
