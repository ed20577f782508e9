// A ring's geometry: everything about its table that follows from the ring alone (its index, its
// classes by layer, its lines and its file's layout), computed once for a ring and handed down
// to whatever solves, reads, writes or sizes its table.
#pragma once

#include <cstdint>
#include <memory>

#include "ioiwari/core/burnside.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_index.hpp"
#include "ioiwari/core/table_layout.hpp"

namespace ioiwari {

class RingGeometry {
 public:
  explicit RingGeometry(Ring ring);
  // The geometry of `ring`, shared by the tables made from it.
  static std::shared_ptr<const RingGeometry> of(Ring ring);

  Ring ring() const { return index_.ring(); }
  const RingIndex& index() const { return index_; }
  // The classes of each bead count, and in all.
  const LayerCounts& layer_classes() const { return layers_; }
  std::uint64_t classes() const { return classes_; }
  // The index's lines, and the bytes of the table's two parts (64 a line, one a class).
  std::uint64_t lines() const { return index_.lines(); }
  std::uint64_t index_bytes() const { return lines() * kLineWords * 8; }
  std::uint64_t values_bytes() const { return classes_; }
  std::uint64_t table_bytes() const { return index_bytes() + values_bytes(); }
  // Where a table file of the ring puts its parts.
  const TableLayout& layout() const { return layout_; }

 private:
  RingIndex index_;
  LayerCounts layers_;
  std::uint64_t classes_ = 0;
  TableLayout layout_;
};

}  // namespace ioiwari
