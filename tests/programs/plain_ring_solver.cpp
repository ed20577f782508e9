// The plain way to solve a ring of Ioiwari, the yardstick for ioiwari's ring solver: written
// from the rules alone (docs/rules.md), sharing no code with ioiwari.
//
//   - one byte of value for every board code, (C+1)^N bytes;
//   - layer by layer of bead count, every layer shared by two threads;
//   - only the smallest rotation of each class is solved, and its value is written to all the
//     class's rotations, so that a successor's value is one look-up by its code, with no
//     canonical form to compute.
//
// Usage: plain_ring_solver PITS CAPACITY [--every-class]
// It prints, for every start of the ring (2 to min(4, C) beads a pit, 3N - 1 in all), its code
// and its value for player 1, a line each in code order; with --every-class, every class's
// canonical code and value instead. On standard error, the moves it made and the solve's time.
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <thread>
#include <vector>

namespace {

constexpr int kMostPits = 16;

struct Ring {
  int pits = 0, capacity = 0, base = 0;
  std::array<std::uint64_t, kMostPits + 1> power{};  // base^i
};

using Digits = std::array<int, kMostPits>;  // digit i: the beads of pit i + 1

std::uint64_t code_of(const Ring& ring, const Digits& digits) {
  std::uint64_t code = 0;
  for (int i = ring.pits - 1; i >= 0; --i)
    code = code * static_cast<std::uint64_t>(ring.base) + static_cast<std::uint64_t>(digits[i]);
  return code;
}

// The code of the board turned by one pit: pit i's beads go to pit i + 1, the last to pit 1.
std::uint64_t turned(const Ring& ring, std::uint64_t code) {
  const std::uint64_t top = ring.power[static_cast<std::size_t>(ring.pits - 1)];
  return code % top * static_cast<std::uint64_t>(ring.base) + code / top;
}

// Sows pit `from`; returns the mover's net gain.
int sow(const Ring& ring, Digits& pits, int from) {
  int hand = pits[from];
  pits[from] = 0;
  int net = 0;
  int at = from;
  while (hand > 1) {
    at = (at + 1) % ring.pits;
    if (pits[at] == ring.capacity) {
      --pits[at];
      ++net;
    } else {
      ++pits[at];
      --hand;
    }
  }
  at = (at + 1) % ring.pits;
  if (pits[at] > 0 && pits[at] < ring.capacity) {
    net += pits[at] + 1;
    pits[at] = 0;
  } else {
    net -= 1;
  }
  return net;
}

// Every necklace of the ring with `beads` beads (any number when negative): the digit strings that
// no rotation makes smaller, read with pit N as the most significant digit (so each is its class's
// smallest code). Generated in lexicographic order by the algorithm of Fredricksen, Kessler and
// Maiorana, the branches that cannot reach the bead count cut off.
void necklaces(const Ring& ring, int beads, std::vector<std::uint64_t>& out) {
  std::array<int, kMostPits + 1> a{};  // a[1..n]: a[1] is the most significant digit
  const int n = ring.pits;
  const auto extend = [&](auto&& self, int t, int p, int sum) -> void {
    if (t > n) {
      if (n % p == 0 && (beads < 0 || sum == beads)) {
        Digits digits{};
        for (int i = 1; i <= n; ++i)
          digits[n - i] = a[i];
        out.push_back(code_of(ring, digits));
      }
      return;
    }
    const int left = n - t;
    for (int d = a[t - p]; d <= ring.capacity; ++d) {
      if (beads >= 0 && sum + d > beads) break;
      if (beads >= 0 && sum + d + left * ring.capacity < beads) continue;
      a[t] = d;
      self(self, t + 1, d == a[t - p] ? p : t, sum + d);
    }
  };
  extend(extend, 1, 1, 0);
}

// Solves the classes in codes[from, to): each from its successors' values, all in lower
// layers, then writes it to every rotation. Returns how many moves it made.
std::uint64_t solve(const Ring& ring, std::int8_t* value, const std::uint64_t* from,
                    const std::uint64_t* to) {
  std::uint64_t made = 0;
  for (const std::uint64_t* at = from; at != to; ++at) {
    Digits digits{};
    std::uint64_t rest = *at;
    for (int i = 0; i < ring.pits; ++i) {
      digits[i] = static_cast<int>(rest % static_cast<std::uint64_t>(ring.base));
      rest /= static_cast<std::uint64_t>(ring.base);
    }
    int best = -1000;
    bool moved = false;
    for (int pit = 0; pit < ring.pits; ++pit) {
      if (digits[pit] == 0) continue;
      Digits after = digits;
      const int net = sow(ring, after, pit);
      best = std::max(best, net - value[code_of(ring, after)]);
      moved = true;
      ++made;
    }
    const auto solved = static_cast<std::int8_t>(moved ? best : 0);
    std::uint64_t code = *at;
    for (int turn = 0; turn < ring.pits; ++turn) {
      value[code] = solved;
      code = turned(ring, code);
    }
  }
  return made;
}

}  // namespace

