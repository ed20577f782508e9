// The declaration of every command of `ioiwari`, with its options (command_options.hpp): the one
// place they are written.
#include "ioiwari/cli/commands.hpp"

#include "command_options.hpp"

namespace ioiwari::cli {

namespace {

using namespace declared;

// ---- help. -----------------------------------------------------------------------------------

constexpr Exit kHelpExits[] = {
    {code(ExitCode::ok), "the help was written"},
    {code(ExitCode::usage), "no such command"},
    kOutputExit,
};

constexpr unsigned kRingAndTable = Group::ring | Group::table;
constexpr unsigned kJsonOrQuiet = Group::json | Group::quiet;

constexpr Command kCommands[] = {
    {"",
     "play player 1 (or 2) over standard input and output",
     "It reads the start (7 bead counts, 0 to 5 each; N counts of 0 to C on another ring) and "
     "then the opponent's moves, and writes each of its own moves (a pit label 1 to 7, or 1 to "
     "N) on a line of its own, flushed (docs/protocol.md). It solves the whole game at startup "
     "and wins from every start that can be won. When standard input and standard error are "
     "terminals, it also draws the game and prompts on standard error; standard output stays "
     "the protocol.",
     kPlayerOptions,
     kRingAndTable,
     Operands::none,
     "",
     {},
     kPlayerExits,
     run_player},
    {"play", "play against ioiwari at a terminal, with hints and undo",
     "It draws the ring and both banks and says what every move did. At the prompt type a pit "
     "number, hint (every legal move's value, best first), undo (your last move and the "
     "reply), redo (a move taken back), board, help or quit.",
     kPlayOptions, kRingAndTable, Operands::none, "", kPlayConflicts, kPlayExits, run_play},
    {"opponent",
     "play player 2 as a judge: write the start line, then answer each move",
     "It checks each of player 1's moves as the player checks its opponent's, flushes every "
     "line, and reports the result on standard error.",
     kOpponentOptions,
     kRingAndTable,
     Operands::none,
     "",
     {},
     kOpponentExits,
     run_opponent},
    {"referee", "run PLAYER as player 1, one process per game, and score it as the IOI did",
     "Each game runs PLAYER in a cgroup of its own, as a user no other game or referee run "
     "holds when run as root, in new namespaces and a box of files of its own where the kernel "
     "allows them, below a keeper, with a cleared environment and without io_uring, keyrings "
     "or new namespaces; everything it starts is killed when the game is judged. It plays "
     "against the opponent's strategy and gets one verdict: win, tie, loss, or the fault "
     "(unreadable move, move out of range, empty pit, time limit, memory limit, disk limit, exit "
     "before the end, output after the end, non-zero exit, killed by a signal, left processes "
     "behind). A "
     "win scores 4 points, a tie 2. Limits are CPU time of the player's processes, and their "
     "memory that is not a mapped file.",
     kRefereeOptions, kRingAndTable | kJsonOrQuiet, Operands::command, "PLAYER [ARGS...]",
     kRefereeConflicts, kRefereeExits, run_referee},
    {"analyze",
     "the value of every move on a board, and the best line to the end",
     "The board is N counts (separate words, or one quoted word) or its code, the number in "
     "base C+1 whose lowest digit is pit 1. Values are bank differences at the end of the game "
     "for the player to move, with perfect play on both sides.",
     {},
     kRingAndTable | static_cast<unsigned>(Group::json),
     Operands::words,
     "P1 ... PN | CODE",
     {},
     kAnalyzeExits,
     run_analyze},
    {"starts",
     "every start: its value, best moves, and how a greedy first player fares",
     "It lists each start's value for player 1 with perfect play, the first moves that achieve "
     "it, and the margin of a greedy player 1 against perfect play, then checks whether the "
     "first player can always win.",
     kStartsOptions,
     kRingAndTable | kJsonOrQuiet,
     Operands::none,
     "",
     {},
     kStartsExits,
     run_starts},
    {"bench",
     "build the table N times: its time, its rate and its signature",
     "The signature is the positions the solver evaluated and a checksum of every class's value, "
     "the same however the table was made; a test pins it. On the IOI's ring it then runs itself N "
     "times as a child "
     "on a whole game, and N times with --version, and prints the median time and the minor "
     "page faults of each.",
     kBenchOptions,
     static_cast<unsigned>(Group::ring) | kJsonOrQuiet,
     Operands::none,
     "",
     {},
     kBenchExits,
     run_bench},
    {"solve",
     "solve a ring and write its table to a file, for --table",
     "Before it solves, it checks FILE and makes a temporary file beside it with room for the "
     "whole table; it solves every rotation class, one layer of bead count at a time on every "
     "core, then renames the table over FILE. A ring whose table does not fit the memory is "
     "solved past memory: the layers go to files in DIR, and the table is written from them at "
     "the end (docs/rings.md). The format is in docs/table-format.md.",
     kSolveOptions,
     Group::ring | Group::quiet,
     Operands::none,
     "",
     {},
     kSolveExits,
     run_solve},
    {"verify",
     "check that a table file is the true table of its ring, and record its root",
     "A command given --table checks the parts of a table file as it reads them; verify reads "
     "all of them once: every page and block against its hashes, the hashes against the root, "
     "the padding. Where the ring's true root is known (built in, or recorded by an earlier "
     "verify), the file's root must be it. Where it is not, verify solves the ring (about as long "
     "as solve) and compares the two tables; a file found true has its root recorded in the "
     "user's list ($XDG_DATA_HOME/ioiwari/roots), and every command then uses it, or any copy "
     "of it, without --trust-table (docs/table-format.md). The ring is the one the file names.",
     kVerifyOptions,
     static_cast<unsigned>(Group::quiet),
     Operands::one,
     "FILE",
     {},
     kVerifyExits,
     run_verify},
    {"convert",
     "write a table file again in the other format, with the same root",
     "Reads the table in FILE, every page checked against its hashes as a look-up checks it, and "
     "writes it to the file of --out in the other format (or in --format's): a file of format 4 "
     "made into one of format 5, about a quarter of its bytes, or back. The two files hold one "
     "table and have "
     "one root. FILE must be the true table of its ring: a ring whose root ioiwari has built in, "
     "or one that verify recorded (docs/table-format.md).",
     std::span(kSolveOptions).first(2),  // --out, --format
     0,
     Operands::one,
     "FILE",
     {},
     kConvertExits,
     run_convert},
    {"interact",
     "the interactor of an interactive problem of the problem package format",
     "Run as Kattis and DOMjudge run a validator: the submission's output on standard input, "
     "its input on standard output. It reads the game file INPUT (docs/judging.md), checks the "
     "start's value against ANSWER, plays player 2 as opponent does, and writes "
     "judgemessage.txt and teammessage.txt in FEEDBACK_DIR. The problem is pass-fail: only a "
     "won game is accepted.",
     {},
     static_cast<unsigned>(Group::table),
     Operands::words,
     "INPUT ANSWER FEEDBACK_DIR",
     {},
     kInteractExits,
     run_interact},
    {"manage",
     "the manager of a CMS Communication task, talking through two FIFOs",
     "It reads the game file on standard input, plays player 2 through the FIFOs FROM_USER and "
     "TO_USER, and writes the outcome (1.00 for a win, 0.50 for a tie, 0.00 else) on standard "
     "output and one line for the contestant on standard error. Run under the name 'manager', "
     "as CMS runs it, ioiwari is this command.",
     {},
     static_cast<unsigned>(Group::table),
     Operands::words,
     "FROM_USER TO_USER",
     {},
     kManageExits,
     run_manage},
    {"validate",
     "the input validator of a package: is standard input a game file?",
     "A game file is six lines: ioiwari game 1, pits, capacity, start, strategy and seed "
     "(docs/judging.md).",
     {},
     0,
     Operands::none,
     "",
     {},
     kValidateExits,
     run_validate},
    {"package",
     "write a problem package of the task for a judge system",
     "The statement, a game file for every start chosen and strategy, the interactor (a copy "
     "of this program), and example submissions: accepted, wrong answer (greedy, and a bad "
     "move), time limit exceeded and run-time error (docs/judging.md).",
     kPackageOptions,
     Group::ring | Group::quiet,
     Operands::none,
     "",
     {},
     kPackageExits,
     run_package},
    {"help",
     "the overview, or a command's usage and options",
     "'ioiwari COMMAND --help' prints the same as 'ioiwari help COMMAND'.",
     {},
     0,
     Operands::words,
     "[COMMAND]",
     {},
     kHelpExits,
     run_help},
};

}  // namespace

std::span<const Command> commands() {
  return kCommands;
}

const Command* find_command(std::string_view name) {
  for (const Command& command : kCommands) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

std::span<const Option> solve_options() {
  return std::span(kSolveOptions).first(2);  // --out, --format: a distributed solve is in memory
}

TableFormat written_format(const Parsed& parsed) {
  return static_cast<TableFormat>(*parsed.number(opt::format));
}

std::span<const Exit> solve_exits() {
  return kSolveExits;
}

std::span<const OptionGroup> option_groups() {
  return kGroups;
}

}  // namespace ioiwari::cli
