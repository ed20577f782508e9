#include "ioiwari/core/table_format.hpp"

#include "ioiwari/core/table_compressed.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace ioiwari {

namespace {

constexpr std::uint64_t kBlock = TableLayout::kBlockBytes;

// Where each field lies in the header block (docs/table-format.md has the same table).
struct FieldAt {
  static constexpr std::size_t magic = 0, reserved = 16, version = 24, byte_order = 28,
                               header_hash = 32, pits = 64, capacity = 68, classes = 72,
                               block_bytes = 80, blocks = 88, lines_offset = 96, lines_bytes = 104,
                               values_offset = 112, values_bytes = 120, page_hashes_offset = 128,
                               block_hashes_offset = 136, file_bytes = 144, page_bytes = 152,
                               reserved_after_page_bytes = 156, root = 160, top_hashes_offset = 192,
                               end = 200;
  // Version 5's, after version 4's.
  static constexpr std::size_t first_ranks_offset = 200, first_ranks_bytes = 208,
                               directory_offset = 216, directory_bytes = 224, coded_offset = 232,
                               coded_bytes = 240, code_lengths = 248, end_compressed = 504;
};
static_assert(FieldAt::reserved + 8 == FieldAt::version &&
              FieldAt::version == TableHeader::kVersionOffset);
static_assert(FieldAt::header_hash == TableHeader::kHashOffset);
static_assert(FieldAt::end == TableHeader::kFieldBytes);
static_assert(kBlock % TableLayout::kPageBytes == 0);

template <class T>
void put(std::vector<unsigned char>& block, std::size_t at, const T& value) {
  std::memcpy(block.data() + at, &value, sizeof value);
}

template <class T>
T get(std::span<const unsigned char> block, std::size_t at) {
  T value;
  std::memcpy(&value, block.data() + at, sizeof value);
  return value;
}

}  // namespace

TableHeader TableHeader::of(const RingGeometry& geometry, const Digest& root) {
  const TableLayout& layout = geometry.layout();
  const Ring ring = geometry.ring();
  TableHeader header;
  header.pits = static_cast<std::uint32_t>(ring.pits);
  header.capacity = static_cast<std::uint32_t>(ring.capacity);
  header.classes = layout.classes;
  header.blocks = layout.blocks;
  header.lines_offset = layout.lines_offset;
  header.lines_bytes = layout.lines_bytes;
  header.values_offset = layout.values_offset;
  header.values_bytes = layout.values_bytes;
  header.page_hashes_offset = layout.page_hashes_offset;
  header.block_hashes_offset = layout.block_hashes_offset;
  header.top_hashes_offset = layout.top_hashes_offset;
  header.file_bytes = layout.file_bytes;
  header.root = root;
  return header;
}

CompressedLayout CompressedLayout::of(const TableLayout& layout, std::uint64_t coded_bytes) {
  CompressedLayout c;
  const std::uint64_t lines = layout.lines_bytes / 64;
  c.index_pages = (lines + kIndexPageLines - 1) / kIndexPageLines;
  c.value_pages = (layout.classes + kCodedPageClasses - 1) / kCodedPageClasses;
  c.first_ranks_offset = TableLayout::kBlockBytes;
  c.first_ranks_bytes = 8 * c.index_pages;
  c.directory_offset = c.first_ranks_offset + c.first_ranks_bytes;
  c.directory_bytes = 8 * (c.value_pages + 1);
  c.coded_offset = c.directory_offset + c.directory_bytes;
  c.coded_bytes = coded_bytes;
  c.page_hashes_offset = c.coded_offset + coded_bytes;
  c.block_hashes_offset = c.page_hashes_offset + TableLayout::kGroupBytes * layout.blocks;
  c.top_hashes_offset = c.block_hashes_offset + TableLayout::kHashBytes * layout.blocks;
  c.file_bytes = c.top_hashes_offset + TableLayout::kHashBytes * layout.hash_pages;
  return c;
}

std::uint64_t CompressedLayout::most_coded_bytes(const TableLayout& layout) {
  return (layout.classes * kMostCodeBits + 7) / 8 + of(layout, 0).value_pages;
}

TableHeader TableHeader::compressed(const RingGeometry& geometry, const Digest& root,
                                    std::uint64_t coded_bytes,
                                    const std::array<std::uint8_t, 256>& lengths) {
  TableHeader header = of(geometry, root);
  const CompressedLayout c = CompressedLayout::of(geometry.layout(), coded_bytes);
  header.version = kCompressedFormatVersion;
  header.page_hashes_offset = c.page_hashes_offset;
  header.block_hashes_offset = c.block_hashes_offset;
  header.top_hashes_offset = c.top_hashes_offset;
  header.file_bytes = c.file_bytes;
  header.first_ranks_offset = c.first_ranks_offset;
  header.first_ranks_bytes = c.first_ranks_bytes;
  header.directory_offset = c.directory_offset;
  header.directory_bytes = c.directory_bytes;
  header.coded_offset = c.coded_offset;
  header.coded_bytes = coded_bytes;
  header.code_lengths = lengths;
  return header;
}

