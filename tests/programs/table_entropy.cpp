// How small a ring's table could be: the entropy of its values and of its index, measured on the
// ring solved in memory, beside what format 4 stores (docs/table-format.md: a byte a class for
// the values, 64 bytes for every 384 positions for the index).
//
// The values, in bits a class: order 0 (one table of frequencies for the whole file); given the
// class's layer (its bead count); given the value of the class before it in rank order; given
// both; and what real coders of blocks of 4,096 classes (a page of format 4's values) would
// take: one Huffman code for the file, one for each layer, and an adaptive order-1 model that
// starts afresh at each block (its ideal code length, which an arithmetic or ANS coder comes
// within a fraction of a percent of). Each block may be decoded alone, as a look-up needs.
//
// The index, in bits a class: format 4's; the order-0 entropy of its bitmap of canonical
// positions; and an index of the first rank of each line alone (8 bytes a line), the bitmap
// found again by enumerating the line's canonical boards, with the time that takes a line.
//
// Usage: table_entropy PITS CAPACITY
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <vector>

#include "ioiwari/core/ring_geometry.hpp"
#include "ioiwari/core/ring_index.hpp"
#include "ioiwari/core/ring_solver.hpp"
#include "ioiwari/core/ring_table.hpp"

using namespace ioiwari;

namespace {

constexpr std::size_t kSymbols = 256;
constexpr std::uint64_t kBlock = 4096;

double entropy_bits(const std::vector<std::uint64_t>& counts) {
  std::uint64_t total = 0;
  for (const std::uint64_t c : counts)
    total += c;
  double bits = 0;
  for (const std::uint64_t c : counts) {
    if (c > 0)
      bits -=
          static_cast<double>(c) * std::log2(static_cast<double>(c) / static_cast<double>(total));
  }
  return bits;  // of all the symbols counted
}

// The lengths of a Huffman code for `counts` (0 for a symbol never seen).
std::vector<int> huffman_lengths(const std::vector<std::uint64_t>& counts) {
  struct Node {
    std::uint64_t weight;
    int index;
  };
  const auto heavier = [](const Node& a, const Node& b) { return a.weight > b.weight; };
  std::priority_queue<Node, std::vector<Node>, decltype(heavier)> queue(heavier);
  std::vector<int> parent(2 * counts.size(), -1);
  int next = static_cast<int>(counts.size());
  for (std::size_t s = 0; s < counts.size(); ++s) {
    if (counts[s] > 0) queue.push({counts[s], static_cast<int>(s)});
  }
  std::vector<int> lengths(counts.size(), 0);
  if (queue.size() == 1) {
    lengths[static_cast<std::size_t>(queue.top().index)] = 1;
    return lengths;
  }
  while (queue.size() > 1) {
    const Node a = queue.top();
    queue.pop();
    const Node b = queue.top();
    queue.pop();
    parent[static_cast<std::size_t>(a.index)] = next;
    parent[static_cast<std::size_t>(b.index)] = next;
    queue.push({a.weight + b.weight, next++});
  }
  for (std::size_t s = 0; s < counts.size(); ++s) {
    if (counts[s] == 0) continue;
    int length = 0;
    for (int at = static_cast<int>(s); parent[static_cast<std::size_t>(at)] >= 0;
         at = parent[static_cast<std::size_t>(at)])
      ++length;
    lengths[s] = length;
  }
  return lengths;
}

double huffman_bits(const std::vector<std::uint64_t>& counts) {
  const std::vector<int> lengths = huffman_lengths(counts);
  double bits = 0;
  for (std::size_t s = 0; s < counts.size(); ++s)
    bits += static_cast<double>(counts[s]) * lengths[s];
  return bits;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: table_entropy PITS CAPACITY\n");
    return 2;
  }
  const Ring ring{std::atoi(argv[1]), std::atoi(argv[2])};
  const auto geometry = RingGeometry::of(ring);
  const auto table = RingTable::solve(geometry, SolveOptions{});
  const std::span<const std::int8_t> values = table->values();
  const std::uint64_t classes = values.size();
  const int layers = ring.max_beads() + 1;

  std::vector<std::uint64_t> order0(kSymbols, 0);
  std::vector<std::vector<std::uint64_t>> by_layer(static_cast<std::size_t>(layers),
                                                   std::vector<std::uint64_t>(kSymbols, 0));
  std::vector<std::vector<std::uint64_t>> by_previous(kSymbols,
                                                      std::vector<std::uint64_t>(kSymbols, 0));
  std::vector<std::vector<std::uint64_t>> by_both(static_cast<std::size_t>(layers) * kSymbols);
  // The adaptive order-1 model of a block: counts from 1 (every value possible), reset at each
  // block start.
  std::vector<std::uint32_t> adaptive(kSymbols * kSymbols);
  std::vector<std::uint32_t> adaptive_total(kSymbols);
  double adaptive_bits = 0;
  const int spread = 2 * ring.pits * ring.capacity + 1;  // the values a class may have

