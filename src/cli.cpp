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
#include "ioiwari/bench.hpp"
#include "ioiwari/exit_code.hpp"
#include "ioiwari/opponent.hpp"
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

constexpr std::string_view kUsage =
    "usage: ioiwari [--second]\n"
    "       ioiwari play [--first | --second] [--start \"P1 ... P7\" | --seed N] [--no-color]\n"
    "       ioiwari opponent [--start \"P1 ... P7\"] [--seed N] [--strategy S] [--record FILE]\n"
    "       ioiwari referee [OPTIONS] -- PLAYER [ARGS...]\n"
    "       ioiwari analyze [--json] P1 ... P7 | CODE\n"
    "       ioiwari starts [--classes] [--json]\n"
    "       ioiwari bench [--runs N] [--negamax] [--json]\n"
    "       ioiwari --help | --version\n";

constexpr std::string_view kHelp =
    "ioiwari: the perfect player of Ioiwari, the mancala game of IOI 2001.\n"
    "\n"
    "With no arguments it plays player 1 over standard input and output:\n"
    "  it reads the start (7 bead counts, 0..5 each) and then the opponent's moves,\n"
    "  and writes each of its own moves (a pit label 1..7) on a line of its own.\n"
    "  It solves the whole game at startup and wins from every start that can be won.\n"
    "  When standard input and standard error are terminals, it also draws the game\n"
    "  and prompts on standard error; standard output stays the protocol.\n"
    "  --second     play player 2 instead: read player 1's move first\n"
    "\n"
    "Commands:\n"
    "  play         play against ioiwari at a terminal, with hints and undo\n"
    "    --first      you move first (the default: the first player can always win)\n"
    "    --second     ioiwari moves first\n"
    "    --start \"P1 ... P7\"  the start (7 counts of 0..5); else one of the 357 IOI\n"
    "                 starts at random\n"
    "    --seed N     draw the random start reproducibly\n"
    "    --no-color   no colour (also when NO_COLOR is set, or output is not a terminal)\n"
    "  opponent     play player 2 as a judge: write the start line, then answer each move\n"
    "    --start \"P1 ... P7\", --seed N   as for play; the seed also drives the strategy\n"
    "    --strategy S  optimal (default; random among equal moves), greedy, random, weakest\n"
    "    --record FILE write the dialogue with both banks to FILE\n"
    "    exit status: 0 player 1 won, 10 tied, 11 lost, 12 broke the protocol\n"
    "  referee      run PLAYER as player 1, one process per game, against the opponent\n"
    "    --starts all|classes|N  all 357 starts (default), one of each of the 51 rotation\n"
    "                 classes, or N drawn at random\n"
    "    --strategy S[,S...]|all  the opponents (default optimal)\n"
    "    --seed N     seeds the random starts and the strategies (default 1)\n"
    "    --jobs N     games at once (default 1)\n"
    "    --move-time MS, --game-time MS  limits (default 2000, 20000)\n"
    "    --exit-time MS  how long the player may take to exit after the last move\n"
    "                 (default 2000)\n"
    "    --max-line BYTES  the longest move line read from the player (default 64)\n"
    "    --show N     failing games listed in the summary (default 5)\n"
    "    --json       the summary as JSON\n"
    "    exit status: 0 every game won, 1 not every game won\n"
    "  analyze      the value of every move on a board (7 counts, or its base-6 code with\n"
    "               pit 1 the lowest digit), best first, and the best line to the end\n"
    "  starts       every IOI start (--classes: one of each of the 51 rotation classes):\n"
    "               value, best moves, how a greedy first player fares against perfect\n"
    "               play, and a check of the task's claim that the first player wins\n"
    "  bench        build the table N times (--runs, default 101): median time, boards per\n"
    "               second, and the signature (positions evaluated, table checksum)\n"
    "    --negamax    also solve every board N times with the generic memoized negamax\n"
    "                 library, and compare positions per second and values\n"
    "\n"
    "Exit status of the player:\n"
    "  0    the game was played to its end (or left by the person in `play`)\n"
    "  1    internal error\n"
    "  2    bad command line\n"
    "  3    bad start (not 7 counts of 0..5 with at least one bead)\n"
    "  4    bad opponent move (not an integer, not a pit 1..7, or an empty pit)\n"
    "  5    input ended before the game was over\n"
    "  6    standard output was closed\n"
    "  130  `play` was ended with Ctrl-C\n";

