// What a solve that keeps only some layers in memory would need, for a ring too large for this
// machine's memory: the bytes of each layer if its classes were indexed by layer (its values,
// one byte a class, and index lines of 64 bytes for every 384 of its positions in LayerIndex,
// layer_index.hpp), the memory of a window of W solved layers and the layer being solved, and
// how far down a move reaches: the share of all moves that take k beads off the board. A move
// that takes more beads than the window holds layers needs a layer that is not in memory.
//
// The counts of classes are Burnside's (burnside.hpp, exact), the positions LayerIndex's (exact);
// the moves are counted exactly, by playing every move of every class with sow() (sowing.hpp),
// when the ring has at most EXACT classes, and otherwise estimated from SAMPLES random boards of
// each bead count (uniform over the boards of that count, so a class weighs by its rotations:
// the symmetric classes, a millionth of a large ring, are under-counted), each layer weighed by
// its classes.
//
// Usage: layer_plan PITS CAPACITY [SAMPLES [EXACT]]   (defaults 2000 and 200,000,000)
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <utility>
#include <vector>

#include "ioiwari/core/burnside.hpp"
#include "ioiwari/core/layer_index.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_index.hpp"
#include "ioiwari/core/sowing.hpp"

namespace {

using ioiwari::Packed;

// ways[n][s]: strings of n digits 0..cap adding up to s.
std::vector<std::vector<double>> string_counts(int pits, int capacity) {
  const int most = pits * capacity;
  std::vector<std::vector<double>> ways(static_cast<std::size_t>(pits) + 1,
                                        std::vector<double>(static_cast<std::size_t>(most) + 1));
  ways[0][0] = 1;
  for (int n = 1; n <= pits; ++n)
    for (int s = 0; s <= most; ++s)
      for (int d = 0; d <= capacity && d <= s; ++d)
        ways[static_cast<std::size_t>(n)][static_cast<std::size_t>(s)] +=
            ways[static_cast<std::size_t>(n) - 1][static_cast<std::size_t>(s - d)];
  return ways;
}

// The beads that the move from `pit` takes off `board`.
int beads_taken(Packed board, int pit, int pits, int capacity) {
  ioiwari::PackedPits pack{board};
  const ioiwari::Sown sown = ioiwari::sow(pack, pit, pits, capacity, [](auto...) {});
  return sown.mover_gain + sown.opponent_gain;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: layer_plan PITS CAPACITY [SAMPLES [EXACT]]\n");
    return 2;
  }
  const ioiwari::Ring ring{std::atoi(argv[1]), std::atoi(argv[2])};
  const int samples = argc > 3 ? std::atoi(argv[3]) : 2000;
  const double exact_limit = argc > 4 ? std::atof(argv[4]) : 2e8;
  const int pits = ring.pits, capacity = ring.capacity, most = ring.max_beads();
  const ioiwari::LayerCounts classes = ioiwari::classes_by_beads(ring);
  double all_classes = 0;
  for (int b = 0; b <= most; ++b)
    all_classes += static_cast<double>(classes[static_cast<std::size_t>(b)]);
  const bool exact = all_classes <= exact_limit;

  // Each layer's bytes: its values and the lines of its positions (layer_index.hpp).
  const ioiwari::LayerIndex layer_index(ring);
  std::vector<double> bytes(static_cast<std::size_t>(most) + 1);
  double all_bytes = 0;
  for (int b = 0; b <= most; ++b) {
    const std::uint64_t lines = (layer_index.positions(b) + 383) / 384;
    bytes[static_cast<std::size_t>(b)] =
        static_cast<double>(classes[static_cast<std::size_t>(b)]) + 64 * static_cast<double>(lines);
    all_bytes += bytes[static_cast<std::size_t>(b)];
  }

  // How many moves take k beads, by k.
  std::vector<double> taken(static_cast<std::size_t>(most) + 2);
  std::mt19937_64 random(2026);
  const auto full_ways = string_counts(pits, capacity);
  for (int b = 1; b <= most; ++b) {
    const auto count_moves = [&](Packed board, double weight) {
      for (int pit = 0; pit < pits; ++pit)
        if (ioiwari::digit(board, pit) > 0)
          taken[static_cast<std::size_t>(beads_taken(board, pit, pits, capacity))] += weight;
    };
    if (exact) {
      ioiwari::for_each_necklace(pits, capacity, b, [&](Packed board) { count_moves(board, 1); });
      continue;
    }
    const double weight = static_cast<double>(classes[static_cast<std::size_t>(b)]) / samples;
    for (int s = 0; s < samples; ++s) {
      // Digit by digit, each drawn in proportion to the boards that can follow it.
      Packed board = 0;
      int left = b;
      for (int pit = 0; pit < pits; ++pit) {
        const auto& rest = full_ways[static_cast<std::size_t>(pits - 1 - pit)];
        double total = 0;
        for (int d = 0; d <= capacity && d <= left; ++d)
          total += rest[static_cast<std::size_t>(left - d)];
        double pick = std::uniform_real_distribution<double>(0, total)(random);
        int d = 0;
        for (; d < capacity && d < left; ++d) {
          pick -= rest[static_cast<std::size_t>(left - d)];
          if (pick < 0) break;
        }
        board |= static_cast<Packed>(d) << (4 * pit);
        left -= d;
      }
      count_moves(board, weight);
    }
  }
  double moves = 0;
  for (double count : taken)
    moves += count;

