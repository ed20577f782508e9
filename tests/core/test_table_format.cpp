// The table file format (docs/table-format.md): the layout, the header, the hashes and the root,
// checked against a reading of the document that shares no code with the reader, and the known
// roots checked by solving their rings again.
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/sha256.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/core/table_format.hpp"
#include "table_files.hpp"

using namespace ioiwari;
using namespace ioiwari::test;

namespace {

constexpr std::uint64_t kBlock = TableLayout::kBlockBytes;

// Every ring ioiwari plays.
std::vector<Ring> playable_rings() {
  std::vector<Ring> rings;
  for (int pits = kMinPits; pits <= kMaxPits; ++pits) {
    for (int capacity = kMinCapacity; capacity <= kMaxCapacity; ++capacity) {
      if (Ring{pits, capacity}.playable()) rings.push_back(Ring{pits, capacity});
    }
  }
  return rings;
}

// The root of a table in memory, as a writer computes it.
Digest root_of(const RingTable& table) {
  TableDigest digest(RingGeometry(table.ring()).layout());
  digest.append(
      {reinterpret_cast<const unsigned char*>(table.lines().data()), table.lines().size_bytes()});
  digest.append(
      {reinterpret_cast<const unsigned char*>(table.values().data()), table.values().size_bytes()});
  REQUIRE(digest.complete());
  return digest.root();
}

template <class T>
T at(const std::vector<unsigned char>& bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}
std::uint64_t at_u64(const std::vector<unsigned char>& bytes, std::size_t offset) {
  return at<std::uint64_t>(bytes, offset);
}
std::uint64_t at_field(const std::vector<unsigned char>& bytes, std::size_t offset) {
  return at<std::uint64_t>(bytes, offset);
}

}  // namespace

TEST_CASE(
    "the layout puts every part on a block boundary and hashes every block after the "
    "header",
    "[table-format]") {
  for (const Ring ring : playable_rings()) {
    INFO(ring.describe());
    const RingGeometry geometry(ring);
    const TableLayout& layout = geometry.layout();
    CHECK(layout.lines_offset == kBlock);
    CHECK(layout.lines_bytes == 64 * geometry.lines());
    CHECK(layout.values_bytes == geometry.classes());
    CHECK(layout.values_offset ==
          (layout.lines_offset + layout.lines_bytes + kBlock - 1) / kBlock * kBlock);
    CHECK(layout.page_hashes_offset ==
          (layout.values_offset + layout.values_bytes + kBlock - 1) / kBlock * kBlock);
    CHECK(layout.blocks * kBlock == layout.page_hashes_offset - kBlock);
    CHECK(layout.block_hashes_offset == layout.page_hashes_offset + 16 * 32 * layout.blocks);
    CHECK(layout.top_hashes_offset == layout.block_hashes_offset + 32 * layout.blocks);
    CHECK(layout.hash_pages == (layout.blocks + 127) / 128);
    CHECK(layout.file_bytes == layout.top_hashes_offset + 32 * layout.hash_pages);
    CHECK(TableLayout::block_of(layout.values_offset) * kBlock + kBlock == layout.values_offset);
  }
}

