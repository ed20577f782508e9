// Reading table files: load_table() for the commands that look boards up, verify_table() for
// `ioiwari verify`. Nothing is read in place: every byte used is a copy, checked first; and the
// memory a file asks for is checked before any is taken, so that no file can make a reader fail
// but with a TableFileError.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "block_cache.hpp"
#include "file_kind.hpp"
#include "ioiwari/core/table_compressed.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/core/tier_solver.hpp"

namespace ioiwari {

namespace {

constexpr std::uint64_t kBlock = TableLayout::kBlockBytes;
constexpr std::uint64_t kPage = TableLayout::kPageBytes;
constexpr std::uint64_t kHash = TableLayout::kHashBytes;
constexpr std::size_t kGroup = TableLayout::kGroupBytes;

bool same_times(const struct stat& a, const struct stat& b) {
  return a.st_size == b.st_size && a.st_mtim.tv_sec == b.st_mtim.tv_sec &&
         a.st_mtim.tv_nsec == b.st_mtim.tv_nsec && a.st_ctim.tv_sec == b.st_ctim.tv_sec &&
         a.st_ctim.tv_nsec == b.st_ctim.tv_nsec;
}

bool all_zero(std::span<const unsigned char> bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](unsigned char byte) { return byte == 0; });
}

// An open table file: its checked header and list of block hashes, and reads of its blocks,
// each checked against its hash. The storage of a RingTable read from a file.
class TableFile final : public TableStorage {
 public:
  using Kind = TableFileError::Kind;

  // Opens `path` and checks everything but the blocks: see load_table(). `expected` is the
  // command's ring (none for verify), `trust` whether a ring with no known root is accepted,
  // `memory` the most memory the process may take (0: not known).
  TableFile(std::string path, std::shared_ptr<const RingGeometry> expected, const RootBook& roots,
            bool trust, std::uint64_t memory);
  ~TableFile() override {
    if (fd_ >= 0) ::close(fd_);
  }
  TableFile(const TableFile&) = delete;
  TableFile& operator=(const TableFile&) = delete;

  Ring ring() const { return geometry_->ring(); }
  const std::shared_ptr<const RingGeometry>& geometry() const { return geometry_; }
  const TableLayout& layout() const { return geometry_->layout(); }
  const Digest& root() const { return root_; }
  RootBook::Source source() const { return source_; }
  std::uint32_t version() const { return code_ ? kCompressedFormatVersion : kTableFormatVersion; }
  std::uint64_t size() const { return static_cast<std::uint64_t>(status_.st_size); }

  // Look-ups read through a cache of up to `bytes` of checked blocks.
  void cache(std::uint64_t bytes) {
    cache_ = std::make_unique<BlockCache>(
        layout().blocks, kBlock, kPage, kHash, bytes,
        [this](std::uint64_t block, unsigned char* into) { read_group(block, into); },
        [this](std::uint64_t block, std::size_t page, const unsigned char* hash,
               unsigned char* into) { read_page(block, page, hash, into); });
  }

  void index_words(std::uint64_t first, std::size_t count, std::uint64_t* out) const override {
    if (first + count > layout().lines_bytes / 8) damaged("a look-up reaches past the index");
    std::uint64_t offset = layout().lines_offset + 8 * first;
    while (count > 0) {
      const std::uint64_t block = TableLayout::block_of(offset);
      const std::uint64_t in_block = offset - TableLayout::block_offset(block);
      const auto take =
          static_cast<std::size_t>(std::min<std::uint64_t>(count, (kBlock - in_block) / 8));
      cache_->words(block, static_cast<std::size_t>(in_block / 8), take, out);
      out += take;
      count -= take;
      offset += 8 * take;
    }
  }

  std::int8_t value_byte(Rank rank) const override {
    if (raw(rank) >= layout().values_bytes) damaged("a look-up reaches past the values");
    const std::uint64_t offset = layout().values_offset + raw(rank);
    const std::uint64_t block = TableLayout::block_of(offset);
    const std::uint64_t in_block = offset - TableLayout::block_offset(block);
    std::uint64_t word;
    cache_->words(block, static_cast<std::size_t>(in_block / 8), 1, &word);
    unsigned char bytes[8];
    std::memcpy(bytes, &word, 8);
    return static_cast<std::int8_t>(bytes[in_block % 8]);
  }

