#include "ioiwari/cli/cli.hpp"

#include <chrono>
#include <fstream>
#include <iomanip>
#include <istream>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ioiwari/analysis/analysis.hpp"
#include "ioiwari/bench/bench.hpp"
#include "ioiwari/cli/arguments.hpp"
#include "ioiwari/cli/command_help.hpp"
#include "ioiwari/cli/progress.hpp"
#include "ioiwari/core/exit_code.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/table.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/input/token.hpp"
#include "ioiwari/judge/opponent.hpp"
#include "ioiwari/judge/referee.hpp"
#include "ioiwari/play/terminal.hpp"
#include "ioiwari/player/protocol.hpp"

#ifndef IOIWARI_VERSION
#define IOIWARI_VERSION "unknown"
#endif

namespace ioiwari {

namespace {

// "470.2 MB": a size for people.
std::string bytes_text(std::uint64_t bytes) {
  const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
  double size = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (size >= 1000 && unit + 1 < std::size(units)) {
    size /= 1000;
    ++unit;
  }
  std::ostringstream text;
  text << std::fixed << std::setprecision(unit == 0 ? 0 : 1) << size << ' ' << units[unit];
  return text.str();
}

// "play: ", where a message about `command` starts ("" for the player itself).
std::string where(std::string_view command) {
  return command.empty() ? std::string() : std::string(command) + ": ";
}

// "--pits 12 --capacity 5": the ring as options.
std::string ring_options_text(Ring ring) {
  return "--pits " + std::to_string(ring.pits) + " --capacity " + std::to_string(ring.capacity);
}

// A table, or the exit status of the one-line complaint that says why there is none.
struct TableOrExit {
  std::optional<Table> table;
  int exit = 0;
};

// Refuses (usage status, one line naming the ring's options) a ring whose solve needs more
// memory than the machine has; nothing when it fits or the memory is unknown.
std::optional<int> refuse_if_too_large(std::string_view command, Ring ring, std::ostream& err,
                                       const Environment& environment) {
  const std::uint64_t needed = table_size(ring).solve_bytes();
  if (environment.memory_bytes == 0 || needed <= environment.memory_bytes) return std::nullopt;
  return usage_error(err,
                     where(command) + ring_options_text(ring) + ": solving this ring needs " +
                         bytes_text(needed) + " of memory; this machine has " +
                         bytes_text(environment.memory_bytes),
                     command);
}

// Solves `ring` (the IOI's by its own path, only up to `most_beads`: the most beads of the
// boards the command will ask about), with a progress line on standard error when it is a
// terminal and the solve takes over a second.
Table solve_ring(std::string_view command, Ring ring, std::ostream& err,
                 const Environment& environment, bool quiet, int most_beads) {
  if (ring.is_ioi()) return Table::solve(most_beads);
  const TableSize size = table_size(ring);
  Progress progress(err, environment.error_is_terminal && !quiet,
                    command.empty() ? "solving" : std::string(command) + ": solving", "classes",
                    size.classes, environment.progress_delay);
  SolveOptions options;
  options.progress = [&](const SolveProgress& now) {
    const auto percent = now.classes == 0 ? 100 : now.done * 100 / now.classes;
    progress.update(now.done, "layer " + std::to_string(now.layer) + " of " +
                                  std::to_string(now.layers - 1) + ", " + std::to_string(percent) +
                                  "%");
  };
  Table table = Table::solve(ring, options);
  progress.clear();
  return table;
}

// The table `command` plays from: the file --table names, mapped and checked, or the ring
// solved now.
TableOrExit table_for(std::string_view command, const RingOptions& options, std::ostream& err,
                      const Environment& environment, bool quiet = false,
                      int most_beads = kMaxRingBeads) {
  if (options.table) {
    try {
      return {Table(load_table(*options.table, options.ring))};
    } catch (const TableFileError& error) {
      err << "ioiwari: " << where(command) << error.what() << '\n';
      return {std::nullopt, to_int(ExitCode::bad_table)};
    }
  }
  if (const auto refused = refuse_if_too_large(command, options.ring, err, environment)) {
    return {std::nullopt, *refused};
  }
  return {solve_ring(command, options.ring, err, environment, quiet, most_beads)};
}

// The most starts a command lists or draws from.
constexpr std::uint64_t kMostStarts = 10'000'000;

// The starts of the ring the options give, or the exit status of the complaint that there are
// none (the option to change named) or too many.
std::optional<std::vector<Board>> ring_starts(std::string_view command, const RingOptions& options,
                                              std::ostream& err, int& exit) {
  if (const auto problem = options.start_problem(command)) {
    exit = usage_error(err, *problem, command);
    return std::nullopt;
  }
  const StartRule rule = options.start_rule();
  const std::uint64_t count = count_starts(options.ring, rule);
  if (count > kMostStarts) {
    exit = usage_error(err,
                       std::string(command) + ": the start rule (" + rule.describe() + ") gives " +
                           std::to_string(count) + " starts, more than " +
                           std::to_string(kMostStarts) + "; narrow --start-range or --start-beads",
                       command);
    return std::nullopt;
  }
  return starts(options.ring, rule);
}

// The start of `command`'s game: --start's board, or else one of the ring's starts drawn by
// `seed`, which is first drawn from the system's random device when empty. Nothing, with
// `exit` set, when --start is not a board of the ring or the ring's starts cannot be listed.
std::optional<Board> game_start(std::string_view command, const StartOptions& starts,
                                const RingOptions& ring, std::optional<std::uint64_t>& seed,
                                std::ostream& err, int& exit) {
  std::string error;
  if (auto start = starts.start(command, ring.ring, error)) return start;
  if (!error.empty()) {
    exit = usage_error(err, error, command);
    return std::nullopt;
  }
  const auto all = ring_starts(command, ring, err, exit);
  if (!all) return std::nullopt;
  if (!seed) seed = std::random_device{}();
  return random_start(*all, seed);
}

int player_command(std::span<const std::string_view> all, std::istream& in, std::ostream& out,
                   std::ostream& err, const Environment& environment) {
  Player me = Player::first;
  RingOptions ring;
  Arguments args(all);
  std::string_view previous;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (std::string error; ring.take("ioiwari", arg, args, error)) {
      if (!error.empty()) return usage_error(err, error.substr(error.find(' ') + 1));
    } else if (arg == "--second") {
      me = Player::second;
    } else if (!arg.starts_with('-')) {
      return usage_error(err, "'" + std::string(previous) + "' takes no arguments, got '" +
                                  std::string(arg) + "'");
    } else {
      return usage_error(err, "unknown option '" + std::string(arg) + "'");
    }
    previous = arg;
  }
  std::optional<TerminalView> view;
  if (environment.input_is_terminal && environment.error_is_terminal) {
    view.emplace(err, !environment.no_color, me);
  }
  ProtocolResult result;
  if (ring.ring.is_ioi() && !ring.table) {
    // The IOI ring solves in well under a millisecond: once the start is read, only the boards it
    // can reach (those of at most its beads) are solved.
    std::optional<Table> table;
    result = play_protocol(
        in, out, ring.ring,
        [&](const Board& start) -> const Table& {
          return table.emplace(Table::solve(start.total()));
        },
        me, view ? &*view : nullptr);
  } else {
    const TableOrExit found = table_for("", ring, err, environment);
    if (!found.table) return found.exit;
    result = play_protocol(in, out, *found.table, me, view ? &*view : nullptr);
  }
  if (result.code != ExitCode::ok) err << "ioiwari: " << result.error << '\n';
  return to_int(result.code);
}

int play_command(Arguments args, std::istream& in, std::ostream& out, std::ostream& err,
                 const Environment& environment) {
  // A mistake on this command's line: one line, then its usage.
  const auto mistake = [&err](const std::string& what) { return usage_error(err, what, "play"); };
  PlayOptions options;
  StartOptions starts;
  RingOptions ring;
  bool no_color = false;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (asks_for_help(arg)) return command_help(out, "play");
    if (std::string error;
        starts.take("play", arg, args, error) || ring.take("play", arg, args, error)) {
      if (!error.empty()) return mistake(error);
    } else if (arg == "--first") {
      options.person = Player::first;
    } else if (arg == "--second") {
      options.person = Player::second;
    } else if (arg == "--no-color") {
      no_color = true;
    } else {
      return mistake("play: unknown option '" + std::string(arg) + "'");
    }
  }
  if (starts.start_text && starts.seed) {
    return mistake("play: --start and --seed do not go together");
  }
  // Set only when a seed draws the start, to say which.
  options.seed = starts.seed;
  int exit = 0;
  const auto start = game_start("play", starts, ring, options.seed, err, exit);
  if (!start) return exit;
  options.start = *start;
  options.color = environment.output_is_terminal && !environment.no_color && !no_color;
  options.interrupted = environment.interrupted;
  const TableOrExit found = table_for("play", ring, err, environment, false, options.start.total());
  if (!found.table) return found.exit;
  environment.catch_interrupts();
  std::istream& input = environment.interruptible_input ? *environment.interruptible_input : in;
  return play_terminal(input, out, *found.table, options);
}

