#include "ioiwari/core/ring_table.hpp"

#include <sys/mman.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <cstdint>
#include <limits>
#include <new>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "ioiwari/core/sowing.hpp"

namespace ioiwari {

namespace {

// The directory holds the rank of every kDirectoryWords-th bitmap word: a rank is that count
// plus at most kDirectoryWords popcounts, all within one 64-byte line of the bitmap.
constexpr std::uint64_t kDirectoryWords = 8;

// Classes solved per batch: a layer's classes are enumerated into a batch, which the threads
// then share. It bounds the solver's working memory to a few megabytes.
constexpr std::size_t kBatch = std::size_t{1} << 20;
// Classes a thread takes at a time from a batch.
constexpr std::size_t kChunk = 4096;

// A board as its digits, 4 bits a pit, pit 1 in the lowest nibble (every capacity is below 16).
// Two packed boards of one ring compare as their codes do: both are positional numbers with
// the same digits in the same order.
using Packed = std::uint64_t;

constexpr Packed nibble_mask(int pits) {
  return pits >= 16 ? ~Packed{0} : (Packed{1} << (4 * pits)) - 1;
}

int digit(Packed packed, int pit) {
  return static_cast<int>((packed >> (4 * pit)) & 15);
}

// A packed board's pits as sow() (sowing.hpp) holds them: the move rule is the Board's own.
struct PackedPits {
  Packed bits;
  int get(int pit) const { return digit(bits, pit); }
  // A count never goes below 0 nor above 15, so no change carries into the next pit's nibble;
  // a negative change wraps round in unsigned arithmetic as a subtraction.
  void add(int pit, int beads) {
    bits += static_cast<Packed>(static_cast<std::int64_t>(beads)) << (4 * pit);
  }
};

// The smallest of the rotations of `packed`: turning the ring by one pit moves every digit up a
// nibble and the top one to the bottom.
Packed canonical_packed(Packed packed, int pits) {
  const int top = 4 * (pits - 1);
  const Packed mask = nibble_mask(pits);
  Packed best = packed;
  for (int turn = 1; turn < pits; ++turn) {
    packed = ((packed << 4) & mask) | (packed >> top);
    best = std::min(best, packed);
  }
  return best;
}

std::uint64_t code_of(Packed packed, int pits, int base) {
  std::uint64_t code = 0;
  for (int pit = pits - 1; pit >= 0; --pit)
    code = code * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(digit(packed, pit));
  return code;
}

Packed pack(const Board& board) {
  Packed packed = 0;
  for (Pit pit : board.pits())
    packed |= static_cast<Packed>(board.beads(pit)) << (4 * pit.index());
  return packed;
}

// Calls visit(packed) for every necklace of `pits` digits 0..capacity whose digits add up to
// `sum` (every sum when `sum` is negative): the strings a[1..pits] that no rotation makes
// lexicographically smaller, packed with a[1] as the top nibble, so that each is its class's
// canonical board. This is the algorithm of Fredricksen, Kessler and Maiorana, constant time
// per necklace, with the subtrees that cannot reach the sum cut off; it visits the necklaces
// in increasing order of their codes.
template <class Visit>
void for_each_necklace(int pits, int capacity, int sum, Visit&& visit) {
  std::array<int, kMaxPits + 1> a{};  // a[1..pits]; a[0] stays 0
  const auto extend = [&](auto&& self, int t, int period, int total, Packed packed) -> void {
    if (t > pits) {
      if (pits % period == 0 && (sum < 0 || total == sum)) visit(packed);
      return;
    }
    const int remaining = pits - t;  // places after this one
    for (int d = a[t - period]; d <= capacity; ++d) {
      if (sum >= 0 && (total + d > sum || total + d + remaining * capacity < sum)) {
        if (total + d > sum) break;
        continue;
      }
      a[t] = d;
      self(self, t + 1, d == a[t - period] ? period : t, total + d,
           packed | static_cast<Packed>(d) << (4 * (pits - t)));
    }
  };
  extend(extend, 1, 1, 0, 0);
}

// Zeroed memory for a large array: anonymous pages aligned to 2 MiB and marked for huge pages
// where the kernel offers them (transparent huge pages in madvise mode), so that the solver's
// reads all over its table miss the TLB far less and a gigabyte is faulted in 500 steps, not
// 250,000. Where they are not offered, the plain pages serve just as correctly.
template <class T>
class LargeArray {
 public:
  static constexpr std::size_t kHuge = std::size_t{2} << 20;

