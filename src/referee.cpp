#include "ioiwari/referee.hpp"

#include <algorithm>
#include <atomic>
#include <iomanip>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <system_error>
#include <thread>

#include "ioiwari/game.hpp"
#include "ioiwari/process.hpp"
#include "ioiwari/token.hpp"

namespace ioiwari {

std::string_view name(Verdict verdict) {
  switch (verdict) {
    case Verdict::win:
      return "win";
    case Verdict::tie:
      return "tie";
    case Verdict::loss:
      return "loss";
    case Verdict::unreadable_move:
      return "unreadable move";
    case Verdict::out_of_range:
      return "move out of range";
    case Verdict::empty_pit:
      return "empty pit";
    case Verdict::timeout:
      return "time limit";
    case Verdict::early_exit:
      return "exit before the end";
    case Verdict::output_after_end:
      return "output after the end";
    case Verdict::nonzero_exit:
      return "non-zero exit";
    case Verdict::killed_by_signal:
      return "killed by a signal";
  }
  return "?";
}

namespace {

std::string trimmed(std::string_view line) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!line.empty() && is_space(line.front()))
    line.remove_prefix(1);
  while (!line.empty() && is_space(line.back()))
    line.remove_suffix(1);
  return std::string(line);
}

// The verdict on a player whose output has closed: how did it end?
void judge_exit(ChildProcess& child, GameReport& report, Clock::time_point deadline,
                bool game_over) {
  auto [verdict, detail] =
      verdict_at_exit(child.wait_until(deadline), game_over, report.bank1, report.bank2);
  report.verdict = verdict;
  report.detail = std::move(detail);
}

}  // namespace

GameReport referee_game(const std::vector<std::string>& player, const Board& start,
                        Strategy strategy, std::uint64_t seed, const Table& table,
                        const RefereeLimits& limits) {
  GameReport report;
  report.start = start;
  report.strategy = strategy;
  report.seed = seed;
  Random random(seed);
  Game game(start);
  std::optional<ChildProcess> started;
  try {
    started.emplace(player);
  } catch (const std::system_error& error) {
    report.verdict = Verdict::early_exit;
    report.detail = error.what();
    return report;
  }
  ChildProcess& child = *started;
  const auto game_deadline = Clock::now() + limits.per_game;
  std::ostringstream start_line;
  start_line << start << '\n';
  child.write(start_line.str());

  const auto finish = [&](Verdict verdict, std::string detail) {
    report.verdict = verdict;
    report.detail = std::move(detail);
    child.kill();
    report.player_errors = child.error_output();
    return report;
  };

  std::string line;
  while (!game.over()) {
    const std::string where = "move " + std::to_string(game.move_number()) + ": ";
    if (game.to_move() == Player::second) {
      const Pit pit = choose_move(strategy, game.board(), table, random);
      game.play(pit);
      report.moves.push_back(pit);
      report.bank1 = game.bank(Player::first);
      report.bank2 = game.bank(Player::second);
      child.write(std::to_string(pit.label()) + "\n");  // a closed pipe shows at the next read
      continue;
    }
    const auto asked = Clock::now();
    const auto deadline = std::min(asked + limits.per_move, game_deadline);
    switch (child.read_line(line, deadline, limits.max_line_bytes)) {
      case ChildProcess::Read::timeout:
        return finish(Verdict::timeout, where + "no move within the time limit");
      case ChildProcess::Read::too_long:
        return finish(
            Verdict::unreadable_move,
            where + "a line longer than " + std::to_string(limits.max_line_bytes) + " bytes");
      case ChildProcess::Read::end:
        judge_exit(child, report, Clock::now() + limits.per_move, false);
        report.detail = where + report.detail;
        return finish(report.verdict, report.detail);
      case ChildProcess::Read::line:
        break;
    }
    report.slowest_move =
        std::max<std::chrono::nanoseconds>(report.slowest_move, Clock::now() - asked);
    const std::string text = trimmed(line);
    const Number number = parse_number(text);
    if (number.kind == Number::Kind::not_integer) {
      return finish(Verdict::unreadable_move, where + ioiwari::quoted(line) + " is not an integer");
    }
    const auto pit = number.kind == Number::Kind::integer
                         ? Pit::from_label(number.value, game.board().size())
                         : std::nullopt;
    if (!pit) return finish(Verdict::out_of_range, where + ioiwari::quoted(text) + " is not a pit");
    if (!game.board().is_legal(*pit)) {
      return finish(Verdict::empty_pit, where + "pit " + text + " is empty");
    }
    game.play(*pit);
    report.moves.push_back(*pit);
    report.bank1 = game.bank(Player::first);
    report.bank2 = game.bank(Player::second);
  }

  // The game is over: the player must write nothing more and exit 0 at once, without waiting
  // for input (its standard input stays open, as a judge's would).
  const auto deadline = Clock::now() + limits.after_end;
  switch (child.read_line(line, deadline, limits.max_line_bytes)) {
    case ChildProcess::Read::line:
      return finish(Verdict::output_after_end,
                    "wrote " + ioiwari::quoted(line) + " after the last move");
    case ChildProcess::Read::too_long:
      return finish(Verdict::output_after_end, "wrote a long line after the last move");
    case ChildProcess::Read::timeout:
      return finish(Verdict::timeout, "still running after the game ended");
    case ChildProcess::Read::end:
      break;
  }
  judge_exit(child, report, deadline, true);
  return finish(report.verdict, report.detail);
}

