#include "ioiwari/judge/opponent.hpp"

#include <istream>
#include <ostream>

#include "ioiwari/input/reading.hpp"
#include "ioiwari/input/token.hpp"

namespace ioiwari {

std::string OpponentResult::summary() const {
  const std::string banks =
      std::to_string(game.bank(Player::first)) + " to " + std::to_string(game.bank(Player::second));
  switch (exit) {
    case OpponentExit::player1_won:
      return "player 1 wins " + banks;
    case OpponentExit::player1_tied:
      return "player 1 ties " + banks;
    case OpponentExit::player1_lost:
      return "player 1 loses " + banks;
    case OpponentExit::player1_broke_protocol:
      return "player 1 broke the protocol: " + fault;
  }
  return fault;
}

OpponentResult run_opponent(std::istream& in, std::ostream& out, const Table& table,
                            const OpponentOptions& options) {
  OpponentResult result{OpponentExit::player1_won, Match(options.start), {}};
  Match& game = result.game;
  Random random(options.seed);
  TokenReader reader(in);
  const auto broke = [&](std::string fault) {
    result.exit = OpponentExit::player1_broke_protocol;
    result.fault = std::move(fault);
    return result;
  };
  out << options.start << '\n' << std::flush;
  while (!game.over()) {
    if (!out) {
      return broke("player 1 stopped reading before move " + std::to_string(game.move_number()));
    }
    Pit pit = Pit::at_index(0);
    if (game.to_move() == Player::first) {
      if (auto read = read_move(reader, game, pit); read.code != ExitCode::ok) {
        return broke(read.error);
      }
      game.play(pit);
    } else {
      pit = choose_move(options.strategy, game.board(), table, random);
      table.check_unchanged();
      game.play(pit);
      // A failed write shows at the next turn; after the last move it is no fault, as a
      // player may see the end coming and leave.
      out << pit.label() << '\n' << std::flush;
    }
  }
  const int lead = game.bank(Player::first) - game.bank(Player::second);
  result.exit = lead > 0    ? OpponentExit::player1_won
                : lead == 0 ? OpponentExit::player1_tied
                            : OpponentExit::player1_lost;
  return result;
}

void write_record(std::ostream& out, const OpponentResult& result, const OpponentOptions& options) {
  out << "# ioiwari opponent, strategy " << name(options.strategy) << ", seed " << options.seed
      << "\n# move | pits 1.." << options.start.size() << " | bank 1 bank 2\n"
      << result.game << "# " << result.summary() << '\n';
}

}  // namespace ioiwari
