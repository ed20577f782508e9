// Whole protocol games on any input, as player 1 or 2 (the first byte chooses), and the
// opponent on the same input: standard output carries moves and nothing else.
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_check.hpp"
#include "ioiwari/judge/opponent.hpp"
#include "ioiwari/player/protocol.hpp"

using namespace ioiwari;

namespace {

// Every line of `out` is one pit label, and the lines are complete.
bool only_moves(const std::string& out, std::size_t& lines) {
  lines = 0;
  for (std::size_t at = 0; at < out.size(); at += 2, ++lines) {
    if (at + 1 >= out.size() || out[at] < '1' || out[at] > '0' + kPits || out[at + 1] != '\n') {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const Player me = data[0] % 2 == 0 ? Player::first : Player::second;
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  {
    std::istringstream in(input);
    std::ostringstream out;
    const ProtocolResult result = play_protocol(in, out, fuzz::table(), me);
    std::size_t moves = 0;
    FUZZ_CHECK(only_moves(out.str(), moves));
    FUZZ_CHECK((result.code == ExitCode::ok) == result.error.empty());
    FUZZ_CHECK(result.error.find('\n') == std::string::npos);
    FUZZ_CHECK(result.code != ExitCode::output_closed);
  }
  {
    std::istringstream in(input);
    std::ostringstream out;
    const OpponentResult result =
        run_opponent(in, out, fuzz::table(),
                     {*Board::from_counts(std::vector{4, 3, 2, 4, 2, 3, 2}, Ring::ioi()),
                      Strategy::optimal, data[0]});
    const std::string written = out.str();
    const auto first_line = written.find('\n');
    FUZZ_CHECK(written.substr(0, first_line + 1) == "4 3 2 4 2 3 2\n");
    std::size_t moves = 0;
    FUZZ_CHECK(only_moves(written.substr(first_line + 1), moves));
    // The opponent answers every legal move of player 1 but the last.
    FUZZ_CHECK(result.game.history().size() >= 2 * moves);
    FUZZ_CHECK((result.exit == OpponentExit::player1_broke_protocol) != result.fault.empty());
    FUZZ_CHECK(result.exit == OpponentExit::player1_broke_protocol || result.game.over());
  }
  return 0;
}