ExitVerdict verdict_at_exit(const std::optional<ExitStatus>& status, bool game_over, int bank1,
                            int bank2) {
  if (!status) return {Verdict::timeout, "closed its output but did not exit"};
  if (status->signaled) {
    return {Verdict::killed_by_signal, "killed by signal " + std::to_string(status->number)};
  }
  if (!game_over) {
    return {Verdict::early_exit,
            "exited with status " + std::to_string(status->number) + " before the game was over"};
  }
  if (status->number != 0) {
    return {Verdict::nonzero_exit, "exited with status " + std::to_string(status->number)};
  }
  if (bank1 > bank2) return {Verdict::win, ""};
  return {bank1 == bank2 ? Verdict::tie : Verdict::loss, ""};
}

int points(Verdict verdict) {
  if (verdict == Verdict::win) return kPointsForWin;
  return verdict == Verdict::tie ? kPointsForWin / 2 : 0;
}

std::vector<GameReport> run_games(const RefereePlan& plan, const Table& table,
                                  const GameDone& done) {
  const std::size_t games = plan.starts.size() * plan.strategies.size();
  std::vector<GameReport> reports(games);
  std::atomic<std::size_t> next{0};
  std::mutex telling;
  std::size_t ended = 0;
  const auto work = [&] {
    for (std::size_t i = next++; i < games; i = next++) {
      const Board& start = plan.starts[i / plan.strategies.size()];
      const Strategy strategy = plan.strategies[i % plan.strategies.size()];
      reports[i] = referee_game(plan.player, start, strategy, plan.seed + i, table, plan.limits);
      if (done) {
        const std::lock_guard lock(telling);
        done(reports[i], ++ended);
      }
    }
  };
  const auto jobs = static_cast<std::size_t>(std::max(1, plan.jobs));
  std::vector<std::thread> workers;
  for (std::size_t j = 1; j < std::min(jobs, games); ++j)
    workers.emplace_back(work);
  work();
  for (std::thread& worker : workers)
    worker.join();
  return reports;
}

namespace {

std::string moves_text(const std::vector<Pit>& moves) {
  std::string text;
  for (Pit pit : moves) {
    if (!text.empty()) text += ' ';
    text += std::to_string(pit.label());
  }
  return text;
}

std::string board_text(const Board& board) {
  std::ostringstream out;
  out << board;
  return out.str();
}

double millis(std::chrono::nanoseconds time) {
  return std::chrono::duration<double, std::milli>(time).count();
}

std::string json_string(std::string_view text) {
  std::string json = "\"";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      json += '\\';
      json += c;
    } else if (byte < 0x20 || byte >= 0x7f) {
      constexpr char kHex[] = "0123456789abcdef";
      json += "\\u00";
      json += kHex[byte >> 4];
      json += kHex[byte & 0xf];
    } else {
      json += c;
    }
  }
  return json + "\"";
}

