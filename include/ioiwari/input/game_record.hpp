// A game of `ioiwari play` kept in a file (`--record FILE`) and played back (`--replay FILE`):
// the ring, the start, which player the person was, the opponent's strategy, and the moves.
// docs/playing.md ("Keeping a game") states the format.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ioiwari/core/board.hpp"
#include "ioiwari/core/match.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/strategy.hpp"

namespace ioiwari {

struct GameRecord {
  Ring ring;
  Board start;  // a board of `ring` with at least one bead
  Player person = Player::first;
  Strategy opponent = Strategy::optimal;
  std::vector<Pit> moves;  // both players', in order, each legal where it is played
};

// What is wrong with a record file: one line that names its line.
class GameRecordError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The record of `game`, played by `person` against `opponent`, as the lines of one game.
std::string write_game_record(const Match& game, Player person, Strategy opponent);

// Every game of a record file, in order. Throws GameRecordError for anything that is not one:
// a line out of place, a ring not played, a start not of the ring, a move that is not legal
// where it is played.
std::vector<GameRecord> read_game_records(std::string_view text);

}  // namespace ioiwari
