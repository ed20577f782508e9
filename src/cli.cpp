#include "ioiwari/cli.hpp"

#include <istream>
#include <ostream>

#include "ioiwari/exit_code.hpp"
#include "ioiwari/protocol.hpp"
#include "ioiwari/solver.hpp"

#ifndef IOIWARI_VERSION
#define IOIWARI_VERSION "unknown"
#endif

namespace ioiwari {

namespace {

constexpr std::string_view kUsage = "usage: ioiwari [--help | --version]\n";

constexpr std::string_view kHelp =
    "ioiwari: the perfect player of Ioiwari, the mancala game of IOI 2001.\n"
    "\n"
    "With no arguments it plays player 1 over standard input and output:\n"
    "  it reads the start (7 bead counts, 0..5 each) and then the opponent's moves,\n"
    "  and writes each of its own moves (a pit label 1..7) on a line of its own.\n"
    "  It solves the whole game at startup and wins from every start that can be won.\n"
    "\n"
    "Options:\n"
    "  --help       show this help and exit\n"
    "  --version    show the version and exit\n"
    "\n"
    "Exit status:\n"
    "  0  the game was played to its end\n"
    "  1  internal error\n"
    "  2  bad command line\n"
    "  3  bad start (not 7 counts of 0..5 with at least one bead)\n"
    "  4  bad opponent move (not an integer, not a pit 1..7, or an empty pit)\n"
    "  5  input ended before the game was over\n"
    "  6  standard output was closed\n";

}  // namespace

int run_cli(std::span<const std::string_view> args, std::istream& in, std::ostream& out,
            std::ostream& err) {
  if (args.empty()) {
    const Table table = Table::solve();
    const ProtocolResult result = play_protocol(in, out, table, Player::first);
    if (result.code != ExitCode::ok) err << "ioiwari: " << result.error << '\n';
    return to_int(result.code);
  }
  const std::string_view first = args.front();
  const bool help = first == "--help" || first == "-h";
  const bool version = first == "--version";
  if ((help || version) && args.size() == 1) {
    if (help) out << kUsage << '\n' << kHelp;
    if (version) out << "ioiwari " << IOIWARI_VERSION << '\n';
    out << std::flush;
    return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
  }
  if (help || version) {
    err << "ioiwari: '" << first << "' takes no arguments, got '" << args[1] << "'\n";
  } else if (first.starts_with('-')) {
    err << "ioiwari: unknown option '" << first << "'\n";
  } else {
    err << "ioiwari: unknown command '" << first << "'\n";
  }
  err << kUsage;
  return to_int(ExitCode::usage);
}

}  // namespace ioiwari