  std::printf("ring of %d pits, capacity %d: %.0f classes, %.2f GB indexed by layer\n", pits,
              capacity, all_classes, all_bytes / 1e9);
  if (exact)
    std::printf("moves: %.0f (every move counted)\n", moves);
  else
    std::printf("moves: %.4g (estimated)\n", moves);
  std::printf("beads taken  share of moves  moves taking more  moves\n");
  int deepest = 1;
  for (int k = 1; k <= most; ++k)
    if (taken[static_cast<std::size_t>(k)] > 0) deepest = k;
  double more = moves;
  for (int k = 1; k <= deepest; ++k) {
    more -= taken[static_cast<std::size_t>(k)];
    std::printf("%11d  %14.7f  %17.7f  %.0f\n", k, taken[static_cast<std::size_t>(k)] / moves,
                std::max(0.0, more) / moves, taken[static_cast<std::size_t>(k)]);
  }
  std::printf("window  largest: W layers below and the one solved\n");
  for (int w = 1; w <= 10; ++w) {
    double largest = 0;
    for (int b = 0; b <= most; ++b) {
      double sum = 0;
      for (int j = 0; j <= w && j <= b; ++j)
        sum += bytes[static_cast<std::size_t>(b - j)];
      largest = std::max(largest, sum);
    }
    std::printf("%6d  %.2f GB\n", w, largest / 1e9);
  }
  // What a successor's position costs: the ring's (RingIndex) and the layer's (LayerIndex), on
  // the same random boards with their fewest beads on top, each timed over the whole array.
  {
    std::vector<Packed> boards(1 << 22);
    std::vector<int> beads(boards.size());
    for (std::size_t i = 0; i < boards.size(); ++i) {
      Packed board = 0;
      int fewest = capacity, sum = 0;
      for (int pit = 0; pit + 1 < pits; ++pit) {
        const int d = static_cast<int>(random() % static_cast<std::uint64_t>(capacity + 1));
        fewest = std::min(fewest, d);
        sum += d;
        board |= static_cast<Packed>(d) << (4 * pit);
      }
      const int top = static_cast<int>(random() % static_cast<std::uint64_t>(fewest + 1));
      boards[i] = board | static_cast<Packed>(top) << (4 * (pits - 1));
      beads[i] = sum + top;
    }
    const ioiwari::RingIndex ring_index(ring);
    const auto time = [&](auto&& position) {
      std::uint64_t sum = 0;
      const auto start = std::chrono::steady_clock::now();
      for (int round = 0; round < 4; ++round)
        for (std::size_t i = 0; i < boards.size(); ++i)
          sum += position(i);
      const std::chrono::duration<double, std::nano> took =
          std::chrono::steady_clock::now() - start;
      return std::pair{took.count() / (4.0 * static_cast<double>(boards.size())), sum};
    };
    const auto [ring_ns, ring_sum] =
        time([&](std::size_t i) { return ring_index.position(boards[i]); });
    const auto [layer_ns, layer_sum] =
        time([&](std::size_t i) { return layer_index.position(boards[i], beads[i]); });
    std::printf(
        "a position: %.1f ns in the ring's index, %.1f ns in its layer's (sums %llu, %llu)\n",
        ring_ns, layer_ns, static_cast<unsigned long long>(ring_sum % 1000),
        static_cast<unsigned long long>(layer_sum % 1000));
  }
  double largest_layer = 0;
  int at = 0;
  for (int b = 0; b <= most; ++b) {
    if (bytes[static_cast<std::size_t>(b)] > largest_layer) {
      largest_layer = bytes[static_cast<std::size_t>(b)];
      at = b;
    }
  }
  std::printf("largest layer: %d beads, %" PRIu64 " classes, %.2f GB\n", at,
              classes[static_cast<std::size_t>(at)], largest_layer / 1e9);
  return 0;
}
