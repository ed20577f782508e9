// The terminal game's prompt: any lines typed, any game state. The command parser never
// fails, and a whole session of `ioiwari play` on the input ends cleanly.
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_check.hpp"
#include "ioiwari/input/token.hpp"
#include "ioiwari/play/terminal.hpp"

using namespace ioiwari;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string typed(reinterpret_cast<const char*>(data), size);
  std::istringstream lines(typed);
  std::string line;
  while (std::getline(lines, line)) {
    const Command command = parse_command(line, kPits);
    if (command.kind == Command::Kind::move) {
      FUZZ_CHECK(command.pit.label() >= 1 && command.pit.label() <= kPits);
    }
    FUZZ_CHECK(command.text.size() <= TokenReader::kMaxKept);
  }
  PlayOptions options;
  options.start = *Board::from_counts(std::vector{3, 3, 3, 3, 3, 3, 2}, Ring::ioi());
  options.person = size > 0 && data[0] % 2 == 1 ? Player::second : Player::first;
  std::istringstream in(typed);
  std::ostringstream out;
  FUZZ_CHECK(play_terminal(in, out, fuzz::table(), options) == 0);
  return 0;
}
