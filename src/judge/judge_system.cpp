#include "ioiwari/judge/judge_system.hpp"

#include <istream>
#include <sstream>

#include "ioiwari/input/token.hpp"
#include "ioiwari/judge/referee.hpp"

namespace ioiwari {

SystemGame judge_system_game(std::istream& in, std::ostream& out, const Table& table,
                             const GameFile& game) {
  const OpponentOptions options{game.start, game.strategy, game.seed};
  SystemGame judged{run_opponent(in, out, table, options), 0, {}, {}};
  OpponentResult& result = judged.result;
  if (result.exit != OpponentExit::player1_broke_protocol) {
    TokenReader reader(in);
    if (const auto more = reader.next()) {
      result.exit = OpponentExit::player1_broke_protocol;
      result.fault = "output after the end of the game: " + quoted(*more);
    }
  }
  switch (result.exit) {
    case OpponentExit::player1_won:
      judged.points = points(Verdict::win);
      break;
    case OpponentExit::player1_tied:
      judged.points = points(Verdict::tie);
      break;
    case OpponentExit::player1_lost:
    case OpponentExit::player1_broke_protocol:
      break;
  }
  std::ostringstream record;
  write_record(record, result, options);
  judged.judge_message = record.str();
  judged.team_message = result.summary() + "\n";
  return judged;
}

}  // namespace ioiwari
