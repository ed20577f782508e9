#include "ioiwari/judge/referee.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <iomanip>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <system_error>
#include <thread>

#include "ioiwari/core/match.hpp"
#include "ioiwari/input/token.hpp"
#include "ioiwari/judge/process.hpp"

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
    case Verdict::memory_limit:
      return "memory limit";
    case Verdict::early_exit:
      return "exit before the end";
    case Verdict::output_after_end:
      return "output after the end";
    case Verdict::nonzero_exit:
      return "non-zero exit";
    case Verdict::killed_by_signal:
      return "killed by a signal";
    case Verdict::left_behind:
      return "left processes behind";
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

std::string ms_text(std::chrono::nanoseconds time) {
  return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(time).count()) +
         " ms";
}

// How the player is contained: what the kernel enforces, below what the referee samples.
Containment containment_for(const RefereeLimits& limits) {
  Containment containment;
  containment.isolate = limits.isolate;
  // Twice the limit: a player growing past the limit is seen by a sample and judged before the
  // kernel refuses it anything.
  if (limits.data_limit) containment.data_limit_bytes = 2 * limits.memory_mb * 1024 * 1024;
  // A backstop for a referee that stops looking: the game's CPU time and a second.
  const auto all = limits.per_game + limits.after_end;
  containment.cpu_limit = std::chrono::ceil<std::chrono::seconds>(all) + std::chrono::seconds(1);
  return containment;
}

// One game's watch over its player: its CPU time, its memory, and the clock, checked at each
// move and between samples while it thinks.
class Watch {
 public:
  Watch(ChildProcess& child, const RefereeLimits& limits, const std::function<bool()>& stopped)
      : child_(child), limits_(limits), stopped_(stopped), started_(Clock::now()) {}

  enum class Over { no, cpu, wall, memory };

  // Samples the player now; what is over its limits: `limit` of CPU time since it was `since`,
  // `game_limit` in all, the clock's `wall_deadline`.
  Over check(std::chrono::nanoseconds since, std::chrono::milliseconds limit,
             std::chrono::nanoseconds game_limit, Clock::time_point wall_deadline) {
    sample();
    if (memory_kb_ > limits_.memory_mb * 1024) return Over::memory;
    if (cpu_ - since >= limit || cpu_ >= game_limit) return Over::cpu;
    if (Clock::now() >= wall_deadline) return Over::wall;
    return Over::no;
  }

  // When to look again: soon enough that a player cannot use much more than its CPU time, or
  // hold much more memory, unseen.
  Clock::time_point next_look(std::chrono::nanoseconds left,
                              Clock::time_point wall_deadline) const {
    static const auto cores = static_cast<long>(std::max(1u, std::thread::hardware_concurrency()));
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(left / cores);
    wait = std::clamp(wait, std::chrono::milliseconds(5), std::chrono::milliseconds(50));
    return std::min(wall_deadline, Clock::now() + wait);
  }

  void sample() {
    if (stopped_ && stopped_()) throw RefereeStopped();
    const Usage usage = child_.usage();
    cpu_ = std::max(cpu_, usage.cpu);
    memory_kb_ = usage.memory_kb;
    peak_kb_ = std::max(peak_kb_, memory_kb_);
  }

  std::chrono::nanoseconds cpu() const { return cpu_; }
  std::uint64_t memory_kb() const { return memory_kb_; }
  std::uint64_t peak_kb() const { return peak_kb_; }
  Clock::time_point started() const { return started_; }
  // The wall-clock counterpart of a CPU limit.
  std::chrono::milliseconds wall(std::chrono::milliseconds cpu_limit) const {
    return cpu_limit * limits_.wall_factor;
  }

 private:
  ChildProcess& child_;
  const RefereeLimits& limits_;
  const std::function<bool()>& stopped_;
  Clock::time_point started_;
  std::chrono::nanoseconds cpu_{0};
  std::uint64_t memory_kb_ = 0, peak_kb_ = 0;
};

// Why a player went over a limit, for the report's detail.
std::string over_text(Watch::Over over, const Watch& watch, std::chrono::milliseconds cpu_limit,
                      const RefereeLimits& limits, std::string_view what) {
  switch (over) {
    case Watch::Over::cpu:
      return std::string(what) + ": used " + ms_text(watch.cpu()) + " of CPU time; the limit is " +
             ms_text(cpu_limit) + " (" + ms_text(limits.per_game) + " a game)";
    case Watch::Over::wall:
      return std::string(what) + ": nothing within " + ms_text(watch.wall(cpu_limit)) +
             " of wall-clock time (it used " + ms_text(watch.cpu()) + " of CPU time)";
    case Watch::Over::memory:
      return std::string(what) + ": its processes held " +
             std::to_string(watch.memory_kb() / 1024) + " MB; the limit is " +
             std::to_string(limits.memory_mb) + " MB";
    case Watch::Over::no:
      break;
  }
  return std::string(what);
}

}  // namespace

