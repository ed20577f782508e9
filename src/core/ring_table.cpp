#include "ioiwari/core/ring_table.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <cstdint>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "ioiwari/core/large_array.hpp"
#include "ioiwari/core/ring_index.hpp"

namespace ioiwari {

namespace {

// Storage that solve() owns: the index and the values.
struct Owned {
  Owned(std::size_t words, std::size_t classes) : lines(words), values(classes) {}
  LargeArray<std::uint64_t> lines;
  LargeArray<std::int8_t> values;
};

}  // namespace

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
  size.lines = RingIndex(ring).lines();
  size.index_bytes = size.lines * kLineWords * 8;
  size.values_bytes = size.classes;
  // Each thread's batch (its classes, their successors' positions, nets and values), and the
  // pieces' counts by layer.
  const auto threads = static_cast<std::uint64_t>(solve_threads({}));
  const std::uint64_t per_class = 8 + 1 + 8 + static_cast<std::uint64_t>(kMaxPits) * (8 + 1 + 1);
  size.working_bytes =
      threads * kSolveBatch * per_class + std::min<std::uint64_t>(size.lines, 4096 * threads) *
                                              static_cast<std::uint64_t>(ring.max_beads() + 1) * 8;
  return size;
}

void RingTable::fault(const std::string& what) const {
  if (storage_) storage_->damaged(what);
  throw std::logic_error("ioiwari: a solved table is inconsistent: " + what);
}

RingPart RingTable::part() const {
  RingPart part(ring_);
  part.first_line = 0;
  part.end_line = lines_count_;
  part.first_class = 0;
  part.end_class = classes_;
  part.lines = lines_.data();
  part.values = values_.data();
  return part;
}

void RingTable::line(std::uint64_t at, std::uint64_t* words) const {
  const bool last = at + 1 == lines_count_;
  if (storage_only_) {
    storage_->index_words(kLineWords * at, last ? kLineWords : kLineWords + 1, words);
  } else {
    std::copy_n(lines_.data() + kLineWords * at, last ? kLineWords : kLineWords + 1, words);
  }
  if (last) words[kLineWords] = classes_;
}

std::int8_t RingTable::value_at(std::uint64_t rank) const {
  return storage_only_ ? storage_->value_byte(rank) : values_[rank];
}

std::uint64_t RingTable::rank(std::uint64_t position) const {
  // The checks below keep a look-up inside the table whatever the index says: the line is in
  // the index, the position is marked, and the line's counts agree with its bits and with the
  // next line's first rank, which is at most classes(); so the rank is below classes().
  const std::uint64_t at = position / kLinePositions;
  if (at >= lines_count_) fault("position " + std::to_string(position) + " is beyond the index");
  std::uint64_t words[kLineWords + 1];
  line(at, words);
  std::uint64_t in_line = 0;
  for (std::size_t word = 2; word < kLineWords; ++word)
    in_line += static_cast<std::uint64_t>(std::popcount(words[word]));
  const std::uint64_t begin = words[0];
  const std::uint64_t end = words[kLineWords];
  if (words[1] != line_counts(words) || begin > end || end > classes_ || end - begin != in_line) {
    fault("the counts of index line " + std::to_string(at) + " disagree with its bits");
  }
  const std::uint64_t bit = position % kLinePositions;
  if ((words[2 + (bit >> 6)] >> (bit & 63) & 1) == 0) {
    fault("position " + std::to_string(position) + " is not marked in the index");
  }
  return line_rank(words, bit);
}

std::uint64_t RingTable::class_of(const Board& board) const {
  assert(board.ring() == ring_);
  return rank(index_.position(canonical_packed(pack(board), ring_.pits)));
}