  explicit LargeArray(std::size_t count) : count_(count) {
    if (count == 0) return;
    length_ = (count * sizeof(T) + kHuge - 1) / kHuge * kHuge;
    // Map one huge page more than needed, then trim both ends to a 2 MiB boundary.
    void* mapped = ::mmap(nullptr, length_ + kHuge, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    const auto start = reinterpret_cast<std::uintptr_t>(mapped);
    const auto aligned = (start + kHuge - 1) / kHuge * kHuge;
    if (aligned > start) ::munmap(mapped, aligned - start);
    const std::uintptr_t end = start + length_ + kHuge;
    if (end > aligned + length_)
      ::munmap(reinterpret_cast<void*>(aligned + length_), end - aligned - length_);
    data_ = reinterpret_cast<T*>(aligned);
#ifdef MADV_HUGEPAGE
    ::madvise(data_, length_, MADV_HUGEPAGE);  // a hint: refused, the pages stay small
#endif
  }
  ~LargeArray() {
    if (data_ != nullptr) ::munmap(data_, length_);
  }
  LargeArray(const LargeArray&) = delete;
  LargeArray& operator=(const LargeArray&) = delete;

  T* data() {
    return data_;
  }
  std::size_t size() const {
    return count_;
  }
  std::span<T> span() {
    return {data_, count_};
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
  std::size_t length_ = 0;
};

// The rank of `code` among the canonical codes marked in `bitmap`, from `directory`'s running
// count of the word's block of kDirectoryWords words and the popcounts of the words before it.
[[gnu::always_inline]] inline std::uint64_t rank_in(const std::uint64_t* bitmap,
                                                    const std::uint64_t* directory,
                                                    std::uint64_t code) {
  const std::uint64_t word = code >> 6;
  const std::uint64_t block = word / kDirectoryWords;
  std::uint64_t found = directory[block];
  for (std::uint64_t w = block * kDirectoryWords; w < word; ++w)
    found += static_cast<std::uint64_t>(std::popcount(bitmap[w]));
  const std::uint64_t below = (std::uint64_t{1} << (code & 63)) - 1;
  return found + static_cast<std::uint64_t>(std::popcount(bitmap[word] & below));
}

// What the solver of one ring reads and writes. A solve writes each class's value into
// `write` (the same array as `values`); a check (RingTable::verify()) writes nothing and records
// in `wrong` the rank of a class whose value is not what its moves give.
struct Solving {
  int pits, capacity, base;
  const std::uint64_t* bitmap;
  const std::uint64_t* directory;
  const std::int8_t* values;
  std::int8_t* write;
  std::atomic<std::uint64_t>* wrong;
};
constexpr std::uint64_t kNoneWrong = std::numeric_limits<std::uint64_t>::max();

// Classes solved together: their successors' memory is asked for before it is read, so that
// the reads of many successors wait for memory at once instead of one after another.
constexpr std::size_t kGroup = 16;

// Solves the classes `from`..`to` (canonical boards of one layer, packed): each class's value
// from its successors', which are all in lower layers. A group of classes at a time, in three
// passes: the successors' canonical codes (prefetching their index lines), their ranks
// (prefetching their values), then the values. Built twice (below): with the POPCNT
// instruction, and without it for CPUs that lack it (x86-64 builds otherwise call a software
// popcount, 13% of a solve).
[[gnu::always_inline]] inline void solve_classes_body(const Solving& ring, const Packed* from,
                                                      const Packed* to) {
  const int pits = ring.pits;
  const int capacity = ring.capacity;
  struct Successor {
    std::uint64_t where;  // its canonical code, then its rank
    int net;              // what the move nets its mover
  };
  std::array<std::array<Successor, kMaxPits>, kGroup> successors;
  std::array<int, kGroup> moves;
  std::array<std::uint64_t, kGroup> own;  // each class's code, then its rank
  const auto index_lines = [&](std::uint64_t code) {
    __builtin_prefetch(&ring.bitmap[code >> 6]);
    __builtin_prefetch(&ring.directory[(code >> 6) / kDirectoryWords]);
  };
  while (from != to) {
    const std::size_t group = std::min<std::size_t>(kGroup, static_cast<std::size_t>(to - from));
    for (std::size_t c = 0; c < group; ++c) {
      const Packed packed = from[c];
      int count = 0;
      for (int pit = 0; pit < pits; ++pit) {
        if (digit(packed, pit) == 0) continue;
        PackedPits after{packed};
        const Sown sown = sow(after, pit, pits, capacity, [](SowKind, int, int) {});
        const int net = sown.mover_gain - sown.opponent_gain;
        const std::uint64_t code = code_of(canonical_packed(after.bits, pits), pits, ring.base);
        index_lines(code);
        successors[c][static_cast<std::size_t>(count++)] = {code, net};
      }
      moves[c] = count;
      own[c] = code_of(packed, pits, ring.base);
      index_lines(own[c]);
    }
    for (std::size_t c = 0; c < group; ++c) {
      for (int m = 0; m < moves[c]; ++m) {
        Successor& next = successors[c][static_cast<std::size_t>(m)];
        next.where = rank_in(ring.bitmap, ring.directory, next.where);
        __builtin_prefetch(&ring.values[next.where]);
      }
      own[c] = rank_in(ring.bitmap, ring.directory, own[c]);
    }
    for (std::size_t c = 0; c < group; ++c) {
      int best = moves[c] == 0 ? 0 : std::numeric_limits<int>::min();  // 0: the empty board
      for (int m = 0; m < moves[c]; ++m) {
        const Successor& next = successors[c][static_cast<std::size_t>(m)];
        best = std::max(best, next.net - ring.values[next.where]);
      }
      if (ring.write != nullptr) {
        ring.write[own[c]] = static_cast<std::int8_t>(best);
      } else if (ring.values[own[c]] != best) {
        std::uint64_t none = kNoneWrong;
        ring.wrong->compare_exchange_strong(none, own[c]);
      }
    }
    from += group;
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt"))) void solve_classes_popcnt(const Solving& ring, const Packed* from,
                                                            const Packed* to) {
  solve_classes_body(ring, from, to);
}
#endif
void solve_classes_plain(const Solving& ring, const Packed* from, const Packed* to) {
  solve_classes_body(ring, from, to);
}

// Whether this CPU has POPCNT, asked with CPUID once, when a ring is first solved: not at every
// program's start, as the compiler's own dispatch (target_clones) would, which costs a game of
// the IOI ring tens of microseconds on a virtual machine, where CPUID traps.
bool has_popcnt() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool has = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_POPCNT) != 0;
  }();
  return has;
#else
  return false;
#endif
}

void solve_classes(const Solving& ring, const Packed* from, const Packed* to) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (has_popcnt()) return solve_classes_popcnt(ring, from, to);
#endif
  solve_classes_plain(ring, from, to);
}

// Storage that solve() owns: the index and the values.
struct Owned {
  Owned(std::size_t words, std::size_t blocks, std::size_t classes)
      : bitmap(words), directory(blocks), values(classes) {}
  LargeArray<std::uint64_t> bitmap, directory;
  LargeArray<std::int8_t> values;
};

// Runs the solver's kernel over every class of `ring`, layer by layer of bead count: each layer's
// classes are enumerated in batches, and each batch is shared among the threads.
void sweep(Ring ring, std::uint64_t classes, const Solving& solving, const SolveOptions& options) {
  const int pits = ring.pits;
  const int capacity = ring.capacity;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const auto threads = static_cast<std::size_t>(options.threads > 0 ? options.threads : cores);
  std::vector<Packed> batch;
  batch.reserve(kBatch);
  SolveProgress progress;
  progress.layers = ring.max_beads() + 1;
  progress.classes = classes;
  // Solves the classes in `batch`, shared among the threads.
  const auto solve_batch = [&] {
    std::atomic<std::size_t> next{0};
    std::atomic<int> working{0};  // threads that solved at least one chunk
    const auto work = [&] {
      bool worked = false;
      for (std::size_t from = next.fetch_add(kChunk); from < batch.size();
           from = next.fetch_add(kChunk)) {
        const std::size_t to = std::min(from + kChunk, batch.size());
        solve_classes(solving, batch.data() + from, batch.data() + to);
        worked = true;
      }
      if (worked) ++working;
    };
    std::vector<std::thread> helpers;
    const std::size_t wanted = std::min(threads, (batch.size() + kChunk - 1) / kChunk);
    for (std::size_t t = 1; t < wanted; ++t)
      helpers.emplace_back(work);
    work();
    for (std::thread& helper : helpers)
      helper.join();
    progress.done += batch.size();
    progress.threads = std::max(progress.threads, working.load());
    batch.clear();
    if (options.progress) options.progress(progress);
  };
  for (int layer = 0; layer <= ring.max_beads(); ++layer) {
    progress.layer = layer;
    for_each_necklace(pits, capacity, layer, [&](Packed packed) {
      batch.push_back(packed);
      if (batch.size() == kBatch) solve_batch();
    });
    if (!batch.empty()) solve_batch();
  }
}

}  // namespace

