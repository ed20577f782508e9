#include "block_cache.hpp"

#include <algorithm>
#include <new>
#include <vector>

namespace ioiwari {

BlockCache::BlockCache(std::uint64_t blocks, std::size_t block_bytes, std::uint64_t capacity_bytes,
                       Fill fill)
    : block_bytes_(block_bytes), fill_(std::move(fill)) {
  const std::uint64_t places = std::clamp<std::uint64_t>(capacity_bytes / block_bytes, kWays,
                                                         std::max<std::uint64_t>(blocks, kWays));
  // Sets of kWays places; block b belongs to set b % sets. With room for every block, no set is
  // given more blocks than it has places, so nothing is ever evicted.
  sets_count_ = (places + kWays - 1) / kWays;
  places_ = sets_count_ * kWays;
  sets_ = std::make_unique<Set[]>(static_cast<std::size_t>(sets_count_));
}

BlockCache::~BlockCache() {
  for (std::uint64_t set = 0; set < sets_count_; ++set) {
    for (Place& place : sets_[static_cast<std::size_t>(set)].places)
      delete[] place.data.load();
  }
}

bool BlockCache::copy(const Place& place, std::uint64_t tag, std::size_t first, std::size_t count,
                      std::uint64_t* out) const {
  const std::uint32_t before = place.sequence.load(std::memory_order_acquire);
  if ((before & 1) != 0 || place.tag.load(std::memory_order_relaxed) != tag) return false;
  // Set before the place's first fill, and never changed: seen once the tag is.
  const std::uint64_t* data = place.data.load(std::memory_order_acquire);
  if (data == nullptr) return false;
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(data[first + i]))
                 .load(std::memory_order_relaxed);
  }
  std::atomic_thread_fence(std::memory_order_acquire);
  return place.sequence.load(std::memory_order_relaxed) == before;
}

void BlockCache::words(std::uint64_t block, std::size_t first, std::size_t count,
                       std::uint64_t* out) const {
  const auto set_at = static_cast<std::size_t>(block % sets_count_);
  Set& set = sets_[set_at];
  const std::uint64_t tag = block + 1;
  for (const Place& place : set.places) {
    if (copy(place, tag, first, count, out)) return;
  }
  // A miss, or a place being filled: fill it under the set's lock, unless another thread did.
  const std::lock_guard lock(set.lock);
  for (const Place& place : set.places) {
    if (copy(place, tag, first, count, out)) return;
  }
  // Read and check the block apart from the cache first: a failed fill changes nothing here.
  std::vector<std::uint64_t> staged(block_bytes_ / 8);
  fill_(block, reinterpret_cast<unsigned char*>(staged.data()));
  std::size_t way = kWays;
  for (std::size_t w = 0; w < kWays && way == kWays; ++w) {
    if (set.places[w].tag.load(std::memory_order_relaxed) == 0) way = w;
  }
  if (way == kWays) {
    way = set.hand;
    set.hand = (set.hand + 1) % kWays;
  } else {
    fills_.fetch_add(1, std::memory_order_relaxed);
  }
  Place& place = set.places[way];
  std::uint64_t* into = place.data.load(std::memory_order_relaxed);
  if (into == nullptr) {
    into = new std::uint64_t[block_bytes_ / 8];
    place.data.store(into, std::memory_order_release);
  }
  const std::uint32_t sequence = place.sequence.load(std::memory_order_relaxed);
  place.sequence.store(sequence + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  place.tag.store(tag, std::memory_order_relaxed);
  for (std::size_t i = 0; i < staged.size(); ++i)
    std::atomic_ref<std::uint64_t>(into[i]).store(staged[i], std::memory_order_relaxed);
  place.sequence.store(sequence + 2, std::memory_order_release);
  filled_.fetch_add(1, std::memory_order_relaxed);
  std::copy_n(staged.begin() + static_cast<std::ptrdiff_t>(first), count, out);
}

}  // namespace ioiwari
