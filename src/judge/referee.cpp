#include "ioiwari/judge/referee.hpp"

#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iomanip>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <system_error>
#include <thread>

#include "ioiwari/core/game_loop.hpp"
#include "ioiwari/core/match.hpp"
#include "ioiwari/input/reading.hpp"
#include "ioiwari/input/token.hpp"
#include "ioiwari/judge/process.hpp"
#include "textio/number.hpp"
#include "textio/quoted.hpp"

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
    case Verdict::disk_limit:
      return "disk limit";
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

// One game's watch over its player: its CPU time, its memory, and the clock, checked at each
// move and between samples while it thinks.
class Watch {
 public:
  Watch(ChildProcess& child, const RefereeLimits& limits, const std::function<bool()>& stopped)
      : child_(child), limits_(limits), stopped_(stopped), started_(Clock::now()) {}

  enum class Over { no, cpu, wall, memory };

  // Samples the player now; what is over its limits: `limit` of CPU time since it was `since`,
  // `game_limit` in all, the clock's `wall_deadline`.
  // A close look (`look`) at each answer and at the end, a glance while the player thinks.
  Over check(std::chrono::nanoseconds since, std::chrono::milliseconds limit,
             std::chrono::nanoseconds game_limit, Clock::time_point wall_deadline,
             ChildProcess::Look look) {
    sample(look);
    if (memory_kb_ > limits_.memory_mb * 1024 || oom_kills_ > 0) return Over::memory;
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

  void sample(ChildProcess::Look look) {
    if (stopped_ && stopped_()) throw RefereeStopped();
    const Usage usage = child_.usage(look);
    cpu_ = std::max(cpu_, usage.cpu);
    memory_kb_ = usage.memory_kb;
    oom_kills_ = std::max(oom_kills_, usage.oom_kills);
    peak_kb_ = std::max(peak_kb_, memory_kb_);
    // The kernel killed at its cap: the game's memory reached it, whatever the samples, which
    // a player growing fast outruns, last saw.
    if (oom_kills_ > 0) peak_kb_ = std::max(peak_kb_, limits_.memory_cap_mb() * 1024);
  }
  std::uint64_t oom_kills() const { return oom_kills_; }

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
  std::uint64_t memory_kb_ = 0, peak_kb_ = 0, oom_kills_ = 0;
};

// Why a player went over a limit, for the report's detail.
// A player that used less than 1/kIdleShare of the wall-clock time it was given on the CPU was
// waiting, not thinking.
constexpr int kIdleShare = 10;

std::string over_text(Watch::Over over, const Watch& watch, std::chrono::milliseconds cpu_limit,
                      const RefereeLimits& limits, std::string_view what) {
  switch (over) {
    case Watch::Over::cpu:
      return std::string(what) + ": used " + ms_text(watch.cpu()) + " of CPU time; the limit is " +
             ms_text(cpu_limit) + " (" + ms_text(limits.per_game) + " a game)";
    case Watch::Over::wall: {
      // A player that waited nearly all the time most often wrote its move and did not flush it
      // (docs/protocol.md): the verdict says so, since the limit alone misleads.
      const bool idle = watch.cpu() * kIdleShare < watch.wall(cpu_limit);
      return std::string(what) + ": nothing within " + ms_text(watch.wall(cpu_limit)) +
             " of wall-clock time (it used " + ms_text(watch.cpu()) + " of CPU time" +
             (idle ? "; a player that waits this much has most often written its move without "
                     "flushing it: docs/protocol.md"
                   : "") +
             ")";
    }
    case Watch::Over::memory:
      if (watch.oom_kills() > 0) {
        return std::string(what) + ": the kernel killed a process at the cap of " +
               std::to_string(limits.memory_cap_mb()) + " MB; the limit is " +
               std::to_string(limits.memory_mb) + " MB";
      }
      {
        // To a tenth of a MB, or in kB where that would read as the limit itself: a peak just
        // over the limit must not look like one at it.
        const double held_mb = static_cast<double>(watch.memory_kb()) / 1024.0;
        char held[48];
        if (std::round(held_mb * 10) / 10 <= static_cast<double>(limits.memory_mb)) {
          std::snprintf(held, sizeof held, "%llu kB",
                        static_cast<unsigned long long>(watch.memory_kb()));
          return std::string(what) + ": its processes held " + held + "; the limit is " +
                 std::to_string(limits.memory_mb * 1024) + " kB (" +
                 std::to_string(limits.memory_mb) + " MB)";
        }
        std::snprintf(held, sizeof held, "%.1f MB", held_mb);
        return std::string(what) + ": its processes held " + held + "; the limit is " +
               std::to_string(limits.memory_mb) + " MB";
      }
    case Watch::Over::no:
      break;
  }
  return std::string(what);
}

// One refereed game: the player's process, its watch, the match, and the report they fill. It
// is the player's side of the game's loop; the strategy's side writes each of its moves to the
// player.
class RefereedGame : public Side {
 public:
  RefereedGame(const std::vector<std::string>& player, const Board& start, Strategy strategy,
               std::uint64_t seed, const Table& table, const RefereeLimits& limits,
               const Sandbox::Box& box, const std::function<bool()>& stopped)
      : limits_(limits),
        game_(start),
        child_(player, box.containment),
        watch_(child_, limits, stopped),
        game_wall_(watch_.started() + watch_.wall(limits.per_game)),
        opponent_(strategy, table, seed, [this](Pit pit) {
          child_.write(std::to_string(pit.label()) + "\n");  // a closed pipe shows at the next read
        }) {
    report_.start = start;
    report_.strategy = strategy;
    report_.seed = seed;
  }

