// The game file: one game of a judge system's test data, which `ioiwari package` writes and the
// interactor (`interact`), the CMS manager (`manage`) and the input validator (`validate`)
// read; and its answer file, the start's value with perfect play. Both formats are in
// docs/judging.md ("The game file").
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "ioiwari/core/board.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/strategy.hpp"

namespace ioiwari {

struct GameFile {
  Ring ring;
  Board start;  // a board of `ring` with at least one bead
  Strategy strategy = Strategy::optimal;
  std::uint64_t seed = 0;  // for the strategy's random choices
};

// What is wrong with a game or answer file: one line that names the line of the file.
class GameFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The text of a game file, exactly as read_game_file() reads it.
std::string write_game_file(const GameFile& game);
// Reads the whole text of a game file, strictly: its six lines, in order, each "key value" with
// single spaces, decimal numbers without sign or leading zero, and a newline at the end of each.
// Throws GameFileError.
GameFile read_game_file(std::string_view text);

// The answer file: "value V\n", the start's value for player 1 with perfect play ("+2", "0",
// "-4").
std::string write_answer(int value);
// Throws GameFileError.
int read_answer(std::string_view text);

}  // namespace ioiwari
