// A small seeded generator whose sequence is the same on every platform (the standard
// distributions are not), so that `--seed N` reproduces a game anywhere.
#pragma once

#include <cstdint>

namespace ioiwari {

// SplitMix64 (Steele, Lea and Flood, 2014).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // A uniform number in 0..n-1, for n >= 1 (rejection sampling: no modulo bias).
  int below(int n) {
    const auto bound = static_cast<std::uint64_t>(n);
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t x;
    do {
      x = next();
    } while (x >= limit);
    return static_cast<int>(x % bound);
  }

 private:
  std::uint64_t state_;
};

}  // namespace ioiwari
