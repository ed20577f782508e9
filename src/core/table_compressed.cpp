#include "ioiwari/core/table_compressed.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "ioiwari/core/ring_solver.hpp"

namespace ioiwari {

void add_value_counts(std::span<const std::int8_t> values, ValueCounts& counts) {
  // Four tables, summed at the end: a run of one value does not wait on its own last increment.
  std::array<ValueCounts, 4> partial{};
  std::size_t i = 0;
  for (; i + 4 <= values.size(); i += 4) {
    for (std::size_t k = 0; k < 4; ++k)
      ++partial[k][static_cast<std::uint8_t>(values[i + k])];
  }
  for (; i < values.size(); ++i)
    ++partial[0][static_cast<std::uint8_t>(values[i])];
  for (std::size_t b = 0; b < 256; ++b)
    counts[b] += partial[0][b] + partial[1][b] + partial[2][b] + partial[3][b];
}

ValueCode::Lengths ValueCode::lengths_for(const ValueCounts& counts) {
  ValueCounts weights = counts;
  for (;;) {
    // The nodes: the bytes (0 to 255), then the merged ones in the order made; each merge takes
    // the two lightest of those not merged yet, the earlier made first among equal weights.
    struct Node {
      std::uint64_t weight;
      int parent;
    };
    std::vector<Node> nodes;
    std::vector<int> open;  // nodes not merged yet
    for (int b = 0; b < 256; ++b) {
      nodes.push_back({weights[static_cast<std::size_t>(b)], -1});
      if (weights[static_cast<std::size_t>(b)] > 0) open.push_back(b);
    }
    Lengths lengths{};
    if (open.size() == 1) {
      lengths[static_cast<std::size_t>(open.front())] = 1;
      return lengths;
    }
    const auto lighter = [&](int a, int b) {
      const auto& x = nodes[static_cast<std::size_t>(a)];
      const auto& y = nodes[static_cast<std::size_t>(b)];
      return x.weight != y.weight ? x.weight < y.weight : a < b;
    };
    while (open.size() > 1) {
      std::sort(open.begin(), open.end(), lighter);
      const int a = open[0], b = open[1];
      const int made = static_cast<int>(nodes.size());
      nodes.push_back(
          {nodes[static_cast<std::size_t>(a)].weight + nodes[static_cast<std::size_t>(b)].weight,
           -1});
      nodes[static_cast<std::size_t>(a)].parent = made;
      nodes[static_cast<std::size_t>(b)].parent = made;
      open.erase(open.begin(), open.begin() + 2);
      open.push_back(made);
    }
    int longest = 0;
    for (int b = 0; b < 256; ++b) {
      if (weights[static_cast<std::size_t>(b)] == 0) continue;
      int length = 0;
      for (int at = b; nodes[static_cast<std::size_t>(at)].parent >= 0;
           at = nodes[static_cast<std::size_t>(at)].parent)
        ++length;
      lengths[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(std::min(length, 255));
      longest = std::max(longest, length);
    }
    if (longest <= kMostCodeBits) return lengths;
    for (std::uint64_t& weight : weights)
      weight = (weight + 1) / 2;
  }
}

std::optional<ValueCode> ValueCode::of(const Lengths& lengths) {
  std::uint64_t room = 0;  // Kraft's sum, in units of 2^-kMostCodeBits
  for (const std::uint8_t length : lengths) {
    if (length > kMostCodeBits) return std::nullopt;
    if (length > 0) room += std::uint64_t{1} << (kMostCodeBits - length);
  }
  if (room > (std::uint64_t{1} << kMostCodeBits)) return std::nullopt;
  ValueCode code;
  code.lengths_ = lengths;
  code.table_.assign(std::size_t{1} << kMostCodeBits, 0);
  std::uint32_t next = 0;
  for (int length = 1; length <= kMostCodeBits; ++length) {
    for (std::size_t b = 0; b < 256; ++b) {
      if (lengths[b] != length) continue;
      code.codes_[b] = static_cast<std::uint16_t>(next);
      const std::uint32_t first = next << (kMostCodeBits - length);
      const std::uint32_t span = std::uint32_t{1} << (kMostCodeBits - length);
      for (std::uint32_t k = 0; k < span; ++k)
        code.table_[first + k] = static_cast<std::uint16_t>(length << 8 | static_cast<int>(b));
      ++next;
    }
    next <<= 1;
  }
  // The runs of codes of each string: table_'s codes read in turn while one lies whole in what
  // is left of the string (the bits after it taken as zeros, which a code within it never reads).
  code.runs_.assign(std::size_t{1} << kMostCodeBits, 0);
  for (std::uint32_t string = 0; string < (1u << kMostCodeBits); ++string) {
    std::uint64_t run = 0;
    int count = 0, used = 0;
    while (count < kRunCodes) {
      const std::uint32_t rest = (string << used) & ((1u << kMostCodeBits) - 1);
      const std::uint16_t entry = code.table_[rest];
      const int length = entry >> 8;
      if (length == 0 || used + length > kMostCodeBits) break;
      run |= static_cast<std::uint64_t>(entry & 0xff) << (8 * count);
      used += length;
      ++count;
    }
    code.runs_[string] =
        run | static_cast<std::uint64_t>(count) << 32 | static_cast<std::uint64_t>(used) << 40;
  }
  return code;
}

void ValueCode::encode(std::span<const std::int8_t> values, std::vector<unsigned char>& out) const {
  std::uint64_t held = 0;  // the bits not written yet, the first in the most significant place
  int bits = 0;
  for (const std::int8_t value : values) {
    const auto b = static_cast<std::size_t>(static_cast<std::uint8_t>(value));
    const int length = lengths_[b];
    held |= static_cast<std::uint64_t>(codes_[b]) << (64 - bits - length);
    bits += length;
    while (bits >= 8) {
      out.push_back(static_cast<unsigned char>(held >> 56));
      held <<= 8;
      bits -= 8;
    }
  }
  if (bits > 0) out.push_back(static_cast<unsigned char>(held >> 56));
}

bool ValueCode::decode(std::span<const unsigned char> bytes, std::span<std::int8_t> into) const {
  // A page of at most kCodedPageClasses values takes at most kMostPageCodeBytes; its bytes are
  // read from a copy with zeros after them, 8 at a time, so that no code is read past its end
  // (codes that do not end where the bytes do read at most a page's most, and fail).
  if (bytes.size() > kMostPageCodeBytes || into.size() > kCodedPageClasses) return false;
  std::array<unsigned char, kMostPageCodeBytes + 16> padded;
  std::copy(bytes.begin(), bytes.end(), padded.begin());
  std::fill(padded.begin() + static_cast<std::ptrdiff_t>(bytes.size()), padded.end(), 0);
  // The bits not decoded yet, the first most significant: `held` of them, refilled to at least
  // 56 from the byte at `next` on, whole bytes at a time, without a branch.
  const unsigned char* next = padded.data();
  std::uint64_t window = 0;
  int held = 0;
  const auto refill = [&] {
    std::uint64_t word;
    std::memcpy(&word, next, sizeof word);
    if constexpr (std::endian::native == std::endian::little) word = __builtin_bswap64(word);
    window |= word >> held;
    next += (63 - held) >> 3;
    held |= 56;
  };
  std::uint64_t used = 0;  // bits decoded
  const auto one = [&](std::int8_t& value) {
    const std::uint16_t entry = table_[static_cast<std::size_t>(window >> (64 - kMostCodeBits))];
    const int length = entry >> 8;
    window <<= length;
    held -= length;
    used += static_cast<std::uint64_t>(length);
    value = static_cast<std::int8_t>(static_cast<std::uint8_t>(entry & 0xff));
    return length != 0;  // 0: no code starts so
  };
  // While a run's values all have room: each refill's 56 bits give four look-ups of 12 bits, each
  // of one to kRunCodes codes (runs_), whose bytes are stored four at once.
  static_assert(4 * kMostCodeBits <= 56 && kRunCodes == 4);
  std::size_t i = 0;
  while (i + 4 * kRunCodes <= into.size()) {
    refill();
    for (int look = 0; look < 4; ++look) {
      const std::uint64_t run = runs_[static_cast<std::size_t>(window >> (64 - kMostCodeBits))];
      const auto count = static_cast<std::size_t>(run >> 32 & 0xff);
      const int length = static_cast<int>(run >> 40);
      if (count == 0) return false;                // no code starts so
      for (std::size_t k = 0; k < kRunCodes; ++k)  // past `count`: the next run's to overwrite
        into[i + k] = static_cast<std::int8_t>(static_cast<std::uint8_t>(run >> (8 * k)));
      i += count;
      window <<= length;
      held -= length;
      used += static_cast<std::uint64_t>(length);
    }
    if (used > 8 * bytes.size()) return false;
  }
  // The rest, a code at a time: four after each refill.
  for (; i + 4 <= into.size(); i += 4) {
    refill();
    bool coded = one(into[i]);  // in order: each takes the bits the one before left
    coded &= one(into[i + 1]);
    coded &= one(into[i + 2]);
    coded &= one(into[i + 3]);
    if (!coded || used > 8 * bytes.size()) return false;
  }
  for (; i < into.size(); ++i) {
    refill();
    if (!one(into[i])) return false;
  }
  // Exactly the codes, and zero bits to a whole byte: one page's bytes, and no other, decode so.
  const std::uint64_t total = 8 * static_cast<std::uint64_t>(bytes.size());
  if (used > total || (used + 7) / 8 != bytes.size()) return false;
  const auto spare = static_cast<int>(total - used);
  return spare == 0 || (bytes.back() & ((1u << spare) - 1)) == 0;
}

namespace {

// Sets, in `bits` (a bit a position from `start`), the bit of every canonical board whose packed
// board lies in [from, to). The walk of for_each_necklace() (ring_index.hpp), every necklace in
// code order, for every sum, with each board's position added up digit by digit as the walk sets
// them instead of computed from the board (RingIndex::position()): a page's lines are made in
// half the time. The tests hold the lines made so to the solver's (test_table_compressed.cpp).
void mark_canonical(const RingIndex& index, Packed from, Packed to, std::uint64_t start,
                    std::uint64_t* bits) {
  const Ring ring = index.ring();
  const int pits = ring.pits, capacity = ring.capacity;
  std::array<int, kMaxPits + 1> a{};
  // The weight of the digit at each depth: (C + 1 - t)^(N - i) for a[i], t the top digit.
  std::array<std::uint64_t, kMaxPits + 1> weight{};
  const auto extend = [&](auto&& self, int depth, int period, Packed packed,
                          std::uint64_t position) -> void {
    const int remaining = pits - depth;
    const int shift = 4 * remaining;
    if (remaining == 0) {
      // The last digit, in closed form: its boards are packed + d, at positions one apart (its
      // weight is 1), and canonical for every d above a[depth - period] (a Lyndon word), and
      // for that one when the period divides the pits (a power of one). As the loop below would
      // find them, d by d.
      int low = a[depth - period] + (pits % period == 0 ? 0 : 1);
      int high = capacity;
      if (from > packed) {
        low = static_cast<int>(std::min<Packed>(
            std::max<Packed>(static_cast<Packed>(low), from - packed), capacity + 1));
      }
      if (to <= packed) return;
      if (to - packed <= static_cast<Packed>(high)) high = static_cast<int>(to - packed) - 1;
      for (int d = low; d <= high; ++d) {
        const std::uint64_t p = position + static_cast<std::uint64_t>(d - a[1]) - start;
        bits[p / 64] |= std::uint64_t{1} << (p % 64);
      }
      return;
    }
    for (int d = a[depth - period]; d <= capacity; ++d) {
      const Packed prefix = packed | static_cast<Packed>(d) << shift;
      if (prefix >= to) break;
      if ((prefix | ((Packed{1} << shift) - 1)) < from) continue;
      a[depth] = d;
      std::uint64_t here = position;
      if (depth == 1) {
        // The top digit is the fewest beads, t: the block of positions of t, in base C + 1 - t.
        Packed all = 0;
        for (int pit = 0; pit < pits; ++pit)
          all |= static_cast<Packed>(d) << (4 * pit);
        here = index.position(all);
        const auto base = static_cast<std::uint64_t>(capacity + 1 - d);
        weight[static_cast<std::size_t>(pits)] = 1;
        for (int i = pits - 1; i >= 2; --i)
          weight[static_cast<std::size_t>(i)] = weight[static_cast<std::size_t>(i) + 1] * base;
      } else {
        here += static_cast<std::uint64_t>(d - a[1]) * weight[static_cast<std::size_t>(depth)];
      }
      const int next_period = d == a[depth - period] ? period : depth;
      if (remaining == 0) {
        if (pits % next_period == 0 && prefix >= from) {
          const std::uint64_t p = here - start;
          bits[p / 64] |= std::uint64_t{1} << (p % 64);
        }
        continue;
      }
      self(self, depth + 1, next_period, prefix, here);
    }
  };
  extend(extend, 1, 1, 0, 0);
}

}  // namespace

std::uint64_t make_index_lines(const RingIndex& index, std::uint64_t first, std::uint64_t count,
                               std::uint64_t rank, std::uint64_t* lines) {
  std::memset(lines, 0, count * kLineWords * sizeof(std::uint64_t));
  const std::uint64_t all = index.lines();
  if (first >= all) return rank;
  const std::uint64_t real = std::min(count, all - first);
  const std::uint64_t start = first * kLinePositions;
  const std::uint64_t end = std::min((first + real) * kLinePositions, index.positions());
  const Packed to = end < index.positions() ? index.board_at(end) : ~Packed{0};
  // The bits first, side by side, then into their lines' data words.
  std::vector<std::uint64_t> bits(static_cast<std::size_t>(real * 6), 0);
  mark_canonical(index, index.board_at(start), to, start, bits.data());
  for (std::uint64_t l = 0; l < real; ++l) {
    std::uint64_t* line = lines + kLineWords * l;
    std::copy_n(bits.data() + 6 * l, 6, line + 2);
    line[0] = rank;
    line[1] = line_counts(line);
    for (int word = 0; word < 6; ++word)
      rank += static_cast<std::uint64_t>(std::popcount(line[2 + word]));
  }
  return rank;
}

}  // namespace ioiwari