std::uint64_t canonical_code(std::uint64_t packed, int pits, int base) {
  return code_of(canonical_packed(packed, pits), pits, base);
}

std::vector<std::uint64_t> classes_by_beads(Ring ring) {
  const int n = ring.pits;
  const int most = ring.max_beads();
  // strings(len)[t]: digit strings of length len with digit sum t.
  const auto strings = [&](int length) {
    std::vector<std::uint64_t> ways(static_cast<std::size_t>(most) + 1, 0);
    ways[0] = 1;
    for (int i = 0; i < length; ++i) {
      std::vector<std::uint64_t> next(ways.size(), 0);
      for (std::size_t t = 0; t < ways.size(); ++t) {
        for (int d = 0; d <= ring.capacity && t + static_cast<std::size_t>(d) < next.size(); ++d)
          next[t + static_cast<std::size_t>(d)] += ways[t];
      }
      ways = std::move(next);
    }
    return ways;
  };
  const auto phi = [](int m) {
    int count = 0;
    for (int k = 1; k <= m; ++k)
      count += std::gcd(k, m) == 1 ? 1 : 0;
    return count;
  };
  // Burnside: the classes with s beads are (1/n) * sum over d dividing n and s of
  // phi(d) * (strings of n/d digits adding up to s/d).
  std::vector<std::uint64_t> classes(static_cast<std::size_t>(most) + 1, 0);
  for (int d = 1; d <= n; ++d) {
    if (n % d != 0) continue;
    const std::vector<std::uint64_t> ways = strings(n / d);
    for (int s = 0; s <= most; s += d)
      classes[static_cast<std::size_t>(s)] +=
          static_cast<std::uint64_t>(phi(d)) * ways[static_cast<std::size_t>(s / d)];
  }
  for (std::uint64_t& count : classes)
    count /= static_cast<std::uint64_t>(n);
  return classes;
}

