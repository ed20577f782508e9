#include "ioiwari/cli/command_help.hpp"

#include <array>
#include <ostream>

namespace ioiwari {

namespace {

constexpr std::array kCommands = {
    CommandHelp{
        "", "ioiwari [--second] [RING]", "play player 1 (or 2) over standard input and output",
        "It reads the start (7 bead counts, 0..5 each; N counts of 0..C on another ring)\n"
        "and then the opponent's moves, and writes each of its own moves (a pit label 1..7,\n"
        "or 1..N) on a line of its own, flushed. It solves the whole game at startup and\n"
        "wins from every start that can be won. When standard input and standard error are\n"
        "terminals, it also draws the game and prompts on standard error; standard output\n"
        "stays the protocol.\n"
        "  --second     play player 2 instead: read player 1's move first\n"
        "Exit status:\n"
        "  0    the game was played to its end\n"
        "  1    internal error\n"
        "  2    bad command line\n"
        "  3    bad start (not 7 counts of 0..5 with at least one bead)\n"
        "  4    bad opponent move (not an integer, not a pit 1..7, or an empty pit)\n"
        "  5    input ended before the game was over\n"
        "  6    standard output was closed\n"
        "  7    the table file (--table) is not a table, truncated, damaged, or of another\n"
        "       ring\n"},
    CommandHelp{
        "play",
        "ioiwari play [--first | --second] [--start \"P1 ... PN\" | --seed N] [--no-color] [RING]",
        "play against ioiwari at a terminal, with hints and undo",
        "It draws the ring and both banks and says what every move did. At the prompt type a\n"
        "pit number, hint (every legal move's value, best first), undo (your last move and\n"
        "the reply), board, help or quit.\n"
        "  --first      you move first (the default: the first player can always win)\n"
        "  --second     ioiwari moves first\n"
        "  --start \"P1 ... P7\"  the start (7 counts of 0..5); else one of the 357 IOI\n"
        "               starts at random\n"
        "  --seed N     draw the random start reproducibly\n"
        "  --no-color   no colour (also when NO_COLOR is set, or output is not a terminal)\n"
        "Exit status: 0 when the game ends or is left (quit, end of input), 130 after\n"
        "Ctrl-C, 2 for a bad command line.\n"},
    CommandHelp{
        "opponent",
        "ioiwari opponent [--start \"P1 ... PN\"] [--seed N] [--strategy S] [--record FILE] [RING]",
        "play player 2 as a judge: write the start line, then answer each move",
        "It checks each of player 1's moves as the player checks its opponent's, flushes\n"
        "every line, and reports the result on standard error.\n"
        "  --start \"P1 ... P7\"  the start; else one of the 357 IOI starts at random\n"
        "  --seed N     draws the start and the strategy's choices reproducibly\n"
        "  --strategy S optimal (default; random among equal moves), greedy, random, weakest\n"
        "  --record FILE  write the dialogue with both banks after every move to FILE\n"
        "Exit status: 0 player 1 won, 10 tied, 11 lost, 12 broke the protocol, 2 bad\n"
        "command line.\n"},
    CommandHelp{
        "referee", "ioiwari referee [OPTIONS] [RING] -- PLAYER [ARGS...]",
        "run PLAYER as player 1, one process per game, and score it as the IOI did",
        "Each game runs PLAYER against `opponent`'s play and gives one verdict: win, tie,\n"
        "loss, or the fault (unreadable move, move out of range, empty pit, time limit,\n"
        "memory limit, exit before the end, output after the end, non-zero exit, killed by\n"
        "a signal, left processes behind). A win scores 4 points, a tie 2. PLAYER runs\n"
        "below a keeper that kills everything it starts when its game ends; a player that\n"
        "leaves processes running when it exits loses the game for it.\n"
        "  --starts all|classes|N  all 357 starts (default), one of each of the 51\n"
        "               rotation classes, or N drawn at random\n"
        "  --strategy S[,S...]|all  the opponents (default optimal)\n"
        "  --seed N     seeds the random starts and the strategies (default 1)\n"
        "  --jobs N     games at once (default 1; capped by the open-file limit)\n"
        "  --move-time MS  CPU time for each move, start-up in the first (default 2000)\n"
        "  --game-time MS  CPU time for the whole game (default 20000)\n"
        "  --exit-time MS  CPU time to exit after the last move (default 2000)\n"
        "  --wall-factor N  each limit's wall-clock time is N times its CPU time\n"
        "               (default 5)\n"
        "  --memory MB  memory of the player's processes, not counting mapped files\n"
        "               (default 1024)\n"
        "  --no-data-limit  no kernel cap (RLIMIT_DATA) at twice --memory, for players\n"
        "               that reserve more than they use (AddressSanitizer, a JVM)\n"
        "  --isolate    run each player in new PID, network and IPC namespaces\n"
        "  --max-line BYTES  the longest move line read from the player (default 64)\n"
        "  --show N     failing games listed in the summary (default 5)\n"
        "  --json       the summary as JSON\n"
        "  --quiet      no progress line (it is drawn on standard error only when that is\n"
        "               a terminal, and never with --json)\n"
        "Exit status: 0 every game won, 1 not every game won, 2 bad command line, a\n"
        "PLAYER that cannot be run or --isolate refused, 3 the system refused pipes or\n"
        "processes (no game judged), 130 and 143 stopped by SIGINT or SIGTERM.\n"},
    CommandHelp{
        "analyze", "ioiwari analyze [--json] [RING] P1 ... PN | CODE",
        "the value of every move on a board, and the best line to the end",
        "The board is 7 counts (separate words, or one quoted word) or its base-6 code with\n"
        "pit 1 the lowest digit. Values are bank differences at the end of the game for the\n"
        "player to move, with perfect play on both sides.\n"
        "  --json       the analysis as JSON\n"
        "Exit status: 0, or 2 for a bad command line or board.\n"},
    CommandHelp{
        "starts", "ioiwari starts [--classes] [--json] [--quiet] [RING]",
        "every IOI start: its value, best moves, and how a greedy first player fares",
        "It lists each start's value for player 1 with perfect play, the first moves that\n"
        "achieve it, and the margin of a greedy player 1 against perfect play, then checks\n"
        "the task's claim that the first player can always win.\n"
        "  --classes    one start of each rotation class (51 on the IOI's ring)\n"
        "  --json       the census as JSON\n"
        "  --quiet      no progress line (drawn on standard error only at a terminal)\n"
        "Exit status: 0, or 2 for a bad command line.\n"},
    CommandHelp{"bench", "ioiwari bench [--runs N] [--negamax] [--json] [--quiet] [RING]",
                "build the table N times: its time, its rate and its signature",
                "The signature is the positions the solver evaluated and a checksum of every\n"
                "board's value and best move; a test pins it. On the IOI's ring it then runs\n"
                "itself N times as a child on a whole game, and N times with --version, and\n"
                "prints the median time and the minor page faults of each.\n"
                "  --runs N     builds, and games (default 101)\n"
                "  --negamax    also solve every board N times with the generic memoized negamax\n"
                "               library, and compare positions per second and values\n"
                "  --json       the result as JSON\n"
                "  --quiet      no progress line (drawn on standard error only at a terminal)\n"
                "Exit status: 0, or 2 for a bad command line.\n"},
    CommandHelp{"solve", "ioiwari solve --out FILE [--quiet] [RING]",
                "solve a ring and write its table to a file, for --table",
                "It solves every rotation class of the ring, one layer of bead count at a time on\n"
                "every core, showing progress on standard error when that is a terminal and the\n"
                "solve takes over a second, and writes the table atomically: to a temporary file\n"
                "beside FILE, renamed over it only when whole.\n"
                "  --out FILE   where to write the table\n"
                "  --quiet      no progress line\n"
                "Exit status: 0, 2 for a bad command line or a ring too large for this machine's\n"
                "memory, 7 when the file cannot be written.\n"},
    CommandHelp{"verify", "ioiwari verify FILE",
                "check a whole table file, every block and every part",
                "A command given --table checks the parts of a table file as it reads them;\n"
                "verify checks all of them now: every block against its checksum, the\n"
                "directory against the bitmap, the bitmap against the ring's classes, and every\n"
                "value against the ring's range. The ring is the one the file names.\n"
                "Exit status: 0 the table is sound, 2 bad command line, 7 the file is not a\n"
                "table, is truncated, damaged, or changed while it was checked.\n"},
    CommandHelp{"help", "ioiwari help [COMMAND]", "the overview, or a command's usage and options",
                "`ioiwari COMMAND --help` prints the same as `ioiwari help COMMAND`.\n"
                "Exit status: 0, or 2 for an unknown command.\n"},
};

// The options that choose the ring: every command but help takes them.
constexpr std::string_view kRingOptions =
    "RING: the ring (without these, the IOI's: 7 pits of capacity 5, starts of 20 beads\n"
    "with 2 to 4 in each pit):\n"
    "  --pits N     pits on the ring, 3 to 13; the player then reads N counts\n"
    "  --capacity C the beads a pit holds, 1 to 9\n"
    "  --start-beads T  the beads of a start (default 3N-1)\n"
    "  --start-range A..B  the beads of each pit of a start (default 2..4, 4 capped at C)\n";
constexpr std::string_view kTableOption =
    "  --table FILE play from a table file that `ioiwari solve` wrote, mapped read-only,\n"
    "               instead of solving; exit status 7 when it is not a table, truncated,\n"
    "               damaged, or a table of another ring\n";

}  // namespace

std::span<const CommandHelp> commands() {
  return kCommands;
}

const CommandHelp* find_command(std::string_view name) {
  for (const CommandHelp& command : kCommands) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

void write_usage(std::ostream& out) {
  const char* label = "usage: ";
  for (const CommandHelp& command : kCommands) {
    out << label << command.synopsis << '\n';
    label = "       ";
  }
  out << label << "ioiwari --help | --version\n";
}

void write_overview(std::ostream& out) {
  write_usage(out);
  out << "\nioiwari: the perfect player of Ioiwari, the mancala game of IOI 2001.\n\n"
      << "With no arguments it plays player 1 over standard input and output.\n"
      << kCommands.front().details << "\nCommands:\n";
  for (const CommandHelp& command : kCommands) {
    if (command.name.empty()) continue;
    out << "  " << command.name << std::string(10 - command.name.size(), ' ') << command.summary
        << '\n';
  }
  out << '\n'
      << kRingOptions << kTableOption
      << "\n'ioiwari help COMMAND' or 'ioiwari COMMAND --help' prints a command's options.\n";
}

void write_command_help(std::ostream& out, const CommandHelp& command) {
  out << "usage: " << command.synopsis << "\n\n" << command.summary << ".\n\n" << command.details;
  if (command.name == "help" || command.name == "verify") return;
  out << kRingOptions;
  // bench and solve measure or make the solve, so they read no table.
  if (command.name != "bench" && command.name != "solve") out << kTableOption;
}

}  // namespace ioiwari