int opponent_command(Arguments args, std::istream& in, std::ostream& out, std::ostream& err,
                     const Environment& environment) {
  // A mistake on this command's line: one line, then its usage.
  const auto mistake = [&err](const std::string& what) {
    return usage_error(err, what, "opponent");
  };
  StartOptions starts;
  RingOptions ring;
  OpponentOptions options;
  std::optional<std::string> record;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (asks_for_help(arg)) return command_help(out, "opponent");
    if (std::string error;
        starts.take("opponent", arg, args, error) || ring.take("opponent", arg, args, error)) {
      if (!error.empty()) return mistake(error);
    } else if (arg == "--strategy") {
      const auto text = args.value();
      const auto strategy = text ? strategy_named(*text) : std::nullopt;
      if (!strategy) {
        return mistake("opponent: --strategy is one of optimal, greedy, random, weakest");
      }
      options.strategy = *strategy;
    } else if (arg == "--record") {
      const auto text = args.value();
      if (!text) return mistake("opponent: --record needs a file name");
      record = std::string(*text);
    } else {
      return mistake("opponent: unknown option '" + std::string(arg) + "'");
    }
  }
  // One seed draws the start and the strategy's choices.
  std::optional<std::uint64_t> seed = starts.seed;
  int exit = 0;
  const auto start = game_start("opponent", starts, ring, seed, err, exit);
  if (!start) return exit;
  options.start = *start;
  options.seed = seed ? *seed : std::random_device{}();
  std::ofstream record_file;
  if (record) {
    record_file.open(*record);
    if (!record_file) {
      err << "ioiwari: opponent: cannot write the record to '" << *record << "'\n";
      return to_int(ExitCode::usage);
    }
  }
  const TableOrExit found =
      table_for("opponent", ring, err, environment, false, options.start.total());
  if (!found.table) return found.exit;
  const OpponentResult result = run_opponent(in, out, *found.table, options);
  if (record) {
    write_record(record_file, result, options);
    record_file.flush();
    if (!record_file)
      err << "ioiwari: opponent: writing the record to '" << *record << "' failed\n";
  }
  err << "ioiwari opponent: " << result.summary() << '\n';
  return static_cast<int>(result.exit);
}