int RingTable::value(const Board& board) const {
  const std::uint64_t at = class_of(board);
  const int value = value_at(at);
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

void RingTable::verify(const SolveOptions& options) const {
  if (storage_only_) throw std::logic_error("ioiwari: verify() needs the table in memory");
  const RingIndex& index = index_;
  const std::uint64_t lines = lines_.size() / kLineWords;
  // Every line's counts against its bits and the lines before it, and no bit past the last
  // position.
  std::uint64_t running = 0;
  for (std::uint64_t at = 0; at < lines; ++at) {
    const std::uint64_t* line = lines_.data() + kLineWords * at;
    if (line[0] != running || line[1] != line_counts(line)) {
      fault("the counts of index line " + std::to_string(at) + " disagree with its bits");
    }
    for (int word = 0; word < 6; ++word)
      running += static_cast<std::uint64_t>(std::popcount(line[2 + word]));
  }
  for (std::uint64_t position = index.positions(); position < lines * kLinePositions; ++position) {
    if (marked(lines_.data(), position)) fault("the index marks positions past the ring's last");
  }
  if (running != classes()) {
    fault("the index marks " + std::to_string(running) + " classes, not " +
          std::to_string(classes()));
  }
  // Every canonical board marked: with the count above, nothing else is.
  Pieces pieces(ring_, 0, lines, solve_threads(options));
  const std::uint64_t unmarked = find_unmarked(ring_, lines_.data(), pieces, classes(), options);
  if (unmarked != kNoneUnmarked) {
    fault("the class of code " + std::to_string(unmarked) + " is not marked in the index");
  }
  for (std::uint64_t at = 0; at < values_.size(); ++at) {
    const int value = values_[at];
    if (value < -ring_.max_beads() || value > ring_.max_beads()) {
      fault("class " + std::to_string(at) + " has the value " + std::to_string(value) +
            ", beyond the " + std::to_string(ring_.max_beads()) + " beads of the ring");
    }
  }
  // The index is now known sound, so the solver may read it: every class's value must be the
  // best of its moves', which only the true solution satisfies.
  std::atomic<std::uint64_t> wrong{kNoneWrong};
  const RingPart whole = part();
  LocalExchange exchange(whole, solve_threads(options));
  solve_layers(whole, pieces, exchange, nullptr, &wrong, options);
  if (wrong.load() != kNoneWrong) {
    fault("class " + std::to_string(wrong.load()) + " has a value that its moves do not give");
  }
}

std::uint64_t RingTable::checksum() const {
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a, 64 bits
  for (std::uint64_t rank = 0; rank < classes_; ++rank) {
    hash ^= static_cast<std::uint8_t>(value_at(rank));
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::shared_ptr<const RingTable> RingTable::over(Ring ring,
                                                 std::shared_ptr<const TableStorage> storage) {
  std::shared_ptr<RingTable> table(new RingTable());
  const TableSize size = table_size(ring);
  table->ring_ = ring;
  table->index_ = RingIndex(ring);
  table->lines_count_ = size.lines;
  table->classes_ = size.classes;
  table->storage_ = std::move(storage);
  table->storage_only_ = true;
  return table;
}

std::shared_ptr<const RingTable> RingTable::in_memory(Ring ring,
                                                      std::span<const std::uint64_t> lines,
                                                      std::span<const std::int8_t> values,
                                                      std::shared_ptr<const void> owner,
                                                      std::shared_ptr<const TableStorage> storage) {
  std::shared_ptr<RingTable> table(new RingTable());
  table->ring_ = ring;
  table->index_ = RingIndex(ring);
  table->lines_count_ = lines.size() / kLineWords;
  table->classes_ = values.size();
  table->lines_ = lines;
  table->values_ = values;
  table->owned_ = std::move(owner);
  table->storage_ = std::move(storage);
  return table;
}

std::shared_ptr<const RingTable> RingTable::solve(Ring ring, const SolveOptions& options) {
  const TableSize size = table_size(ring);
  auto owned = std::make_shared<Owned>(static_cast<std::size_t>(size.lines * kLineWords),
                                       static_cast<std::size_t>(size.classes));
  Pieces pieces(ring, 0, size.lines, solve_threads(options));
  mark_lines(ring, owned->lines.data(), pieces, size.classes, options);
  [[maybe_unused]] const std::uint64_t classes = count_lines(owned->lines.data(), size.lines, 0);
  assert(classes == size.classes);

  std::shared_ptr<RingTable> table(new RingTable());
  table->ring_ = ring;
  table->index_ = RingIndex(ring);
  table->lines_count_ = size.lines;
  table->classes_ = size.classes;
  table->lines_ = owned->lines.span();
  table->values_ = owned->values.span();
  table->owned_ = owned;
  const RingPart whole = table->part();
  LocalExchange exchange(whole, solve_threads(options));
  solve_layers(whole, pieces, exchange, owned->values.data(), nullptr, options);
  return table;
}

}  // namespace ioiwari