  [[noreturn]] void damaged(const std::string& what) const override {
    throw TableFileError(Kind::damaged, name_ + " is damaged: " + what);
  }

  // The hash of block `block`, from a page of block hashes checked against its top hash. The
  // pages are read as they are first needed, each into memory of its own: a file's hashes take
  // memory as its look-ups reach them, not all at once.
  const unsigned char* block_hash_at(std::uint64_t block) const {
    const std::uint64_t page = block / TableLayout::kHashesPerPage;
    const unsigned char* checked = hash_pages_[page].load(std::memory_order_acquire);
    if (checked == nullptr) {
      const std::lock_guard lock(hash_pages_lock_);
      checked = hash_pages_[page].load(std::memory_order_relaxed);
      if (checked == nullptr) {
        const std::uint64_t bytes = std::min(kPage, kHash * layout().blocks - kPage * page);
        const std::uint64_t offset = stored_.block_hashes_offset + kPage * page;
        auto copy = std::make_unique<unsigned char[]>(static_cast<std::size_t>(bytes));
        read_at(offset, {copy.get(), static_cast<std::size_t>(bytes)});
        const Digest digest = sha256({copy.get(), static_cast<std::size_t>(bytes)});
        if (std::memcmp(digest.data(), top_hashes_.data() + kHash * page, kHash) != 0) {
          changed_since_open("its block hashes no longer match their top hash");
          refuse(Kind::checksum, " is damaged: its block hashes at bytes " +
                                     std::to_string(offset) + " to " +
                                     std::to_string(offset + bytes - 1) + " fail their hash");
        }
        // No reader sees the page before it is checked.
        checked = copy.get();
        hash_page_copies_.push_back(std::move(copy));
        hash_pages_[page].store(checked, std::memory_order_release);
      }
    }
    return checked + kHash * (block % TableLayout::kHashesPerPage);
  }

  // Reads the page hashes of block `block` into `into` (kGroupBytes) and checks them against
  // the block's hash.
  void read_group(std::uint64_t block, unsigned char* into) const {
    const std::uint64_t offset = stored_.page_hashes_offset + kGroup * block;
    read_at(offset, {into, static_cast<std::size_t>(kGroup)});
    const Digest digest = block_hash({into, static_cast<std::size_t>(kGroup)});
    if (std::memcmp(digest.data(), block_hash_at(block), kHash) != 0) {
      changed_since_open("the page hashes of block " + std::to_string(block) +
                         " no longer match its hash");
      refuse(Kind::checksum, " is damaged: the page hashes of block " + std::to_string(block) +
                                 " (bytes " + std::to_string(offset) + " to " +
                                 std::to_string(offset + kGroup - 1) + ") fail its hash");
    }
  }

  // Reads page `page` of block `block` into `into` and checks it against `hash`: in version 5,
  // the page made again from the file's parts (make_page()).
  void read_page(std::uint64_t block, std::size_t page, const unsigned char* hash,
                 unsigned char* into) const {
    const std::uint64_t offset = TableLayout::block_offset(block) + kPage * page;
    std::string made;
    if (code_) {
      made = make_page(offset, into);
    } else {
      read_at(offset, {into, static_cast<std::size_t>(kPage)});
    }
    const Digest digest = sha256({into, static_cast<std::size_t>(kPage)});
    if (std::memcmp(digest.data(), hash, kHash) != 0) {
      changed_since_open("block " + std::to_string(block) + " no longer matches its hashes");
      refuse(Kind::checksum, " is damaged: page " + std::to_string(page) + " of block " +
                                 std::to_string(block) +
                                 (code_ ? " (" + made + ")"
                                        : " (bytes " + std::to_string(offset) + " to " +
                                              std::to_string(offset + kPage - 1) + ")") +
                                 " fails its hash");
    }
  }