int analyze_command(Arguments args, std::ostream& out, std::ostream& err,
                    const Environment& environment) {
  // A mistake on this command's line: one line, then its usage.
  const auto mistake = [&err](const std::string& what) {
    return usage_error(err, what, "analyze");
  };
  bool json = false;
  RingOptions ring;
  std::vector<std::string_view> words;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (asks_for_help(arg)) return command_help(out, "analyze");
    if (std::string error; ring.take("analyze", arg, args, error)) {
      if (!error.empty()) return mistake(error);
    } else if (arg == "--json") {
      json = true;
    } else if (arg.size() > 1 && arg.starts_with('-') &&
               parse_number(arg).kind == Number::Kind::not_integer) {
      return mistake("analyze: unknown option '" + std::string(arg) + "'");
    } else {
      words.push_back(arg);
    }
  }
  std::string error;
  const auto board = board_from_arguments(words, ring.ring, error);
  if (!board) return mistake("analyze: " + error);
  const TableOrExit found = table_for("analyze", ring, err, environment, false, board->total());
  if (!found.table) return found.exit;
  const Analysis analysis = analyze(*found.table, *board);
  found.table->check_unchanged();
  write_analysis(out, analysis, json);
  out << std::flush;
  return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
}

int starts_command(Arguments args, std::ostream& out, std::ostream& err,
                   const Environment& environment) {
  // A mistake on this command's line: one line, then its usage.
  const auto mistake = [&err](const std::string& what) { return usage_error(err, what, "starts"); };
  bool json = false, classes = false, quiet = false;
  RingOptions ring;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (asks_for_help(arg)) return command_help(out, "starts");
    if (std::string error; ring.take("starts", arg, args, error)) {
      if (!error.empty()) return mistake(error);
    } else if (arg == "--quiet") {
      quiet = true;
    } else if (arg == "--json") {
      json = true;
    } else if (arg == "--classes") {
      classes = true;
    } else {
      return mistake("starts: unknown option '" + std::string(arg) + "'");
    }
  }
  int exit = 0;
  const auto all = ring_starts("starts", ring, err, exit);
  if (!all) return exit;
  const TableOrExit found =
      table_for("starts", ring, err, environment, quiet, ring.start_rule().beads);
  if (!found.table) return found.exit;
  Progress progress(err, environment.error_is_terminal && !quiet && !json, "starts", "starts",
                    all->size(), environment.progress_delay);
  const std::vector<StartReport> reports =
      census(*found.table, *all, classes, [&](std::size_t done) { progress.update(done); });
  progress.clear();
  found.table->check_unchanged();
  write_census(out, reports, classes, json, CensusRules{ring.ring, ring.start_rule()});
  out << std::flush;
  return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
}