GameReport referee_game(const std::vector<std::string>& player, const Board& start,
                        Strategy strategy, std::uint64_t seed, const Table& table,
                        const RefereeLimits& limits, const std::function<bool()>& stopped) {
  GameReport report;
  report.start = start;
  report.strategy = strategy;
  report.seed = seed;
  Random random(seed);
  Match game(start);
  ChildProcess child(player, containment_for(limits));
  Watch watch(child, limits, stopped);
  const auto game_wall = watch.started() + watch.wall(limits.per_game);
  std::ostringstream start_line;
  start_line << start << '\n';
  child.write(start_line.str());
  watch.sample();  // it has started: a first look, for a game too short for any other

  const auto finish = [&](Verdict verdict, std::string detail) {
    report.verdict = verdict;
    report.detail = std::move(detail);
    child.kill();
    report.player_errors = child.error_output();
    report.cpu = watch.cpu();
    report.peak_memory_kb = watch.peak_kb();
    report.max_rss_kb = child.max_rss_kb();
    report.wall = Clock::now() - watch.started();
    return report;
  };
  const auto verdict_of = [](Watch::Over over) {
    return over == Watch::Over::memory ? Verdict::memory_limit : Verdict::timeout;
  };
  // Reads the player's next line within `cpu_limit` of CPU time from `asked_cpu` (and its
  // wall-clock counterpart from now, within the game's), sampling meanwhile.
  std::string line;
  Watch::Over over = Watch::Over::no;
  const auto read = [&](std::chrono::nanoseconds asked_cpu, std::chrono::milliseconds cpu_limit,
                        std::chrono::nanoseconds game_limit, Clock::time_point game_deadline) {
    const auto wall_deadline = std::min(Clock::now() + watch.wall(cpu_limit), game_deadline);
    for (;;) {
      const auto left = std::min<std::chrono::nanoseconds>(cpu_limit - (watch.cpu() - asked_cpu),
                                                           game_limit - watch.cpu());
      const auto result =
          child.read_line(line, watch.next_look(left, wall_deadline), limits.max_line_bytes);
      if (result != ChildProcess::Read::timeout) {
        over = watch.check(asked_cpu, cpu_limit, game_limit, Clock::time_point::max());
        return result;
      }
      over = watch.check(asked_cpu, cpu_limit, game_limit, wall_deadline);
      if (over != Watch::Over::no) return result;
    }
  };

  while (!game.over()) {
    const std::string where = "move " + std::to_string(game.move_number());
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
    const auto asked_cpu = watch.cpu();
    const auto result = read(asked_cpu, limits.per_move, limits.per_game, game_wall);
    if (over != Watch::Over::no) {
      return finish(verdict_of(over), over_text(over, watch, limits.per_move, limits, where));
    }
    switch (result) {
      case ChildProcess::Read::timeout:  // not reached: a timeout is always over a limit
        return finish(Verdict::timeout, where + ": no move within the time limit");
      case ChildProcess::Read::too_long:
        return finish(
            Verdict::unreadable_move,
            where + ": a line longer than " + std::to_string(limits.max_line_bytes) + " bytes");
      case ChildProcess::Read::end: {
        const auto status = child.wait_until(Clock::now() + watch.wall(limits.after_end));
        auto [verdict, detail] = verdict_at_exit(status, false, report.bank1, report.bank2);
        return finish(verdict, where + ": " + detail);
      }
      case ChildProcess::Read::line:
        break;
    }
    report.slowest_move =
        std::max<std::chrono::nanoseconds>(report.slowest_move, Clock::now() - asked);
    report.slowest_move_cpu = std::max(report.slowest_move_cpu, watch.cpu() - asked_cpu);
    const std::string text = trimmed(line);
    const Number number = parse_number(text);
    if (number.kind == Number::Kind::not_integer) {
      return finish(Verdict::unreadable_move,
                    where + ": " + ioiwari::quoted(line) + " is not an integer");
    }
    const auto pit = number.kind == Number::Kind::integer
                         ? Pit::from_label(number.value, game.board().size())
                         : std::nullopt;
    if (!pit) {
      return finish(Verdict::out_of_range, where + ": " + ioiwari::quoted(text) + " is not a pit");
    }
    if (!game.board().is_legal(*pit)) {
      return finish(Verdict::empty_pit, where + ": pit " + text + " is empty");
    }
    game.play(*pit);
    report.moves.push_back(*pit);
    report.bank1 = game.bank(Player::first);
    report.bank2 = game.bank(Player::second);
  }

  // The game is over: the player must write nothing more and exit 0 at once, without waiting
  // for input (its standard input stays open, as a judge's would).
  const auto result = read(watch.cpu(), limits.after_end, std::chrono::nanoseconds::max(),
                           Clock::time_point::max());
  if (over != Watch::Over::no) {
    return finish(verdict_of(over), over_text(over, watch, limits.after_end, limits,
                                              "after the game ended, still running"));
  }
  switch (result) {
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
  // Its output is closed: it must exit, within what is left of the time after the end.
  const auto status = child.wait_until(Clock::now() + watch.wall(limits.after_end));
  watch.sample();
  auto [verdict, detail] = verdict_at_exit(status, true, report.bank1, report.bank2);
  if (child.left_behind() > 0 &&
      (verdict == Verdict::win || verdict == Verdict::tie || verdict == Verdict::loss)) {
    const int count = child.left_behind();
    verdict = Verdict::left_behind;
    detail = "exited, leaving " + std::to_string(count) + (count == 1 ? " process" : " processes") +
             " running (killed since)";
  }
  return finish(verdict, detail);
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

std::optional<int> jobs_cap(int jobs) {
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) != 0) return std::nullopt;
  if (files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &files);
    ::getrlimit(RLIMIT_NOFILE, &files);
  }
  // A few for the referee itself; the rest for games, each at its most as it starts.
  constexpr rlim_t kOwn = 32;
  const rlim_t limit = files.rlim_cur;
  if (limit == RLIM_INFINITY) return std::nullopt;
  const rlim_t most =
      limit > kOwn ? (limit - kOwn) / ChildProcess::kDescriptorsStarting : rlim_t{0};
  if (static_cast<rlim_t>(jobs) <= most) return std::nullopt;
  return static_cast<int>(std::max<rlim_t>(most, 1));
}

