#include "ioiwari/cli.hpp"

#include <fstream>
#include <istream>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ioiwari/analysis.hpp"
#include "ioiwari/arguments.hpp"
#include "ioiwari/bench.hpp"
#include "ioiwari/command_help.hpp"
#include "ioiwari/exit_code.hpp"
#include "ioiwari/opponent.hpp"
#include "ioiwari/progress.hpp"
#include "ioiwari/protocol.hpp"
#include "ioiwari/random.hpp"
#include "ioiwari/referee.hpp"
#include "ioiwari/solver.hpp"
#include "ioiwari/terminal.hpp"
#include "ioiwari/token.hpp"

#ifndef IOIWARI_VERSION
#define IOIWARI_VERSION "unknown"
#endif

namespace ioiwari {

namespace {

int protocol_command(Player me, std::istream& in, std::ostream& out, std::ostream& err,
                     const Environment& environment) {
  const Table table = Table::solve();
  std::optional<TerminalView> view;
  if (environment.input_is_terminal && environment.error_is_terminal) {
    view.emplace(err, !environment.no_color, me);
  }
  const ProtocolResult result = play_protocol(in, out, table, me, view ? &*view : nullptr);
  if (result.code != ExitCode::ok) err << "ioiwari: " << result.error << '\n';
  return to_int(result.code);
}

int play_command(Arguments args, std::istream& in, std::ostream& out, std::ostream& err,
                 const Environment& environment) {
  // A mistake on this command's line: one line, then its usage.
  const auto mistake = [&err](const std::string& what) { return usage_error(err, what, "play"); };
  PlayOptions options;
  StartOptions starts;
  bool no_color = false;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (asks_for_help(arg)) return command_help(out, "play");
    if (std::string error; starts.take("play", arg, args, error)) {
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
  if (starts.start && starts.seed) {
    return mistake("play: --start and --seed do not go together");
  }
  if (!starts.start) {
    options.seed = starts.seed ? *starts.seed : std::random_device{}();
    options.start = random_start(options.seed);
  } else {
    options.start = *starts.start;
  }
  options.color = environment.output_is_terminal && !environment.no_color && !no_color;
  options.interrupted = environment.interrupted;
  environment.catch_interrupts();
  const Table table = Table::solve();
  std::istream& input = environment.interruptible_input ? *environment.interruptible_input : in;
  return play_terminal(input, out, table, options);
}

int opponent_command(Arguments args, std::istream& in, std::ostream& out, std::ostream& err) {
  // A mistake on this command's line: one line, then its usage.
  const auto mistake = [&err](const std::string& what) {
    return usage_error(err, what, "opponent");
  };
  StartOptions starts;
  OpponentOptions options;
  std::optional<std::string> record;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (asks_for_help(arg)) return command_help(out, "opponent");
    if (std::string error; starts.take("opponent", arg, args, error)) {
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
  options.start = starts.start ? *starts.start : random_start(starts.seed);
  options.seed = starts.seed ? *starts.seed : std::random_device{}();
  std::ofstream record_file;
  if (record) {
    record_file.open(*record);
    if (!record_file) {
      err << "ioiwari: opponent: cannot write the record to '" << *record << "'\n";
      return to_int(ExitCode::usage);
    }
  }
  const Table table = Table::solve();
  const OpponentResult result = run_opponent(in, out, table, options);
  if (record) {
    write_record(record_file, result, options);
    record_file.flush();
    if (!record_file)
      err << "ioiwari: opponent: writing the record to '" << *record << "' failed\n";
  }
  err << "ioiwari opponent: " << result.summary() << '\n';
  return static_cast<int>(result.exit);
}

int analyze_command(Arguments args, std::ostream& out, std::ostream& err) {
  // A mistake on this command's line: one line, then its usage.
  const auto mistake = [&err](const std::string& what) {
    return usage_error(err, what, "analyze");
  };
  bool json = false;
  std::vector<std::string_view> words;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (asks_for_help(arg)) return command_help(out, "analyze");
    if (arg == "--json") {
      json = true;
    } else if (arg.size() > 1 && arg.starts_with('-') &&
               parse_number(arg).kind == Number::Kind::not_integer) {
      return mistake("analyze: unknown option '" + std::string(arg) + "'");
    } else {
      words.push_back(arg);
    }
  }
  std::string error;
  const auto board = board_from_arguments(words, error);
  if (!board) return mistake("analyze: " + error);
  write_analysis(out, analyze(Table::solve(), *board), json);
  out << std::flush;
  return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
}

int starts_command(Arguments args, std::ostream& out, std::ostream& err) {
  // A mistake on this command's line: one line, then its usage.
  const auto mistake = [&err](const std::string& what) { return usage_error(err, what, "starts"); };
  bool json = false, classes = false;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (asks_for_help(arg)) return command_help(out, "starts");
    if (arg == "--json") {
      json = true;
    } else if (arg == "--classes") {
      classes = true;
    } else {
      return mistake("starts: unknown option '" + std::string(arg) + "'");
    }
  }
  write_census(out, census(Table::solve(), classes), classes, json);
  out << std::flush;
  return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
}

int bench_command(Arguments args, std::ostream& out, std::ostream& err,
                  const Environment& environment) {
  // A mistake on this command's line: one line, then its usage.
  const auto mistake = [&err](const std::string& what) { return usage_error(err, what, "bench"); };
  int runs = 101;
  bool json = false, negamax = false, quiet = false;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (asks_for_help(arg)) return command_help(out, "bench");
    if (arg == "--negamax") {
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
  Progress progress(err, environment.error_is_terminal && !json && !quiet, "bench", "runs",
                    static_cast<std::size_t>(runs));
  const BenchResult result =
      run_bench(runs, negamax, [&](int done) { progress.update(static_cast<std::size_t>(done)); });
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
      if (arg == "--starts") {
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

  const std::vector<Board> all = ioi_starts();
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
  const Table table = Table::solve();
  Progress progress(err, environment.error_is_terminal && !json && !quiet, "referee", "games",
                    plan.starts.size() * plan.strategies.size());
  std::size_t won = 0;
  const std::vector<GameReport> reports =
      run_games(plan, table, [&](const GameReport& report, std::size_t done) {
        won += report.verdict == Verdict::win ? 1 : 0;
        progress.update(done,
                        std::to_string(won) + " won, " + std::to_string(done - won) + " not won");
      });
  progress.clear();
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

int run_cli(std::span<const std::string_view> args, std::istream& in, std::ostream& out,
            std::ostream& err, const Environment& environment) {
  if (args.empty()) return protocol_command(Player::first, in, out, err, environment);
  const std::string_view first = args.front();
  Arguments rest(args.subspan(1));
  if (first == "play") return play_command(rest, in, out, err, environment);
  if (first == "opponent") return opponent_command(rest, in, out, err);
  if (first == "referee") return referee_command(rest, out, err, environment);
  if (first == "bench") return bench_command(rest, out, err, environment);
  if (first == "analyze") return analyze_command(rest, out, err);
  if (first == "starts") return starts_command(rest, out, err);
  if (first == "help") return help_command(rest, out, err);
  const bool alone = args.size() == 1;
  if (first == "--second" && alone) {
    return protocol_command(Player::second, in, out, err, environment);
  }
  if (asks_for_help(first) && alone) {
    write_overview(out);
    out << std::flush;
    return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
  }
  if (first == "--version" && alone) {
    out << "ioiwari " << IOIWARI_VERSION << '\n' << std::flush;
    return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
  }
  if (first == "--second" || first == "--help" || first == "-h" || first == "--version") {
    std::string what = "'";
    what += first;
    what += "' takes no arguments, got '";
    what += args[1];
    what += "'";
    return usage_error(err, what);
  }
  if (first.starts_with('-'))
    return usage_error(err, "unknown option '" + std::string(first) + "'");
  return usage_error(err, "unknown command '" + std::string(first) + "'");
}

}  // namespace ioiwari
