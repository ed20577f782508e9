// Reading what a game's other side sends: a start, a board, a move, from whitespace-separated
// tokens (docs/protocol.md), with one line saying what was wrong and where.
#pragma once

#include <string>
#include <string_view>

#include "ioiwari/core/exit_code.hpp"
#include "ioiwari/core/match.hpp"
#include "ioiwari/input/token.hpp"

namespace ioiwari {

// How reading (or a whole protocol game) went: ok, or the exit status of what went wrong and
// one line saying what.
struct ProtocolResult {
  ExitCode code = ExitCode::ok;
  std::string error;  // one line, without the program name; empty when code is ok
};

// Reads ring.pits bead counts (0..ring.capacity each) from `reader` into `board`, or says what
// was wrong and at which pit; messages call the counts `what` ("start, pit 3: ...").
ProtocolResult read_board(TokenReader& reader, Board& board, std::string_view what, Ring ring = {});

// Reads a start: a board as read_board() reads it, with at least one bead.
ProtocolResult read_start(TokenReader& reader, Board& start, Ring ring = {});

// Reads the next move of the player to move in `game` into `pit`, or says what was wrong with
// it (not an integer, not a pit, an empty pit, or the end of input).
ProtocolResult read_move(TokenReader& reader, const Match& game, Pit& pit);

// "move 3 (player 2)": where a message about the next move of `game` points.
std::string move_place(const Match& game);

}  // namespace ioiwari
