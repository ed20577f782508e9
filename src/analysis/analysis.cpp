#include "ioiwari/analysis/analysis.hpp"

#include <map>
#include <ostream>
#include <sstream>

#include "ioiwari/input/reading.hpp"
#include "ioiwari/input/token.hpp"
#include "textio/number.hpp"

namespace ioiwari {

namespace {

// A board as a JSON array of counts.
std::string json_counts(const Board& board) {
  std::string json = "[";
  for (Pit pit : board.pits()) {
    if (pit.index() > 0) json += ", ";
    json += std::to_string(board.beads(pit));
  }
  return json + "]";
}

}  // namespace

std::optional<Board> board_from_arguments(std::span<const std::string_view> args, Ring ring,
                                          std::string& error) {
  std::string text;
  for (std::string_view arg : args) {
    text += arg;
    text += ' ';
  }
  std::istringstream in(text);
  TokenReader reader(in);
  std::vector<std::string> tokens;
  const auto pits = static_cast<std::size_t>(ring.pits);
  while (auto token = reader.next()) {
    tokens.push_back(*token);
    if (tokens.size() > pits) break;
  }
  const std::string counts_text = std::to_string(ring.pits) + " counts";
  if (tokens.size() == 1) {
    const Number number = parse_number(tokens.front());
    const std::uint64_t codes = ring.code_count();
    if (number.kind != Number::Kind::integer || number.value < 0 ||
        static_cast<std::uint64_t>(number.value) >= codes) {
      error = quoted(tokens.front()) + " is not a board code 0 to " + std::to_string(codes - 1) +
              " (or give " + counts_text + ")";
      return std::nullopt;
    }
    return Board::from_code(static_cast<Board::Code>(number.value), ring);
  }
  if (tokens.size() != pits) {
    error = "give " + std::to_string(ring.pits) + " bead counts or one board code, not " +
            (tokens.size() > pits ? "more" : std::to_string(tokens.size())) + " numbers";
    return std::nullopt;
  }
  std::istringstream counts(text);
  TokenReader count_reader(counts);
  Board board;
  if (auto result = read_board(count_reader, board, "board", ring); result.code != ExitCode::ok) {
    error = result.error;
    return std::nullopt;
  }
  return board;
}

Analysis analyze(const Table& table, const Board& board) {
  EndDistance distance(table);
  Analysis analysis{board, table.value(board), distance.moves(board), distance.rank(board),
                    Match(board)};
  for (Pit pit : distance.line(board))
    analysis.line.play(pit);
  return analysis;
}

void write_analysis(std::ostream& out, const Analysis& analysis, bool json) {
  const Match& line = analysis.line;
  if (json) {
    out << "{\"board\": " << json_counts(analysis.board) << ", \"code\": " << analysis.board.code()
        << ", \"beads\": " << analysis.board.total() << ", \"value\": " << analysis.value
        << ", \"to_end\": " << analysis.to_end << ", \"moves\": [";
    for (std::size_t i = 0; i < analysis.moves.size(); ++i) {
      out << (i ? ", " : "") << "{\"pit\": " << analysis.moves[i].pit.label()
          << ", \"value\": " << analysis.moves[i].value
          << ", \"to_end\": " << analysis.moves[i].moves << "}";
    }
    out << "], \"line\": [";
    int bank1 = 0, bank2 = 0;
    for (std::size_t i = 0; i < line.history().size(); ++i) {
      const Match::Ply& ply = line.history()[i];
      (ply.mover == Player::first ? bank1 : bank2) += ply.result.mover_gain;
      (ply.mover == Player::first ? bank2 : bank1) += ply.result.opponent_gain;
      out << (i ? ", " : "") << "{\"player\": " << number(ply.mover)
          << ", \"pit\": " << ply.pit.label() << ", \"board\": " << json_counts(ply.result.after)
          << ", \"bank1\": " << bank1 << ", \"bank2\": " << bank2 << "}";
    }
    out << "]}\n";
    return;
  }
  out << "board " << analysis.board << " (code " << analysis.board.code() << "), "
      << textio::counted(static_cast<unsigned long long>(analysis.board.total()), "bead", "beads")
      << "\n";
  if (analysis.moves.empty()) {
    out << "every pit is empty: the game is over\n";
    return;
  }
  out << "value for the player to move: " << textio::signed_number(analysis.value)
      << " (bank difference at the end with perfect play on both sides)\n"
      << "moves to the end with perfect play: " << analysis.to_end << "\n"
      << "moves, best first: the value, then the moves to the end, the move included\n";
  const bool two_digits = analysis.board.size() >= 10;
  for (const MoveOutlook& move : analysis.moves) {
    const std::string value = textio::signed_number(move.value);
    out << "  pit " << (two_digits && move.pit.label() < 10 ? " " : "") << move.pit.label() << ": "
        << std::string(value.size() < 3 ? 3 - value.size() : 0, ' ') << value << "  "
        << (move.moves < 10 ? " " : "") << move.moves << (move.moves == 1 ? " move " : " moves")
        << (move.value == analysis.value ? "  best" : "") << '\n';
  }
  // Columns as wide as the ring's boards and labels (the IOI ring's: 13 and 1).
  const int pits = analysis.board.size();
  const std::size_t board_width = static_cast<std::size_t>(2 * pits - 1);
  out << "best line (player 1 to move; the best move each time, as ranked above):\n"
      << "  move player " << (two_digits ? " " : "") << "pit | pits"
      << std::string(board_width - 4, ' ') << " | bank 1 bank 2\n";
  int bank1 = 0, bank2 = 0;
  for (std::size_t i = 0; i < line.history().size(); ++i) {
    const Match::Ply& ply = line.history()[i];
    (ply.mover == Player::first ? bank1 : bank2) += ply.result.mover_gain;
    (ply.mover == Player::first ? bank2 : bank1) += ply.result.opponent_gain;
    out << "  " << (i + 1 < 10 ? " " : "") << i + 1 << "   " << number(ply.mover) << "      "
        << (two_digits && ply.pit.label() < 10 ? " " : "") << ply.pit.label() << "   | "
        << ply.result.after << " | " << bank1 << ' ' << bank2 << '\n';
  }
  const int lead = line.bank(Player::first) - line.bank(Player::second);
  out << "result: " << line.bank(Player::first) << " to " << line.bank(Player::second) << ", "
      << (lead > 0   ? "player 1 wins by " + std::to_string(lead)
          : lead < 0 ? "player 2 wins by " + std::to_string(-lead)
                     : "a tie")
      << '\n';
}

Pit greedy_move(const Board& board) {
  std::optional<Pit> best;
  int best_net = 0;
  for (Pit pit : board.pits()) {
    if (!board.is_legal(pit)) continue;
    const int net = play(board, pit).net();
    if (!best || net > best_net) {
      best = pit;
      best_net = net;
    }
  }
  return *best;
}

std::vector<StartReport> census(const Table& table, const std::vector<Board>& starts,
                                bool classes_only, const std::function<void(std::size_t)>& done) {
  std::vector<StartReport> reports;
  std::size_t seen = 0;
  for (const Board& start : starts) {
    if (done) done(++seen);
    if (classes_only && start.canonical() != start) continue;
    StartReport report{start, table.value(start), {}, 0};
    for (const PitValue& move : table.analyze(start)) {
      if (move.value == report.value) report.best.push_back(move.pit);
    }
    Match game(start);
    while (!game.over()) {
      game.play(game.to_move() == Player::first ? greedy_move(game.board())
                                                : *table.best_move(game.board()));
    }
    report.greedy_margin = game.bank(Player::first) - game.bank(Player::second);
    reports.push_back(report);
  }
  return reports;
}

void write_census(std::ostream& out, const std::vector<StartReport>& starts, bool classes_only,
                  bool json, const CensusRules& rules) {
  std::map<int, int> margins;
  int first_wins = 0, first_ties = 0, greedy_wins = 0, greedy_ties = 0, greedy_losses = 0;
  for (const StartReport& report : starts) {
    ++margins[report.value];
    first_wins += report.value > 0 ? 1 : 0;
    first_ties += report.value == 0 ? 1 : 0;
    greedy_wins += report.greedy_margin > 0 ? 1 : 0;
    greedy_ties += report.greedy_margin == 0 ? 1 : 0;
    greedy_losses += report.greedy_margin < 0 ? 1 : 0;
  }
  const int first_losses = static_cast<int>(starts.size()) - first_wins - first_ties;
  const bool claim = first_wins == static_cast<int>(starts.size());
  const bool ioi = !rules.named;
  if (json) {
    out << "{";
    if (!ioi) {
      out << "\"ring\": {\"pits\": " << rules.ring.pits << ", \"capacity\": " << rules.ring.capacity
          << "}, \"start_rule\": {\"beads\": " << rules.starts.beads
          << ", \"min\": " << rules.starts.min_beads << ", \"max\": " << rules.starts.max_beads
          << "}, ";
    }
    out << "\"starts\": [";
    for (std::size_t i = 0; i < starts.size(); ++i) {
      const StartReport& report = starts[i];
      out << (i ? ", " : "") << "{\"start\": " << json_counts(report.start)
          << ", \"value\": " << report.value << ", \"best\": [";
      for (std::size_t b = 0; b < report.best.size(); ++b) {
        out << (b ? ", " : "") << report.best[b].label();
      }
      out << "], \"greedy_margin\": " << report.greedy_margin << "}";
    }
    out << "], \"count\": " << starts.size() << ", \"first_player_wins\": " << first_wins;
    if (!ioi) {
      out << ", \"first_player_ties\": " << first_ties
          << ", \"first_player_losses\": " << first_losses;
    }
    out << ", \"margins\": {";
    bool first = true;
    for (const auto& [margin, count] : margins) {
      out << (first ? "" : ", ") << "\"" << margin << "\": " << count;
      first = false;
    }
    out << "}, \"greedy\": {\"wins\": " << greedy_wins << ", \"ties\": " << greedy_ties
        << ", \"losses\": " << greedy_losses << "}, \"claim_holds\": " << (claim ? "true" : "false")
        << "}\n";
    return;
  }
  const std::size_t board_width = static_cast<std::size_t>(2 * rules.ring.pits - 1);
  if (ioi) {
    out << (classes_only ? "One start of each rotation class" : "Every IOI start")
        << ": its value for player 1 with perfect play, the first moves that\n"
        << "achieve it, and the margin a greedy player 1 ends with against perfect play.\n";
  } else {
    out << (classes_only ? "One start of each rotation class of the ring of "
                         : "Every start of the ring of ")
        << rules.ring.describe() << " (" << rules.starts.describe() << "):\n"
        << "its value for player 1 with perfect play, the first moves that achieve it, and\n"
        << "the margin a greedy player 1 ends with against perfect play.\n";
  }
  out << "  start" << std::string(board_width + 3 - 5, ' ') << "value  best moves     greedy\n";
  for (const StartReport& report : starts) {
    std::ostringstream best;
    for (std::size_t b = 0; b < report.best.size(); ++b) {
      best << (b ? " " : "") << report.best[b].label();
    }
    std::string value = textio::signed_number(report.value);
    std::string moves = best.str();
    out << "  " << report.start << "   " << value << std::string(7 - value.size(), ' ') << moves
        << std::string(moves.size() < 15 ? 15 - moves.size() : 1, ' ')
        << textio::signed_number(report.greedy_margin) << '\n';
  }
  if (ioi) {
    out << starts.size() << " starts; with perfect play player 1 wins " << first_wins << " of "
        << starts.size() << ", by";
    for (const auto& [margin, count] : margins)
      out << ' ' << margin << ": " << count << ',';
    out << (claim ? " so the task's claim holds: the first player can always win\n"
                  : " so the task's claim fails: not every start is a first-player win\n");
  } else {
    out << starts.size() << " starts; with perfect play player 1 wins " << first_wins << ", ties "
        << first_ties << " and loses " << first_losses << "; by margin";
    bool first = true;
    for (const auto& [margin, count] : margins) {
      out << (first ? " " : ", ") << textio::signed_number(margin) << ": " << count;
      first = false;
    }
    out << (claim ? "\nso the first player can always win on this ring\n"
                  : "\nso the first player cannot always win on this ring\n");
  }
  out << "a greedy player 1 against perfect play: "
      << textio::counted(static_cast<unsigned long long>(greedy_wins), "win", "wins") << ", "
      << textio::counted(static_cast<unsigned long long>(greedy_ties), "tie", "ties") << ", "
      << textio::counted(static_cast<unsigned long long>(greedy_losses), "loss", "losses") << '\n';
}

}  // namespace ioiwari
