// Recomputing a table file's checksums after a change to its bytes, as anyone can
// (docs/table-format.md): what tests and fuzzers use to craft tables that pass every checksum.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "ioiwari/core/table_file.hpp"

namespace ioiwari::test {

inline std::uint64_t field(const std::vector<unsigned char>& bytes, std::size_t offset) {
  std::uint64_t value;
  std::memcpy(&value, bytes.data() + offset, 8);
  return value;
}

inline void set_field(std::vector<unsigned char>& bytes, std::size_t offset, std::uint64_t value) {
  std::memcpy(bytes.data() + offset, &value, 8);
}

// Recomputes every checksum of a table file's bytes: each block's, the list's and the header's,
// where the header says they are (as far as the bytes go).
inline void reseal(std::vector<unsigned char>& bytes) {
  constexpr std::uint64_t block = TableLayout::kBlockBytes;
  if (bytes.size() < block) return;
  const std::uint64_t blocks = field(bytes, 56);
  const std::uint64_t sums = field(bytes, 96);
  if (sums <= bytes.size() && blocks <= (bytes.size() - sums) / 8) {
    for (std::uint64_t b = 0; b < blocks && block * (b + 2) <= bytes.size(); ++b)
      set_field(bytes, sums + 8 * b, table_checksum(bytes.data() + block * (b + 1), block));
    set_field(bytes, 104, table_checksum(bytes.data() + sums, 8 * blocks));
  }
  set_field(bytes, 16, 0);
  set_field(bytes, 16, table_checksum(bytes.data(), block));
}

}  // namespace ioiwari::test
