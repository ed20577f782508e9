#include "ioiwari/referee.hpp"

#include <algorithm>
#include <sstream>

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
  const auto status = child.wait_until(deadline);
  if (!status) {
    report.verdict = Verdict::timeout;
    report.detail = "closed its output but did not exit";
  } else if (status->signaled) {
    report.verdict = Verdict::killed_by_signal;
    report.detail = "killed by signal " + std::to_string(status->number);
  } else if (!game_over) {
    report.verdict = Verdict::early_exit;
    report.detail =
        "exited with status " + std::to_string(status->number) + " before the game was over";
  } else if (status->number != 0) {
    report.verdict = Verdict::nonzero_exit;
    report.detail = "exited with status " + std::to_string(status->number);
  } else if (report.bank1 > report.bank2) {
    report.verdict = Verdict::win;
  } else {
    report.verdict = report.bank1 == report.bank2 ? Verdict::tie : Verdict::loss;
  }
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
  ChildProcess child(player);
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
      return finish(Verdict::unreadable_move, where + quoted(line) + " is not an integer");
    }
    const auto pit =
        number.kind == Number::Kind::integer ? Pit::from_label(number.value) : std::nullopt;
    if (!pit) return finish(Verdict::out_of_range, where + quoted(text) + " is not a pit");
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
  const auto deadline = Clock::now() + limits.per_move;
  switch (child.read_line(line, deadline, limits.max_line_bytes)) {
    case ChildProcess::Read::line:
      return finish(Verdict::output_after_end, "wrote " + quoted(line) + " after the last move");
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

}  // namespace ioiwari
