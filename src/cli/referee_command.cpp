// `ioiwari referee`: a player program judged over many games.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <ostream>

#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/environment.hpp"
#include "ioiwari/cli/option_names.hpp"
#include "ioiwari/cli/progress.hpp"
#include "ioiwari/cli/ring_setup.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/judge/referee.hpp"
#include "ioiwari/judge/report.hpp"

namespace ioiwari::cli {

namespace {

// The users of --user: UID or UID:GID, each 1 to 2^31 - 1 - the most slots.
UserRange users_of(const std::string& text) {
  const auto colon = text.find(':');
  const auto id = [&](std::string_view part) {
    const Number number = parse_number(part);
    constexpr long long kMost = 2147483647LL - kMostSlots;
    if (number.kind != Number::Kind::integer || number.value < 1 || number.value > kMost) {
      throw UsageError("--user is UID or UID:GID, each 1 to " + std::to_string(kMost) + ", not " +
                       textio::quoted(text));
    }
    return number.value;
  };
  const long long uid = id(std::string_view(text).substr(0, colon));
  const long long gid =
      colon == std::string::npos ? uid : id(std::string_view(text).substr(colon + 1));
  return {static_cast<uid_t>(uid), static_cast<gid_t>(gid)};
}

// Each --env NAME[=VALUE] as NAME=VALUE: NAME alone passes the referee's own value, or nothing
// when it has none.
std::vector<std::string> passed_environment(const std::vector<std::string>& given) {
  std::vector<std::string> passed;
  for (const std::string& item : given) {
    const auto equals = item.find('=');
    const std::string name = item.substr(0, equals);
    if (name.empty() || name.find_first_of(" \t\n") != std::string::npos) {
      throw UsageError("--env is NAME or NAME=VALUE, not " + textio::quoted(item));
    }
    if (equals != std::string::npos) {
      passed.push_back(item);
    } else if (const char* value = std::getenv(name.c_str())) {
      passed.push_back(name + "=" + value);
    }
  }
  return passed;
}

std::chrono::milliseconds milliseconds(const Parsed& parsed, std::string_view name) {
  return std::chrono::milliseconds(*parsed.number(name));
}

// The run's report on standard output: JSON, or the summary for people at the output's width.
void report(Invocation& call, const RefereeRun& run, bool json) {
  if (json) {
    write_json(call.out, run);
  } else {
    write_summary(call.out, run, static_cast<int>(*call.parsed.number(opt::show)),
                  call.environment.columns);
  }
}

}  // namespace

int run_referee(Invocation& call) {
  const Parsed& parsed = call.parsed;
  RingSetup setup(call);
  RefereePlan plan;
  plan.player = parsed.operands();
  plan.seed = static_cast<std::uint64_t>(*parsed.number(opt::seed));
  plan.jobs = static_cast<int>(*parsed.number(opt::jobs));
  plan.strategies = strategies_of(*parsed.list(opt::strategy));
  plan.starts = setup.chosen_starts(*parsed.text(opt::starts), plan.seed);
  RefereeLimits& limits = plan.limits;
  limits.per_move = milliseconds(parsed, opt::move_time);
  limits.per_game = milliseconds(parsed, opt::game_time);
  limits.after_end = milliseconds(parsed, opt::exit_time);
  limits.wall_factor = static_cast<int>(*parsed.number(opt::wall_factor));
  limits.memory_mb = static_cast<std::uint64_t>(*parsed.number(opt::memory));
  limits.data_limit = !parsed.given(opt::no_data_limit);
  limits.isolation = parsed.given(opt::isolate)      ? Isolation::required
                     : parsed.given(opt::no_isolate) ? Isolation::off
                                                     : Isolation::where_allowed;
  limits.cgroups = !parsed.given(opt::no_cgroups);
  limits.processes = static_cast<int>(*parsed.number(opt::processes));
  if (parsed.given(opt::user)) limits.users = users_of(*parsed.text(opt::user));
  limits.file_size_mb = static_cast<std::uint64_t>(*parsed.number(opt::fsize));
  limits.disk_mb = static_cast<std::uint64_t>(*parsed.number(opt::disk));
  limits.max_line_bytes = static_cast<std::size_t>(*parsed.number(opt::max_line));
  const bool json = parsed.given(opt::json);
  const bool quiet = parsed.given(opt::quiet) || json;

  // How the players are contained is decided once, with the player tried once as the games will
  // run it: what cannot run is refused now, with one line, not judged hundreds of times; what
  // the kernel does not allow is said once.
  if (const auto cap = jobs_cap(plan.jobs)) {
    call.complain("--jobs " + std::to_string(plan.jobs) + " capped at " + std::to_string(*cap) +
                  ": this process may open too few files for more games at once");
    plan.jobs = *cap;
  }
  std::unique_ptr<Sandbox> sandbox;
  SandboxRequest request = sandbox_request(limits);
  request.slots = plan.jobs;
  request.environment = passed_environment(parsed.texts(opt::env));
  request.dirs = parsed.texts(opt::dir);
  if (!call.environment.user_locks.empty()) request.user_locks = call.environment.user_locks;
  try {
    sandbox = std::make_unique<Sandbox>(plan.player, request);
  } catch (const SandboxError& error) {
    call.complain(error.what());
    return static_cast<int>(error.busy() ? RefereeExit::failed : RefereeExit::usage);
  } catch (const SpawnError& error) {
    const bool isolating = error.kind() == SpawnError::Kind::isolation ||
                           error.kind() == SpawnError::Kind::box ||
                           error.kind() == SpawnError::Kind::filter;
    call.complain((isolating && limits.isolation == Isolation::required ? "--isolate: " : "") +
                  std::string(error.what()));
    return static_cast<int>(error.kind() == SpawnError::Kind::resources ? RefereeExit::failed
                                                                        : RefereeExit::usage);
  }
  plan.jobs = sandbox->slots();
  for (const std::string& note : sandbox->notes())
    call.complain(note);
  const Table& table = setup.table(setup.start_rule().beads, quiet);
  Progress progress(call.err, ProgressOutput::of(call.environment, quiet), "referee", "games",
                    plan.starts.size() * plan.strategies.size(), call.environment.progress_delay);
  std::size_t won = 0;
  std::vector<GameReport> reports;
  const StopOnSignals stop;
  plan.stop = &stop.flag();
  try {
    reports = run_games(plan, table, *sandbox, [&](const GameReport& report, std::size_t done) {
      won += report.verdict == Verdict::win ? 1 : 0;
      progress.update(done,
                      std::to_string(won) + " won, " + std::to_string(done - won) + " not won");
    });
  } catch (RefereeStopped& stopped) {
    progress.clear();
    // The games judged before the signal: a judge wants them.
    if (stopped.judged.empty()) {
      call.complain("stopped by " + stop.signal_name() + "; no game was judged");
    } else {
      report(call, RefereeRun{plan, *sandbox, stopped.judged, stop.signal_name()}, json);
      call.out.flush();  // the summary first, then the line that says it is a part
      call.complain("stopped by " + stop.signal_name() + " after " +
                    std::to_string(stopped.judged.size()) + " of " +
                    std::to_string(plan.starts.size() * plan.strategies.size()) +
                    " games; the summary is of those");
    }
    return 128 + stop.signal();  // as the shell reports a death by that signal
  } catch (const SpawnError& error) {
    progress.clear();
    call.complain("cannot start a game: " + std::string(error.what()) + "; no game was judged");
    return static_cast<int>(error.kind() == SpawnError::Kind::resources ? RefereeExit::failed
                                                                        : RefereeExit::usage);
  }
  progress.clear();
  report(call, RefereeRun{plan, *sandbox, reports, ""}, json);
  const bool all_won = std::all_of(reports.begin(), reports.end(),
                                   [](const GameReport& r) { return r.verdict == Verdict::win; });
  return written(call, static_cast<int>(all_won ? RefereeExit::all_won : RefereeExit::not_all_won));
}

}  // namespace ioiwari::cli