void check_player(const std::vector<std::string>& player, const RefereeLimits& limits) {
  ChildProcess child(player, containment_for(limits));
  child.kill();
}

std::vector<GameReport> run_games(const RefereePlan& plan, const Table& table,
                                  const GameDone& done) {
  const std::size_t games = plan.starts.size() * plan.strategies.size();
  std::vector<GameReport> reports(games);
  std::atomic<std::size_t> next{0};
  std::mutex telling;
  std::size_t ended = 0;
  // The first game that could not be played stops the others: it is the referee's failure (or
  // a stop from outside), not a verdict.
  std::atomic<bool> failed{false};
  std::exception_ptr failure;
  const std::function<bool()> stopped = [&] {
    return failed.load() || (plan.stop != nullptr && plan.stop->load());
  };
  const auto work = [&] {
    try {
      for (std::size_t i = next++; i < games && !stopped(); i = next++) {
        const Board& start = plan.starts[i / plan.strategies.size()];
        const Strategy strategy = plan.strategies[i % plan.strategies.size()];
        reports[i] =
            referee_game(plan.player, start, strategy, plan.seed + i, table, plan.limits, stopped);
        if (done) {
          const std::lock_guard lock(telling);
          done(reports[i], ++ended);
        }
      }
    } catch (...) {
      const std::lock_guard lock(telling);
      if (!failure) failure = std::current_exception();
      failed = true;
    }
  };
  const auto jobs = static_cast<std::size_t>(std::max(1, plan.jobs));
  std::vector<std::thread> workers;
  for (std::size_t j = 1; j < std::min(jobs, games); ++j)
    workers.emplace_back(work);
  work();
  for (std::thread& worker : workers)
    worker.join();
  if (failure) std::rethrow_exception(failure);
  if (plan.stop != nullptr && plan.stop->load()) throw RefereeStopped();
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
  const GameReport* slowest = nullptr;      // wall-clock time of one move
  const GameReport* slowest_cpu = nullptr;  // CPU time of one move
  const GameReport* most_memory = nullptr;
};

Totals totals(const std::vector<GameReport>& reports) {
  Totals totals;
  for (const GameReport& report : reports) {
    ++totals.counts[static_cast<int>(report.verdict)];
    totals.points += points(report.verdict);
    if (totals.slowest == nullptr || report.slowest_move > totals.slowest->slowest_move) {
      totals.slowest = &report;
    }
    if (totals.slowest_cpu == nullptr ||
        report.slowest_move_cpu > totals.slowest_cpu->slowest_move_cpu) {
      totals.slowest_cpu = &report;
    }
    if (totals.most_memory == nullptr ||
        report.peak_memory_kb > totals.most_memory->peak_memory_kb) {
      totals.most_memory = &report;
    }
  }
  return totals;
}

bool all_won(const Totals& sum, const std::vector<GameReport>& reports) {
  return sum.counts[static_cast<int>(Verdict::win)] == static_cast<int>(reports.size());
}

}  // namespace

