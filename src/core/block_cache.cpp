#include "block_cache.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <new>
#include <stdexcept>

namespace ioiwari {

BlockCache::BlockCache(std::uint64_t blocks, std::size_t block_bytes, std::size_t page_bytes,
                       std::size_t hash_bytes, std::uint64_t capacity_bytes, FillGroup fill_group,
                       FillPage fill_page)
    : block_bytes_(block_bytes),
      page_bytes_(page_bytes),
      hash_bytes_(hash_bytes),
      group_bytes_(block_bytes / page_bytes * hash_bytes),
      fill_group_(std::move(fill_group)),
      fill_page_(std::move(fill_page)) {
  if (page_bytes_ > kMostPageBytes || block_bytes_ / page_bytes_ > 16 ||
      block_bytes_ % page_bytes_ != 0 || kChunkBytes % block_bytes_ != 0) {
    throw std::invalid_argument("ioiwari: a block cache of blocks it cannot hold");
  }
  const std::uint64_t places = std::clamp<std::uint64_t>(capacity_bytes / block_bytes, kWays,
                                                         std::max<std::uint64_t>(blocks, kWays));
  // Sets of kWays places; block b belongs to set b % sets. With room for every block, no set is
  // given more blocks than it has places, so nothing is ever evicted.
  sets_count_ = (places + kWays - 1) / kWays;
  places_ = sets_count_ * kWays;
  sets_ = std::make_unique<Set[]>(static_cast<std::size_t>(sets_count_));
  locks_ = std::make_unique<std::mutex[]>(kLocks);
  hands_.assign(static_cast<std::size_t>(sets_count_), 0);
  masks_ = std::make_unique<std::atomic<std::uint16_t>[]>(static_cast<std::size_t>(places_));
  // Reserved without access, which costs no memory and counts against no data limit; each 2 MiB
  // becomes writable when its first block is filled.
  range_bytes_ = (static_cast<std::size_t>(places_) * block_bytes_ + kChunkBytes - 1) /
                 kChunkBytes * kChunkBytes;
  void* range =
      ::mmap(nullptr, range_bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (range == MAP_FAILED) throw std::bad_alloc();
  range_ = static_cast<unsigned char*>(range);
  groups_bytes_ = static_cast<std::size_t>(places_) * group_bytes_;
  void* groups = ::mmap(nullptr, groups_bytes_, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (groups == MAP_FAILED) {
    ::munmap(range_, range_bytes_);
    throw std::bad_alloc();
  }
  groups_ = static_cast<unsigned char*>(groups);
}

BlockCache::~BlockCache() {
  ::munmap(range_, range_bytes_);
  ::munmap(groups_, groups_bytes_);
}

std::uint32_t BlockCache::take_slot() const {
  const std::lock_guard lock(range_lock_);
  const std::size_t at = static_cast<std::size_t>(used_) * block_bytes_;
  if (at % kChunkBytes == 0) {
    if (::mprotect(range_ + at, kChunkBytes, PROT_READ | PROT_WRITE) != 0) throw std::bad_alloc();
    // Huge pages once the cache is large: a huge page is cleared whole when first touched, which
    // a command that reads a page of a few blocks need not pay for.
    if (at >= kSmallBytes) ::madvise(range_ + at, kChunkBytes, MADV_HUGEPAGE);
  }
  return static_cast<std::uint32_t>(used_++);
}

BlockCache::Copied BlockCache::copy(const Set& set, std::size_t way, std::uint64_t tag,
                                    std::size_t page, std::size_t first, std::size_t count,
                                    std::uint64_t* out) const {
  const std::uint32_t before = set.sequences[way].load(std::memory_order_acquire);
  if ((before & 1) != 0 || set.tags[way].load(std::memory_order_relaxed) != tag) {
    return Copied::no_block;
  }
  const std::uint32_t slot = set.slots[way].load(std::memory_order_relaxed);
  if ((masks_[slot].load(std::memory_order_acquire) >> page & 1) == 0) {
    return set.sequences[way].load(std::memory_order_relaxed) == before ? Copied::no_page
                                                                        : Copied::no_block;
  }
  const auto* data = reinterpret_cast<const std::uint64_t*>(block_at(slot));
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(data[first + i]))
                 .load(std::memory_order_relaxed);
  }
  std::atomic_thread_fence(std::memory_order_acquire);
  return set.sequences[way].load(std::memory_order_relaxed) == before ? Copied::words
                                                                      : Copied::no_block;
}

void BlockCache::store_page(std::uint64_t block, std::uint32_t slot, std::size_t page) const {
  // Read and checked apart first, then stored word by word: other threads may be reading the
  // slot's other pages, and a failed read changes nothing.
  std::uint64_t staged[kMostPageBytes / 8];
  fill_page_(block, page, groups_ + std::size_t{slot} * group_bytes_ + page * hash_bytes_,
             reinterpret_cast<unsigned char*>(staged));
  auto* into = reinterpret_cast<std::uint64_t*>(block_at(slot) + page * page_bytes_);
  for (std::size_t i = 0; i < page_bytes_ / 8; ++i)
    std::atomic_ref<std::uint64_t>(into[i]).store(staged[i], std::memory_order_relaxed);
  masks_[slot].fetch_or(static_cast<std::uint16_t>(1u << page), std::memory_order_release);
  pages_filled_.fetch_add(1, std::memory_order_relaxed);
}

void BlockCache::page_words(std::uint64_t block, std::size_t page, std::size_t first,
                            std::size_t count, std::uint64_t* out) const {
  const std::uint64_t set_at = block % sets_count_;
  Set& set = sets_[static_cast<std::size_t>(set_at)];
  const std::uint64_t tag = block + 1;
  for (std::size_t way = 0; way < kWays; ++way) {
    if (copy(set, way, tag, page, first, count, out) == Copied::words) return;
  }
  // A miss, a page not read yet, or a place being filled: under the set's lock, which every
  // change of the set holds.
  const std::lock_guard lock(locks_[set_at % kLocks]);
  for (std::size_t way = 0; way < kWays; ++way) {
    const Copied copied = copy(set, way, tag, page, first, count, out);
    if (copied == Copied::words) return;
    if (copied == Copied::no_page) {
      store_page(block, set.slots[way].load(std::memory_order_relaxed), page);
      if (copy(set, way, tag, page, first, count, out) == Copied::words) return;
    }
  }
  // The block is not here: its page hashes are read and checked apart first, so that a failed
  // fill changes nothing.
  std::vector<unsigned char> group(group_bytes_);
  fill_group_(block, group.data());
  std::size_t way = kWays;
  for (std::size_t w = 0; w < kWays && way == kWays; ++w) {
    if (set.tags[w].load(std::memory_order_relaxed) == 0) way = w;
  }
  std::uint32_t slot = 0;
  if (way != kWays) {
    slot = take_slot();
    held_.fetch_add(1, std::memory_order_relaxed);
  } else {
    std::uint8_t& hand = hands_[static_cast<std::size_t>(set_at)];
    way = hand;
    hand = static_cast<std::uint8_t>((hand + 1) % kWays);
    slot = set.slots[way].load(std::memory_order_relaxed);
  }
  // The place is odd while it changes hands: a reader that saw it before or sees it during
  // discards what it copied.
  const std::uint32_t sequence = set.sequences[way].load(std::memory_order_relaxed);
  set.sequences[way].store(sequence + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  set.tags[way].store(tag, std::memory_order_relaxed);
  set.slots[way].store(slot, std::memory_order_relaxed);
  masks_[slot].store(0, std::memory_order_relaxed);
  std::copy(group.begin(), group.end(), groups_ + std::size_t{slot} * group_bytes_);
  set.sequences[way].store(sequence + 2, std::memory_order_release);
  filled_.fetch_add(1, std::memory_order_relaxed);
  store_page(block, slot, page);
  if (copy(set, way, tag, page, first, count, out) != Copied::words) {
    throw std::logic_error("ioiwari: a block filled under its lock is not there");
  }
}

void BlockCache::words(std::uint64_t block, std::size_t first, std::size_t count,
                       std::uint64_t* out) const {
  const std::size_t per_page = page_bytes_ / 8;
  while (count > 0) {
    const std::size_t page = first / per_page;
    const std::size_t take = std::min(count, per_page * (page + 1) - first);
    page_words(block, page, first, take, out);
    first += take;
    count -= take;
    out += take;
  }
}

}  // namespace ioiwari
