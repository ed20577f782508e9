// The arguments of `ioiwari analyze`: any words (split at NUL bytes, as argv would be) give a
// board to analyse, or one line saying what was wrong.
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "ioiwari/analysis/analysis.hpp"

using namespace ioiwari;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> args;
  std::string_view rest = bytes;
  while (!rest.empty()) {
    const auto end = rest.find('\0');
    args.push_back(rest.substr(0, end));
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  std::string error;
  const auto board = board_from_arguments(args, Ring::ioi(), error);
  if (!board) {
    FUZZ_CHECK(!error.empty());
    FUZZ_CHECK(error.find('\n') == std::string::npos);
    return 0;
  }
  const Analysis analysis = analyze(fuzz::table(), *board);
  FUZZ_CHECK(analysis.line.over());
  FUZZ_CHECK(analysis.line.bank(Player::first) - analysis.line.bank(Player::second) ==
             analysis.value);
  std::ostringstream out;
  write_analysis(out, analysis, size % 2 == 0);
  FUZZ_CHECK(!out.str().empty());
  return 0;
}
