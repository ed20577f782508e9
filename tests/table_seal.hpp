// Recomputing a table file's hashes after a change to its bytes, as anyone can
// (docs/table-format.md): what tests and fuzzers use to craft tables that pass every hash. Only
// the ring's true root then tells a crafted table from the true one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "ioiwari/core/sha256.hpp"
#include "ioiwari/core/table_format.hpp"

namespace ioiwari::test {

inline std::uint64_t field(const std::vector<unsigned char>& bytes, std::size_t offset) {
  std::uint64_t value;
  std::memcpy(&value, bytes.data() + offset, 8);
  return value;
}

inline void set_field(std::vector<unsigned char>& bytes, std::size_t offset, std::uint64_t value) {
  std::memcpy(bytes.data() + offset, &value, 8);
}

// Recomputes every hash of a table file's bytes: each block's, the root and the header's, where
// the header says they are (as far as the bytes go). The offsets are the format's, written out
// as a reader who had only the document would.
inline void reseal(std::vector<unsigned char>& bytes) {
  constexpr std::uint64_t block = 65536, hash = 32;
  if (bytes.size() < block) return;
  const std::uint64_t blocks = field(bytes, 88);
  const std::uint64_t hashes = field(bytes, 128);
  if (hashes <= bytes.size() && blocks <= (bytes.size() - hashes) / hash) {
    for (std::uint64_t b = 0; b < blocks && block * (b + 2) <= bytes.size(); ++b) {
      const Digest digest = sha256(std::span(bytes).subspan(block * (b + 1), block));
      std::copy(digest.begin(), digest.end(),
                bytes.begin() + static_cast<std::ptrdiff_t>(hashes + hash * b));
    }
    const Digest root = sha256(std::span(bytes).subspan(hashes, hash * blocks));
    std::copy(root.begin(), root.end(), bytes.begin() + 144);
  }
  std::fill_n(bytes.begin() + 32, 32, 0);
  const Digest header = sha256(std::span(bytes).first(block));
  std::copy(header.begin(), header.end(), bytes.begin() + 32);
}

}  // namespace ioiwari::test