  // Version 5: makes the page of format 4 at `offset` from the file's parts into `into`: lines
  // of the index from their first rank, values from their coded page, or zeros. Says what it
  // was made from, for a page that then fails its hash.
  std::string make_page(std::uint64_t offset, unsigned char* into) const {
    const TableLayout& plain = layout();
    std::memset(into, 0, static_cast<std::size_t>(kPage));
    if (offset < plain.values_offset) {
      const std::uint64_t q = (offset - plain.lines_offset) / kPage;
      if (q >= compressed_.index_pages) return "zeros after the index";
      std::uint64_t rank = 0;
      read_at(compressed_.first_ranks_offset + 8 * q,
              {reinterpret_cast<unsigned char*>(&rank), sizeof rank});
      if (rank > plain.classes)
        damaged("the first rank of index page " + std::to_string(q) + " is past the last class");
      std::uint64_t lines[kIndexPageLines * kLineWords];
      make_index_lines(geometry_->index(), q * kIndexPageLines, kIndexPageLines, rank, lines);
      std::memcpy(into, lines, sizeof lines);
      return "index lines " + std::to_string(q * kIndexPageLines) +
             " on, made from the first "
             "rank at byte " +
             std::to_string(compressed_.first_ranks_offset + 8 * q);
    }
    const std::uint64_t q = (offset - plain.values_offset) / kPage;
    if (q >= compressed_.value_pages) return "zeros after the values";
    std::uint64_t ends[2];
    read_at(compressed_.directory_offset + 8 * q, {reinterpret_cast<unsigned char*>(ends), 16});
    const std::string where = "values page " + std::to_string(q) + ", coded in bytes " +
                              std::to_string(compressed_.coded_offset + ends[0]) + " on";
    if (ends[0] > ends[1] || ends[1] > compressed_.coded_bytes ||
        ends[1] - ends[0] > kMostPageCodeBytes) {
      damaged("the directory places values page " + std::to_string(q) + " at bytes " +
              std::to_string(ends[0]) + " to " + std::to_string(ends[1]) +
              " of its coded values, which are not there");
    }
    unsigned char coded[kMostPageCodeBytes];
    const auto bytes = static_cast<std::size_t>(ends[1] - ends[0]);
    read_at(compressed_.coded_offset + ends[0], {coded, bytes});
    const auto count = static_cast<std::size_t>(
        std::min(kCodedPageClasses, plain.classes - q * kCodedPageClasses));
    if (!code_->decode({coded, bytes}, {reinterpret_cast<std::int8_t*>(into), count})) {
      changed_since_open("its coded values changed");
      damaged(where + ", do not decode to its " + std::to_string(count) + " values");
    }
    return where;
  }

  // Version 5's checks that reading every page leaves out (verify): the directory covers the
  // coded values exactly, in order, so that every coded byte is some page's; and the code is
  // the one the values' counts give (`counts`), so that one table has one file.
  void check_compressed(const std::array<std::uint64_t, 256>& counts) const {
    if (!code_) return;
    constexpr std::uint64_t kEntries = 1 << 16;
    std::vector<std::uint64_t> entries;
    std::uint64_t last = 0;
    const std::uint64_t all = compressed_.value_pages + 1;
    for (std::uint64_t first = 0; first < all; first += kEntries) {
      entries.resize(static_cast<std::size_t>(std::min(kEntries, all - first)));
      read_at(compressed_.directory_offset + 8 * first,
              {reinterpret_cast<unsigned char*>(entries.data()), entries.size() * 8});
      for (std::size_t k = 0; k < entries.size(); ++k) {
        if ((first + k == 0 && entries[k] != 0) || entries[k] < last) {
          damaged("its directory entry " + std::to_string(first + k) + " is out of order");
        }
        last = entries[k];
      }
    }
    if (last != compressed_.coded_bytes) {
      damaged("its directory ends at byte " + std::to_string(last) + " of its " +
              std::to_string(compressed_.coded_bytes) + " coded bytes");
    }
    if (ValueCode::lengths_for(counts) != code_->lengths()) {
      damaged("its value code is not the one its values' counts give");
    }
  }

  // Reads block `block` whole into `into` (kBlock) and checks it: its page hashes, then each page.
  void read_block(std::uint64_t block, unsigned char* into) const {
    unsigned char group[kGroup];
    read_group(block, group);
    for (std::size_t page = 0; page < TableLayout::kPagesPerBlock; ++page)
      read_page(block, page, group + kHash * page, into + kPage * page);
  }