  GameReport play() {
    std::ostringstream start_line;
    start_line << report_.start << '\n';
    child_.write(start_line.str());
    watch_.sample(ChildProcess::Look::everything);  // it has started: a first look
    if (!play_out(game_, *this, opponent_)) return finish(std::move(*fault_));
    return finish(after_the_end());
  }

  // The player's move, read and checked; nothing, with the verdict kept, when it is none.
  std::optional<Pit> move(const Match& /*game*/) override {
    fault_ = their_move();
    if (fault_) return std::nullopt;
    return move_;
  }

  // Every move, either side's, goes in the report.
  bool played(const Match& game, Pit pit) override {
    report_.moves.push_back(pit);
    report_.bank1 = game.bank(Player::first);
    report_.bank2 = game.bank(Player::second);
    return true;
  }

 private:
  struct Judged {
    Verdict verdict;
    std::string detail;
  };

  static Verdict verdict_of(Watch::Over over) {
    return over == Watch::Over::memory ? Verdict::memory_limit : Verdict::timeout;
  }

  // Reads the player's next line within `cpu_limit` of CPU time from `asked_cpu` (and its
  // wall-clock counterpart from now, within `deadline`), sampling meanwhile; `over_` says
  // which limit, if any, it went past.
  ChildProcess::Read read(std::chrono::nanoseconds asked_cpu, std::chrono::milliseconds cpu_limit,
                          std::chrono::nanoseconds game_limit, Clock::time_point deadline) {
    const auto wall_deadline = std::min(Clock::now() + watch_.wall(cpu_limit), deadline);
    for (;;) {
      const auto left = std::min<std::chrono::nanoseconds>(cpu_limit - (watch_.cpu() - asked_cpu),
                                                           game_limit - watch_.cpu());
      const auto result =
          child_.read_line(line_, watch_.next_look(left, wall_deadline), limits_.max_line_bytes);
      if (result != ChildProcess::Read::timeout) {
        // A close look at its first answer, when its start-up has made what it holds, and
        // glances after: memory costs the kernel more to tell than CPU time.
        over_ = watch_.check(
            asked_cpu, cpu_limit, game_limit, Clock::time_point::max(),
            report_.moves.empty() ? ChildProcess::Look::everything : ChildProcess::Look::glance);
        return result;
      }
      over_ =
          watch_.check(asked_cpu, cpu_limit, game_limit, wall_deadline, ChildProcess::Look::glance);
      if (over_ != Watch::Over::no) return result;
    }
  }

  // Waits for the player to exit until `cpu_limit` of CPU time from `since`, or its wall-clock
  // counterpart, sampling meanwhile: a player that closes its output and computes on is
  // charged for it.
  std::optional<ExitStatus> wait_exit(std::chrono::nanoseconds since,
                                      std::chrono::milliseconds cpu_limit) {
    const auto wall_deadline = Clock::now() + watch_.wall(cpu_limit);
    for (;;) {
      const auto left = cpu_limit - (watch_.cpu() - since);
      const auto status = child_.wait_until(watch_.next_look(left, wall_deadline));
      over_ = watch_.check(since, cpu_limit, std::chrono::nanoseconds::max(),
                           status ? Clock::time_point::max() : wall_deadline,
                           status ? ChildProcess::Look::everything : ChildProcess::Look::glance);
      if (status || over_ != Watch::Over::no) return status;
    }
  }