TEST_CASE("a header block holds its fields where the document says, and nothing else",
          "[table-format]") {
  const Ring ring{9, 5};
  Digest root;
  for (std::size_t i = 0; i < root.size(); ++i)
    root[i] = static_cast<unsigned char>(3 * i + 1);
  const TableHeader header = TableHeader::of(RingGeometry(ring), root);
  const std::vector<unsigned char> block = header.block();
  const TableLayout layout = RingGeometry(ring).layout();
  REQUIRE(block.size() == kBlock);
  CHECK(std::memcmp(block.data(), "IOIWARI-TABLE\n\0\0", 16) == 0);
  CHECK(at<std::uint64_t>(block, 16) == 0);
  CHECK(at<std::uint32_t>(block, 24) == 4);
  CHECK(at<std::uint32_t>(block, 28) == 0x01020304);
  CHECK(at<std::uint32_t>(block, 64) == 9);
  CHECK(at<std::uint32_t>(block, 68) == 5);
  CHECK(at<std::uint64_t>(block, 72) == layout.classes);
  CHECK(at<std::uint64_t>(block, 80) == kBlock);
  CHECK(at<std::uint64_t>(block, 88) == layout.blocks);
  CHECK(at<std::uint64_t>(block, 96) == layout.lines_offset);
  CHECK(at<std::uint64_t>(block, 104) == layout.lines_bytes);
  CHECK(at<std::uint64_t>(block, 112) == layout.values_offset);
  CHECK(at<std::uint64_t>(block, 120) == layout.values_bytes);
  CHECK(at<std::uint64_t>(block, 128) == layout.page_hashes_offset);
  CHECK(at<std::uint64_t>(block, 136) == layout.block_hashes_offset);
  CHECK(at<std::uint64_t>(block, 144) == layout.file_bytes);
  CHECK(at<std::uint32_t>(block, 152) == 4096);
  CHECK(at<std::uint32_t>(block, 156) == 0);
  CHECK(at<Digest>(block, 160) == root);
  CHECK(at<std::uint64_t>(block, 192) == layout.top_hashes_offset);
  CHECK(std::all_of(block.begin() + 200, block.end(), [](unsigned char b) { return b == 0; }));
  // The header's hash: SHA-256 of the block with its 32 bytes zero.
  std::vector<unsigned char> zeroed = block;
  std::fill_n(zeroed.begin() + 32, 32, 0);
  CHECK(at<Digest>(block, 32) == sha256(zeroed));
  // Read back, every field as it was.
  const TableHeader read = TableHeader::parse(block);
  CHECK(read.fits(RingGeometry(ring)));
  CHECK_FALSE(read.fits(RingGeometry(Ring{9, 4})));
  CHECK(read.root == root);
  CHECK(read.header_hash == at<Digest>(block, 32));
  CHECK(TableHeader::hash_of(block) == read.header_hash);
}

TEST_CASE(
    "a file's root is the hash of its blocks' hashes, as the document reads, at every "
    "block count",
    "[table-format]") {
  // The smallest ring of each count of up to 12 blocks: most counts not a multiple of 4, where
  // version 3's checksum of its checksums went against its document.
  TempFolder folder;
  std::map<std::uint64_t, Ring> smallest;
  for (const Ring ring : playable_rings()) {
    const std::uint64_t blocks = RingGeometry(ring).layout().blocks;
    if (blocks > 12) continue;
    const auto found = smallest.find(blocks);
    if (found == smallest.end() ||
        RingGeometry(ring).classes() < RingGeometry(found->second).classes())
      smallest.insert_or_assign(blocks, ring);
  }
  std::vector<std::uint64_t> counts;
  for (const auto& [count, ring] : smallest) {
    INFO(ring.describe());
    const auto table = RingTable::solve(RingGeometry::of(ring), {});
    const std::string path = folder.file("table");
    const Digest written = save_table(*table, path);
    const std::vector<unsigned char> bytes = file_bytes(path);
    // The document's reading, step by step, with the portable engine: each page's hash, each
    // block's (of its pages' hashes), the root (of the blocks' hashes).
    const auto blocks = at<std::uint64_t>(bytes, 88);
    const auto pages_at = at<std::uint64_t>(bytes, 128);
    const auto blocks_at = at<std::uint64_t>(bytes, 136);
    const auto top_at = at<std::uint64_t>(bytes, 192);
    REQUIRE(blocks_at == pages_at + 512 * blocks);
    REQUIRE(top_at == blocks_at + 32 * blocks);
    REQUIRE(bytes.size() == top_at + 32 * ((blocks + 127) / 128));
    const auto portable = [](std::span<const unsigned char> part) {
      Sha256 hash(Sha256::Engine::portable);
      hash.update(part);
      return hash.finish();
    };
    for (std::uint64_t b = 0; b < blocks; ++b) {
      for (std::uint64_t p = 0; p < 16; ++p) {
        const Digest page = portable(std::span(bytes).subspan(kBlock * (b + 1) + 4096 * p, 4096));
        CHECK(std::memcmp(page.data(), bytes.data() + pages_at + 512 * b + 32 * p, 32) == 0);
      }
      const Digest digest = portable(std::span(bytes).subspan(pages_at + 512 * b, 512));
      CHECK(std::memcmp(digest.data(), bytes.data() + blocks_at + 32 * b, 32) == 0);
    }
    Sha256 top(Sha256::Engine::portable);
    for (std::uint64_t p = 0; p < (blocks + 127) / 128; ++p) {
      const std::uint64_t from = blocks_at + 4096 * p;
      const Digest digest =
          portable(std::span(bytes).subspan(from, std::min(4096ul, top_at - from)));
      CHECK(std::memcmp(digest.data(), bytes.data() + top_at + 32 * p, 32) == 0);
      top.update(digest);
    }
    const Digest root = top.finish();
    CHECK(root == at<Digest>(bytes, 160));
    CHECK(root == written);
    CHECK(root == root_of(*table));
    counts.push_back(blocks);
  }
  CHECK(std::count_if(counts.begin(), counts.end(),
                      [](std::uint64_t count) { return count > 4 && count % 4 != 0; }) >= 3);
}

