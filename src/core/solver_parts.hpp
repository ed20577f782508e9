// What the two solvers of a ring share (ring_solver.cpp in memory, tier_solver.cpp past it): how
// they run on threads, how far ahead they ask memory for what they will read, how they count their
// lines, and whether the CPU counts bits in one instruction.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <vector>

// WebAssembly without threads (the page in a browser, docs/browser.md): a solve runs on the one
// thread there is. Everywhere else, on as many as it asks for.
#if defined(__wasi__)
#define IOIWARI_ONE_THREAD 1
#else
#include <mutex>
#include <system_error>
#include <thread>
#endif

#include "ioiwari/core/ring_solver.hpp"

namespace ioiwari {

// How far ahead a look-up asks memory for the lines it will read. A core of today keeps scores
// of reads in flight, and a batch's lines and values (10,000 of each on 12 pits) fit its cache:
// asking 128 places ahead solved 12 pits in 15 s where 16 took 22 s. (tests/programs/
// lookup_floor.cpp, the memory floor of scripts/compare --rings, reads the same way.)
inline constexpr std::size_t kAhead = 128;

// Runs work(thread) on up to `threads` threads, this one thread 0; rethrows, once all are done,
// the first exception any of them threw. Every caller's work is shared out by a counter, so the
// threads that start do all of it: where the system gives no more threads (a sandbox that lets
// a program run one process, as CMS's box for a task's manager does), it is done on fewer, at
// the least on this one.
template <class Work>
void on_threads([[maybe_unused]] int threads, Work&& work) {
#ifdef IOIWARI_ONE_THREAD
  work(0);
#else
  std::mutex mutex;
  std::exception_ptr failed;
  const auto guarded = [&](int thread) {
    try {
      work(thread);
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!failed) failed = std::current_exception();
    }
  };
  std::vector<std::thread> helpers;
  helpers.reserve(static_cast<std::size_t>(threads - 1));
  for (int t = 1; t < threads; ++t) {
    try {
      helpers.emplace_back([&guarded, t] { guarded(t); });
    } catch (const std::system_error&) {
      break;  // no thread to be had: the threads made take the rest
    }
  }
  guarded(0);
  for (std::thread& helper : helpers)
    helper.join();
  if (failed) std::rethrow_exception(failed);
#endif
}

// The threads a solve with `options` uses: options.threads, or one per core.
inline int solve_threads(const SolveOptions& options) {
#ifdef IOIWARI_ONE_THREAD
  static_cast<void>(options);
  return 1;
#else
  if (options.threads > 0) return options.threads;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
#endif
}

// Writes the counts of `count` marked lines: each line's first rank, from `rank` on, and the bits
// before each of its words (ring_index.hpp). Returns the rank after the last line.
inline std::uint64_t count_lines(std::uint64_t* lines, std::uint64_t count, std::uint64_t rank) {
  for (std::uint64_t l = 0; l < count; ++l) {
    std::uint64_t* line = lines + kLineWords * l;
    line[0] = rank;
    line[1] = line_counts(line);
    for (int word = 0; word < 6; ++word)
      rank += static_cast<std::uint64_t>(std::popcount(line[2 + word]));
  }
  return rank;
}

#if defined(__x86_64__) && defined(__GNUC__)
// Whether the CPU has POPCNT: a rank's popcount is then one instruction, where a build for every
// x86-64 CPU calls a function for it. Each solver builds its ranks both ways and asks this once
// (CPUID), when a ring is first solved.
inline bool has_popcnt() {
  static const bool has = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_POPCNT) != 0;
  }();
  return has;
}
#endif

}  // namespace ioiwari
