#include "ioiwari/core/ring_index.hpp"

#include "ioiwari/core/board.hpp"

namespace ioiwari {

Packed pack(const Board& board) {
  Packed packed = 0;
  for (Pit pit : board.pits())
    packed |= static_cast<Packed>(board.beads(pit)) << (4 * pit.index());
  return packed;
}

RingIndex::RingIndex(Ring ring) : ring_(ring) {
  top_shift_ = 4 * (ring.pits - 1);
  rest_mask_ = nibble_mask(ring.pits - 1);
  rest_ones_ = rest_mask_ / 15;
  blocks_[0] = 0;
  for (int fewest = 0; fewest <= ring.capacity; ++fewest) {
    const int base = ring.base() - fewest;
    std::uint64_t size = 1;
    for (int pit = 1; pit < ring.pits; ++pit)
      size *= static_cast<std::uint64_t>(base);
    radixes_[static_cast<std::size_t>(fewest)] = Radix::of(base);
    blocks_[static_cast<std::size_t>(fewest) + 1] =
        blocks_[static_cast<std::size_t>(fewest)] + size;
  }
}

Packed RingIndex::board_at(std::uint64_t position) const {
  if (position >= positions()) return ~Packed{0};
  int fewest = 0;
  while (position >= blocks_[static_cast<std::size_t>(fewest) + 1])
    ++fewest;
  std::uint64_t rest = position - blocks_[static_cast<std::size_t>(fewest)];
  const auto base = static_cast<std::uint64_t>(ring_.base() - fewest);
  Packed packed = static_cast<Packed>(fewest) << top_shift_;
  for (int pit = 0; pit + 1 < ring_.pits; ++pit) {
    packed |= static_cast<Packed>(rest % base + static_cast<std::uint64_t>(fewest)) << (4 * pit);
    rest /= base;
  }
  return packed;
}

}  // namespace ioiwari