int main(int argc, char** argv) {
  const bool every_class = argc == 4 && std::string_view(argv[3]) == "--every-class";
  if (argc != 3 && !every_class) {
    std::fprintf(stderr, "usage: plain_ring_solver PITS CAPACITY [--every-class]\n");
    return 2;
  }
  Ring ring;
  ring.pits = std::atoi(argv[1]);
  ring.capacity = std::atoi(argv[2]);
  if (ring.pits < 3 || ring.pits > 14 || ring.capacity < 1 || ring.capacity > 9) {
    std::fprintf(stderr, "plain_ring_solver: 3 to 14 pits, capacity 1 to 9\n");
    return 2;
  }
  ring.base = ring.capacity + 1;
  ring.power[0] = 1;
  for (int i = 1; i <= ring.pits; ++i)
    ring.power[static_cast<std::size_t>(i)] =
        ring.power[static_cast<std::size_t>(i - 1)] * static_cast<std::uint64_t>(ring.base);
  const std::uint64_t codes = ring.power[static_cast<std::size_t>(ring.pits)];
  // Zeroed pages, given by the kernel as they are first touched.
  void* memory = ::mmap(nullptr, codes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    std::perror("plain_ring_solver: mmap");
    return 1;
  }
  ::madvise(memory, codes, MADV_HUGEPAGE);
  auto* value = static_cast<std::int8_t*>(memory);

  const auto begin = std::chrono::steady_clock::now();
  std::vector<std::uint64_t> layer;
  std::uint64_t moves = 0;
  for (int beads = 0; beads <= ring.pits * ring.capacity; ++beads) {
    layer.clear();
    necklaces(ring, beads, layer);
    const std::size_t half = layer.size() / 2;
    std::uint64_t helped = 0;
    std::thread helper([&] { helped = solve(ring, value, layer.data(), layer.data() + half); });
    moves += solve(ring, value, layer.data() + half, layer.data() + layer.size());
    helper.join();
    moves += helped;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  std::fprintf(stderr, "plain_ring_solver: %d pits, capacity %d: %llu moves, solved in %.1f s\n",
               ring.pits, ring.capacity, static_cast<unsigned long long>(moves), seconds);

  if (every_class) {
    std::vector<std::uint64_t> all;
    necklaces(ring, -1, all);
    for (const std::uint64_t code : all)
      std::printf("%llu %d\n", static_cast<unsigned long long>(code), value[code]);
    return 0;
  }
  // Every start, in code order: 2 to min(4, C) beads a pit, 3N - 1 in all.
  const int low = 2, high = std::min(4, ring.capacity), total = 3 * ring.pits - 1;
  Digits digits{};
  const auto starts = [&](auto&& self, int pit, int left) -> void {
    if (pit < 0) {
      if (left == 0)
        std::printf("%llu %d\n", static_cast<unsigned long long>(code_of(ring, digits)),
                    value[code_of(ring, digits)]);
      return;
    }
    for (int beads = low; beads <= high; ++beads) {
      if (left - beads < pit * low || left - beads > pit * high) continue;
      digits[pit] = beads;
      self(self, pit - 1, left - beads);
    }
  };
  starts(starts, ring.pits - 1, total);
  return 0;
}
