// The options of every command of `ioiwari`, each declared once with its value, range, default
// and help, and each command's conflicts and exit statuses: what commands.cpp's table of
// commands is made of. Included by commands.cpp alone.
#pragma once

#include <array>
#include <chrono>
#include <limits>

#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/option_names.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/input/exit_code.hpp"
#include "ioiwari/judge/judge_system.hpp"
#include "ioiwari/judge/opponent.hpp"
#include "ioiwari/judge/referee.hpp"
#include "ioiwari/play/terminal.hpp"

namespace ioiwari::cli::declared {

constexpr long long kMaxSeed = std::numeric_limits<long long>::max();
constexpr long long kMostMilliseconds = 3'600'000;
// The failing games a referee's summary lists.
constexpr long long kDefaultShown = 5;

constexpr int code(ExitCode exit) {
  return static_cast<int>(exit);
}

// ---- The shared groups. ----------------------------------------------------------------------

// The defaults that are fields of the structs the options set: taken from them, never written
// again here.
constexpr RefereeLimits kLimits{};
constexpr long long kDefaultSeed = static_cast<long long>(RefereePlan{}.seed);
constexpr long long kDefaultJobs = RefereePlan{}.jobs;
constexpr long long milliseconds(std::chrono::milliseconds time) {
  return time.count();
}

constexpr Option kRing[] = {
    {opt::pits,
     "N",
     Value::integer,
     "pits on the ring; the player then reads N counts",
     {},
     kMinPits,
     kMaxPits,
     {},
     false,
     Ring::ioi().pits},
    {opt::capacity,
     "C",
     Value::integer,
     "the most beads a pit holds",
     {},
     kMinCapacity,
     kMaxCapacity,
     {},
     false,
     Ring::ioi().capacity},
    {opt::start_beads, "T", Value::integer, "the beads of a start", "3N-1", 1, kMaxRingBeads},
    {opt::start_range, "A..B", Value::range, "the beads of each pit of a start",
     "2..4, 4 capped at C", 0, kMaxCapacity},
};

constexpr Option kTable[] = {
    {opt::table, "FILE", Value::text,
     "play from a table file that 'ioiwari solve' wrote instead of solving the ring, and, given "
     "neither --pits nor --capacity, play its ring; status 7 when it is not a table, is damaged, "
     "is not the ring's true table, is of another ring, or changes while in use"},
    {opt::trust_table, "", Value::none,
     "use --table even when the true root of its ring is neither built in nor recorded by "
     "'ioiwari verify' (a ring solved only by ioiwari-mpi), and say so: its values are then "
     "the file's"},
};

constexpr Option kJson[] = {
    {opt::json, "", Value::none, "the output as one JSON object (its keys: docs/json.md)"},
};

constexpr Option kQuiet[] = {
    {opt::quiet, "", Value::none,
     "no progress line (drawn only where standard error is a terminal)"},
};

constexpr OptionGroup kGroups[] = {
    {Group::ring, "Ring",
     "the ring and its starts; without these, the IOI's: 7 pits of capacity 5, starts of 20 "
     "beads with 2 to 4 in each pit (docs/rules.md)",
     kRing},
    {Group::table, "Table", "where the ring's table comes from", kTable},
    // Listed with each command's own options.
    {Group::json, "", "", kJson},
    {Group::quiet, "", "", kQuiet},
};

constexpr std::string_view kStrategies[] = {"optimal", "greedy", "random", "weakest"};

constexpr Exit kTableExit = {code(ExitCode::bad_table),
                             "the table file is not a table, is damaged, is not the ring's true "
                             "table, is of another ring, or changed while in use"};
constexpr Exit kUsageExit = {code(ExitCode::usage), "bad command line"};
constexpr Exit kOutputExit = {code(ExitCode::output_closed),
                              "standard output could not be written"};

// ---- The player. -----------------------------------------------------------------------------

constexpr Option kPlayerOptions[] = {
    {opt::second, "", Value::none, "play player 2: read player 1's move first"},
};
constexpr Exit kPlayerExits[] = {
    {code(ExitCode::ok), "the game was played to its end (or --help, --version)"},
    {code(ExitCode::failure), "internal error"},
    kUsageExit,
    {code(ExitCode::bad_start), "bad start: not N counts of 0 to C with at least one bead"},
    {code(ExitCode::bad_move), "bad opponent move: not an integer, not a pit, or an empty pit"},
    {code(ExitCode::input_ended), "standard input ended before the game was over"},
    {code(ExitCode::output_closed), "standard output was closed"},
    kTableExit,
};

// ---- play. -----------------------------------------------------------------------------------

constexpr Option kPlayOptions[] = {
    {opt::first, "", Value::none, "you move first (the default: the first player can win)"},
    {opt::second, "", Value::none, "ioiwari moves first"},
    {opt::start, "\"P1 ... PN\"", Value::text, "the start; else one of the ring's at random"},
    {opt::seed, "N", Value::integer,
     "draws the random start (unless --start gives it), and ioiwari's random choices, "
     "reproducibly",
     "", 0, kMaxSeed},
    {opt::strategy, "S", Value::choice,
     "how ioiwari chooses its moves: optimal is the best (the lowest-labelled of them), the "
     "others make a weaker opponent",
     "optimal", 0, 0, kStrategies},
    {opt::record, "FILE", Value::text,
     "add each game to FILE when it ends or is left, to play it back with --replay"},
    {opt::replay, "FILE", Value::text,
     "play back the games recorded in FILE: every move, the board after it, and the lesson"},
    {opt::no_color, "", Value::none,
     "no colour (nor when NO_COLOR is set, TERM is dumb, or the output is not a terminal)"},
};
constexpr Conflict kPlayConflicts[] = {{opt::first, opt::second},  {opt::replay, opt::first},
                                       {opt::replay, opt::second}, {opt::replay, opt::start},
                                       {opt::replay, opt::seed},   {opt::replay, opt::strategy},
                                       {opt::replay, opt::record}};
constexpr Exit kPlayExits[] = {
    {code(ExitCode::ok), "the game ended, or was left (quit, end of input)"},
    kUsageExit,
    kTableExit,
    {kInterruptedExit, "Ctrl-C ended the game"},
};

// ---- opponent. -------------------------------------------------------------------------------

constexpr Option kOpponentOptions[] = {
    {opt::start, "\"P1 ... PN\"", Value::text, "the start; else one of the ring's at random"},
    {opt::seed, "N", Value::integer, "draws the start and the strategy's choices reproducibly", "",
     0, kMaxSeed},
    {opt::strategy, "S", Value::choice, "how player 2 chooses its moves", "optimal", 0, 0,
     kStrategies},
    {opt::record, "FILE", Value::text,
     "write the dialogue, with both banks after every move, and the result to FILE"},
};
constexpr Exit kOpponentExits[] = {
    {static_cast<int>(OpponentExit::player1_won), "player 1 won"},
    kUsageExit,
    kTableExit,
    {static_cast<int>(OpponentExit::player1_tied), "player 1 tied"},
    {static_cast<int>(OpponentExit::player1_lost), "player 1 lost"},
    {static_cast<int>(OpponentExit::player1_broke_protocol),
     "player 1 broke the protocol (a bad move, input that ended early, a closed pipe)"},
};

// ---- referee. --------------------------------------------------------------------------------

// The seed of a series of games (the referee's, a package's), with RefereePlan's default.
constexpr Option kSeriesSeed = {
    opt::seed, "N",   Value::integer, "seeds the random starts and the strategies", {}, 0, kMaxSeed,
    {},        false, kDefaultSeed,
};

constexpr Option kRefereeOptions[] = {
    {opt::starts, "all|classes|N", Value::text,
     "every start, one of each rotation class, or N drawn at random", "all"},
    {opt::strategy, "S[,S...]|all", Value::list, "the opponents' strategies", "optimal", 0, 0,
     kStrategies},
    kSeriesSeed,
    {opt::jobs,
     "N",
     Value::integer,
     "games played at once, at most what the open-file limit allows",
     {},
     1,
     kMostSlots,
     {},
     false,
     kDefaultJobs},
    {opt::move_time,
     "MS",
     Value::integer,
     "CPU time for each move, the player's start-up in its first",
     {},
     1,
     kMostMilliseconds,
     {},
     false,
     milliseconds(kLimits.per_move)},
    {opt::game_time,
     "MS",
     Value::integer,
     "CPU time for the whole game",
     {},
     1,
     kMostMilliseconds,
     {},
     false,
     milliseconds(kLimits.per_game)},
    {opt::exit_time,
     "MS",
     Value::integer,
     "CPU time to exit, writing nothing more, after the last move",
     {},
     1,
     kMostMilliseconds,
     {},
     false,
     milliseconds(kLimits.after_end)},
    {opt::wall_factor,
     "N",
     Value::integer,
     "each limit's wall-clock time is N times its CPU time",
     {},
     1,
     1000,
     {},
     false,
     kLimits.wall_factor},
    {opt::memory,
     "MB",
     Value::integer,
     "memory of the player's processes, mapped files not counted",
     {},
     1,
     1 << 20,
     {},
     false,
     static_cast<long long>(kLimits.memory_mb)},
    {opt::no_data_limit, "", Value::none,
     "no kernel cap (RLIMIT_DATA) at twice --memory on each process, for players that reserve "
     "more than they use (AddressSanitizer, a JVM)"},
    {opt::processes,
     "N",
     Value::integer,
     "processes and threads of one game at once, the player's own included",
     {},
     1,
     4096,
     {},
     false,
     kLimits.processes},
    {opt::fsize,
     "MB",
     Value::integer,
     "the largest file a player's process may write",
     {},
     1,
     1 << 20,
     {},
     false,
     static_cast<long long>(kLimits.file_size_mb)},
    {opt::disk,
     "MB",
     Value::integer,
     "as root, all a game may write in its box (/tmp, /var/tmp, /dev/shm and its working folder, "
     "its memory too)",
     {},
     1,
     1 << 20,
     {},
     false,
     static_cast<long long>(kLimits.disk_mb)},
    {opt::env,
     "NAME[=VALUE]",
     Value::text,
     "pass NAME to the player, with VALUE or the referee's own value; the player's environment "
     "is otherwise PATH, HOME and LIBC_FATAL_STDERR_ alone",
     {},
     0,
     0,
     {},
     false,
     {},
     true},
    {opt::dir,
     "FOLDER",
     Value::text,
     "as root, show FOLDER (an interpreter's, say) read-only in each game's box, at its own path",
     {},
     0,
     0,
     {},
     false,
     {},
     true},
    {opt::user, "UID[:GID]", Value::text,
     "as root, run the players as users from UID and groups from GID on: each game slot takes a "
     "user no other referee run holds",
     "61000:61000"},
    {opt::no_cgroups, "", Value::none,
     "no cgroup for each game: the keeper counts and kills through /proc"},
    {opt::isolate, "", Value::none,
     "refuse to run unless each player can have new PID, mount, network and IPC namespaces"},
    {opt::no_isolate, "", Value::none, "run players in the referee's own namespaces"},
    {opt::max_line,
     "BYTES",
     Value::integer,
     "the longest move line read from the player",
     {},
     1,
     1 << 20,
     {},
     false,
     static_cast<long long>(kLimits.max_line_bytes)},
    {opt::show,
     "N",
     Value::integer,
     "failing games listed in the summary",
     {},
     0,
     1'000'000,
     {},
     false,
     kDefaultShown},
};
constexpr Conflict kRefereeConflicts[] = {{opt::isolate, opt::no_isolate}};
constexpr Exit kRefereeExits[] = {
    {static_cast<int>(RefereeExit::all_won), "every game won"},
    {static_cast<int>(RefereeExit::not_all_won), "not every game won"},
    {static_cast<int>(RefereeExit::usage),
     "bad command line, a PLAYER that cannot be run, --isolate refused, or --user not root"},
    {static_cast<int>(RefereeExit::failed),
     "the system refused pipes or processes, even after waiting, or other referee runs hold "
     "every user of the range: no game was judged"},
    kOutputExit,
    kTableExit,
    {129, "stopped by SIGHUP: every game ended, none judged (130 SIGINT, 143 SIGTERM)"},
};

// ---- analyze, starts. ------------------------------------------------------------------------

constexpr Exit kAnalyzeExits[] = {
    {code(ExitCode::ok), "the board was analysed"},
    {code(ExitCode::usage), "bad command line or board"},
    kOutputExit,
    kTableExit,
};

constexpr Option kStartsOptions[] = {
    {opt::classes, "", Value::none, "one start of each rotation class"},
};
constexpr Exit kStartsExits[] = {
    {code(ExitCode::ok), "the census was written"},
    kUsageExit,
    kOutputExit,
    kTableExit,
};

// ---- bench. ----------------------------------------------------------------------------------

constexpr Option kBenchOptions[] = {
    {opt::runs, "N", Value::integer,
     "builds, and games as a process (default 101 on the IOI's ring, 1 on others)", "", 1, 100'000},
    {opt::negamax, "", Value::none,
     "also solve every board N times with the generic memoized negamax library, and compare"},
};
constexpr Exit kBenchExits[] = {
    {code(ExitCode::ok), "the bench ran"},
    {code(ExitCode::usage), "bad command line, or a ring too large for this machine"},
    kOutputExit,
};

// ---- solve, verify. --------------------------------------------------------------------------

constexpr Option kSolveOptions[] = {
    {opt::out, "FILE", Value::text, "where to write the table", "", 0, 0, {}, true},
    {opt::format,
     "N",
     Value::integer,
     "the table file's format version: 5, its values coded and its index found again as it is "
     "read (about a quarter of the bytes), or 4, every byte as it lies in memory",
     "",
     kTableFormatVersion,
     kCompressedFormatVersion,
     {},
     false,
     kCompressedFormatVersion},
    {opt::memory, "MB", Value::integer,
     "the most memory the solve may take; a table larger than it is solved past memory, a few "
     "layers in memory and the rest in files",
     "three quarters of this machine's", 1, 1 << 30},
    {opt::work, "DIR", Value::text,
     "where a solve past memory keeps its layers' files, in a folder of its own", "FILE's folder"},
};
constexpr Exit kSolveExits[] = {
    {code(ExitCode::ok), "the table was written"},
    {code(ExitCode::usage), "bad command line, or a ring too large for this machine"},
    kOutputExit,
    {code(ExitCode::bad_table),
     "FILE cannot take the table (no regular file, no directory, no room) or the write failed"},
};

constexpr Option kVerifyOptions[] = {
    {opt::memory, "MB", Value::integer,
     "the most memory a solve may take, for a ring whose true root is not known; a table larger "
     "than it is solved past memory",
     "three quarters of this machine's", 1, 1 << 30},
    {opt::work, "DIR", Value::text,
     "where a solve past memory keeps its layers' files and its table, in a folder of its own",
     "TMPDIR, or /tmp"},
};
constexpr Exit kVerifyExits[] = {
    {code(ExitCode::ok), "the table is the true table of its ring"},
    kUsageExit,
    kOutputExit,
    {code(ExitCode::bad_table),
     "the file is not a table, is truncated, damaged, changed while it was checked, or not the "
     "true table of its ring; or its root could not be recorded"},
};

constexpr Exit kConvertExits[] = {
    {code(ExitCode::ok), "the table was written"},
    kUsageExit,
    kOutputExit,
    {code(ExitCode::bad_table),
     "FILE is not the true table of a ring whose root is known (built in or recorded), is damaged "
     "or changed while it was read; or the new file cannot be written"},
};

// ---- The judge systems' programs. -------------------------------------------------------------

constexpr Exit kInteractExits[] = {
    {static_cast<int>(PackageExit::accepted), "accepted: player 1 won"},
    {static_cast<int>(PackageExit::wrong_answer),
     "wrong answer: player 1 tied, lost or broke the protocol"},
    {code(ExitCode::failure),
     "judge error: a bad game or answer file, or a feedback folder it cannot write"},
    kUsageExit,
    kTableExit,
};
constexpr Exit kManageExits[] = {
    {code(ExitCode::ok), "the game was judged: its outcome is on standard output"},
    {code(ExitCode::failure), "a bad game file, or a FIFO it cannot open"},
    kUsageExit,
    kTableExit,
    kOutputExit,
};
constexpr Exit kValidateExits[] = {
    {static_cast<int>(PackageExit::accepted), "standard input is a game file"},
    {static_cast<int>(PackageExit::wrong_answer), "it is not: the line at fault on standard error"},
    kUsageExit,
};

constexpr std::string_view kFormats[] = {"icpc", "cms"};
constexpr Option kPackageOptions[] = {
    {opt::format,
     "icpc|cms",
     Value::choice,
     "the problem package format (Kattis, DOMjudge) or a CMS task",
     {},
     0,
     0,
     kFormats,
     true},
    {opt::out,
     "DIR",
     Value::text,
     "the package's folder, which must not exist",
     {},
     0,
     0,
     {},
     true},
    {opt::starts, "all|classes|N", Value::text,
     "every start, one of each rotation class, or N drawn at random; those player 1 cannot win "
     "are left out",
     "all"},
    {opt::strategy, "S[,S...]|all", Value::list, "the judge's strategies: a game for each",
     "optimal", 0, 0, kStrategies},
    kSeriesSeed,
};
constexpr Exit kPackageExits[] = {
    {code(ExitCode::ok), "the package was written"},
    {code(ExitCode::failure), "a file of it could not be written (none is left)"},
    kUsageExit,
    kOutputExit,
};

}  // namespace ioiwari::cli::declared