 private:
  [[noreturn]] void refuse(Kind kind, const std::string& why) const {
    throw TableFileError(kind, name_ + why);
  }
  // Throws `changed` when the file's size or times are not what they were when it was opened.
  void changed_since_open(const std::string& what) const {
    struct stat now {};
    if (::fstat(fd_, &now) != 0 || same_times(now, status_)) return;
    refuse(Kind::changed,
           " changed while in use: " +
               (now.st_size < status_.st_size ? std::string("it was cut short") : what));
  }
  // Reads `into.size()` bytes at `offset`, all of them, or throws.
  void read_at(std::uint64_t offset, std::span<unsigned char> into) const {
    while (!into.empty()) {
      const ssize_t got = ::pread(fd_, into.data(), into.size(), static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) refuse(Kind::unreadable, ": " + std::string(std::strerror(errno)));
      if (got == 0) {
        changed_since_open("it was cut short");
        refuse(Kind::truncated, " is truncated: it ends at byte " + std::to_string(offset));
      }
      into = into.subspan(static_cast<std::size_t>(got));
      offset += static_cast<std::uint64_t>(got);
    }
  }
  void open(std::shared_ptr<const RingGeometry> expected, const RootBook& roots, bool trust,
            std::uint64_t memory);

  std::string path_, name_;
  int fd_ = -1;
  struct stat status_ {};
  std::shared_ptr<const RingGeometry> geometry_;  // the ring's, once its header is checked
  std::vector<unsigned char> top_hashes_;         // a copy, checked against the root
  // The pages of block hashes read so far, each a copy checked against its top hash when a
  // look-up first needed one of them; null for a page not read yet.
  std::unique_ptr<std::atomic<const unsigned char*>[]> hash_pages_;
  mutable std::vector<std::unique_ptr<unsigned char[]>> hash_page_copies_;
  mutable std::mutex hash_pages_lock_;
  Digest root_{};
  RootBook::Source source_ = RootBook::Source::none;
  std::unique_ptr<BlockCache> cache_;
  // Where the hashes lie: format 4's layout, or version 5's (compressed_); its code, in version 5.
  struct Stored {
    std::uint64_t page_hashes_offset = 0, block_hashes_offset = 0, top_hashes_offset = 0;
    std::uint64_t file_bytes = 0;
  } stored_;
  CompressedLayout compressed_;
  std::optional<ValueCode> code_;
};

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

// The bytes of a table in file order, block by block: a file, or a table solved in memory.
class TableBytes {
 public:
  virtual ~TableBytes() = default;
  // The hash of hashed block `block`.
  virtual Digest block_hash(std::uint64_t block) const = 0;
  // Block `block`, whole (kBlock bytes).
  virtual void block(std::uint64_t block, unsigned char* into) const = 0;
};

class FileBytes final : public TableBytes {
 public:
  explicit FileBytes(const TableFile& file) : file_(file) {}
  Digest block_hash(std::uint64_t block) const override {
    Digest digest;
    std::memcpy(digest.data(), file_.block_hash_at(block), kHash);
    return digest;
  }
  void block(std::uint64_t block, unsigned char* into) const override {
    file_.read_block(block, into);
  }

 private:
  const TableFile& file_;
};

class SolvedBytes final : public TableBytes {
 public:
  SolvedBytes(const RingTable& table, const TableDigest& digest)
      : table_(table), digest_(digest), layout_(table.geometry().layout()) {}
  Digest block_hash(std::uint64_t block) const override {
    Digest digest;
    std::memcpy(digest.data(), digest_.block_hashes().data() + kHash * block, kHash);
    return digest;
  }
  void block(std::uint64_t block, unsigned char* into) const override {
    std::memset(into, 0, static_cast<std::size_t>(kBlock));
    const std::uint64_t begin = TableLayout::block_offset(block);
    const auto copy = [&](std::uint64_t offset, std::span<const unsigned char> part) {
      const std::uint64_t from = std::max(begin, offset);
      const std::uint64_t to = std::min(begin + kBlock, offset + part.size());
      if (from < to)
        std::memcpy(into + (from - begin), part.data() + (from - offset),
                    static_cast<std::size_t>(to - from));
    };
    copy(layout_.lines_offset,
         std::span(reinterpret_cast<const unsigned char*>(table_.lines().data()),
                   table_.lines().size_bytes()));
    copy(layout_.values_offset,
         std::span(reinterpret_cast<const unsigned char*>(table_.values().data()),
                   table_.values().size_bytes()));
  }

 private:
  const RingTable& table_;
  const TableDigest& digest_;
  const TableLayout& layout_;
};