// A command-line mistake: says what, then the usage, and gives the usage exit status.
int usage_error(std::ostream& err, std::string_view what) {
  err << "ioiwari: " << what << '\n' << kUsage;
  return to_int(ExitCode::usage);
}

// Walks the arguments of one command. `option` is the one taken last, for messages.
class Arguments {
 public:
  explicit Arguments(std::span<const std::string_view> args) : args_(args) {}
  bool done() const { return at_ == args_.size(); }
  std::string_view take() { return option_ = args_[at_++]; }
  std::optional<std::string_view> value() {
    if (done()) return std::nullopt;
    return args_[at_++];
  }
  std::span<const std::string_view> rest() const { return args_.subspan(at_); }
  std::string_view option() const { return option_; }

 private:
  std::span<const std::string_view> args_;
  std::size_t at_ = 0;
  std::string_view option_;
};

// The start in an option's text, or an error message.
std::optional<Board> start_from(std::string_view text, std::string& error) {
  std::istringstream counts{std::string(text)};
  TokenReader reader(counts);
  Board board;
  if (auto result = read_start(reader, board); result.code != ExitCode::ok) {
    error = result.error;
    return std::nullopt;
  }
  if (auto extra = reader.next()) {
    error = quoted(*extra) + " after the " + std::to_string(kPits) + " counts";
    return std::nullopt;
  }
  return board;
}

// The whole number in an option's value, within [low, high].
std::optional<long long> number_from(std::optional<std::string_view> text, long long low,
                                     long long high) {
  if (!text) return std::nullopt;
  const Number number = parse_number(*text);
  if (number.kind != Number::Kind::integer || number.value < low || number.value > high) {
    return std::nullopt;
  }
  return number.value;
}

std::string range_error(std::string_view command, std::string_view option, long long low,
                        long long high, std::optional<std::string_view> text) {
  std::string message = std::string(command) + ": " + std::string(option) + " needs a number " +
                        std::to_string(low) + " to " + std::to_string(high);
  if (text) message += ", not " + quoted(*text);
  return message;
}

constexpr long long kMaxSeed = std::numeric_limits<long long>::max();

// --start and --seed, which play and opponent share.
struct StartOptions {
  std::optional<Board> start;
  std::optional<std::uint64_t> seed;

  // Takes `arg` (with its value from `args`) when it is one of these options, and says so;
  // `error` is set when its value is wrong.
  bool take(std::string_view command, std::string_view arg, Arguments& args, std::string& error) {
    const std::string where = std::string(command) + ": " + std::string(arg);
    if (arg == "--start") {
      const auto text = args.value();
      if (!text) {
        error = where + " needs the counts, as \"4 3 2 4 2 3 2\"";
      } else if (std::string why; !(start = start_from(*text, why))) {
        error = where + ": " + why;
      }
      return true;
    }
    if (arg == "--seed") {
      const auto text = args.value();
      const auto number = number_from(text, 0, kMaxSeed);
      if (!number) error = range_error(command, arg, 0, kMaxSeed, text);
      if (number) seed = static_cast<std::uint64_t>(*number);
      return true;
    }
    return false;
  }
};

Board random_start(std::optional<std::uint64_t> seed) {
  const std::vector<Board> starts = ioi_starts();
  Random random(seed ? *seed : std::random_device{}());
  return starts[static_cast<std::size_t>(random.below(static_cast<int>(starts.size())))];
}

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
  PlayOptions options;
  StartOptions starts;
  bool no_color = false;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (std::string error; starts.take("play", arg, args, error)) {
      if (!error.empty()) return usage_error(err, error);
    } else if (arg == "--first") {
      options.person = Player::first;
    } else if (arg == "--second") {
      options.person = Player::second;
    } else if (arg == "--no-color") {
      no_color = true;
    } else {
      return usage_error(err, "play: unknown option '" + std::string(arg) + "'");
    }
  }
  if (starts.start && starts.seed) {
    return usage_error(err, "play: --start and --seed do not go together");
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
  StartOptions starts;
  OpponentOptions options;
  std::optional<std::string> record;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (std::string error; starts.take("opponent", arg, args, error)) {
      if (!error.empty()) return usage_error(err, error);
    } else if (arg == "--strategy") {
      const auto text = args.value();
      const auto strategy = text ? strategy_named(*text) : std::nullopt;
      if (!strategy) {
        return usage_error(err, "opponent: --strategy is one of optimal, greedy, random, weakest");
      }
      options.strategy = *strategy;
    } else if (arg == "--record") {
      const auto text = args.value();
      if (!text) return usage_error(err, "opponent: --record needs a file name");
      record = std::string(*text);
    } else {
      return usage_error(err, "opponent: unknown option '" + std::string(arg) + "'");
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
  bool json = false;
  std::vector<std::string_view> words;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (arg == "--json") {
      json = true;
    } else if (arg.size() > 1 && arg.starts_with('-') &&
               parse_number(arg).kind == Number::Kind::not_integer) {
      return usage_error(err, "analyze: unknown option '" + std::string(arg) + "'");
    } else {
      words.push_back(arg);
    }
  }
  std::string error;
  const auto board = board_from_arguments(words, error);
  if (!board) return usage_error(err, "analyze: " + error);
  write_analysis(out, analyze(Table::solve(), *board), json);
  out << std::flush;
  return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
}