namespace {

// The value of a board as docs/table-format.md says to find it, from the file's bytes alone:
// the canonical board (the rotation of smallest code), its position, its line, its rank.
int documented_value(const std::vector<unsigned char>& bytes, Ring ring,
                     const std::vector<int>& counts) {
  const int n = ring.pits;
  const std::uint64_t base = static_cast<std::uint64_t>(ring.capacity) + 1;
  const auto code = [&](const std::vector<int>& pits) {
    std::uint64_t value = 0;
    for (int i = n - 1; i >= 0; --i)
      value = value * base + static_cast<std::uint64_t>(pits[static_cast<std::size_t>(i)]);
    return value;
  };
  std::vector<int> canonical = counts;
  for (int turn = 1; turn < n; ++turn) {
    std::vector<int> turned(counts.size());
    for (int i = 0; i < n; ++i)
      turned[static_cast<std::size_t>(i)] = counts[static_cast<std::size_t>((i + turn) % n)];
    if (code(turned) < code(canonical)) canonical = turned;
  }
  const auto power = [](std::uint64_t b, int e) {
    std::uint64_t value = 1;
    for (int i = 0; i < e; ++i)
      value *= b;
    return value;
  };
  // Position: the blocks of fewer beads in pit N, then pits 1 to N-1 less t, in base C+1-t.
  const int fewest = canonical[static_cast<std::size_t>(n - 1)];
  std::uint64_t position = 0;
  for (int t = 0; t < fewest; ++t)
    position += power(base - static_cast<std::uint64_t>(t), n - 1);
  const std::uint64_t radix = base - static_cast<std::uint64_t>(fewest);
  std::uint64_t number = 0;
  for (int i = n - 2; i >= 0; --i) {
    number = number * radix +
             static_cast<std::uint64_t>(canonical[static_cast<std::size_t>(i)] - fewest);
  }
  position += number;
  // Rank: the line's word 0, the count in word 1 before the position's word, the bits below.
  const std::uint64_t line = position / 384, bit = position % 384, word = bit / 64;
  const auto at_line = static_cast<std::size_t>(at_field(bytes, 96) + 64 * line);
  const auto words = [&](std::uint64_t k) {
    return at_u64(bytes, at_line + 8 * static_cast<std::size_t>(k));
  };
  std::uint64_t rank = words(0);
  if (word > 0) rank += (words(1) >> (9 * (word - 1))) & 511;
  rank += static_cast<std::uint64_t>(
      std::popcount(words(2 + word) & ((std::uint64_t{1} << (bit % 64)) - 1)));
  REQUIRE((words(2 + word) >> (bit % 64) & 1) == 1);
  REQUIRE(rank < at_field(bytes, 72));
  return static_cast<std::int8_t>(bytes[static_cast<std::size_t>(at_field(bytes, 112) + rank)]);
}

}  // namespace