  // The player's move: nothing when it is a good one, else the verdict.
  std::optional<Judged> their_move() {
    const std::string where = "move " + std::to_string(game_.move_number());
    const auto asked = Clock::now();
    const auto asked_cpu = watch_.cpu();
    const auto result = read(asked_cpu, limits_.per_move, limits_.per_game, game_wall_);
    if (over_ != Watch::Over::no) {
      return Judged{verdict_of(over_), over_text(over_, watch_, limits_.per_move, limits_, where)};
    }
    switch (result) {
      case ChildProcess::Read::timeout:  // not reached: a timeout is always over a limit
        return Judged{Verdict::timeout, where + ": no move within the time limit"};
      case ChildProcess::Read::too_long:
        return Judged{
            Verdict::unreadable_move,
            where + ": a line longer than " + std::to_string(limits_.max_line_bytes) + " bytes"};
      case ChildProcess::Read::end: {
        const auto status = wait_exit(watch_.cpu(), limits_.after_end);
        if (over_ != Watch::Over::no) {
          return Judged{verdict_of(over_), over_text(over_, watch_, limits_.after_end, limits_,
                                                     where + ": its output closed, still running")};
        }
        auto [verdict, detail] = verdict_at_exit(status, false, report_.bank1, report_.bank2);
        return Judged{verdict, where + ": " + detail};
      }
      case ChildProcess::Read::line:
        break;
    }
    report_.slowest_move =
        std::max<std::chrono::nanoseconds>(report_.slowest_move, Clock::now() - asked);
    report_.slowest_move_cpu = std::max(report_.slowest_move_cpu, watch_.cpu() - asked_cpu);
    const ParsedMove move = parse_move(trimmed(line_), game_);
    switch (move.fault) {
      case MoveFault::not_integer:
        return Judged{Verdict::unreadable_move, move.error};
      case MoveFault::not_a_pit:
        return Judged{Verdict::out_of_range, move.error};
      case MoveFault::empty_pit:
        return Judged{Verdict::empty_pit, move.error};
      case MoveFault::none:
        break;
    }
    move_ = move.pit;
    return std::nullopt;
  }

  // The game is over: the player must write nothing more and exit 0 at once, without waiting
  // for input (its standard input stays open, as a judge's would).
  Judged after_the_end() {
    const auto ended_cpu = watch_.cpu();
    const auto result = read(ended_cpu, limits_.after_end, std::chrono::nanoseconds::max(),
                             Clock::time_point::max());
    if (over_ != Watch::Over::no) {
      return {verdict_of(over_), over_text(over_, watch_, limits_.after_end, limits_,
                                           "after the game ended, still running")};
    }
    switch (result) {
      case ChildProcess::Read::line:
        return {Verdict::output_after_end,
                "wrote " + ioiwari::quoted(line_) + " after the last move"};
      case ChildProcess::Read::too_long:
        return {Verdict::output_after_end, "wrote a long line after the last move"};
      case ChildProcess::Read::timeout:
        return {Verdict::timeout, "still running after the game ended"};
      case ChildProcess::Read::end:
        break;
    }
    // Its output is closed: it must exit, within what is left of the time after the end.
    const auto status = wait_exit(ended_cpu, limits_.after_end);
    if (over_ != Watch::Over::no) {
      return {verdict_of(over_),
              over_text(over_, watch_, limits_.after_end, limits_,
                        "after the game ended, its output closed, still running")};
    }
    auto [verdict, detail] = verdict_at_exit(status, true, report_.bank1, report_.bank2);
    if (child_.left_behind() > 0 &&
        (verdict == Verdict::win || verdict == Verdict::tie || verdict == Verdict::loss)) {
      const int count = child_.left_behind();
      verdict = Verdict::left_behind;
      detail = "exited, leaving " + std::to_string(count) +
               (count == 1 ? " process" : " processes") + " running (killed since)";
    }
    return {verdict, detail};
  }

  // Kills everything the player started, and fills the report with the verdict and the
  // figures. The CPU time is the kernel's once nothing runs: what the player's processes used
  // after its last sample counts too.
  GameReport finish(Judged judged) {
    child_.kill();
    // A player that failed after it reached a disk limit is judged by the limit: the kernel
    // killed it (SIGXFSZ), or a write it made found no room and it went wrong from there.
    if (judged.verdict != Verdict::win && judged.verdict != Verdict::tie &&
        judged.verdict != Verdict::loss && judged.verdict != Verdict::left_behind) {
      const auto& status = child_.exit_status();
      if (status && status->signaled && status->number == SIGXFSZ) {
        judged = {Verdict::disk_limit, "killed by SIGXFSZ: it wrote past the file size limit of " +
                                           std::to_string(limits_.file_size_mb) + " MB"};
      } else if (child_.disk_full()) {
        judged = {Verdict::disk_limit, "its box's disk of " + std::to_string(limits_.disk_mb) +
                                           " MB was full (then: " + judged.detail + ")"};
      }
    }
    report_.verdict = judged.verdict;
    report_.detail = std::move(judged.detail);
    ErrorOutput errors = child_.error_output_all();
    report_.player_errors = std::move(errors.head);
    report_.player_errors_tail = std::move(errors.tail);
    report_.player_errors_skipped = errors.skipped;
    report_.player_error_lines = errors.lines;
    report_.cpu = watch_.cpu();
    report_.peak_memory_kb = watch_.peak_kb();
    report_.max_rss_kb = child_.max_rss_kb();
    report_.wall = Clock::now() - watch_.started();
    return report_;
  }