TableSize table_size(Ring ring) {
  TableSize size;
  const std::vector<std::uint64_t> layers = classes_by_beads(ring);
  size.classes = std::accumulate(layers.begin(), layers.end(), std::uint64_t{0});
  const std::uint64_t words = (ring.code_count() + 63) / 64;
  size.bitmap_bytes = words * 8;
  size.directory_bytes = (words + kDirectoryWords - 1) / kDirectoryWords * 8;
  size.values_bytes = size.classes;
  size.working_bytes = kBatch * sizeof(Packed);
  return size;
}

template <class T>
void RingTable::vouch(std::span<const T> part) const {
  if (storage_) storage_->vouch(part.data(), part.size_bytes());
}

void RingTable::fault(const std::string& what) const {
  if (storage_) storage_->damaged(what);
  throw std::logic_error("ioiwari: a solved table is inconsistent: " + what);
}

std::uint64_t RingTable::rank(std::uint64_t code) const {
  // The checks below are what keeps a crafted file's look-ups inside it: the word is in the
  // bitmap (the code is below code_count()), the code is marked, and the directory's counts
  // around the word's block agree with the block's bits, so the rank lies between two counts
  // that are at most classes().
  const std::uint64_t word = code >> 6;
  const std::uint64_t block = word / kDirectoryWords;
  if (word >= bitmap_.size()) fault("code " + std::to_string(code) + " is beyond the bitmap");
  const std::uint64_t first = block * kDirectoryWords;
  const std::uint64_t words = std::min<std::uint64_t>(kDirectoryWords, bitmap_.size() - first);
  const std::uint64_t counts = std::min<std::uint64_t>(2, directory_.size() - block);
  vouch(bitmap_.subspan(first, words));
  vouch(directory_.subspan(block, counts));
  std::uint64_t in_block = 0;
  for (std::uint64_t w = first; w < first + words; ++w)
    in_block += static_cast<std::uint64_t>(std::popcount(bitmap_[w]));
  const std::uint64_t begin = directory_[block];
  const std::uint64_t end = counts == 2 ? directory_[block + 1] : classes();
  if (begin > end || end > classes() || end - begin != in_block) {
    fault("the directory disagrees with the bitmap at block " + std::to_string(block));
  }
  if ((bitmap_[word] >> (code & 63) & 1) == 0) {
    fault("code " + std::to_string(code) + " is not marked in the bitmap");
  }
  return rank_in(bitmap_.data(), directory_.data(), code);
}