std::vector<unsigned char> TableHeader::block() const {
  std::vector<unsigned char> block(kBlock, 0);
  std::memcpy(block.data() + FieldAt::magic, kMagic, sizeof kMagic);
  put(block, FieldAt::version, version);
  put(block, FieldAt::byte_order, byte_order);
  put(block, FieldAt::pits, pits);
  put(block, FieldAt::capacity, capacity);
  put(block, FieldAt::classes, classes);
  put(block, FieldAt::block_bytes, block_bytes);
  put(block, FieldAt::blocks, blocks);
  put(block, FieldAt::lines_offset, lines_offset);
  put(block, FieldAt::lines_bytes, lines_bytes);
  put(block, FieldAt::values_offset, values_offset);
  put(block, FieldAt::values_bytes, values_bytes);
  put(block, FieldAt::page_hashes_offset, page_hashes_offset);
  put(block, FieldAt::block_hashes_offset, block_hashes_offset);
  put(block, FieldAt::top_hashes_offset, top_hashes_offset);
  put(block, FieldAt::file_bytes, file_bytes);
  put(block, FieldAt::page_bytes, page_bytes);
  put(block, FieldAt::root, root);
  if (version == kCompressedFormatVersion) {
    put(block, FieldAt::first_ranks_offset, first_ranks_offset);
    put(block, FieldAt::first_ranks_bytes, first_ranks_bytes);
    put(block, FieldAt::directory_offset, directory_offset);
    put(block, FieldAt::directory_bytes, directory_bytes);
    put(block, FieldAt::coded_offset, coded_offset);
    put(block, FieldAt::coded_bytes, coded_bytes);
    put(block, FieldAt::code_lengths, code_lengths);
  }
  put(block, FieldAt::header_hash, hash_of(block));
  return block;
}

TableHeader TableHeader::parse(std::span<const unsigned char> block) {
  TableHeader header;
  header.version = get<std::uint32_t>(block, FieldAt::version);
  header.byte_order = get<std::uint32_t>(block, FieldAt::byte_order);
  header.header_hash = get<Digest>(block, FieldAt::header_hash);
  header.pits = get<std::uint32_t>(block, FieldAt::pits);
  header.capacity = get<std::uint32_t>(block, FieldAt::capacity);
  header.classes = get<std::uint64_t>(block, FieldAt::classes);
  header.block_bytes = get<std::uint64_t>(block, FieldAt::block_bytes);
  header.blocks = get<std::uint64_t>(block, FieldAt::blocks);
  header.lines_offset = get<std::uint64_t>(block, FieldAt::lines_offset);
  header.lines_bytes = get<std::uint64_t>(block, FieldAt::lines_bytes);
  header.values_offset = get<std::uint64_t>(block, FieldAt::values_offset);
  header.values_bytes = get<std::uint64_t>(block, FieldAt::values_bytes);
  header.page_hashes_offset = get<std::uint64_t>(block, FieldAt::page_hashes_offset);
  header.block_hashes_offset = get<std::uint64_t>(block, FieldAt::block_hashes_offset);
  header.top_hashes_offset = get<std::uint64_t>(block, FieldAt::top_hashes_offset);
  header.file_bytes = get<std::uint64_t>(block, FieldAt::file_bytes);
  header.page_bytes = get<std::uint32_t>(block, FieldAt::page_bytes);
  header.root = get<Digest>(block, FieldAt::root);
  if (header.version == kCompressedFormatVersion) {
    header.first_ranks_offset = get<std::uint64_t>(block, FieldAt::first_ranks_offset);
    header.first_ranks_bytes = get<std::uint64_t>(block, FieldAt::first_ranks_bytes);
    header.directory_offset = get<std::uint64_t>(block, FieldAt::directory_offset);
    header.directory_bytes = get<std::uint64_t>(block, FieldAt::directory_bytes);
    header.coded_offset = get<std::uint64_t>(block, FieldAt::coded_offset);
    header.coded_bytes = get<std::uint64_t>(block, FieldAt::coded_bytes);
    header.code_lengths = get<std::array<std::uint8_t, 256>>(block, FieldAt::code_lengths);
  }
  return header;
}

Digest TableHeader::hash_of(std::span<const unsigned char> block) {
  static constexpr Digest kZero{};
  Sha256 hash;
  hash.update(block.first(FieldAt::header_hash));
  hash.update(kZero);
  hash.update(block.subspan(FieldAt::header_hash + kZero.size()));
  return hash.finish();
}

