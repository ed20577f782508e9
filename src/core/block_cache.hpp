// A bounded cache of a table file's blocks in memory the reader owns (table_reader.cpp). A block
// enters it only through `fill`, which reads the block and checks it against its hash, so that
// nothing a reader copies out of the cache is a byte the file's hashes do not vouch for, whatever
// the file does afterwards.
//
// Many threads read at once (a referee's games share one table). A hit takes no lock: each
// place in the cache has a sequence number that is odd while the place is being filled, and a
// reader keeps what it copied only when the number was even and the same before and after. A
// miss takes the lock of the block's set, fills a place of it, and evicts the oldest fill there.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

namespace ioiwari {

class BlockCache {
 public:
  static constexpr std::size_t kWays = 4;
  // Reads block `block` into `into` (block_bytes of room) and checks it, or throws.
  using Fill = std::function<void(std::uint64_t block, unsigned char* into)>;

  // A cache of up to `capacity_bytes` (at least one set, at most the blocks themselves) for
  // `blocks` blocks of `block_bytes` each.
  BlockCache(std::uint64_t blocks, std::size_t block_bytes, std::uint64_t capacity_bytes,
             Fill fill);
  ~BlockCache();
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // Copies the `count` 8-byte words of block `block` from word `first` on into `out`, filling the
  // block first when it is not here. Throws what `fill` throws.
  void words(std::uint64_t block, std::size_t first, std::size_t count, std::uint64_t* out) const;

  // The most bytes the cache's blocks may take, and what they take now (memory is taken as
  // places are first filled, never all at once: a player under a data limit reads a few MB).
  std::uint64_t capacity_bytes() const { return places_ * block_bytes_; }
  std::uint64_t resident_bytes() const { return fills_.load() * block_bytes_; }
  // How many blocks were read into it (each a read and a hash).
  std::uint64_t fills() const { return filled_.load(); }

 private:
  struct Place {
    std::atomic<std::uint64_t> tag{0};  // the block + 1; 0 while empty
    std::atomic<std::uint32_t> sequence{0};
    std::atomic<std::uint64_t*> data{nullptr};  // made at its first fill, kept to the end
  };
  struct Set {
    std::mutex lock;  // held by a fill
    Place places[kWays];
    std::size_t hand = 0;  // the place the next eviction takes
  };
  bool copy(const Place& place, std::uint64_t tag, std::size_t first, std::size_t count,
            std::uint64_t* out) const;

  std::size_t block_bytes_;
  std::uint64_t sets_count_, places_;
  std::unique_ptr<Set[]> sets_;  // a place's memory is taken when it is first filled
  Fill fill_;
  mutable std::atomic<std::uint64_t> fills_{0};   // places holding a block
  mutable std::atomic<std::uint64_t> filled_{0};  // fills ever
};

}  // namespace ioiwari
