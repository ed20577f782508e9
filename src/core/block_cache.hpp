// A bounded cache of a table file's blocks in memory the reader owns (table_reader.cpp). A block
// enters it only through `fill_group`, which reads its page hashes and checks them against the
// block's hash, and its pages only through `fill_page`, which reads a page and checks it against
// its page hash; a page is handed out only once checked. So nothing a reader copies out of the
// cache is a byte the file's hashes do not vouch for, whatever the file does afterwards, and a
// look-up that needs one page of a block hashes a few KiB, not the block.
//
// Many threads read at once (a referee's games share one table). A hit takes no lock: each
// place in the cache has a sequence number that is odd while the place is being filled, and a
// reader keeps what it copied only when the number was even and the same before and after. A
// miss takes the lock of the block's set, fills a place of it (or a page of a place), and
// evicts the oldest fill there.
//
// The blocks lie side by side in one reserved range, in the order they were first filled, and
// the range is made usable 2 MiB at a time as it fills, with transparent huge pages past its
// first 64 MiB: a look-up at random over a large table then misses in the TLB as seldom as a
// mapped file does, and a command that reads a few blocks holds a few MB.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace ioiwari {

class BlockCache {
 public:
  static constexpr std::size_t kWays = 4;
  // Reads the page hashes of block `block` into `into` (group_bytes) and checks them, or throws.
  using FillGroup = std::function<void(std::uint64_t block, unsigned char* into)>;
  // Reads page `page` of block `block` into `into` (page_bytes) and checks it against `hash`, or
  // throws.
  using FillPage = std::function<void(std::uint64_t block, std::size_t page,
                                      const unsigned char* hash, unsigned char* into)>;

  // A cache of up to `capacity_bytes` (at least one set, at most the blocks themselves) for
  // `blocks` blocks of `block_bytes` each (a divisor of 2 MiB), in pages of `page_bytes` (at most
  // 16 a block) whose hashes take `hash_bytes` each.
  BlockCache(std::uint64_t blocks, std::size_t block_bytes, std::size_t page_bytes,
             std::size_t hash_bytes, std::uint64_t capacity_bytes, FillGroup fill_group,
             FillPage fill_page);
  ~BlockCache();
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // Copies the `count` 8-byte words of block `block` from word `first` on into `out`, filling the
  // block and its pages first when they are not here. Throws what the fills throw, and
  // std::bad_alloc.
  void words(std::uint64_t block, std::size_t first, std::size_t count, std::uint64_t* out) const;

  // The most bytes the cache's blocks may take, and how many blocks it holds now.
  std::uint64_t capacity_bytes() const { return places_ * block_bytes_; }
  std::uint64_t resident_blocks() const { return held_.load(); }
  // How many blocks, and how many pages, were read into it.
  std::uint64_t fills() const { return filled_.load(); }
  std::uint64_t page_fills() const { return pages_filled_.load(); }

 private:
  // A set in one cache line: a hit reads this line, its slot's mask and the words, no more.
  struct alignas(64) Set {
    std::atomic<std::uint64_t> tags[kWays] = {};       // the block + 1 in each place; 0: empty
    std::atomic<std::uint32_t> sequences[kWays] = {};  // odd while the place is being filled
    std::atomic<std::uint32_t> slots[kWays] = {};      // where its block lies in the range
  };
  enum class Copied { words, no_block, no_page };
  Copied copy(const Set& set, std::size_t way, std::uint64_t tag, std::size_t page,
              std::size_t first, std::size_t count, std::uint64_t* out) const;
  // Copies words of one page (under the set's lock when a fill is needed).
  void page_words(std::uint64_t block, std::size_t page, std::size_t first, std::size_t count,
                  std::uint64_t* out) const;
  // Reads page `page` of the block in `slot` (its group there) and stores it, checked.
  void store_page(std::uint64_t block, std::uint32_t slot, std::size_t page) const;
  // A slot of the range for a new place, made usable if it is the first of its 2 MiB.
  std::uint32_t take_slot() const;
  unsigned char* block_at(std::uint32_t slot) const {
    return range_ + std::size_t{slot} * block_bytes_;
  }

  static constexpr std::size_t kLocks = 64;  // held by fills, a set's by set number
  static constexpr std::size_t kChunkBytes = std::size_t{2} << 20;
  static constexpr std::size_t kMostPageBytes = 4096;
  static constexpr std::size_t kSmallBytes = std::size_t{64} << 20;  // no huge pages below

  std::size_t block_bytes_, page_bytes_, hash_bytes_, group_bytes_;
  std::uint64_t sets_count_, places_;
  std::unique_ptr<Set[]> sets_;
  std::unique_ptr<std::mutex[]> locks_;
  mutable std::vector<std::uint8_t> hands_;  // per set, the place its next eviction takes
  std::unique_ptr<std::atomic<std::uint16_t>[]> masks_;  // per slot, its checked pages
  unsigned char* groups_ =
      nullptr;  // per slot, its block's page hashes (mapped: no cost until used)
  unsigned char* range_ = nullptr;  // places_ blocks, reserved, made usable as used
  std::size_t range_bytes_ = 0, groups_bytes_ = 0;
  FillGroup fill_group_;
  FillPage fill_page_;
  mutable std::mutex range_lock_;
  mutable std::uint64_t used_ = 0;                      // slots taken from the range
  mutable std::atomic<std::uint64_t> held_{0};          // places holding a block
  mutable std::atomic<std::uint64_t> filled_{0};        // block fills ever
  mutable std::atomic<std::uint64_t> pages_filled_{0};  // page fills ever
};

}  // namespace ioiwari
