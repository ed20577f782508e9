// Format 5's coded pages (table_compressed.hpp), as anyone may have crafted them: the input is
// a code's lengths (a byte each for the 256 value bytes, taken modulo 14, so that some are over
// the longest a code may be), a count of values, and a page's bytes. Lengths that make no code
// are refused; a page that decodes is the one coding of what it decodes to (encoding it again
// gives its bytes back), so that no two files hold one table; nothing reads outside the page
// (AddressSanitizer watches), and nothing crashes.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "fuzz_invariant.hpp"
#include "ioiwari/core/table_compressed.hpp"

using namespace ioiwari;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 258) return 0;
  ValueCode::Lengths lengths{};
  std::uint64_t room = 0;  // Kraft's sum, in units of 2^-12
  bool too_long = false;
  for (std::size_t b = 0; b < 256; ++b) {
    lengths[b] = static_cast<std::uint8_t>(data[b] % 14);
    if (lengths[b] > kMostCodeBits) too_long = true;
    if (lengths[b] > 0 && lengths[b] <= kMostCodeBits)
      room += std::uint64_t{1} << (kMostCodeBits - lengths[b]);
  }
  const auto code = ValueCode::of(lengths);
  FUZZ_CHECK(code.has_value() == (!too_long && room <= (std::uint64_t{1} << kMostCodeBits)));
  if (!code) return 0;
  const std::size_t count = (data[256] | std::size_t{data[257]} << 8) % (kCodedPageClasses + 1);
  const std::span<const unsigned char> page(data + 258, size - 258);
  std::vector<std::int8_t> values(count);
  if (code->decode(page, values)) {
    std::vector<unsigned char> again;
    code->encode(values, again);
    FUZZ_CHECK(again.size() == page.size());
    FUZZ_CHECK(std::equal(again.begin(), again.end(), page.begin()));
    for (const std::int8_t value : values)
      FUZZ_CHECK(lengths[static_cast<std::uint8_t>(value)] > 0);
  }
  return 0;
}