int bench_command(Arguments args, std::ostream& out, std::ostream& err,
                  const Environment& environment) {
  // A mistake on this command's line: one line, then its usage.
  const auto mistake = [&err](const std::string& what) { return usage_error(err, what, "bench"); };
  std::optional<int> runs;
  bool json = false, negamax = false, quiet = false;
  RingOptions ring;
  ring.takes_table = false;  // it measures the solve
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (asks_for_help(arg)) return command_help(out, "bench");
    if (std::string error; ring.take("bench", arg, args, error)) {
      if (!error.empty()) return mistake(error);
    } else if (arg == "--negamax") {
      negamax = true;
    } else if (arg == "--quiet") {
      quiet = true;
    } else if (arg == "--runs") {
      const auto text = args.value();
      const auto number = number_from(text, 1, 100'000);
      if (!number) return mistake(range_error("bench", arg, 1, 100'000, text));
      runs = static_cast<int>(*number);
    } else if (arg == "--json") {
      json = true;
    } else {
      return mistake("bench: unknown option '" + std::string(arg) + "'");
    }
  }
  if (negamax && !ring.ring.is_ioi()) {
    return mistake(
        "bench: --negamax compares the library with the IOI ring's own table; it "
        "takes no other ring");
  }
  if (const auto refused = refuse_if_too_large("bench", ring.ring, err, environment)) {
    return *refused;
  }
  // The IOI ring solves in milliseconds; any other may take minutes a run.
  const int count = runs ? *runs : ring.ring.is_ioi() ? 101 : 1;
  Progress progress(err, environment.error_is_terminal && !json && !quiet, "bench", "runs",
                    static_cast<std::size_t>(count));
  BenchResult result = run_bench(count, negamax, ring.ring, [&](int done) {
    progress.update(static_cast<std::size_t>(done));
  });
  // What a judge waits for: a whole game as a process of its own, start-up included.
  if (ring.ring.is_ioi() && !environment.self_path.empty()) {
    result.process = time_processes(environment.self_path, count, Table::solve());
    if (!result.process) {
      err << "ioiwari: bench: '" << environment.self_path
          << "' did not play a whole game as a child; no process figures\n";
    }
  }
  progress.clear();
  write_bench(out, result, json);
  out << std::flush;
  return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
}

int referee_command(Arguments args, std::ostream& out, std::ostream& err,
                    const Environment& environment) {
  // A mistake on this command's line: one line, then its usage.
  const auto mistake = [&err](const std::string& what) {
    return usage_error(err, what, "referee");
  };
  RefereePlan plan;
  RingOptions ring;
  std::string starts = "all";
  long long random_count = 0;
  int show = 5;
  bool json = false, quiet = false;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (arg == "--") break;
    if (asks_for_help(arg)) return command_help(out, "referee");
    const auto number = [&](long long low, long long high) {
      const auto text = args.value();
      const auto value = number_from(text, low, high);
      if (!value) throw std::invalid_argument(range_error("referee", arg, low, high, text));
      return *value;
    };
    try {
      if (std::string error; ring.take("referee", arg, args, error)) {
        if (!error.empty()) return mistake(error);
      } else if (arg == "--starts") {
        const auto text = args.value();
        if (text == "all" || text == "classes") {
          starts = std::string(*text);
        } else {
          const auto count = number_from(text, 1, 1'000'000);
          if (!count) {
            return mistake("referee: --starts is all, classes or a count 1 to 1000000");
          }
          starts = "random";
          random_count = *count;
        }
      } else if (arg == "--strategy") {
        const auto text = args.value();
        if (!text) return mistake("referee: --strategy needs a name");
        plan.strategies.clear();
        std::string_view list = *text;
        if (list == "all") list = "optimal,greedy,random,weakest";
        while (!list.empty()) {
          const auto comma = list.find(',');
          const auto strategy = strategy_named(list.substr(0, comma));
          if (!strategy) {
            return mistake("referee: unknown strategy " + quoted(list.substr(0, comma)) +
                           ": optimal, greedy, random, weakest or all");
          }
          plan.strategies.push_back(*strategy);
          list = comma == std::string_view::npos ? "" : list.substr(comma + 1);
        }
      } else if (arg == "--seed") {
        plan.seed = static_cast<std::uint64_t>(number(0, kMaxSeed));
      } else if (arg == "--jobs") {
        plan.jobs = static_cast<int>(number(1, 256));
      } else if (arg == "--move-time") {
        plan.limits.per_move = std::chrono::milliseconds(number(1, 3'600'000));
      } else if (arg == "--game-time") {
        plan.limits.per_game = std::chrono::milliseconds(number(1, 3'600'000));
      } else if (arg == "--exit-time") {
        plan.limits.after_end = std::chrono::milliseconds(number(1, 3'600'000));
      } else if (arg == "--max-line") {
        plan.limits.max_line_bytes = static_cast<std::size_t>(number(1, 1 << 20));
      } else if (arg == "--memory") {
        plan.limits.memory_mb = static_cast<std::uint64_t>(number(1, 1 << 20));
      } else if (arg == "--wall-factor") {
        plan.limits.wall_factor = static_cast<int>(number(1, 1000));
      } else if (arg == "--isolate") {
        plan.limits.isolate = true;
      } else if (arg == "--no-data-limit") {
        plan.limits.data_limit = false;
      } else if (arg == "--show") {
        show = static_cast<int>(number(0, 1'000'000));
      } else if (arg == "--json") {
        json = true;
      } else if (arg == "--quiet") {
        quiet = true;
      } else if (arg.starts_with('-')) {
        return mistake("referee: unknown option '" + std::string(arg) + "'");
      } else {
        // The player's command starts here, without a "--" before it.
        plan.player.emplace_back(arg);
        break;
      }
    } catch (const std::invalid_argument& error) {
      return mistake(error.what());
    }
  }
  for (std::string_view word : args.rest())
    plan.player.emplace_back(word);
  if (plan.player.empty()) return mistake("referee: no player to run (after --)");
  if (plan.strategies.empty()) plan.strategies = {Strategy::optimal};

  int exit = 0;
  const auto ring_starts_found = ring_starts("referee", ring, err, exit);
  if (!ring_starts_found) return exit;
  const std::vector<Board>& all = *ring_starts_found;
  if (starts == "all") {
    plan.starts = all;
  } else if (starts == "classes") {
    for (const Board& start : all) {
      if (start.canonical() == start) plan.starts.push_back(start);
    }
  } else {
    Random random(plan.seed);
    for (long long i = 0; i < random_count; ++i) {
      plan.starts.push_back(
          all[static_cast<std::size_t>(random.below(static_cast<int>(all.size())))]);
    }
  }
  // The player, and the isolation asked for, are tried once before any game: what cannot run
  // is refused now, with one line, not judged hundreds of times.
  try {
    check_player(plan.player, plan.limits);
  } catch (const SpawnError& error) {
    err << "ioiwari: referee: "
        << (error.kind() == SpawnError::Kind::isolation ? "--isolate: " : "") << error.what()
        << '\n';
    return error.kind() == SpawnError::Kind::resources ? static_cast<int>(RefereeExit::failed)
                                                       : to_int(ExitCode::usage);
  }
  if (const auto cap = jobs_cap(plan.jobs)) {
    err << "ioiwari: referee: --jobs " << plan.jobs << " capped at " << *cap
        << ": this process may open too few files for more games at once\n";
    plan.jobs = *cap;
  }
  const TableOrExit found =
      table_for("referee", ring, err, environment, quiet || json, ring.start_rule().beads);
  if (!found.table) return found.exit;
  const Table& table = *found.table;
  Progress progress(err, environment.error_is_terminal && !json && !quiet, "referee", "games",
                    plan.starts.size() * plan.strategies.size());
  std::size_t won = 0;
  std::vector<GameReport> reports;
  const StopOnSignals stop;
  plan.stop = &stop.flag();
  try {
    reports = run_games(plan, table, [&](const GameReport& report, std::size_t done) {
      won += report.verdict == Verdict::win ? 1 : 0;
      progress.update(done,
                      std::to_string(won) + " won, " + std::to_string(done - won) + " not won");
    });
  } catch (const RefereeStopped&) {
    progress.clear();
    err << "ioiwari: referee: stopped by " << stop.signal_name() << "; no game was judged\n";
    return 128 + stop.signal();  // as the shell reports a death by that signal
  } catch (const SpawnError& error) {
    progress.clear();
    err << "ioiwari: referee: cannot start a game: " << error.what() << "; no game was judged\n";
    return error.kind() == SpawnError::Kind::resources ? static_cast<int>(RefereeExit::failed)
                                                       : to_int(ExitCode::usage);
  }
  progress.clear();
  table.check_unchanged();
  if (json) {
    write_json(out, plan, reports);
  } else {
    write_summary(out, plan, reports, show);
  }
  out << std::flush;
  const bool all_won = std::all_of(reports.begin(), reports.end(),
                                   [](const GameReport& r) { return r.verdict == Verdict::win; });
  return all_won ? 0 : 1;
}

int solve_command(Arguments args, std::ostream& out, std::ostream& err,
                  const Environment& environment) {
  // A mistake on this command's line: one line, then its usage.
  const auto mistake = [&err](const std::string& what) { return usage_error(err, what, "solve"); };
  RingOptions ring;
  ring.takes_table = false;  // it makes one
  std::optional<std::string> path;
  bool quiet = false;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (asks_for_help(arg)) return command_help(out, "solve");
    if (std::string error; ring.take("solve", arg, args, error)) {
      if (!error.empty()) return mistake(error);
    } else if (arg == "--out") {
      const auto text = args.value();
      if (!text || text->empty()) return mistake("solve: --out needs a file name");
      path = std::string(*text);
    } else if (arg == "--quiet") {
      quiet = true;
    } else {
      return mistake("solve: unknown option '" + std::string(arg) + "'");
    }
  }
  if (!path) return mistake("solve: --out FILE says where to write the table");
  if (const auto refused = refuse_if_too_large("solve", ring.ring, err, environment)) {
    return *refused;
  }
  // The file is prepared before the solve: a path that cannot take the table is refused now.
  std::optional<TableOutput> output;
  try {
    output.emplace(*path, ring.ring);
  } catch (const TableFileError& error) {
    err << "ioiwari: solve: " << error.what() << '\n';
    return to_int(ExitCode::bad_table);
  }
  const auto begin = std::chrono::steady_clock::now();
  const TableSize size = table_size(ring.ring);
  Progress progress(err, environment.error_is_terminal && !quiet, "solve", "classes", size.classes,
                    environment.progress_delay);
  SolveOptions options;
  int threads = 0;
  options.progress = [&](const SolveProgress& now) {
    threads = now.threads;
    const auto percent = now.classes == 0 ? 100 : now.done * 100 / now.classes;
    progress.update(now.done, "layer " + std::to_string(now.layer) + " of " +
                                  std::to_string(now.layers - 1) + ", " + std::to_string(percent) +
                                  "%");
  };
  const auto table = RingTable::solve(ring.ring, options);
  progress.clear();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  try {
    output->commit(*table);
  } catch (const TableFileError& error) {
    err << "ioiwari: solve: " << error.what() << '\n';
    return to_int(ExitCode::bad_table);
  }
  out << "solved the ring of " << ring.ring.describe() << ": " << table->classes() << " classes in "
      << std::fixed << std::setprecision(1) << seconds << " s on " << threads
      << (threads == 1 ? " thread" : " threads") << "; wrote " << *path << " ("
      << bytes_text(output->bytes()) << ")\n"
      << std::flush;
  return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
}