// Where the file's bytes first differ from the true table's, in words: the class and its two
// values, or the line of the index. `file` and `truth` have different roots.
std::string first_difference(const TableFile& file, const TableBytes& truth) {
  const TableLayout& layout = file.layout();
  const FileBytes bytes(file);
  std::vector<unsigned char> ours(static_cast<std::size_t>(kBlock)),
      theirs(static_cast<std::size_t>(kBlock));
  for (std::uint64_t b = 0; b < layout.blocks; ++b) {
    if (bytes.block_hash(b) == truth.block_hash(b)) continue;
    bytes.block(b, ours.data());
    truth.block(b, theirs.data());
    const auto at = std::mismatch(ours.begin(), ours.end(), theirs.begin());
    if (at.first == ours.end()) continue;  // its hashes differ where its bytes do not
    const std::uint64_t offset =
        TableLayout::block_offset(b) + static_cast<std::uint64_t>(at.first - ours.begin());
    if (offset >= layout.values_offset && offset < layout.values_offset + layout.values_bytes) {
      const std::uint64_t rank = offset - layout.values_offset;
      return "the class of rank " + std::to_string(rank) + " has the value " +
             std::to_string(static_cast<std::int8_t>(*at.first)) + " in it and " +
             std::to_string(static_cast<std::int8_t>(*at.second)) + " in the solved table";
    }
    if (offset >= layout.lines_offset && offset < layout.lines_offset + layout.lines_bytes) {
      return "its index line " + std::to_string((offset - layout.lines_offset) / 64) +
             " differs from the solved table's";
    }
    return "byte " + std::to_string(offset) + " differs from the solved table's";
  }
  return "its hashes differ from the solved table's";
}

// Reads every block of `file` against its hashes, in order, through one block's memory; the
// bytes between and after the parts must be zero. In version 5, then its parts that no page
// holds (TableFile::check_compressed()).
void check_blocks(const TableFile& file) {
  std::array<std::uint64_t, 256> counts{};
  const TableLayout& layout = file.layout();
  std::vector<unsigned char> block(static_cast<std::size_t>(kBlock));
  const struct Part {
    std::uint64_t offset, bytes;
  } parts[] = {{layout.lines_offset, layout.lines_bytes},
               {layout.values_offset, layout.values_bytes}};
  for (std::uint64_t b = 0; b < layout.blocks; ++b) {
    file.read_block(b, block.data());
    const std::uint64_t begin = TableLayout::block_offset(b), end = begin + kBlock;
    std::uint64_t at = begin;
    for (const Part& part : parts) {
      const std::uint64_t from = std::max(begin, part.offset);
      const std::uint64_t to = std::min(end, part.offset + part.bytes);
      if (from >= to) continue;
      if (!all_zero(std::span(block).subspan(static_cast<std::size_t>(at - begin),
                                             static_cast<std::size_t>(from - at)))) {
        file.damaged("the padding before byte " + std::to_string(from) + " is not zero");
      }
      if (part.offset == layout.values_offset) {
        for (std::uint64_t o = from; o < to; ++o)
          ++counts[block[static_cast<std::size_t>(o - begin)]];
      }
      at = to;
    }
    if (!all_zero(std::span(block).subspan(static_cast<std::size_t>(at - begin)))) {
      file.damaged("the padding after byte " + std::to_string(at) + " is not zero");
    }
  }
  file.check_compressed(counts);
}

[[noreturn]] void out_of_memory(const std::string& path) {
  throw TableFileError(
      TableFileError::Kind::too_large,
      "table " + quoted_path(path) + " cannot be read in the memory this process may take");
}

}  // namespace

std::shared_ptr<const RingTable> load_table(const std::string& path,
                                            std::shared_ptr<const RingGeometry> geometry,
                                            const TableReading& reading) {
  try {
    auto file = std::make_shared<TableFile>(path, std::move(geometry), reading.roots,
                                            reading.trust_unknown_root, reading.memory);
    file->cache(reading.cache_bytes);
    auto shape = file->geometry();
    return RingTable::over(std::move(shape), std::move(file));
  } catch (const std::bad_alloc&) {
    out_of_memory(path);
  }
}

TableKind table_kind(const std::string& path) {
  try {
    const TableFile file(path, nullptr, RootBook::none(), true, 0);
    return {file.ring(), static_cast<TableFormat>(file.version())};
  } catch (const std::bad_alloc&) {
    out_of_memory(path);
  }
}

void check_table_opens(const std::string& path, std::shared_ptr<const RingGeometry> geometry,
                       const RootBook& roots, std::uint64_t memory) {
  try {
    const TableFile file(path, std::move(geometry), roots, false, memory);
  } catch (const std::bad_alloc&) {
    out_of_memory(path);
  }
}