std::uint64_t RingTable::class_of(const Board& board) const {
  assert(board.ring() == ring_);
  return rank(canonical_code(pack(board), ring_.pits, ring_.base()));
}

int RingTable::value(const Board& board) const {
  const std::uint64_t at = class_of(board);
  vouch(values_.subspan(at, 1));
  const int value = values_[at];
  if (value < -ring_.max_beads() || value > ring_.max_beads()) {
    fault("class " + std::to_string(at) + " has the value " + std::to_string(value) +
          ", beyond the " + std::to_string(ring_.max_beads()) + " beads of the ring");
  }
  return value;
}

void RingTable::inconsistent(const Board& board, int value, int best) const {
  std::ostringstream what;
  what << "board " << board << " has the value " << value << " but its best move gives " << best;
  fault(what.str());
}

void RingTable::check_unchanged() const {
  if (storage_) storage_->check_unchanged();
}

void RingTable::verify(const SolveOptions& options) const {
  vouch(bitmap_);
  vouch(directory_);
  vouch(values_);
  // The directory against the bitmap, block by block, and the bits past the last code.
  std::uint64_t running = 0;
  for (std::uint64_t w = 0; w < bitmap_.size(); ++w) {
    if (w % kDirectoryWords == 0 && directory_[w / kDirectoryWords] != running) {
      fault("the directory disagrees with the bitmap at block " +
            std::to_string(w / kDirectoryWords));
    }
    running += static_cast<std::uint64_t>(std::popcount(bitmap_[w]));
  }
  const std::uint64_t codes = ring_.code_count();
  if (codes % 64 != 0 && (bitmap_.back() >> (codes % 64)) != 0) {
    fault("the bitmap marks codes beyond the ring's last");
  }
  if (running != classes()) {
    fault("the bitmap marks " + std::to_string(running) + " classes, not " +
          std::to_string(classes()));
  }
  // Every necklace marked: with the count above, nothing else is.
  for_each_necklace(ring_.pits, ring_.capacity, -1, [&](Packed packed) {
    const std::uint64_t code = code_of(packed, ring_.pits, ring_.base());
    if ((bitmap_[code >> 6] >> (code & 63) & 1) == 0) {
      fault("the class of code " + std::to_string(code) + " is not marked in the bitmap");
    }
  });
  for (std::uint64_t at = 0; at < values_.size(); ++at) {
    const int value = values_[at];
    if (value < -ring_.max_beads() || value > ring_.max_beads()) {
      fault("class " + std::to_string(at) + " has the value " + std::to_string(value) +
            ", beyond the " + std::to_string(ring_.max_beads()) + " beads of the ring");
    }
  }
  // The index is now known sound, so the solver's own kernel may read it: every class's value
  // must be the best of its moves', which only the true solution satisfies.
  std::atomic<std::uint64_t> wrong{kNoneWrong};
  const Solving checking{ring_.pits,        ring_.capacity, ring_.base(), bitmap_.data(),
                         directory_.data(), values_.data(), nullptr,      &wrong};
  sweep(ring_, classes(), checking, options);
  if (wrong.load() != kNoneWrong) {
    fault("class " + std::to_string(wrong.load()) + " has a value that its moves do not give");
  }
}

