#include "ioiwari/player/protocol.hpp"

#include <istream>
#include <ostream>
#include <vector>

namespace ioiwari {

namespace {

ProtocolResult fail(ExitCode code, std::string message) {
  return {code, std::move(message)};
}

}  // namespace

ProtocolResult play_protocol(std::istream& in, std::ostream& out, const Table& table, Player me,
                             ProtocolObserver* observer) {
  return play_protocol(
      in, out, table.ring(), [&](const Board&) -> const Table& { return table; }, me, observer);
}

ProtocolResult play_protocol(std::istream& in, std::ostream& out, Ring ring,
                             const TableForStart& table_for, Player me,
                             ProtocolObserver* observer) {
  ProtocolObserver silent;
  ProtocolObserver& watch = observer != nullptr ? *observer : silent;
  TokenReader reader(in);
  Board start;
  watch.reading_start(ring);
  if (auto result = read_start(reader, start, ring); result.code != ExitCode::ok) {
    return result;
  }
  const Table& table = table_for(start);
  Match game(start);
  watch.started(game);
  while (!game.over()) {
    Pit pit = Pit::at_index(0);
    if (game.to_move() == me) {
      pit = *table.best_move(game.board());
      table.check_unchanged();  // a move read from a table file that changed meanwhile: none
      out << pit.label() << '\n' << std::flush;
      if (!out) {
        return fail(ExitCode::output_closed,
                    "standard output closed at " + move_place(game) + ": cannot write the move");
      }
    } else {
      watch.reading_move(game);
      if (auto result = read_move(reader, game, pit); result.code != ExitCode::ok) return result;
    }
    game.play(pit);
    watch.moved(game);
  }
  return {};
}

}  // namespace ioiwari
