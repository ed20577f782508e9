#include "ioiwari/input/game_record.hpp"

#include <charconv>
#include <sstream>

#include "textio/quoted.hpp"

namespace ioiwari {

namespace {

constexpr std::string_view kMagic = "ioiwari record 1";

[[noreturn]] void refuse(std::size_t line, const std::string& what) {
  throw GameRecordError("line " + std::to_string(line) + ": " + what);
}

// The value of line `number` of `lines`, which must be `key`, a space, and the value (which may
// be empty for "moves").
std::string_view value_of(const std::vector<std::string_view>& lines, std::size_t number,
                          std::string_view key) {
  if (number > lines.size()) refuse(number, "expected " + textio::quoted(key) + ", not the end");
  const std::string_view line = lines[number - 1];
  if (line == key) return {};
  if (!line.starts_with(key) || line.size() <= key.size() || line[key.size()] != ' ') {
    refuse(number, "expected " + textio::quoted(std::string(key) + " ...") + ", not " +
                       textio::quoted(line));
  }
  return line.substr(key.size() + 1);
}

// The numbers of a value, each a decimal of one or two digits without a leading zero.
std::vector<int> numbers(std::string_view value, std::size_t line, std::string_view what) {
  std::vector<int> found;
  while (!value.empty()) {
    const auto space = value.find(' ');
    const std::string_view word = value.substr(0, space);
    int number = 0;
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), number);
    if (word.empty() || word.size() > 3 || error != std::errc{} ||
        end != word.data() + word.size() || (word.size() > 1 && word.front() == '0') ||
        word.front() == '-' || word.front() == '+') {
      refuse(line, std::string(what) + " are numbers, not " + textio::quoted(word));
    }
    found.push_back(number);
    if (space == std::string_view::npos) break;
    value.remove_prefix(space + 1);
  }
  return found;
}

}  // namespace

std::string write_game_record(const Match& game, Player person, Strategy opponent) {
  std::ostringstream text;
  const Ring ring = game.start().ring();
  text << kMagic << "\npits " << ring.pits << "\ncapacity " << ring.capacity << "\nstart "
       << game.start() << "\nyou " << number(person) << "\nopponent " << name(opponent)
       << "\nmoves";
  for (const Match::Ply& ply : game.history())
    text << ' ' << ply.pit.label();
  text << '\n';
  return text.str();
}

std::vector<GameRecord> read_game_records(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    if (end == std::string_view::npos) refuse(lines.size() + 1, "no newline at its end");
    lines.push_back(text.substr(0, end));
    text.remove_prefix(end + 1);
  }
  std::vector<GameRecord> games;
  std::size_t at = 1;  // the number of the next line
  while (at <= lines.size()) {
    if (lines[at - 1].empty()) {  // between games
      ++at;
      continue;
    }
    if (lines[at - 1] != kMagic) {
      refuse(at,
             "a game begins " + textio::quoted(kMagic) + ", not " + textio::quoted(lines[at - 1]));
    }
    GameRecord game;
    const std::vector<int> pits = numbers(value_of(lines, at + 1, "pits"), at + 1, "pits");
    const std::vector<int> capacity =
        numbers(value_of(lines, at + 2, "capacity"), at + 2, "capacity");
    if (pits.size() != 1 || capacity.size() != 1) refuse(at + 1, "a ring is two numbers");
    game.ring = Ring{pits[0], capacity[0]};
    if (!game.ring.playable()) refuse(at + 2, "no ring of " + game.ring.describe() + " is played");
    const std::vector<int> counts =
        numbers(value_of(lines, at + 3, "start"), at + 3, "the start's beads");
    const auto start = Board::from_counts(counts, game.ring);
    if (!start || start->empty()) {
      refuse(at + 3, "the start is no board of " + game.ring.describe() + " with a bead");
    }
    game.start = *start;
    const std::string_view you = value_of(lines, at + 4, "you");
    if (you != "1" && you != "2")
      refuse(at + 4, "you are player 1 or 2, not " + textio::quoted(you));
    game.person = you == "1" ? Player::first : Player::second;
    const auto strategy = strategy_named(value_of(lines, at + 5, "opponent"));
    if (!strategy)
      refuse(at + 5, "no strategy " + textio::quoted(value_of(lines, at + 5, "opponent")));
    game.opponent = *strategy;
    Match replayed(game.start);
    for (const int label : numbers(value_of(lines, at + 6, "moves"), at + 6, "moves")) {
      const auto pit = Pit::from_label(label, game.ring.pits);
      if (replayed.over()) refuse(at + 6, "a move after the end of the game");
      if (!pit || !replayed.board().is_legal(*pit)) {
        refuse(
            at + 6, "move " + std::to_string(replayed.move_number()) + ", pit " +
                        std::to_string(label) + ", is not legal on " + [&] {
                          std::ostringstream board;
                          board << replayed.board();
                          return board.str();
                        }());
      }
      replayed.play(*pit);
      game.moves.push_back(*pit);
    }
    games.push_back(std::move(game));
    at += 7;
  }
  if (games.empty()) throw GameRecordError("no game is recorded in it");
  return games;
}

}  // namespace ioiwari
