// The start as the protocol reads it: any bytes give a board with a bead, or one error.
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_check.hpp"
#include "ioiwari/input/reading.hpp"
#include "ioiwari/input/token.hpp"

using namespace ioiwari;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  TokenReader reader(in);
  Board start;
  const ProtocolResult result = read_start(reader, start, Ring::ioi());
  if (result.code == ExitCode::ok) {
    FUZZ_CHECK(result.error.empty());
    FUZZ_CHECK(!start.empty());
    FUZZ_CHECK(Board::from_code(start.code(), Ring::ioi()) == start);
  } else {
    FUZZ_CHECK(result.code == ExitCode::bad_start || result.code == ExitCode::input_ended);
    FUZZ_CHECK(!result.error.empty());
    FUZZ_CHECK(result.error.find('\n') == std::string::npos);  // one line
    FUZZ_CHECK(result.error.size() < 200);                     // long tokens are cut
  }
  return 0;
}
