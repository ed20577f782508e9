#include "ioiwari/core/ring_geometry.hpp"

#include <numeric>

namespace ioiwari {

RingGeometry::RingGeometry(Ring ring)
    : index_(ring),
      layers_(classes_by_beads(ring)),
      classes_(std::accumulate(layers_.begin(), layers_.end(), std::uint64_t{0})),
      layout_(TableLayout::of(index_.lines(), kLineWords * 8, classes_)) {}

std::shared_ptr<const RingGeometry> RingGeometry::of(Ring ring) {
  return std::make_shared<const RingGeometry>(ring);
}

}  // namespace ioiwari