bool TableHeader::fits(const RingGeometry& geometry) const {
  if (version == kCompressedFormatVersion &&
      coded_bytes > CompressedLayout::most_coded_bytes(geometry.layout()))
    return false;
  const TableHeader expected = version == kCompressedFormatVersion
                                   ? compressed(geometry, root, coded_bytes, code_lengths)
                                   : of(geometry, root);
  return version == expected.version && byte_order == expected.byte_order &&
         pits == expected.pits && capacity == expected.capacity && classes == expected.classes &&
         block_bytes == expected.block_bytes && blocks == expected.blocks &&
         lines_offset == expected.lines_offset && lines_bytes == expected.lines_bytes &&
         values_offset == expected.values_offset && values_bytes == expected.values_bytes &&
         page_hashes_offset == expected.page_hashes_offset &&
         block_hashes_offset == expected.block_hashes_offset &&
         top_hashes_offset == expected.top_hashes_offset && file_bytes == expected.file_bytes &&
         page_bytes == expected.page_bytes && first_ranks_offset == expected.first_ranks_offset &&
         first_ranks_bytes == expected.first_ranks_bytes &&
         directory_offset == expected.directory_offset &&
         directory_bytes == expected.directory_bytes && coded_offset == expected.coded_offset;
}

bool TableHeader::zero_where_zero(std::span<const unsigned char> block, std::uint32_t version) {
  const auto zero = [](std::span<const unsigned char> bytes) {
    return std::all_of(bytes.begin(), bytes.end(), [](unsigned char byte) { return byte == 0; });
  };
  return zero(block.subspan(FieldAt::reserved, FieldAt::version - FieldAt::reserved)) &&
         zero(block.subspan(FieldAt::reserved_after_page_bytes,
                            FieldAt::root - FieldAt::reserved_after_page_bytes)) &&
         zero(block.subspan(version == kCompressedFormatVersion ? FieldAt::end_compressed
                                                                : FieldAt::end));
}

TableDigest::TableDigest(const TableLayout& layout) : layout_(layout), at_(layout.lines_offset) {
  page_hashes_.reserve(static_cast<std::size_t>(TableLayout::kGroupBytes * layout.blocks));
  block_hashes_.reserve(static_cast<std::size_t>(TableLayout::kHashBytes * layout.blocks));
}

std::size_t TableDigest::append(std::span<const unsigned char> bytes) {
  const std::uint64_t ends[2] = {layout_.lines_offset + layout_.lines_bytes,
                                 layout_.values_offset + layout_.values_bytes};
  const std::uint64_t next[2] = {layout_.values_offset, layout_.page_hashes_offset};
  std::size_t taken = 0;
  // A part that is (or becomes) full: the zeros up to where the next part starts are hashed.
  const auto close_full_parts = [&] {
    while (part_ < 2 && at_ == ends[part_]) {
      hash(nullptr, next[part_] - at_);
      ++part_;
    }
  };
  close_full_parts();
  while (taken < bytes.size() && part_ < 2) {
    const auto take =
        static_cast<std::size_t>(std::min<std::uint64_t>(ends[part_] - at_, bytes.size() - taken));
    hash(bytes.data() + taken, take);
    taken += take;
    close_full_parts();
  }
  return taken;
}

void TableDigest::hash(const unsigned char* bytes, std::uint64_t size) {
  static constexpr std::array<unsigned char, 4096> kZeros{};
  constexpr std::uint64_t kPage = TableLayout::kPageBytes;
  while (size > 0) {
    const std::uint64_t take = std::min(kPage - at_ % kPage, size);
    page_.update({bytes != nullptr ? bytes : kZeros.data(), static_cast<std::size_t>(take)});
    if (bytes != nullptr) bytes += take;
    at_ += take;
    size -= take;
    if (at_ % kPage == 0) {
      const Digest digest = page_.finish();
      page_hashes_.insert(page_hashes_.end(), digest.begin(), digest.end());
      page_ = Sha256();
    }
    if (at_ % kBlock == 0) {
      const Digest block = block_hash(std::span(page_hashes_).last(TableLayout::kGroupBytes));
      block_hashes_.insert(block_hashes_.end(), block.begin(), block.end());
    }
  }
}

std::uint64_t TableDigest::room() const {
  if (part_ == 2) return 0;
  const std::uint64_t end = part_ == 0 ? layout_.lines_offset + layout_.lines_bytes
                                       : layout_.values_offset + layout_.values_bytes;
  return end - at_;
}

std::vector<unsigned char> TableDigest::top_hashes() const {
  return ioiwari::top_hashes(block_hashes_);
}

Digest TableDigest::root() const {
  return table_root(top_hashes());
}

std::vector<unsigned char> top_hashes(std::span<const unsigned char> block_hashes) {
  std::vector<unsigned char> top;
  for (std::size_t at = 0; at < block_hashes.size(); at += TableLayout::kPageBytes) {
    const Digest digest = sha256(block_hashes.subspan(
        at, std::min<std::size_t>(TableLayout::kPageBytes, block_hashes.size() - at)));
    top.insert(top.end(), digest.begin(), digest.end());
  }
  return top;
}

Digest table_root(std::span<const unsigned char> top) {
  return sha256(top);
}

Digest block_hash(std::span<const unsigned char> page_hashes) {
  return sha256(page_hashes);
}

}  // namespace ioiwari