  std::uint64_t rank = 0;
  std::size_t previous = 0;
  for_each_necklace(ring.pits, ring.capacity, -1, [&](Packed packed) {
    const auto value = static_cast<std::size_t>(static_cast<std::uint8_t>(values[rank]));
    const auto layer = static_cast<std::size_t>(beads_of(packed));
    if (rank % kBlock == 0) {
      std::fill(adaptive.begin(), adaptive.end(), 0);
      std::fill(adaptive_total.begin(), adaptive_total.end(), 0);
      previous = 0;
    }
    ++order0[value];
    ++by_layer[layer][value];
    ++by_previous[previous][value];
    auto& both = by_both[layer * kSymbols + previous];
    if (both.empty()) both.assign(kSymbols, 0);
    ++both[value];
    adaptive_bits -= std::log2((adaptive[previous * kSymbols + value] + 1.0) /
                               (adaptive_total[previous] + static_cast<double>(spread)));
    ++adaptive[previous * kSymbols + value];
    ++adaptive_total[previous];
    previous = value;
    ++rank;
  });
  if (rank != classes) {
    std::fprintf(stderr, "table_entropy: %llu classes walked, %llu solved\n",
                 static_cast<unsigned long long>(rank), static_cast<unsigned long long>(classes));
    return 1;
  }
  double layer_bits = 0, layer_huffman = 0, previous_bits = 0, both_bits = 0;
  for (const auto& counts : by_layer) {
    layer_bits += entropy_bits(counts);
    layer_huffman += huffman_bits(counts);
  }
  for (const auto& counts : by_previous)
    previous_bits += entropy_bits(counts);
  for (const auto& counts : by_both) {
    if (!counts.empty()) both_bits += entropy_bits(counts);
  }
  const double k = static_cast<double>(classes);
  std::printf("ring of %s: %llu classes\n", ring.describe().c_str(),
              static_cast<unsigned long long>(classes));
  std::printf("values, bits a class: format 4 8.000\n");
  std::printf(
      "  order 0 %.3f, given the layer %.3f, given the value before %.3f, given both %.3f\n",
      entropy_bits(order0) / k, layer_bits / k, previous_bits / k, both_bits / k);
  std::printf("  blocks of %llu: Huffman %.3f, Huffman by layer %.3f, adaptive order 1 %.3f\n",
              static_cast<unsigned long long>(kBlock), huffman_bits(order0) / k, layer_huffman / k,
              adaptive_bits / k);

  // The index.
  const std::uint64_t positions = geometry->index().positions();
  const std::uint64_t lines = geometry->lines();
  const double density = k / static_cast<double>(positions);
  const double bitmap = -(density * std::log2(density) + (1 - density) * std::log2(1 - density)) *
                        static_cast<double>(positions);
  // The time to find a line's canonical boards again: every line's, walked line by line.
  const RingIndex& index = geometry->index();
  const std::uint64_t sample = std::min<std::uint64_t>(lines, 20000);
  std::uint64_t found = 0;
  const auto begin = std::chrono::steady_clock::now();
  for (std::uint64_t s = 0; s < sample; ++s) {
    const std::uint64_t line = s * (lines / sample);
    const Packed from = index.board_at(line * kLinePositions);
    const Packed to = (line + 1) * kLinePositions < positions
                          ? index.board_at((line + 1) * kLinePositions)
                          : ~Packed{0};
    for_each_necklace(ring.pits, ring.capacity, -1, from, to, [&](Packed) { ++found; });
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  std::printf("index, bits a class: format 4 %.3f (%llu positions, %.3f of them classes)\n",
              static_cast<double>(lines) * 512 / k, static_cast<unsigned long long>(positions),
              density);
  std::printf(
      "  its bitmap's order-0 entropy %.3f; first ranks alone %.3f, each line's classes "
      "found again in %.2f us (%llu lines sampled, %.1f classes a line)\n",
      bitmap / k, static_cast<double>(lines) * 64 / k, seconds * 1e6 / static_cast<double>(sample),
      static_cast<unsigned long long>(sample),
      static_cast<double>(found) / static_cast<double>(sample));
  return 0;
}
