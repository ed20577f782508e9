// Where a table file's parts lie (docs/table-format.md, "Layout"): a pure function of the
// ring's lines and classes, which its geometry (ring_geometry.hpp) computes once.
#pragma once

#include <cstdint>

namespace ioiwari {

struct TableLayout {
  static constexpr std::uint64_t kBlockBytes = 64 * 1024;
  static constexpr std::uint64_t kPageBytes = 4096;
  static constexpr std::uint64_t kPagesPerBlock = kBlockBytes / kPageBytes;
  static constexpr std::uint64_t kHashBytes = 32;
  // The page hashes of one block, side by side.
  static constexpr std::uint64_t kGroupBytes = kPagesPerBlock * kHashBytes;
  // The blocks' hashes are hashed a page (kPageBytes, kHashesPerPage blocks) at a time.
  static constexpr std::uint64_t kHashesPerPage = kPageBytes / kHashBytes;

  // The layout of a table of `lines` index lines (of `line_bytes` each) and `classes` classes.
  static constexpr TableLayout of(std::uint64_t lines, std::uint64_t line_bytes,
                                  std::uint64_t classes) {
    const auto round_up = [](std::uint64_t bytes) {
      return (bytes + kBlockBytes - 1) / kBlockBytes * kBlockBytes;
    };
    TableLayout layout;
    layout.classes = classes;
    layout.lines_offset = kBlockBytes;
    layout.lines_bytes = lines * line_bytes;
    layout.values_offset = round_up(layout.lines_offset + layout.lines_bytes);
    layout.values_bytes = classes;
    layout.page_hashes_offset = round_up(layout.values_offset + layout.values_bytes);
    layout.blocks = (layout.page_hashes_offset - kBlockBytes) / kBlockBytes;
    layout.block_hashes_offset = layout.page_hashes_offset + kGroupBytes * layout.blocks;
    layout.top_hashes_offset = layout.block_hashes_offset + kHashBytes * layout.blocks;
    layout.hash_pages = (layout.blocks + kHashesPerPage - 1) / kHashesPerPage;
    layout.file_bytes = layout.top_hashes_offset + kHashBytes * layout.hash_pages;
    return layout;
  }

  std::uint64_t hash_pages = 0;  // pages of block hashes: ceil(blocks / kHashesPerPage)
  std::uint64_t lines_offset = 0, lines_bytes = 0;    // the index: 64 bytes a line
  std::uint64_t values_offset = 0, values_bytes = 0;  // a byte a class
  std::uint64_t page_hashes_offset = 0;               // the pages' hashes, kGroupBytes a block
  std::uint64_t block_hashes_offset = 0;              // the blocks' hashes, 32 bytes each
  std::uint64_t top_hashes_offset = 0;                // a hash of every 4 KiB of the blocks' hashes
  std::uint64_t blocks = 0;      // hashed blocks: (page_hashes_offset - kBlockBytes) / kBlockBytes
  std::uint64_t classes = 0;     // the ring's classes
  std::uint64_t file_bytes = 0;  // the whole file
  // The hashed block that holds byte `offset` of the file (which is at least kBlockBytes).
  static constexpr std::uint64_t block_of(std::uint64_t offset) { return offset / kBlockBytes - 1; }
  // Where hashed block `block` starts in the file.
  static constexpr std::uint64_t block_offset(std::uint64_t block) {
    return (block + 1) * kBlockBytes;
  }
};

}  // namespace ioiwari
