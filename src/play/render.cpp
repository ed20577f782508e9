#include "ioiwari/play/render.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>
#include <ostream>
#include <sstream>
#include <vector>

#include "textio/number.hpp"

namespace ioiwari {

std::string Style::paint(std::string_view code, std::string_view text) const {
  if (!color_) return std::string(text);
  std::string painted = "\x1b[";
  painted += code;
  painted += 'm';
  painted += text;
  painted += "\x1b[0m";
  return painted;
}

namespace {

// The ring is drawn on a grid of text: pit 1 at the top, then clockwise. Each pit is a label
// line over a count line, centred on a point of an ellipse (wider than tall, as terminal
// characters are). Rings of up to kPits pits use the IOI ring's ellipse; larger ones a wider
// and taller one, so that neighbours keep apart.
struct Geometry {
  int rows, columns;
  double radius_x, radius_y;
};

Geometry geometry_of(int pits) {
  if (pits <= kPits) return {13, 44, 18.0, 4.6};
  const int more = pits - kPits;
  return {13 + 2 * (more / 2), 44 + 4 * more, 18.0 + 2.0 * more, 4.6 + 1.0 * (more / 2)};
}

struct Cell {
  int row, column;
};

Cell cell_of(Pit pit, int pits, const Geometry& shape) {
  const double angle = 2 * std::numbers::pi * pit.index() / pits;
  return {static_cast<int>(std::lround(shape.rows / 2.0 - shape.radius_y * std::cos(angle))),
          static_cast<int>(std::lround(shape.columns / 2.0 + shape.radius_x * std::sin(angle)))};
}

// A grid line holds plain characters; decorated pieces are kept apart so that escape codes
// do not count towards the columns.
struct Line {
  explicit Line(int columns) : text(static_cast<std::size_t>(columns) + 4, ' ') {}
  std::string text;
  std::vector<std::pair<int, std::string>> painted;  // column, decorated text
};

void put(Line& line, int column, std::string_view plain, std::string decorated) {
  for (std::size_t i = 0; i < plain.size(); ++i)
    line.text[column + i] = plain[i];
  line.painted.emplace_back(column, std::move(decorated));
}

std::string render(Line line) {
  std::sort(line.painted.begin(), line.painted.end());
  std::string out;
  std::size_t at = 0;
  for (const auto& [column, decorated] : line.painted) {
    const auto from = static_cast<std::size_t>(column);
    out += line.text.substr(at, from - at);
    out += decorated;
    // The plain text under a decorated piece is as long as the piece without its codes.
    std::size_t plain = 0;
    for (std::size_t i = 0; i < decorated.size(); ++i) {
      if (decorated[i] == '\x1b') {
        while (i < decorated.size() && decorated[i] != 'm')
          ++i;
      } else {
        ++plain;
      }
    }
    at = from + plain;
  }
  out += line.text.substr(at);
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

std::string pits_list(const std::vector<Pit>& pits) {
  std::string text;
  for (std::size_t i = 0; i < pits.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(pits[i].label());
  }
  return text;
}

std::string beads(int count) {
  return std::to_string(count) + (count == 1 ? " bead" : " beads");
}

}  // namespace

void draw_board(std::ostream& out, const Match& game, const Names& names, const Style& style) {
  const Board& board = game.board();
  std::array<bool, kMaxPits> changed{};
  std::optional<Pit> played;
  if (!game.history().empty()) {
    const Match::Ply& last = game.history().back();
    played = last.pit;
    for (Pit pit : board.pits())
      changed[static_cast<std::size_t>(pit.index())] = last.before.beads(pit) != board.beads(pit);
  }
  const Geometry shape = geometry_of(board.size());
  std::vector<Line> grid(static_cast<std::size_t>(shape.rows), Line(shape.columns));
  for (Pit pit : board.pits()) {
    const Cell cell = cell_of(pit, board.size(), shape);
    const std::string label = std::to_string(pit.label());
    // A count the last move changed is in brackets (and highlighted where there is colour).
    const bool now_changed = changed[static_cast<std::size_t>(pit.index())];
    std::string count = now_changed ? "[" : "(";
    count += std::to_string(game.board().beads(pit));
    count += now_changed ? ']' : ')';
    const std::string mark = played == pit ? "*" : "";
    put(grid[static_cast<std::size_t>(cell.row - 1)], cell.column, label + mark,
        style.bold(label) + mark);
    put(grid[static_cast<std::size_t>(cell.row)], cell.column - 1, count,
        now_changed ? style.mark(count) : count);
  }
  const std::string around = "clockwise ->";
  put(grid[static_cast<std::size_t>(shape.rows / 2)],
      shape.columns / 2 - static_cast<int>(around.size()) / 2 + 1, around, style.dim(around));
  for (const Line& line : grid) {
    const std::string text = render(line);
    if (!text.empty()) out << "  " << text << '\n';
  }
  out << "  bank of " << name_of(names, Player::first)
      << " (player 1): " << style.good(std::to_string(game.bank(Player::first))) << "    bank of "
      << name_of(names, Player::second)
      << " (player 2): " << style.good(std::to_string(game.bank(Player::second))) << '\n';
  if (game.over()) {
    out << "  game over after "
        << textio::counted(static_cast<unsigned long long>(game.history().size()), "move", "moves");
  } else {
    out << "  move " << game.move_number() << ": " << name_of(names, game.to_move()) << " to play";
  }
  if (played) out << "   (* = pit just played, [n] = a count it changed)";
  out << '\n';
}

std::string describe_last_move(const Match& game, const Names& names, const Style& style) {
  std::ostringstream out;
  const Match::Ply& ply = game.history().back();
  const std::string& mover = name_of(names, ply.mover);
  const std::string& other = name_of(names, opponent(ply.mover));
  const MoveTrace traced = trace(ply.before, ply.pit);
  std::string subject = mover;
  if (!subject.empty()) subject[0] = static_cast<char>(std::toupper(subject[0]));
  out << style.bold(subject) << " played pit " << ply.pit.label() << " ("
      << beads(ply.before.beads(ply.pit)) << ")";
  // Runs of drops are listed together; every other step is a phrase of its own.
  std::vector<Pit> drops;
  const auto flush_drops = [&] {
    if (drops.empty()) return;
    out << "; dropped in " << (drops.size() == 1 ? "pit " : "pits ") << pits_list(drops);
    drops.clear();
  };
  for (const SowStep& step : traced.steps) {
    if (step.kind == SowStep::Kind::drop) {
      drops.push_back(step.pit);
      continue;
    }
    flush_drops();
    const std::string at = std::to_string(step.pit.label());
    switch (step.kind) {
      case SowStep::Kind::skim:
        out << "; skimmed full pit " << at << ": 1 bead to " << mover;
        break;
      case SowStep::Kind::capture:
        out << "; the last bead " << style.good("captured pit " + at) << ": " << beads(step.beads)
            << " to " << mover;
        break;
      case SowStep::Kind::give_away:
        out << "; the last bead "
            << style.bad("fell on " +
                         std::string(ply.result.after.beads(step.pit) == 0 ? "empty" : "full") +
                         " pit " + at)
            << ": 1 bead to " << other;
        break;
      case SowStep::Kind::drop:
        break;
    }
  }
  flush_drops();
  out << ". Banks: " << name_of(names, Player::first) << ' ' << game.bank(Player::first) << ", "
      << name_of(names, Player::second) << ' ' << game.bank(Player::second) << '.';
  return out.str();
}

}  // namespace ioiwari
