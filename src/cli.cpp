#include "ioiwari/cli.hpp"

#include <istream>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>

#include "ioiwari/exit_code.hpp"
#include "ioiwari/protocol.hpp"
#include "ioiwari/random.hpp"
#include "ioiwari/solver.hpp"
#include "ioiwari/terminal.hpp"
#include "ioiwari/token.hpp"

#ifndef IOIWARI_VERSION
#define IOIWARI_VERSION "unknown"
#endif

namespace ioiwari {

namespace {

constexpr std::string_view kUsage =
    "usage: ioiwari [--help | --version]\n"
    "       ioiwari play [--first | --second] [--start \"P1 ... P7\" | --seed N] [--no-color]\n";

constexpr std::string_view kHelp =
    "ioiwari: the perfect player of Ioiwari, the mancala game of IOI 2001.\n"
    "\n"
    "With no arguments it plays player 1 over standard input and output:\n"
    "  it reads the start (7 bead counts, 0..5 each) and then the opponent's moves,\n"
    "  and writes each of its own moves (a pit label 1..7) on a line of its own.\n"
    "  It solves the whole game at startup and wins from every start that can be won.\n"
    "  When standard input and standard error are terminals, it also draws the game\n"
    "  and prompts on standard error; standard output stays the protocol.\n"
    "\n"
    "Commands:\n"
    "  play         play against ioiwari at a terminal, with hints and undo\n"
    "    --first      you move first (the default: the first player can always win)\n"
    "    --second     ioiwari moves first\n"
    "    --start \"P1 ... P7\"  the start (7 counts of 0..5); else one of the 357 IOI\n"
    "                 starts at random\n"
    "    --seed N     draw the random start reproducibly\n"
    "    --no-color   no colour (also when NO_COLOR is set, or output is not a terminal)\n"
    "\n"
    "Options:\n"
    "  --help       show this help and exit\n"
    "  --version    show the version and exit\n"
    "\n"
    "Exit status:\n"
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

int play_protocol_command(std::istream& in, std::ostream& out, std::ostream& err,
                          const Environment& environment) {
  const Table table = Table::solve();
  std::optional<TerminalView> view;
  if (environment.input_is_terminal && environment.error_is_terminal) {
    view.emplace(err, !environment.no_color, Player::first);
  }
  const ProtocolResult result =
      play_protocol(in, out, table, Player::first, view ? &*view : nullptr);
  if (result.code != ExitCode::ok) err << "ioiwari: " << result.error << '\n';
  return to_int(result.code);
}

int play_command(std::span<const std::string_view> args, std::istream& in, std::ostream& out,
                 std::ostream& err, const Environment& environment) {
  PlayOptions options;
  std::optional<Board> start;
  std::optional<std::uint64_t> seed;
  bool no_color = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const auto value = [&]() -> std::optional<std::string_view> {
      if (i + 1 < args.size()) return args[++i];
      return std::nullopt;
    };
    if (arg == "--first") {
      options.person = Player::first;
    } else if (arg == "--second") {
      options.person = Player::second;
    } else if (arg == "--no-color") {
      no_color = true;
    } else if (arg == "--start") {
      const auto text = value();
      if (!text) return usage_error(err, "play: --start needs the counts, as \"4 3 2 4 2 3 2\"");
      std::istringstream counts{std::string(*text)};
      TokenReader reader(counts);
      Board board;
      if (auto result = read_start(reader, board); result.code != ExitCode::ok) {
        return usage_error(err, "play: --start: " + result.error);
      }
      if (auto extra = reader.next()) {
        return usage_error(err, "play: --start: " + quoted(*extra) + " after the " +
                                    std::to_string(kPits) + " counts");
      }
      start = board;
    } else if (arg == "--seed") {
      const auto text = value();
      const Number number = text ? parse_number(*text) : Number{Number::Kind::not_integer};
      if (number.kind != Number::Kind::integer || number.value < 0) {
        return usage_error(err, "play: --seed needs a number 0 or more" +
                                    (text ? ", not " + quoted(*text) : std::string()));
      }
      seed = static_cast<std::uint64_t>(number.value);
    } else if (arg == "--help" || arg == "-h") {
      out << kUsage << std::flush;
      return to_int(ExitCode::ok);
    } else {
      return usage_error(err, "play: unknown option '" + std::string(arg) + "'");
    }
  }
  if (start && seed) return usage_error(err, "play: --start and --seed do not go together");
  if (!start) {
    const std::vector<Board> starts = ioi_starts();
    Random random(seed ? *seed : std::random_device{}());
    start = starts[static_cast<std::size_t>(random.below(static_cast<int>(starts.size())))];
  }
  options.start = *start;
  options.color = environment.output_is_terminal && !environment.no_color && !no_color;
  options.interrupted = environment.interrupted;
  environment.catch_interrupts();
  const Table table = Table::solve();
  return play_terminal(in, out, table, options);
}

}  // namespace

int run_cli(std::span<const std::string_view> args, std::istream& in, std::ostream& out,
            std::ostream& err, const Environment& environment) {
  if (args.empty()) return play_protocol_command(in, out, err, environment);
  const std::string_view first = args.front();
  if (first == "play") return play_command(args.subspan(1), in, out, err, environment);
  const bool help = first == "--help" || first == "-h";
  const bool version = first == "--version";
  if ((help || version) && args.size() == 1) {
    if (help) out << kUsage << '\n' << kHelp;
    if (version) out << "ioiwari " << IOIWARI_VERSION << '\n';
    out << std::flush;
    return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
  }
  if (help || version) {
    return usage_error(
        err, "'" + std::string(first) + "' takes no arguments, got '" + std::string(args[1]) + "'");
  }
  if (first.starts_with('-'))
    return usage_error(err, "unknown option '" + std::string(first) + "'");
  return usage_error(err, "unknown command '" + std::string(first) + "'");
}

}  // namespace ioiwari
