// `ioiwari opponent`: player 2 in the role of a judge, as the IOI's practice opponent was.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "ioiwari/core/match.hpp"
#include "ioiwari/core/strategy.hpp"
#include "ioiwari/core/table.hpp"

namespace ioiwari {

// The exit statuses of `ioiwari opponent`: how player 1 did.
enum class OpponentExit : int {
  player1_won = 0,
  player1_tied = 10,
  player1_lost = 11,
  player1_broke_protocol = 12,  // a bad move, input that ended early, or a closed pipe
};

struct OpponentOptions {
  Board start;  // a board of the ring played
  Strategy strategy = Strategy::optimal;
  std::uint64_t seed = 0;  // for the strategy's random choices
};

struct OpponentResult {
  OpponentExit exit = OpponentExit::player1_won;
  Match game;                   // the moves as played, up to a fault
  std::string fault;            // what player 1 did wrong, when it broke the protocol
  std::string summary() const;  // one line: "player 1 wins 11 to 9", or the fault
};

// Writes the start line to `out`, then reads player 1's moves from `in` and answers each with
// the strategy's move, a line each, flushed, until the board is empty or player 1 errs.
OpponentResult run_opponent(std::istream& in, std::ostream& out, const Table& table,
                            const OpponentOptions& options);

// The dialogue with both banks after each move, and the result, for --record.
void write_record(std::ostream& out, const OpponentResult& result, const OpponentOptions& options);

}  // namespace ioiwari
