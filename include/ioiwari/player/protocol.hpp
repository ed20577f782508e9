// The player program of docs/protocol.md: reads the start and the opponent's
// moves, writes its own moves, one a line, flushed.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include "ioiwari/core/match.hpp"
#include "ioiwari/core/table.hpp"
#include "ioiwari/input/reading.hpp"

namespace ioiwari {

// What a protocol game tells whoever watches it (a person at a terminal); by default nothing.
class ProtocolObserver {
 public:
  virtual ~ProtocolObserver() = default;
  // Before the start is read: a start of `ring`.
  virtual void reading_start(Ring /*ring*/) {}
  virtual void started(const Match& /*game*/) {}
  // After every move, either side's: the move is game.history().back().
  virtual void moved(const Match& /*game*/) {}
  // Before the opponent's move is read.
  virtual void reading_move(const Match& /*game*/) {}
};

// The table a game is played by, given its start once it is read: a player can then solve only
// the boards that start can reach.
using TableForStart = std::function<const Table&(const Board& start)>;

// Plays one game as `me` with the table's best moves: reads the start (ring.pits tokens) and the
// opponent's moves from `in`, writes each of its own moves to `out` on a line of its own and
// flushes. Returns as soon as a move has emptied the board, without reading further. On bad
// input it stops at once, writes nothing more to `out`, and says why in the result.
// `observer`, when given, is told of each step.
ProtocolResult play_protocol(std::istream& in, std::ostream& out, Ring ring,
                             const TableForStart& table_for, Player me = Player::first,
                             ProtocolObserver* observer = nullptr);

// The same with a table solved beforehand.
ProtocolResult play_protocol(std::istream& in, std::ostream& out, const Table& table,
                             Player me = Player::first, ProtocolObserver* observer = nullptr);

}  // namespace ioiwari
