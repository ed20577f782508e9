// Reading what a game's other side sends: a start, a board, a move, from whitespace-separated
// tokens (docs/protocol.md), with one line saying what was wrong and where.
#pragma once

#include <string>
#include <string_view>

#include "ioiwari/core/match.hpp"
#include "ioiwari/input/exit_code.hpp"
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
ProtocolResult read_board(TokenReader& reader, Board& board, std::string_view what, Ring ring);

// Reads a start: a board as read_board() reads it, with at least one bead.
ProtocolResult read_start(TokenReader& reader, Board& start, Ring ring);

// What is wrong with a move as written, if anything.
enum class MoveFault { none, not_integer, not_a_pit, empty_pit };
struct ParsedMove {
  MoveFault fault = MoveFault::none;
  Pit pit = Pit::at_index(0);  // the move, when there is no fault
  std::string error;           // what is wrong, at move_place(game); empty when nothing is
};

// The one reading of a move: `token` as the next move of the player to move in `game`, checked
// against its board. The player, the opponent and the referee all read moves through it.
ParsedMove parse_move(std::string_view token, const Match& game);

// Reads the next move of the player to move in `game` into `pit`, or says what was wrong with
// it (not an integer, not a pit, an empty pit, or the end of input).
ProtocolResult read_move(TokenReader& reader, const Match& game, Pit& pit);

// "move 3 (player 2)": where a message about the next move of `game` points.
std::string move_place(const Match& game);

}  // namespace ioiwari