TEST_CASE("a reader written from the document finds every board's value", "[table-format]") {
  TempFolder folder;
  for (const Ring ring : {Ring{3, 9}, Ring{5, 5}, Ring{7, 4}, Ring{9, 3}}) {
    INFO(ring.describe());
    const auto table = RingTable::solve(RingGeometry::of(ring), {});
    save_table(*table, folder.file("table"));
    const std::vector<unsigned char> bytes = file_bytes(folder.file("table"));
    for (Board::Code code = 0; code < ring.code_count(); ++code) {
      const Board board = Board::from_code(code, ring);
      std::vector<int> counts;
      for (const Pit pit : board.pits())
        counts.push_back(board.beads(pit));
      REQUIRE(documented_value(bytes, ring, counts) == table->value(board));
    }
  }
}

TEST_CASE(
    "ioiwari knows the true root of the rings it solves here, and of the IOI capacity's "
    "rings up to 14 pits",
    "[table-format]") {
  // scripts/known-roots solved every ring of up to 200 million classes; the tests solve the
  // small ones again.
  std::size_t checked = 0, expected = 0;
  for (const Ring ring : playable_rings()) {
    const std::uint64_t classes = RingGeometry(ring).classes();
    if (classes > 200'000'000) continue;
    ++expected;
    INFO(ring.describe());
    REQUIRE(known_root(ring));
    if (classes > 300'000) continue;
    CHECK(*known_root(ring) == root_of(*RingTable::solve(RingGeometry::of(ring), {})));
    ++checked;
  }
  CHECK(checked > 50);
  for (int pits = 3; pits <= 14; ++pits)
    CHECK(known_root(Ring{pits, 5}));
  CHECK(known_roots() >= expected + 2);
  CHECK_FALSE(known_root(Ring{16, 7}));
  CHECK(RootBook::built_in().find(Ring{8, 4})->root == *known_root(Ring{8, 4}));
  CHECK(RootBook::built_in().find(Ring{8, 4})->source == RootBook::Source::built_in);
  CHECK_FALSE(RootBook::none().find(Ring{8, 4}));
}

TEST_CASE("a table's digest takes its parts in pieces of any size, and no byte past them",
          "[table-format]") {
  const Ring ring{8, 4};
  const auto table = RingTable::solve(RingGeometry::of(ring), {});
  const TableLayout layout = RingGeometry(ring).layout();
  std::vector<unsigned char> parts(layout.lines_bytes + layout.values_bytes);
  std::memcpy(parts.data(), table->lines().data(), layout.lines_bytes);
  std::memcpy(parts.data() + layout.lines_bytes, table->values().data(), layout.values_bytes);
  for (const std::size_t piece :
       {std::size_t{1}, std::size_t{7}, std::size_t{65536}, std::size_t{100'000}, parts.size()}) {
    INFO("pieces of " << piece);
    TableDigest digest(layout);
    for (std::size_t at = 0; at < parts.size(); at += piece) {
      CHECK(digest.next_offset() == (at < layout.lines_bytes
                                         ? layout.lines_offset + at
                                         : layout.values_offset + at - layout.lines_bytes));
      const std::size_t size = std::min(piece, parts.size() - at);
      // A piece that crosses from the index into the values is taken only up to the index's end.
      const std::size_t taken = digest.append(std::span(parts).subspan(at, size));
      if (taken < size) digest.append(std::span(parts).subspan(at + taken, size - taken));
    }
    CHECK(digest.complete());
    CHECK(digest.root() == root_of(*table));
    const unsigned char extra = 1;
    CHECK(digest.append({&extra, 1}) == 0);
  }
}
