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

// Recomputes every hash of a table file's bytes: each page's, each block's, the top hashes, the
// root and the header's, where the header says they are (as far as the bytes go). The offsets are
// the format's, written out as a reader who had only the document would.
inline void reseal(std::vector<unsigned char>& bytes) {
  constexpr std::uint64_t block = 65536, page = 4096, hash = 32, group = 16 * hash;
  if (bytes.size() < block) return;
  const std::uint64_t blocks = field(bytes, 88);
  const std::uint64_t pages_at = field(bytes, 128), blocks_at = field(bytes, 136);
  const auto put = [&](std::uint64_t at, const Digest& digest) {
    if (at + hash <= bytes.size())
      std::copy(digest.begin(), digest.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at));
  };
  if (blocks_at <= bytes.size() && pages_at <= blocks_at &&
      blocks <= (bytes.size() - blocks_at) / hash) {
    for (std::uint64_t b = 0; b < blocks && block * (b + 2) <= bytes.size(); ++b) {
      for (std::uint64_t p = 0; p < 16; ++p)
        put(pages_at + group * b + hash * p,
            sha256(std::span(bytes).subspan(block * (b + 1) + page * p, page)));
      if (pages_at + group * (b + 1) <= bytes.size())
        put(blocks_at + hash * b, sha256(std::span(bytes).subspan(pages_at + group * b, group)));
    }
    // The top hashes: of each 4096 bytes of the block hashes, the last as long as what is left.
    const std::uint64_t top_at = field(bytes, 192);
    if (top_at == blocks_at + hash * blocks && top_at <= bytes.size()) {
      const std::uint64_t pages = (blocks + 127) / 128;
      for (std::uint64_t p = 0; p < pages; ++p) {
        const std::uint64_t from = blocks_at + page * p;
        put(top_at + hash * p,
            sha256(std::span(bytes).subspan(from, std::min(page, top_at - from))));
      }
      if (top_at + hash * pages <= bytes.size())
        put(160, sha256(std::span(bytes).subspan(top_at, hash * pages)));
    }
  }
  std::fill_n(bytes.begin() + 32, 32, 0);
  put(32, sha256(std::span(bytes).first(block)));
}

}  // namespace ioiwari::test