int starts_command(Arguments args, std::ostream& out, std::ostream& err) {
  bool json = false, classes = false;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (arg == "--json") {
      json = true;
    } else if (arg == "--classes") {
      classes = true;
    } else {
      return usage_error(err, "starts: unknown option '" + std::string(arg) + "'");
    }
  }
  write_census(out, census(Table::solve(), classes), classes, json);
  out << std::flush;
  return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
}

int bench_command(Arguments args, std::ostream& out, std::ostream& err) {
  int runs = 101;
  bool json = false, negamax = false;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (arg == "--negamax") {
      negamax = true;
    } else if (arg == "--runs") {
      const auto text = args.value();
      const auto number = number_from(text, 1, 100'000);
      if (!number) return usage_error(err, range_error("bench", arg, 1, 100'000, text));
      runs = static_cast<int>(*number);
    } else if (arg == "--json") {
      json = true;
    } else {
      return usage_error(err, "bench: unknown option '" + std::string(arg) + "'");
    }
  }
  write_bench(out, run_bench(runs, negamax), json);
  out << std::flush;
  return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
}

int referee_command(Arguments args, std::ostream& out, std::ostream& err) {
  RefereePlan plan;
  std::string starts = "all";
  long long random_count = 0;
  int show = 5;
  bool json = false;
  while (!args.done()) {
    const std::string_view arg = args.take();
    if (arg == "--") break;
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
            return usage_error(err, "referee: --starts is all, classes or a count 1 to 1000000");
          }
          starts = "random";
          random_count = *count;
        }
      } else if (arg == "--strategy") {
        const auto text = args.value();
        if (!text) return usage_error(err, "referee: --strategy needs a name");
        plan.strategies.clear();
        std::string_view list = *text;
        if (list == "all") list = "optimal,greedy,random,weakest";
        while (!list.empty()) {
          const auto comma = list.find(',');
          const auto strategy = strategy_named(list.substr(0, comma));
          if (!strategy) {
            return usage_error(err, "referee: unknown strategy " + quoted(list.substr(0, comma)) +
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
      } else if (arg.starts_with('-')) {
        return usage_error(err, "referee: unknown option '" + std::string(arg) + "'");
      } else {
        // The player's command starts here, without a "--" before it.
        plan.player.emplace_back(arg);
        break;
      }
    } catch (const std::invalid_argument& error) {
      return usage_error(err, error.what());
    }
  }
  for (std::string_view word : args.rest())
    plan.player.emplace_back(word);
  if (plan.player.empty()) return usage_error(err, "referee: no player to run (after --)");
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
  const std::vector<GameReport> reports = run_games(plan, table);
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

}  // namespace

int run_cli(std::span<const std::string_view> args, std::istream& in, std::ostream& out,
            std::ostream& err, const Environment& environment) {
  if (args.empty()) return protocol_command(Player::first, in, out, err, environment);
  const std::string_view first = args.front();
  Arguments rest(args.subspan(1));
  if (first == "play") return play_command(rest, in, out, err, environment);
  if (first == "opponent") return opponent_command(rest, in, out, err);
  if (first == "referee") return referee_command(rest, out, err);
  if (first == "bench") return bench_command(rest, out, err);
  if (first == "analyze") return analyze_command(rest, out, err);
  if (first == "starts") return starts_command(rest, out, err);
  const bool alone = args.size() == 1;
  if (first == "--second" && alone) {
    return protocol_command(Player::second, in, out, err, environment);
  }
  if ((first == "--help" || first == "-h") && alone) {
    out << kUsage << '\n' << kHelp << std::flush;
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