void write_summary(std::ostream& out, const RefereePlan& plan,
                   const std::vector<GameReport>& reports, int show_failures) {
  const Totals sum = totals(reports);
  const RefereeLimits& limits = plan.limits;
  out << "ioiwari referee: " << reports.size() << " games (" << plan.starts.size() << " starts x "
      << plan.strategies.size() << " strategies), " << plan.jobs
      << (plan.jobs == 1 ? " job" : " jobs") << '\n'
      << "limits: CPU time " << limits.per_move.count() << " ms a move, " << limits.per_game.count()
      << " ms a game, " << limits.after_end.count() << " ms to exit after it; wall-clock time "
      << limits.wall_factor << " times as long; " << limits.memory_mb << " MB of memory"
      << (limits.data_limit ? "" : " (sampled only)") << (limits.isolate ? "; isolated" : "")
      << '\n';
  for (int v = 0; v < kVerdictCount; ++v) {
    out << "  " << std::left << std::setw(22) << name(static_cast<Verdict>(v)) << std::right
        << std::setw(6) << sum.counts[v] << '\n';
  }
  out << "points: " << sum.points << " of " << kPointsForWin * reports.size() << '\n';
  const auto game = [](const GameReport& report) {
    std::ostringstream text;
    text << "start " << report.start << ", " << name(report.strategy);
    return text.str();
  };
  if (sum.slowest != nullptr) {
    out << std::fixed << std::setprecision(1)
        << "slowest move: " << millis(sum.slowest->slowest_move) << " ms of wall-clock time ("
        << game(*sum.slowest) << "); " << millis(sum.slowest_cpu->slowest_move_cpu)
        << " ms of CPU time (" << game(*sum.slowest_cpu) << ")\n"
        << "most memory: " << static_cast<double>(sum.most_memory->peak_memory_kb) / 1024 << " MB ("
        << game(*sum.most_memory) << ")\n";
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
  out << (all_won(sum, reports) ? "every game won\n" : "not every game won\n");
}

void write_json(std::ostream& out, const RefereePlan& plan,
                const std::vector<GameReport>& reports) {
  const Totals sum = totals(reports);
  const RefereeLimits& limits = plan.limits;
  out << "{\"games\": " << reports.size() << ", \"starts\": " << plan.starts.size()
      << ", \"strategies\": [";
  for (std::size_t i = 0; i < plan.strategies.size(); ++i) {
    out << (i ? ", " : "") << json_string(name(plan.strategies[i]));
  }
  out << "], \"jobs\": " << plan.jobs
      << ", \"limits\": {\"move_cpu_ms\": " << limits.per_move.count()
      << ", \"game_cpu_ms\": " << limits.per_game.count()
      << ", \"exit_cpu_ms\": " << limits.after_end.count()
      << ", \"wall_factor\": " << limits.wall_factor << ", \"memory_mb\": " << limits.memory_mb
      << ", \"data_limit\": " << (limits.data_limit ? "true" : "false")
      << ", \"max_line_bytes\": " << limits.max_line_bytes
      << ", \"isolate\": " << (limits.isolate ? "true" : "false") << "}, \"verdicts\": {";
  for (int v = 0; v < kVerdictCount; ++v) {
    out << (v ? ", " : "") << json_string(name(static_cast<Verdict>(v))) << ": " << sum.counts[v];
  }
  out << "}, \"points\": " << sum.points << ", \"max_points\": " << kPointsForWin * reports.size()
      << std::fixed << std::setprecision(3)
      << ", \"slowest_move_ms\": " << (sum.slowest ? millis(sum.slowest->slowest_move) : 0.0)
      << ", \"slowest_move_cpu_ms\": "
      << (sum.slowest_cpu ? millis(sum.slowest_cpu->slowest_move_cpu) : 0.0)
      << ", \"peak_memory_kb\": " << (sum.most_memory ? sum.most_memory->peak_memory_kb : 0)
      << ", \"not_won\": [";
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
  out << "], \"reports\": [";
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const GameReport& report = reports[i];
    out << (i ? ", " : "") << "{\"start\": " << json_string(board_text(report.start))
        << ", \"strategy\": " << json_string(name(report.strategy)) << ", \"seed\": " << report.seed
        << ", \"verdict\": " << json_string(name(report.verdict)) << ", \"bank1\": " << report.bank1
        << ", \"bank2\": " << report.bank2 << ", \"cpu_ms\": " << millis(report.cpu)
        << ", \"wall_ms\": " << millis(report.wall)
        << ", \"peak_memory_kb\": " << report.peak_memory_kb
        << ", \"max_rss_kb\": " << report.max_rss_kb << "}";
  }
  out << "], \"all_won\": " << (all_won(sum, reports) ? "true" : "false") << "}\n";
}

}  // namespace ioiwari
