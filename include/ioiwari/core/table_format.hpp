// The table file format, version 4: where a table's parts lie in a file, its header, and the
// hashes that authenticate it. docs/table-format.md states it for anyone who writes a reader;
// this header and table_format.cpp are ioiwari's own statement of it, which the reader
// (table_reader.cpp) and the writer (table_writer.cpp) share.
//
// A file is the header block, the index's lines and the values, each part starting on a block
// boundary with zeros between them. Then come the SHA-256 hashes of every page of 4 KiB from the
// first line to the end of the values' block, and the hash of each block: the hash of its pages'
// hashes. The hash of the list of block hashes is the table's root. A reader checks a page it
// reads against its page hash, the page hashes of its block against the block's hash, and the
// block hashes against the root: a few KiB hashed for each block a look-up needs.
// ioiwari has the true roots of many rings built in (known_root()), and a user may record more
// (root_book.hpp): a file of such a ring is the ring's true table exactly when its root is that
// root.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_geometry.hpp"
#include "ioiwari/core/sha256.hpp"
#include "ioiwari/core/table_layout.hpp"

namespace ioiwari {

// The two versions written and read: 4, the plain one (every byte of the index and the values as
// they lie in memory), and 5, the compressed one (table_compressed.hpp), whose pages are made
// again from its parts and checked against the same page hashes: one table has one root in both.
inline constexpr std::uint32_t kTableFormatVersion = 4;
inline constexpr std::uint32_t kCompressedFormatVersion = 5;
enum class TableFormat : std::uint32_t {
  plain = kTableFormatVersion,
  compressed = kCompressedFormatVersion
};

// Where a file of version 5 keeps its parts: the header block, the first rank of every page of
// index lines, the directory of the coded pages of values (where each starts in the coded
// values, and their end), the coded values, and then format 4's page hashes, block hashes and
// top hashes, each part directly after the one before.
struct CompressedLayout {
  std::uint64_t index_pages = 0;  // pages of kIndexPageLines lines: ceil(lines / 64)
  std::uint64_t value_pages = 0;  // pages of 4,096 classes: ceil(classes / 4096)
  std::uint64_t first_ranks_offset = 0, first_ranks_bytes = 0;  // 8 bytes a page of lines
  std::uint64_t directory_offset = 0, directory_bytes = 0;      // 8 bytes a page of values, + 8
  std::uint64_t coded_offset = 0, coded_bytes = 0;
  std::uint64_t page_hashes_offset = 0, block_hashes_offset = 0, top_hashes_offset = 0;
  std::uint64_t file_bytes = 0;
  // The layout of a file of the table of `layout` whose coded values take `coded_bytes`.
  static CompressedLayout of(const TableLayout& layout, std::uint64_t coded_bytes);
  // The most bytes the coded values of the table of `layout` may take.
  static std::uint64_t most_coded_bytes(const TableLayout& layout);
};

// The fields of the header block (the first 192 bytes; the rest of the block is zero), in the
// machine's byte order. Versions 1 to 4 all keep the magic at 0 and the version at 24, so that
// a reader can tell a file of another version before it checks anything else.
struct TableHeader {
  static constexpr char kMagic[16] = {'I', 'O', 'I', 'W', 'A', 'R',  'I', '-',
                                      'T', 'A', 'B', 'L', 'E', '\n', 0,   0};
  // Written as a number: read back as the same number only on a machine of the same order.
  static constexpr std::uint32_t kByteOrder = 0x01020304;
  static constexpr std::size_t kVersionOffset = 24, kHashOffset = 32, kFieldBytes = 200;

