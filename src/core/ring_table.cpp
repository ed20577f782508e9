#include "ioiwari/core/ring_table.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdint>
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

void RingTable::fault(const std::string& what) const {
  if (storage_) storage_->damaged(what);
  throw std::logic_error("ioiwari: a solved table is inconsistent: " + what);
}

RingPart RingTable::part() const {
  RingPart part;
  part.geometry = geometry_.get();
  part.classes = geometry_->classes();
  part.lines = lines_.data();
  part.values = values_.data();
  return part;
}

void RingTable::line(std::uint64_t at, std::uint64_t* words) const {
  const bool last = at + 1 == geometry_->lines();
  if (storage_only_) {
    storage_->index_words(kLineWords * at, last ? kLineWords : kLineWords + 1, words);
  } else {
    std::copy_n(lines_.data() + kLineWords * at, last ? kLineWords : kLineWords + 1, words);
  }
  if (last) words[kLineWords] = classes();
}

std::int8_t RingTable::value_at(Rank rank) const {
  return storage_only_ ? storage_->value_byte(rank) : values_[static_cast<std::size_t>(raw(rank))];
}

Rank RingTable::rank(Position position) const {
  // The checks below keep a look-up inside the table whatever the index says: the line is in
  // the index, the position is marked, and the line's counts agree with its bits and with the
  // next line's first rank, which is at most classes(); so the rank is below classes().
  const std::uint64_t at = raw(position) / kLinePositions;
  if (at >= geometry_->lines()) {
    fault("position " + std::to_string(raw(position)) + " is beyond the index");
  }
  std::uint64_t words[kLineWords + 1];
  line(at, words);
  std::uint64_t in_line = 0;
  for (std::size_t word = 2; word < kLineWords; ++word)
    in_line += static_cast<std::uint64_t>(std::popcount(words[word]));
  const std::uint64_t begin = words[0];
  const std::uint64_t end = words[kLineWords];
  if (words[1] != line_counts(words) || begin > end || end > classes() || end - begin != in_line) {
    fault("the counts of index line " + std::to_string(at) + " disagree with its bits");
  }
  const std::uint64_t bit = raw(position) % kLinePositions;
  if ((words[2 + (bit >> 6)] >> (bit & 63) & 1) == 0) {
    fault("position " + std::to_string(raw(position)) + " is not marked in the index");
  }
  return Rank{line_rank(words, bit)};
}

Rank RingTable::class_of(const Board& board) const {
  assert(board.ring() == ring());
  return rank(Position{geometry_->index().position(canonical_packed(pack(board), ring().pits))});
}

int RingTable::value_of(Rank rank) const {
  const int value = value_at(rank);
  const int most = ring().max_beads();
  if (value < -most || value > most) {
    fault("class " + std::to_string(raw(rank)) + " has the value " + std::to_string(value) +
          ", beyond the " + std::to_string(most) + " beads of the ring");
  }
  return value;
}

int RingTable::value(const Board& board) const {
  return value_of(class_of(board));
}

void RingTable::inconsistent(const Board& board, int value, int best) const {
  std::ostringstream what;
  what << "board " << board << " has the value " << value << " but its best move gives " << best;
  fault(what.str());
}

void RingTable::verify(const SolveOptions& options) const {
  if (storage_only_) throw std::logic_error("ioiwari: verify() needs the table in memory");
  const RingGeometry& geometry = *geometry_;
  const std::uint64_t lines = geometry.lines();
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
  for (std::uint64_t position = geometry.index().positions(); position < lines * kLinePositions;
       ++position) {
    if (marked(lines_.data(), position)) fault("the index marks positions past the ring's last");
  }
  if (running != classes()) {
    fault("the index marks " + std::to_string(running) + " classes, not " +
          std::to_string(classes()));
  }
  // Every canonical board marked: with the count above, nothing else is.
  LayeredSolve solve(geometry, Share{}, options);
  if (const auto unmarked = solve.check_index(lines_)) {
    fault("the class of code " + std::to_string(*unmarked) + " is not marked in the index");
  }
  for (std::uint64_t at = 0; at < classes(); ++at)
    value_of(Rank{at});
  // The index is now known sound, so the solver may read it: every class's value must be the
  // best of its moves', which only the true solution satisfies.
  const RingPart whole = part();
  LocalExchange exchange(whole);
  if (const auto wrong = solve.check(whole, exchange)) {
    fault("class " + std::to_string(raw(*wrong)) + " has a value that its moves do not give");
  }
}

std::shared_ptr<const RingTable> RingTable::over(std::shared_ptr<const RingGeometry> geometry,
                                                 std::shared_ptr<const TableStorage> storage) {
  std::shared_ptr<RingTable> table(new RingTable(std::move(geometry)));
  table->storage_ = std::move(storage);
  table->storage_only_ = true;
  return table;
}

std::shared_ptr<const RingTable> RingTable::in_memory(std::shared_ptr<const RingGeometry> geometry,
                                                      std::span<const std::uint64_t> lines,
                                                      std::span<const std::int8_t> values,
                                                      std::shared_ptr<const void> owner,
                                                      std::shared_ptr<const TableStorage> storage) {
  assert(lines.size() == geometry->lines() * kLineWords && values.size() == geometry->classes());
  std::shared_ptr<RingTable> table(new RingTable(std::move(geometry)));
  table->lines_ = lines;
  table->values_ = values;
  table->owned_ = std::move(owner);
  table->storage_ = std::move(storage);
  return table;
}

std::shared_ptr<const RingTable> RingTable::solve(std::shared_ptr<const RingGeometry> geometry,
                                                  const SolveOptions& options) {
  auto owned = std::make_shared<Owned>(static_cast<std::size_t>(geometry->lines() * kLineWords),
                                       static_cast<std::size_t>(geometry->classes()));
  LayeredSolve solve(*geometry, Share{}, options);
  [[maybe_unused]] const std::uint64_t classes = solve.index(owned->lines.span());
  assert(classes == geometry->classes());
  std::shared_ptr<RingTable> table(new RingTable(std::move(geometry)));
  table->lines_ = owned->lines.span();
  table->values_ = owned->values.span();
  table->owned_ = owned;
  const RingPart whole = table->part();
  LocalExchange exchange(whole);
  solve.solve(whole, exchange, owned->values.span());
  return table;
}

}  // namespace ioiwari