  const RefereeLimits& limits_;
  Match game_;
  ChildProcess child_;
  Watch watch_;
  Clock::time_point game_wall_;
  StrategySide opponent_;
  GameReport report_;
  std::string line_;
  Watch::Over over_ = Watch::Over::no;
  Pit move_ = Pit::at_index(0);  // the player's last good move
  std::optional<Judged> fault_;  // why the player's last move was none
};

}  // namespace

SandboxRequest sandbox_request(const RefereeLimits& limits) {
  SandboxRequest request;
  request.cgroups = limits.cgroups;
  request.isolation = limits.isolation;
  request.users = limits.users;
  request.processes = limits.processes;
  request.slots = 1;
  // Twice the limit: a player growing past the limit is seen by a sample and judged before the
  // kernel refuses it anything. The cgroup's cap counts the pages of files too, which the
  // kernel reclaims first: a mapped table costs the player nothing below it.
  request.memory_cap_bytes = limits.memory_cap_mb() * 1024 * 1024;
  if (limits.data_limit) request.data_limit_bytes = limits.memory_cap_mb() * 1024 * 1024;
  // A backstop for a referee that stops looking: the game's CPU time and a second.
  const auto all = limits.per_game + limits.after_end;
  request.cpu_backstop = std::chrono::ceil<std::chrono::seconds>(all) + std::chrono::seconds(1);
  request.file_size_bytes = limits.file_size_mb * 1024 * 1024;
  request.disk_bytes = limits.disk_mb * 1024 * 1024;
  return request;
}

GameReport referee_game(const std::vector<std::string>& player, const Board& start,
                        Strategy strategy, std::uint64_t seed, const Table& table,
                        const RefereeLimits& limits, const Sandbox::Box& box,
                        const std::function<bool()>& stopped) {
  return RefereedGame(player, start, strategy, seed, table, limits, box, stopped).play();
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
  // A few for the referee itself; the rest for games, each at its most as it starts, with its
  // cgroup's.
  constexpr rlim_t kGameDescriptors =
      ChildProcess::kDescriptorsStarting + Cgroup::kMostDescriptors + 1;  // and its network
  constexpr rlim_t kOwn = 32;
  const rlim_t limit = files.rlim_cur;
  if (limit == RLIM_INFINITY) return std::nullopt;
  const rlim_t most = limit > kOwn ? (limit - kOwn) / kGameDescriptors : rlim_t{0};
  if (static_cast<rlim_t>(jobs) <= most) return std::nullopt;
  return static_cast<int>(std::max<rlim_t>(most, 1));
}

std::vector<GameReport> run_games(const RefereePlan& plan, const Table& table,
                                  const Sandbox& sandbox, const GameDone& done) {
  const std::size_t games = plan.starts.size() * plan.strategies.size();
  std::vector<GameReport> reports(games);
  std::vector<char> judged(games, 0);  // each game's report is a verdict
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
  const auto work = [&](int slot) {
    try {
      for (std::size_t i = next++; i < games && !stopped(); i = next++) {
        const Board& start = plan.starts[i / plan.strategies.size()];
        const Strategy strategy = plan.strategies[i % plan.strategies.size()];
        const Sandbox::Box box = sandbox.box(slot);
        reports[i] = referee_game(plan.player, start, strategy, plan.seed + i, table, plan.limits,
                                  box, stopped);
        judged[i] = 1;
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
  for (std::size_t j = 1; j < std::min(jobs, games); ++j) {
    try {
      workers.emplace_back(work, static_cast<int>(j));
    } catch (const std::system_error&) {
      // No thread to be had (a user at its process limit): the games are shared by a counter,
      // so the workers that started play them all, as fewer jobs would.
      break;
    }
  }
  work(0);
  for (std::thread& worker : workers)
    worker.join();
  if (plan.stop != nullptr && plan.stop->load()) {
    // Stopped from outside: the games that were judged before, for the summary so far.
    std::vector<GameReport> before;
    for (std::size_t i = 0; i < games; ++i)
      if (judged[i]) before.push_back(std::move(reports[i]));
    throw RefereeStopped(std::move(before));
  }
  if (failure) std::rethrow_exception(failure);
  return reports;
}

}  // namespace ioiwari