  std::uint32_t version = kTableFormatVersion;
  std::uint32_t byte_order = kByteOrder;
  Digest header_hash{};  // SHA-256 of the header block with these 32 bytes zero
  std::uint32_t pits = 0, capacity = 0;
  std::uint64_t classes = 0;
  std::uint64_t block_bytes = TableLayout::kBlockBytes;
  std::uint64_t blocks = 0;
  std::uint64_t lines_offset = 0, lines_bytes = 0;
  std::uint64_t values_offset = 0, values_bytes = 0;
  std::uint64_t page_hashes_offset = 0, block_hashes_offset = 0, top_hashes_offset = 0;
  std::uint64_t file_bytes = 0;
  std::uint32_t page_bytes = TableLayout::kPageBytes;
  Digest root{};  // SHA-256 of the top hashes
  // Version 5's own fields (zero in version 4).
  std::uint64_t first_ranks_offset = 0, first_ranks_bytes = 0;
  std::uint64_t directory_offset = 0, directory_bytes = 0;
  std::uint64_t coded_offset = 0, coded_bytes = 0;
  std::array<std::uint8_t, 256> code_lengths{};  // of each value byte's code (ValueCode)

  // The header of a table of the ring of `geometry` with root `root`, in version 4.
  static TableHeader of(const RingGeometry& geometry, const Digest& root);
  // The same in version 5, whose values are coded in `coded_bytes` with codes of `lengths`.
  static TableHeader compressed(const RingGeometry& geometry, const Digest& root,
                                std::uint64_t coded_bytes,
                                const std::array<std::uint8_t, 256>& lengths);
  // The header block: the fields at their offsets, zeros after them, and its own hash.
  std::vector<unsigned char> block() const;
  // The fields of a header block (of kBlockBytes), as they lie, unchecked.
  static TableHeader parse(std::span<const unsigned char> block);
  // The hash of a header block, with its hash field counted as zero.
  static Digest hash_of(std::span<const unsigned char> block);
  // Whether every field but the hashes is what a table of the ring of `geometry` has (in version
  // 5: with the coded values' size it gives, which must be at most the most they take).
  bool fits(const RingGeometry& geometry) const;
  // Whether a header block's reserved bytes and its bytes after its version's fields are zero.
  static bool zero_where_zero(std::span<const unsigned char> block, std::uint32_t version);
};

// The hashes of a table's pages and blocks, as the bytes of its parts pass in file order (the
// index's lines, then the values): the zeros between the parts and after the values are counted
// where the file holds them. What a writer computes as it writes, and what a test computes for a
// table in memory.
class TableDigest {
 public:
  explicit TableDigest(const TableLayout& layout);
  // The next bytes of the parts, in pieces of any size. Returns how many were taken: fewer when
  // they go past the values' end.
  std::size_t append(std::span<const unsigned char> bytes);
  // Whether every byte of both parts has been appended.
  bool complete() const { return part_ == 2; }
  // Where the next byte appended lies in the file, and how many more the part it lies in takes.
  std::uint64_t next_offset() const { return at_; }
  std::uint64_t room() const;
  // Once complete: the page hashes, the block hashes and the top hashes, as the file holds them,
  // and the root.
  const std::vector<unsigned char>& page_hashes() const { return page_hashes_; }
  const std::vector<unsigned char>& block_hashes() const { return block_hashes_; }
  std::vector<unsigned char> top_hashes() const;
  Digest root() const;

 private:
  void hash(const unsigned char* bytes, std::uint64_t size);  // zeros when `bytes` is null
  const TableLayout layout_;
  int part_ = 0;
  std::uint64_t at_;  // the next byte's offset in the file
  Sha256 page_;       // of the page `at_` lies in
  std::vector<unsigned char> page_hashes_, block_hashes_;
};

// The top hashes of the list of block hashes `block_hashes` (32 bytes a block): a hash of each
// page of it, the last page as long as what is left.
std::vector<unsigned char> top_hashes(std::span<const unsigned char> block_hashes);
// The root: of the top hashes.
Digest table_root(std::span<const unsigned char> top_hashes);
// The hash of a block: of its pages' hashes (kGroupBytes).
Digest block_hash(std::span<const unsigned char> page_hashes);

// The true root of `ring`'s table file, where ioiwari has it built in: the rings listed in
// known_roots.inc (made by scripts/known-roots: every ring of up to 1.2 billion classes, and
// larger ones solved here past memory). Files are in the byte order of the machine that wrote
// them; these are the roots of little-endian files, and a big-endian machine knows none. The
// roots a user recorded are root_book.hpp's.
std::optional<Digest> known_root(Ring ring);

// How many rings have a known root (for the tests and the documents).
std::size_t known_roots();

}  // namespace ioiwari
