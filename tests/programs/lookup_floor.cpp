// The memory floor of a ring's solve: how long this machine takes for the look-ups alone. A solve
// of a ring looks up, for every move of every class, a line of the index (64 bytes somewhere in
// the index) and then a value (a byte somewhere in the values, at a place the line gives). This
// program does as many such pairs of reads, at random places in arrays of the ring's sizes, the
// way the solver does them (in batches, each line asked for 128 places ahead and each value as soon
// as its line is read, as src/core/ring_solver.cpp's look_up() asks, on 2 threads), and nothing
// else. Written for scripts/compare --rings; it shares no code with ioiwari.
//
// Usage: lookup_floor PITS CAPACITY MOVES
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t kBatch = 16384;
constexpr std::size_t kAhead = 128;  // src/core/solver_parts.hpp's kAhead

std::uint64_t power(std::uint64_t base, int exponent) {
  std::uint64_t result = 1;
  for (int i = 0; i < exponent; ++i)
    result *= base;
  return result;
}

void* zeroed(std::size_t bytes) {
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    std::perror("lookup_floor: mmap");
    std::exit(1);
  }
  ::madvise(memory, bytes, MADV_HUGEPAGE);
  return memory;
}

// A fast random sequence (xorshift64*).
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1dULL;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: lookup_floor PITS CAPACITY MOVES\n");
    return 2;
  }
  const int pits = std::atoi(argv[1]);
  const int capacity = std::atoi(argv[2]);
  const std::uint64_t moves = std::strtoull(argv[3], nullptr, 10);
  // The sizes of ioiwari's table of the ring: lines of 64 bytes for every 384 of the
  // sum over t of (C + 1 - t)^(N - 1) positions, and about (C + 1)^N / N values.
  std::uint64_t positions = 0;
  for (int fewest = 0; fewest <= capacity; ++fewest)
    positions += power(static_cast<std::uint64_t>(capacity + 1 - fewest), pits - 1);
  const std::uint64_t lines = (positions + 383) / 384;
  const std::uint64_t classes =
      power(static_cast<std::uint64_t>(capacity + 1), pits) / static_cast<std::uint64_t>(pits);
  auto* index = static_cast<std::uint64_t*>(zeroed(lines * 64));
  auto* values = static_cast<std::int8_t*>(zeroed(classes));
  // Every line says where its classes' values begin, as a rank would.
  for (std::uint64_t line = 0; line < lines; ++line)
    index[8 * line] = line * classes / lines;
  for (std::uint64_t at = 0; at < classes; at += 4096)
    values[at] = 1;

  const auto begin = std::chrono::steady_clock::now();
  std::vector<std::int64_t> sums(2, 0);
  const auto work = [&](int thread) {
    Random random{0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(thread + 1)};
    std::vector<std::uint64_t> asked(kBatch);
    std::int64_t sum = 0;
    for (std::uint64_t done = 0; done < moves / 2; done += kBatch) {
      for (std::uint64_t& line : asked)
        line = random.next() % lines;
      // The ranks from the lines, then the values by rank, each asked for ahead.
      for (std::size_t i = 0; i < kBatch; ++i) {
        if (i + kAhead < kBatch) __builtin_prefetch(index + 8 * asked[i + kAhead]);
        asked[i] = index[8 * asked[i]] + (asked[i] & 63);
        __builtin_prefetch(values + asked[i]);
      }
      for (std::size_t i = 0; i < kBatch; ++i) {
        if (i + kAhead < kBatch) __builtin_prefetch(values + asked[i + kAhead]);
        sum += values[asked[i]];
      }
    }
    sums[static_cast<std::size_t>(thread)] = sum;
  };
  std::thread helper(work, 1);
  work(0);
  helper.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  std::printf("%.1f\n", seconds);
  std::fprintf(stderr, "lookup_floor: %llu look-ups in %.1f s (%lld)\n",
               static_cast<unsigned long long>(moves), seconds,
               static_cast<long long>(sums[0] + sums[1]));
  return 0;
}
