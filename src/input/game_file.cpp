#include "ioiwari/input/game_file.hpp"

#include <array>
#include <charconv>
#include <limits>
#include <sstream>
#include <vector>

#include "textio/quoted.hpp"

namespace ioiwari {

namespace {

constexpr std::string_view kMagic = "ioiwari game 1";
// The keys of the lines after the first, in their order.
constexpr std::array<std::string_view, 5> kKeys = {"pits", "capacity", "start", "strategy", "seed"};

[[noreturn]] void refuse(int line, const std::string& what) {
  throw GameFileError("line " + std::to_string(line) + ": " + what);
}

// A decimal number without sign or leading zero, at most `most`.
std::uint64_t number(std::string_view text, std::uint64_t most, int line, std::string_view key) {
  std::uint64_t value = 0;
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos &&
                      (text.size() == 1 || text.front() != '0');
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (!digits || error != std::errc{} || end != text.data() + text.size() || value > most) {
    refuse(line, std::string(key) + " is a number 0 to " + std::to_string(most) + ", not " +
                     textio::quoted(text));
  }
  return value;
}

}  // namespace

std::string write_game_file(const GameFile& game) {
  std::ostringstream text;
  text << kMagic << "\npits " << game.ring.pits << "\ncapacity " << game.ring.capacity << "\nstart "
       << game.start << "\nstrategy " << name(game.strategy) << "\nseed " << game.seed << '\n';
  return text.str();
}

GameFile read_game_file(std::string_view text) {
  // The lines, each with its newline.
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    if (end == std::string_view::npos) refuse(static_cast<int>(lines.size()) + 1, "no newline");
    lines.push_back(text.substr(0, end));
    text.remove_prefix(end + 1);
  }
  if (lines.size() != kKeys.size() + 1) {
    throw GameFileError("a game file has " + std::to_string(kKeys.size() + 1) + " lines, not " +
                        std::to_string(lines.size()));
  }
  if (lines[0] != kMagic) {
    refuse(1, "a game file begins " + textio::quoted(kMagic) + ", not " + textio::quoted(lines[0]));
  }
  // Each value, after its key and one space.
  std::array<std::string_view, kKeys.size()> values;
  for (std::size_t i = 0; i < kKeys.size(); ++i) {
    const std::string_view line = lines[i + 1];
    const int at = static_cast<int>(i) + 2;
    if (!line.starts_with(kKeys[i]) || line.size() < kKeys[i].size() + 2 ||
        line[kKeys[i].size()] != ' ') {
      refuse(at, "expected " + textio::quoted(std::string(kKeys[i]) + " ...") + ", not " +
                     textio::quoted(line));
    }
    values[i] = line.substr(kKeys[i].size() + 1);
  }
  GameFile game;
  game.ring.pits = static_cast<int>(number(values[0], kMaxPits, 2, "pits"));
  game.ring.capacity = static_cast<int>(number(values[1], kMaxCapacity, 3, "capacity"));
  if (!game.ring.playable()) {
    refuse(3, "no ring of " + std::to_string(game.ring.pits) + " pits and capacity " +
                  std::to_string(game.ring.capacity) + " is played (3 to 16 pits, 1 to 9 a pit, " +
                  std::to_string(kMaxRingBeads) + " beads in all)");
  }
  std::vector<int> counts;
  std::string_view rest = values[2];
  while (true) {
    const auto space = rest.find(' ');
    counts.push_back(static_cast<int>(number(rest.substr(0, space),
                                             static_cast<std::uint64_t>(game.ring.capacity), 4,
                                             "each pit of the start")));
    if (space == std::string_view::npos) break;
    rest.remove_prefix(space + 1);
  }
  const auto start = Board::from_counts(counts, game.ring);
  if (!start) {
    refuse(4, "the start has " + std::to_string(counts.size()) + " pits, not " +
                  std::to_string(game.ring.pits));
  }
  if (start->empty()) refuse(4, "the start holds no bead");
  game.start = *start;
  const auto strategy = strategy_named(values[3]);
  if (!strategy) refuse(5, "no strategy " + textio::quoted(values[3]));
  game.strategy = *strategy;
  game.seed = number(values[4], static_cast<std::uint64_t>(std::numeric_limits<long long>::max()),
                     6, "seed");
  return game;
}

std::string write_answer(int value) {
  return "value " + (value > 0 ? "+" + std::to_string(value) : std::to_string(value)) + "\n";
}

int read_answer(std::string_view text) {
  const std::string_view prefix = "value ";
  if (!text.starts_with(prefix) || !text.ends_with('\n')) {
    throw GameFileError("line 1: an answer file is one line \"value V\", not " +
                        textio::quoted(text.substr(0, text.find('\n'))));
  }
  std::string_view value = text.substr(prefix.size(), text.size() - prefix.size() - 1);
  const bool negative = value.starts_with('-');
  const bool positive = value.starts_with('+');
  if (negative || positive) value.remove_prefix(1);
  const auto magnitude = static_cast<int>(number(value, kMaxRingBeads, 1, "the value"));
  if ((magnitude == 0) == (negative || positive)) {
    throw GameFileError(
        "line 1: a value is +V, -V or 0, not " +
        textio::quoted(text.substr(prefix.size(), text.size() - prefix.size() - 1)));
  }
  return negative ? -magnitude : magnitude;
}

}  // namespace ioiwari