int verify_command(Arguments args, std::ostream& out, std::ostream& err) {
  const auto mistake = [&err](const std::string& what) { return usage_error(err, what, "verify"); };
  std::optional<std::string> path;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (asks_for_help(arg)) return command_help(out, "verify");
    if (arg.starts_with('-') && arg.size() > 1) {
      return mistake("verify: unknown option '" + std::string(arg) + "'");
    }
    if (path) return mistake("verify: one table at a time, got '" + std::string(arg) + "'");
    path = std::string(arg);
  }
  if (!path || path->empty()) return mistake("verify: give the table file to check");
  const auto begin = std::chrono::steady_clock::now();
  TableCheck check;
  try {
    check = verify_table(*path);
  } catch (const TableFileError& error) {
    err << "ioiwari: verify: " << error.what() << '\n';
    return to_int(ExitCode::bad_table);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  out << "table '" << *path << "' is sound: the ring of " << check.ring.describe() << ", "
      << check.classes << " classes; " << check.blocks << " blocks (" << bytes_text(check.bytes)
      << ") checked in " << std::fixed << std::setprecision(1) << seconds << " s\n"
      << std::flush;
  return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
}

int help_command(Arguments args, std::ostream& out, std::ostream& err) {
  if (args.done()) {
    write_overview(out);
    out << std::flush;
    return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
  }
  const std::string_view name = args.take();
  if (!args.done()) {
    return usage_error(err, "help: one command at a time, got '" + std::string(args.take()) + "'",
                       "help");
  }
  if (asks_for_help(name)) return command_help(out, "help");
  if (name.empty() || find_command(name) == nullptr) {
    return usage_error(err, "help: no command '" + std::string(name) + "'", "help");
  }
  return command_help(out, name);
}

}  // namespace