struct Totals {
  std::array<int, kVerdictCount> counts{};
  int points = 0;
  const GameReport* slowest = nullptr;
};

Totals totals(const std::vector<GameReport>& reports) {
  Totals totals;
  for (const GameReport& report : reports) {
    ++totals.counts[static_cast<int>(report.verdict)];
    totals.points += points(report.verdict);
    if (totals.slowest == nullptr || report.slowest_move > totals.slowest->slowest_move) {
      totals.slowest = &report;
    }
  }
  return totals;
}

}  // namespace

void write_summary(std::ostream& out, const RefereePlan& plan,
                   const std::vector<GameReport>& reports, int show_failures) {
  const Totals sum = totals(reports);
  out << "ioiwari referee: " << reports.size() << " games (" << plan.starts.size() << " starts x "
      << plan.strategies.size() << " strategies), " << plan.jobs
      << (plan.jobs == 1 ? " job" : " jobs") << '\n';
  for (int v = 0; v < kVerdictCount; ++v) {
    out << "  " << std::left << std::setw(22) << name(static_cast<Verdict>(v)) << std::right
        << std::setw(6) << sum.counts[v] << '\n';
  }
  out << "points: " << sum.points << " of " << kPointsForWin * reports.size() << '\n';
  if (sum.slowest != nullptr) {
    out << "slowest move: " << std::fixed << std::setprecision(1)
        << millis(sum.slowest->slowest_move) << " ms (start " << sum.slowest->start << ", "
        << name(sum.slowest->strategy) << ")\n";
  }
  int shown = 0;
  for (const GameReport& report : reports) {
    if (report.verdict == Verdict::win) continue;
    if (shown++ == show_failures) {
      out << "...\n";
      break;
    }
    out << "not won: start " << report.start << ", " << name(report.strategy) << ", seed "
        << report.seed << ": " << name(report.verdict);
    if (!report.detail.empty()) out << " (" << report.detail << ")";
    out << "; banks " << report.bank1 << " " << report.bank2 << "; moves "
        << (report.moves.empty() ? "none" : moves_text(report.moves)) << '\n';
  }
  out << (sum.counts[static_cast<int>(Verdict::win)] == static_cast<int>(reports.size())
              ? "every game won\n"
              : "not every game won\n");
}

void write_json(std::ostream& out, const RefereePlan& plan,
                const std::vector<GameReport>& reports) {
  const Totals sum = totals(reports);
  out << "{\"games\": " << reports.size() << ", \"starts\": " << plan.starts.size()
      << ", \"strategies\": [";
  for (std::size_t i = 0; i < plan.strategies.size(); ++i) {
    out << (i ? ", " : "") << json_string(name(plan.strategies[i]));
  }
  out << "], \"jobs\": " << plan.jobs << ", \"verdicts\": {";
  for (int v = 0; v < kVerdictCount; ++v) {
    out << (v ? ", " : "") << json_string(name(static_cast<Verdict>(v))) << ": " << sum.counts[v];
  }
  out << "}, \"points\": " << sum.points << ", \"max_points\": " << kPointsForWin * reports.size()
      << ", \"slowest_move_ms\": " << std::fixed << std::setprecision(3)
      << (sum.slowest ? millis(sum.slowest->slowest_move) : 0.0) << ", \"not_won\": [";
  bool first = true;
  for (const GameReport& report : reports) {
    if (report.verdict == Verdict::win) continue;
    out << (first ? "" : ", ") << "{\"start\": " << json_string(board_text(report.start))
        << ", \"strategy\": " << json_string(name(report.strategy)) << ", \"seed\": " << report.seed
        << ", \"verdict\": " << json_string(name(report.verdict))
        << ", \"detail\": " << json_string(report.detail) << ", \"bank1\": " << report.bank1
        << ", \"bank2\": " << report.bank2 << ", \"moves\": [";
    for (std::size_t i = 0; i < report.moves.size(); ++i) {
      out << (i ? ", " : "") << report.moves[i].label();
    }
    out << "]}";
    first = false;
  }
  out << "], \"all_won\": "
      << (sum.counts[static_cast<int>(Verdict::win)] == static_cast<int>(reports.size()) ? "true"
                                                                                         : "false")
      << "}\n";
}

}  // namespace ioiwari
