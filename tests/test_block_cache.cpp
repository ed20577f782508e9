// The cache of a table file's checked blocks (src/core/block_cache.hpp): every word copied out is
// the word its fill wrote, from many threads at once while places are evicted and filled again;
// with room for every block nothing is read twice; a fill that fails leaves the cache as it was.
#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "core/block_cache.hpp"
#include "ioiwari/core/random.hpp"

using namespace ioiwari;

namespace {

constexpr std::size_t kBlockBytes = 4096;

// The word a fill writes at `word` of `block`: every word of every block different.
std::uint64_t expected(std::uint64_t block, std::size_t word) {
  return block << 20 | word;
}

BlockCache::Fill pattern(std::atomic<std::uint64_t>& fills) {
  return [&fills](std::uint64_t block, unsigned char* into) {
    auto* words = reinterpret_cast<std::uint64_t*>(into);
    for (std::size_t word = 0; word < kBlockBytes / 8; ++word)
      words[word] = expected(block, word);
    ++fills;
  };
}

}  // namespace

TEST_CASE("a cache with room for every block reads each once", "[block-cache]") {
  std::atomic<std::uint64_t> fills{0};
  const std::uint64_t blocks = 37;
  BlockCache cache(blocks, kBlockBytes, blocks * kBlockBytes, pattern(fills));
  CHECK(cache.capacity_bytes() >= blocks * kBlockBytes);
  for (int round = 0; round < 3; ++round) {
    for (std::uint64_t block = 0; block < blocks; ++block) {
      std::uint64_t words[3];
      cache.words(block, 100, 3, words);
      for (std::size_t i = 0; i < 3; ++i)
        REQUIRE(words[i] == expected(block, 100 + i));
    }
  }
  CHECK(fills == blocks);
  CHECK(cache.fills() == blocks);
  CHECK(cache.resident_bytes() == blocks * kBlockBytes);
}

TEST_CASE("a small cache evicts, and its memory stays within its capacity", "[block-cache]") {
  std::atomic<std::uint64_t> fills{0};
  BlockCache cache(1000, kBlockBytes, 8 * kBlockBytes, pattern(fills));
  CHECK(cache.capacity_bytes() == 8 * kBlockBytes);
  Random random(7);
  for (int i = 0; i < 5000; ++i) {
    const auto block = static_cast<std::uint64_t>(random.below(1000));
    std::uint64_t word;
    cache.words(block, 511, 1, &word);
    REQUIRE(word == expected(block, 511));
  }
  CHECK(fills > 4000);
  CHECK(cache.resident_bytes() <= cache.capacity_bytes());
}

TEST_CASE("a fill that fails leaves nothing behind, and the next look-up tries again",
          "[block-cache]") {
  std::atomic<std::uint64_t> fills{0};
  bool fail = true;
  const BlockCache::Fill good = pattern(fills);
  BlockCache cache(10, kBlockBytes, 10 * kBlockBytes,
                   [&](std::uint64_t block, unsigned char* into) {
                     if (fail) throw std::runtime_error("no");
                     good(block, into);
                   });
  std::uint64_t word = 0;
  CHECK_THROWS_AS(cache.words(3, 0, 1, &word), std::runtime_error);
  CHECK(cache.resident_bytes() == 0);
  fail = false;
  cache.words(3, 0, 1, &word);
  CHECK(word == expected(3, 0));
}

TEST_CASE("threads reading at once while places are evicted always copy whole, right words",
          "[block-cache]") {
  // More blocks than places, in one set: fills overwrite places that other threads are reading.
  std::atomic<std::uint64_t> fills{0};
  BlockCache cache(64, kBlockBytes, 4 * kBlockBytes, pattern(fills));
  std::atomic<std::uint64_t> wrong{0}, reads{0};
  std::atomic<int> running{0};
  std::vector<std::thread> threads;
  const int count = static_cast<int>(std::max(4u, std::thread::hardware_concurrency()));
  for (int t = 0; t < count; ++t) {
    threads.emplace_back([&, t] {
      ++running;
      while (running.load() < count) {  // all start together
      }
      Random random(static_cast<std::uint64_t>(t) * 31 + 1);
      std::uint64_t words[9];
      for (int i = 0; i < 100'000; ++i) {
        const auto block = static_cast<std::uint64_t>(random.below(64));
        const auto first = static_cast<std::size_t>(random.below(512 - 9));
        cache.words(block, first, 9, words);
        for (std::size_t w = 0; w < 9; ++w)
          wrong += words[w] != expected(block, first + w) ? 1 : 0;
        ++reads;
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  CHECK(reads == static_cast<std::uint64_t>(count) * 100'000);
  CHECK(wrong == 0);
  CHECK(fills > 64);  // places were taken again and again
}