namespace {

int dispatch(std::span<const std::string_view> args, std::istream& in, std::ostream& out,
             std::ostream& err, const Environment& environment) {
  if (args.empty()) return player_command(args, in, out, err, environment);
  const std::string_view first = args.front();
  Arguments rest(args.subspan(1));
  if (first == "play") return play_command(rest, in, out, err, environment);
  if (first == "opponent") return opponent_command(rest, in, out, err, environment);
  if (first == "referee") return referee_command(rest, out, err, environment);
  if (first == "bench") return bench_command(rest, out, err, environment);
  if (first == "analyze") return analyze_command(rest, out, err, environment);
  if (first == "starts") return starts_command(rest, out, err, environment);
  if (first == "help") return help_command(rest, out, err);
  if (first == "solve") return solve_command(rest, out, err, environment);
  if (first == "verify") return verify_command(rest, out, err);
  const bool alone = args.size() == 1;
  if (asks_for_help(first) && alone) {
    write_overview(out);
    out << std::flush;
    return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
  }
  if (first == "--version" && alone) {
    out << "ioiwari " << IOIWARI_VERSION << '\n' << std::flush;
    return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
  }
  if (first == "--help" || first == "-h" || first == "--version") {
    std::string what = "'";
    what += first;
    what += "' takes no arguments, got '";
    what += args[1];
    what += "'";
    return usage_error(err, what);
  }
  if (first.starts_with('-')) return player_command(args, in, out, err, environment);
  return usage_error(err, "unknown command '" + std::string(first) + "'");
}

}  // namespace

int run_cli(std::span<const std::string_view> args, std::istream& in, std::ostream& out,
            std::ostream& err, const Environment& environment) {
  try {
    return dispatch(args, in, out, err, environment);
  } catch (const TableError& error) {
    // A table file found damaged or changed by a look-up, after it was opened.
    const bool command = !args.empty() && find_command(args.front()) != nullptr;
    err << "ioiwari: " << (command ? where(args.front()) : "") << error.what() << '\n';
    return to_int(ExitCode::bad_table);
  }
}

}  // namespace ioiwari
