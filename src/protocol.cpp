#include "ioiwari/protocol.hpp"

#include <istream>
#include <ostream>
#include <vector>

#include "ioiwari/token.hpp"

namespace ioiwari {

namespace {

ProtocolResult fail(ExitCode code, std::string message) {
  return {code, std::move(message)};
}

// "move 3 (player 2)": where a message about a move points.
std::string move_place(const Game& game) {
  return "move " + std::to_string(game.move_number()) + " (player " +
         std::to_string(number(game.to_move())) + ")";
}

}  // namespace

ProtocolResult read_board(TokenReader& reader, Board& board, std::string_view what, Ring ring) {
  std::vector<int> counts(static_cast<std::size_t>(ring.pits));
  for (int i = 0; i < ring.pits; ++i) {
    const std::string where = std::string(what) + ", pit " + std::to_string(i + 1) + ": ";
    const auto token = reader.next();
    if (!token) {
      const std::string expected = std::to_string(ring.pits) + " bead counts";
      return fail(ExitCode::input_ended,
                  i == 0 ? "input ended before the " + std::string(what) + ": expected " + expected
                         : "input ended after " + std::to_string(i) + " of the " + expected +
                               " of the " + std::string(what));
    }
    const Number number = parse_number(*token);
    if (number.kind == Number::Kind::not_integer) {
      return fail(ExitCode::bad_start, where + quoted(*token) + " is not an integer");
    }
    if (number.kind == Number::Kind::too_large || number.value < 0 ||
        number.value > ring.capacity) {
      return fail(ExitCode::bad_start, where + quoted(*token) + " beads: a pit holds 0 to " +
                                           std::to_string(ring.capacity));
    }
    counts[static_cast<std::size_t>(i)] = static_cast<int>(number.value);
  }
  board = *Board::from_counts(counts, ring);
  return {};
}

ProtocolResult read_start(TokenReader& reader, Board& start, Ring ring) {
  if (auto result = read_board(reader, start, "start", ring); result.code != ExitCode::ok) {
    return result;
  }
  if (start.empty()) return fail(ExitCode::bad_start, "start: every pit is empty");
  return {};
}

ProtocolResult read_move(TokenReader& reader, const Game& game, Pit& pit) {
  const auto token = reader.next();
  if (!token) {
    return fail(ExitCode::input_ended,
                "input ended before " + move_place(game) + ": the game is not over");
  }
  const Number number = parse_number(*token);
  if (number.kind == Number::Kind::not_integer) {
    return fail(ExitCode::bad_move,
                move_place(game) + ": " + quoted(*token) + " is not an integer");
  }
  const int pits = game.board().size();
  const auto named =
      number.kind == Number::Kind::integer ? Pit::from_label(number.value, pits) : std::nullopt;
  if (!named) {
    return fail(ExitCode::bad_move, move_place(game) + ": " + quoted(*token) +
                                        " is not a pit: pits are 1 to " + std::to_string(pits));
  }
  if (!game.board().is_legal(*named)) {
    return fail(ExitCode::bad_move,
                move_place(game) + ": pit " + std::to_string(named->label()) + " is empty");
  }
  pit = *named;
  return {};
}

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
  watch.reading_start();
  if (auto result = read_start(reader, start, ring); result.code != ExitCode::ok) {
    return result;
  }
  const Table& table = table_for(start);
  Game game(start);
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