std::uint64_t RingTable::checksum() const {
  vouch(values_);
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a, 64 bits
  for (std::int8_t value : values_) {
    hash ^= static_cast<std::uint8_t>(value);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::shared_ptr<const RingTable> RingTable::adopt(Ring ring, std::span<const std::uint64_t> bitmap,
                                                  std::span<const std::uint64_t> directory,
                                                  std::span<const std::int8_t> values,
                                                  std::shared_ptr<const TableStorage> storage) {
  std::shared_ptr<RingTable> table(new RingTable());
  table->ring_ = ring;
  table->bitmap_ = bitmap;
  table->directory_ = directory;
  table->values_ = values;
  table->storage_ = std::move(storage);
  return table;
}

std::shared_ptr<const RingTable> RingTable::solve(Ring ring, const SolveOptions& options) {
  const int pits = ring.pits;
  const int capacity = ring.capacity;
  const int base = ring.base();
  const TableSize size = table_size(ring);

  // The index: a bit for every canonical code, and the running counts.
  auto owned = std::make_shared<Owned>(static_cast<std::size_t>(size.bitmap_bytes / 8),
                                       static_cast<std::size_t>(size.directory_bytes / 8),
                                       static_cast<std::size_t>(size.classes));
  std::uint64_t* bitmap = owned->bitmap.data();
  SolveProgress indexing;
  indexing.layer = -1;
  indexing.layers = ring.max_beads() + 1;
  indexing.classes = size.classes;
  for_each_necklace(pits, capacity, -1, [&](Packed packed) {
    const std::uint64_t code = code_of(packed, pits, base);
    bitmap[code >> 6] |= std::uint64_t{1} << (code & 63);
    // The index of a large ring takes a while: it reports as the layers do.
    if (++indexing.done % kBatch == 0 && options.progress) options.progress(indexing);
  });
  std::uint64_t running = 0;
  for (std::size_t w = 0; w < owned->bitmap.size(); ++w) {
    if (w % kDirectoryWords == 0) owned->directory.data()[w / kDirectoryWords] = running;
    running += static_cast<std::uint64_t>(std::popcount(bitmap[w]));
  }
  assert(running == size.classes);

  std::shared_ptr<RingTable> table(new RingTable());
  table->ring_ = ring;
  table->bitmap_ = owned->bitmap.span();
  table->directory_ = owned->directory.span();
  table->values_ = owned->values.span();
  std::int8_t* values = owned->values.data();
  table->owned_ = owned;

  const Solving solving{pits,   capacity, base,   bitmap, owned->directory.data(),
                        values, values,   nullptr};

  sweep(ring, size.classes, solving, options);
  return table;
}

}  // namespace ioiwari