Ring table_ring(const std::string& path) {
  return table_kind(path).ring;
}

std::uint32_t copy_table(const std::string& path, std::shared_ptr<const RingGeometry> geometry,
                         const RootBook& roots, std::uint64_t memory, TableOutput& output) {
  try {
    const TableFile file(path, std::move(geometry), roots, false, memory);
    const TableLayout& layout = file.layout();
    std::vector<unsigned char> block(static_cast<std::size_t>(kBlock));
    const struct Part {
      std::uint64_t offset, bytes;
    } parts[] = {{layout.lines_offset, layout.lines_bytes},
                 {layout.values_offset, layout.values_bytes}};
    for (std::uint64_t b = 0; b < layout.blocks; ++b) {
      file.read_block(b, block.data());
      const std::uint64_t begin = TableLayout::block_offset(b), end = begin + kBlock;
      for (const Part& part : parts) {
        const std::uint64_t from = std::max(begin, part.offset);
        const std::uint64_t to = std::min(end, part.offset + part.bytes);
        if (from < to) {
          output.append(std::span(block).subspan(static_cast<std::size_t>(from - begin),
                                                 static_cast<std::size_t>(to - from)));
        }
      }
    }
    output.commit(layout.classes);
    if (output.root() != file.root()) throw std::logic_error("a copied table has another root");
    return file.version();
  } catch (const std::bad_alloc&) {
    throw TableFileError(
        TableFileError::Kind::too_large,
        "table " + quoted_path(path) + " cannot be copied in the memory this process may take");
  }
}

TableCheck verify_table(const std::string& path, const VerifyOptions& options) {
  try {
    const TableFile file(path, nullptr, options.roots, true, options.memory);
    const TableLayout& layout = file.layout();
    check_blocks(file);
    TableCheck check{file.ring(), layout.classes, file.size(), layout.blocks,
                     file.root(), file.source(),  false};
    if (check.source != RootBook::Source::none) return check;
    // No true root is known: the ring is solved and the two tables compared.
    const std::shared_ptr<const RingGeometry>& geometry = file.geometry();
    const auto not_true = [&](const std::string& where) {
      throw TableFileError(TableFileError::Kind::wrong_root,
                           "table " + quoted_path(path) + " is not the true table of " +
                               check.ring.describe() + ": " + where);
    };
    if (options.memory == 0 || solve_bytes(*geometry, 1, 0, kSolveBatch) <= options.memory) {
      const auto solved = RingTable::solve(geometry, options.solve);
      TableDigest digest(layout);
      digest.append({reinterpret_cast<const unsigned char*>(solved->lines().data()),
                     solved->lines().size_bytes()});
      digest.append({reinterpret_cast<const unsigned char*>(solved->values().data()),
                     solved->values().size_bytes()});
      if (digest.root() != file.root())
        not_true(first_difference(file, SolvedBytes(*solved, digest)));
      return check;
    }
    // Past memory: the solve writes the true table to a file in the work folder, which is
    // compared and removed.
    TierOptions tier_options;
    tier_options.solve = options.solve;
    tier_options.memory = options.memory;
    TierSolve tier(geometry, tier_options);
    if (tier.window() < 0) {
      throw TableFileError(TableFileError::Kind::too_large,
                           "table " + quoted_path(path) + ": solving " + check.ring.describe() +
                               " to check it needs more memory than the " +
                               std::to_string(options.memory) + " bytes it may take");
    }
    const std::string truth_path =
        options.work + "/ioiwari-verify-" + std::to_string(::getpid()) + ".table";
    // Format 4: compared page by page and removed, never read by a look-up.
    TableOutput output(truth_path, *geometry, TableFormat::plain, TableOutput::Room::later);
    tier.open(options.work);
    tier.solve();
    tier.write(output, TierSolve::Merge::give_back);
    check.solved_past_memory = true;
    if (output.root() != file.root()) {
      std::string where;
      {
        const TableFile truth(truth_path, geometry, RootBook::none(), true, options.memory);
        where = first_difference(file, FileBytes(truth));
      }
      ::unlink(truth_path.c_str());
      not_true(where);
    }
    ::unlink(truth_path.c_str());
    return check;
  } catch (const std::bad_alloc&) {
    out_of_memory(path);
  }
}

}  // namespace ioiwari
