#include "ioiwari/input/reading.hpp"

#include <vector>

namespace ioiwari {

namespace {

ProtocolResult fail(ExitCode code, std::string message) {
  return {code, std::move(message)};
}

}  // namespace

std::string move_place(const Match& game) {
  return "move " + std::to_string(game.move_number()) + " (player " +
         std::to_string(number(game.to_move())) + ")";
}

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

ParsedMove parse_move(std::string_view token, const Match& game) {
  const Number number = parse_number(token);
  if (number.kind == Number::Kind::not_integer) {
    return {MoveFault::not_integer, Pit::at_index(0),
            move_place(game) + ": " + quoted(token) + " is not an integer"};
  }
  const int pits = game.board().size();
  const auto named =
      number.kind == Number::Kind::integer ? Pit::from_label(number.value, pits) : std::nullopt;
  if (!named) {
    return {MoveFault::not_a_pit, Pit::at_index(0),
            move_place(game) + ": " + quoted(token) + " is not a pit: pits are 1 to " +
                std::to_string(pits)};
  }
  if (!game.board().is_legal(*named)) {
    return {MoveFault::empty_pit, *named,
            move_place(game) + ": pit " + std::to_string(named->label()) + " is empty"};
  }
  return {MoveFault::none, *named, ""};
}

ProtocolResult read_move(TokenReader& reader, const Match& game, Pit& pit) {
  const auto token = reader.next();
  if (!token) {
    return fail(ExitCode::input_ended,
                "input ended before " + move_place(game) + ": the game is not over");
  }
  ParsedMove move = parse_move(*token, game);
  if (move.fault != MoveFault::none) return fail(ExitCode::bad_move, std::move(move.error));
  pit = move.pit;
  return {};
}

}  // namespace ioiwari
