// FNV-1a, 64 bits: a hash of bytes fed one at a time, for a game's hash of its states (game.hpp)
// and for any fingerprint of a solved game.
#pragma once

#include <cstdint>

namespace negamax {

class Fnv1a {
 public:
  constexpr void add(std::uint8_t byte) {
    hash_ ^= byte;
    hash_ *= 0x100000001b3ULL;
  }
  constexpr std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

}  // namespace negamax
