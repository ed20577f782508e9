// The cache of a table file's checked blocks (src/core/block_cache.hpp): every word copied out is
// the word its fill wrote, from many threads at once while places are evicted and filled again;
// only the pages a look-up needs are read; with room for every block nothing is read twice; a
// fill that fails leaves the cache as it was.
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "core/block_cache.hpp"
#include "ioiwari/core/random.hpp"

using namespace ioiwari;

namespace {

constexpr std::size_t kBlockBytes = 16384, kPageBytes = 1024, kHashBytes = 8;
constexpr std::size_t kWordsPerPage = kPageBytes / 8;

// The word a fill writes at `word` of `block`: every word of every block different.
std::uint64_t expected(std::uint64_t block, std::size_t word) {
  return block << 20 | word;
}

// Fills that write the pattern and count what they read. A page's "hash" is its block and page
// numbers, which the page fill checks it was handed.
struct Fills {
  std::atomic<std::uint64_t> groups{0}, pages{0};
  BlockCache::FillGroup group() {
    return [this](std::uint64_t block, unsigned char* into) {
      for (std::uint64_t page = 0; page < kBlockBytes / kPageBytes; ++page) {
        const std::uint64_t name = block << 8 | page;
        std::memcpy(into + kHashBytes * page, &name, kHashBytes);
      }
      ++groups;
    };
  }
  BlockCache::FillPage page() {
    return [this](std::uint64_t block, std::size_t page, const unsigned char* hash,
                  unsigned char* into) {
      std::uint64_t name;
      std::memcpy(&name, hash, kHashBytes);
      if (name != (block << 8 | page)) throw std::logic_error("handed another page's hash");
      auto* words = reinterpret_cast<std::uint64_t*>(into);
      for (std::size_t word = 0; word < kWordsPerPage; ++word)
        words[word] = expected(block, page * kWordsPerPage + word);
      ++pages;
    };
  }
};

}  // namespace

TEST_CASE("a cache with room for every block reads each page it is asked for once",
          "[block-cache]") {
  Fills fills;
  const std::uint64_t blocks = 37;
  BlockCache cache(blocks, kBlockBytes, kPageBytes, kHashBytes, blocks * kBlockBytes, fills.group(),
                   fills.page());
  CHECK(cache.capacity_bytes() >= blocks * kBlockBytes);
  for (int round = 0; round < 3; ++round) {
    for (std::uint64_t block = 0; block < blocks; ++block) {
      // Three words across the boundary of pages 0 and 1.
      std::uint64_t words[3];
      cache.words(block, kWordsPerPage - 1, 3, words);
      for (std::size_t i = 0; i < 3; ++i)
        REQUIRE(words[i] == expected(block, kWordsPerPage - 1 + i));
    }
  }
  CHECK(fills.groups == blocks);
  CHECK(fills.pages == 2 * blocks);  // of 16 pages a block, the two that were asked for
  CHECK(cache.resident_blocks() == blocks);
  std::uint64_t last;
  cache.words(5, kBlockBytes / 8 - 1, 1, &last);
  CHECK(last == expected(5, kBlockBytes / 8 - 1));
  CHECK(fills.pages == 2 * blocks + 1);
  CHECK(fills.groups == blocks);
}

TEST_CASE("a small cache evicts, and holds no more blocks than its capacity", "[block-cache]") {
  Fills fills;
  BlockCache cache(1000, kBlockBytes, kPageBytes, kHashBytes, 8 * kBlockBytes, fills.group(),
                   fills.page());
  CHECK(cache.capacity_bytes() == 8 * kBlockBytes);
  Random random(7);
  for (int i = 0; i < 5000; ++i) {
    const auto block = static_cast<std::uint64_t>(random.below(1000));
    std::uint64_t word;
    cache.words(block, 511, 1, &word);
    REQUIRE(word == expected(block, 511));
  }
  CHECK(fills.groups > 4000);
  CHECK(cache.resident_blocks() <= 8);
}

TEST_CASE("a fill that fails leaves nothing behind, and the next look-up tries again",
          "[block-cache]") {
  Fills fills;
  bool fail_group = true, fail_page = false;
  const BlockCache::FillGroup group = fills.group();
  const BlockCache::FillPage page = fills.page();
  BlockCache cache(
      10, kBlockBytes, kPageBytes, kHashBytes, 10 * kBlockBytes,
      [&](std::uint64_t block, unsigned char* into) {
        if (fail_group) throw std::runtime_error("no group");
        group(block, into);
      },
      [&](std::uint64_t block, std::size_t at, const unsigned char* hash, unsigned char* into) {
        if (fail_page) throw std::runtime_error("no page");
        page(block, at, hash, into);
      });
  std::uint64_t word = 0;
  CHECK_THROWS_AS(cache.words(3, 0, 1, &word), std::runtime_error);
  CHECK(cache.resident_blocks() == 0);
  fail_group = false;
  fail_page = true;
  CHECK_THROWS_AS(cache.words(3, 0, 1, &word), std::runtime_error);
  CHECK_THROWS_AS(cache.words(3, 0, 1, &word), std::runtime_error);  // never handed out
  fail_page = false;
  cache.words(3, 0, 1, &word);
  CHECK(word == expected(3, 0));
}

TEST_CASE("threads reading at once while places are evicted always copy whole, right words",
          "[block-cache]") {
  // More blocks than places, in one set: fills overwrite places that other threads are reading.
  Fills fills;
  BlockCache cache(64, kBlockBytes, kPageBytes, kHashBytes, 4 * kBlockBytes, fills.group(),
                   fills.page());
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
        const auto first = static_cast<std::size_t>(random.below(kBlockBytes / 8 - 9));
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
  CHECK(fills.groups > 64);  // places were taken again and again
}
