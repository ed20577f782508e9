// An open table file, as the readers (table_reader.cpp) open it: its header, sizes and hashes
// checked, and each block read against its hash. Private to the core.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "block_cache.hpp"
#include "file_kind.hpp"
#include "ioiwari/core/table_compressed.hpp"
#include "ioiwari/core/table_file.hpp"

namespace ioiwari::reading {

constexpr std::uint64_t kBlock = TableLayout::kBlockBytes;
constexpr std::uint64_t kPage = TableLayout::kPageBytes;
constexpr std::uint64_t kHash = TableLayout::kHashBytes;
constexpr std::size_t kGroup = TableLayout::kGroupBytes;

inline bool same_times(const struct stat& a, const struct stat& b) {
  return a.st_size == b.st_size && a.st_mtim.tv_sec == b.st_mtim.tv_sec &&
         a.st_mtim.tv_nsec == b.st_mtim.tv_nsec && a.st_ctim.tv_sec == b.st_ctim.tv_sec &&
         a.st_ctim.tv_nsec == b.st_ctim.tv_nsec;
}

inline bool all_zero(std::span<const unsigned char> bytes) {
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

}  // namespace ioiwari::reading
