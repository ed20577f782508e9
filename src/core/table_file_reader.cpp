#include "table_file_reader.hpp"

#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include "ioiwari/core/tier_solver.hpp"

namespace ioiwari::reading {

TableFile::TableFile(std::string path, std::shared_ptr<const RingGeometry> expected,
                     const RootBook& roots, bool trust, std::uint64_t memory)
    : path_(std::move(path)), name_("table " + quoted_path(path_)) {
  open(std::move(expected), roots, trust, memory);
}

void TableFile::open(std::shared_ptr<const RingGeometry> expected, const RootBook& roots,
                     bool trust, std::uint64_t memory) {
  // A table is a regular file: anything else is refused before it is opened, so that a FIFO
  // with no writer cannot make the command wait, and a device is never read.
  struct stat named {};
  if (::stat(path_.c_str(), &named) != 0)
    refuse(Kind::unreadable, ": " + std::string(std::strerror(errno)));
  if (!S_ISREG(named.st_mode)) {
    refuse(Kind::unreadable, " is " + kind_of(named.st_mode) + ", not a regular file");
  }
  // O_NONBLOCK: what is opened may have been swapped for a FIFO since; it is then not waited for.
  fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd_ < 0) refuse(Kind::unreadable, ": " + std::string(std::strerror(errno)));
  if (::fstat(fd_, &status_) != 0)
    refuse(Kind::unreadable, ": " + std::string(std::strerror(errno)));
  if (!S_ISREG(status_.st_mode) || status_.st_ino != named.st_ino ||
      status_.st_dev != named.st_dev) {
    refuse(Kind::unreadable, " was replaced while it was opened");
  }
  const auto size = static_cast<std::uint64_t>(status_.st_size);
  if (size == 0) refuse(Kind::not_a_table, " is empty: not an ioiwari table");

  std::vector<unsigned char> block(static_cast<std::size_t>(std::min(size, kBlock)));
  read_at(0, block);
  if (std::memcmp(block.data(), TableHeader::kMagic,
                  std::min(block.size(), sizeof TableHeader::kMagic)) != 0) {
    refuse(Kind::not_a_table, " is not an ioiwari table");
  }
  if (size < kBlock) {
    refuse(Kind::truncated,
           " is truncated: " + std::to_string(size) + " bytes, less than its header");
  }
  // The version first, in either byte order: it says how to read the rest.
  std::uint32_t version;
  std::memcpy(&version, block.data() + TableHeader::kVersionOffset, sizeof version);
  const std::string reads = "; this ioiwari reads versions " + std::to_string(kTableFormatVersion) +
                            " and " + std::to_string(kCompressedFormatVersion);
  if (version != kTableFormatVersion && version != kCompressedFormatVersion) {
    if (__builtin_bswap32(version) == kTableFormatVersion ||
        __builtin_bswap32(version) == kCompressedFormatVersion) {
      refuse(Kind::not_a_table, " was written on a machine of another byte order");
    }
    if (version >= 1 && version < kTableFormatVersion) {
      refuse(Kind::old_version, " has format version " + std::to_string(version) +
                                    ", an older one" + reads + ": solve the ring again");
    }
    refuse(Kind::not_a_table, " has format version " + std::to_string(version) + reads);
  }
  const TableHeader header = TableHeader::parse(block);
  if (header.byte_order != TableHeader::kByteOrder) {
    refuse(Kind::not_a_table, " was written on a machine of another byte order");
  }
  if (TableHeader::hash_of(block) != header.header_hash) {
    refuse(Kind::checksum, " is damaged: its header fails its hash");
  }
  const Ring ring{static_cast<int>(std::min<std::uint32_t>(header.pits, 1000)),
                  static_cast<int>(std::min<std::uint32_t>(header.capacity, 1000))};
  if (header.pits > kMaxPits || header.capacity > kMaxCapacity || !ring.playable()) {
    refuse(Kind::not_a_table, " names no ring ioiwari plays: " + std::to_string(header.pits) +
                                  " pits, capacity " + std::to_string(header.capacity));
  }
  if (expected != nullptr && ring != expected->ring()) {
    refuse(Kind::other_rules, " is a table of " + ring.describe() + "; the command plays " +
                                  expected->ring().describe());
  }
  geometry_ = expected != nullptr ? std::move(expected) : RingGeometry::of(ring);
  if (!header.fits(*geometry_)) {
    refuse(Kind::not_a_table, " has a layout that fits no table of " + ring.describe());
  }
  if (!TableHeader::zero_where_zero(block, version)) damaged("its header's padding is not zero");
  stored_ = {layout().page_hashes_offset, layout().block_hashes_offset, layout().top_hashes_offset,
             layout().file_bytes};
  if (version == kCompressedFormatVersion) {
    compressed_ = CompressedLayout::of(layout(), header.coded_bytes);
    stored_ = {compressed_.page_hashes_offset, compressed_.block_hashes_offset,
               compressed_.top_hashes_offset, compressed_.file_bytes};
    code_ = ValueCode::of(header.code_lengths);
    if (!code_) damaged("its value code is no code");
  }
  if (size < stored_.file_bytes) {
    refuse(Kind::truncated, " is truncated: " + std::to_string(size) + " bytes of " +
                                std::to_string(stored_.file_bytes));
  }
  if (size > stored_.file_bytes) {
    refuse(Kind::not_a_table,
           " has " + std::to_string(size - stored_.file_bytes) + " bytes after its table");
  }
  // What reading it takes before any look-up: the top hashes, and a place for each page of
  // block hashes (block_hash_at()), which a file of any size may ask for: checked against the
  // process's memory before it is taken.
  const std::uint64_t fixed = (kHash + 2 * sizeof(void*)) * layout().hash_pages;
  if (memory != 0 && fixed > memory / 2) {
    refuse(Kind::too_large, " is a table of " + std::to_string(size) +
                                " bytes, whose hashes alone " + "would take " +
                                std::to_string(fixed) + " bytes of memory; this process may take " +
                                std::to_string(memory));
  }
  top_hashes_.resize(static_cast<std::size_t>(kHash * layout().hash_pages));
  read_at(stored_.top_hashes_offset, top_hashes_);
  root_ = table_root(top_hashes_);
  if (root_ != header.root) {
    changed_since_open("its top hashes changed");
    refuse(Kind::checksum, " is damaged: its top hashes fail the root in its header");
  }
  hash_pages_ = std::make_unique<std::atomic<const unsigned char*>[]>(
      static_cast<std::size_t>(layout().hash_pages));
  const std::optional<RootBook::TrueRoot> known = roots.find(ring);
  if (known) source_ = known->source;
  if (known && known->root != root_) {
    refuse(Kind::wrong_root, " is not the true table of " + ring.describe() + ": its root is " +
                                 hex(root_) + ", the ring's is " + hex(known->root) +
                                 (known->source == RootBook::Source::recorded
                                      ? " (recorded in " + quoted_path(roots.list()) + ")"
                                      : ""));
  }
  if (!known && !trust) {
    refuse(Kind::unknown_root,
           " is a table of " + ring.describe() +
               ", whose true root is not known; 'ioiwari verify' checks it and records its root, "
               "or --trust-table uses it unchecked");
  }
}

}  // namespace ioiwari::reading
