// Judging a player program: games with the program as player 1 against a strategy.
//
// How a player is contained (sandbox.hpp, docs/referee.md): each game's processes run in a
// cgroup of their own, which the kernel counts, caps and kills; as a user of their own when the
// referee is root; in new PID, mount, network and IPC namespaces where the kernel allows them.
// - It is charged for the CPU time that it and every process it started use, not for the
//   machine being busy: each limit is CPU time, and a wall-clock limit `wall_factor` times
//   longer catches a player that waits instead of computing.
// - Its memory is the anonymous and shared memory of its processes (a table it maps is free),
//   sampled as it plays: over the limit, the game ends with "memory limit"; the kernel caps the
//   group at twice the limit, files' pages included, and a process it kills there is the same
//   verdict.
// - When it exits, whatever it left running gets the game the verdict "left processes behind";
//   when its verdict is known, everything in its group is killed.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ioiwari/core/board.hpp"
#include "ioiwari/core/strategy.hpp"
#include "ioiwari/core/table.hpp"
#include "ioiwari/judge/process.hpp"
#include "ioiwari/judge/sandbox.hpp"

namespace ioiwari {

// The exit statuses of `ioiwari referee`.
enum class RefereeExit : int {
  all_won = 0,
  not_all_won = 1,
  usage = 2,   // a bad command line, a player that cannot be run, or containment refused
  failed = 3,  // the system refused pipes or processes, or other runs hold every user: no game
};

// How a game ended for the player. Each fault is its own verdict.
enum class Verdict {
  win,
  tie,
  loss,
  unreadable_move,   // a line that is not a single integer, or too long
  out_of_range,      // an integer that is not a pit label
  empty_pit,         // a pit with no beads
  timeout,           // past a limit of CPU or wall-clock time, or still running after the end
  memory_limit,      // its processes held more memory than the limit
  disk_limit,        // a file past --fsize, or its box's disk full, and the game not played out
  early_exit,        // output closed before the game was over
  output_after_end,  // wrote something after the last move
  nonzero_exit,      // exited with a status other than 0
  killed_by_signal,  // ended by a signal
  left_behind,       // exited, but left processes running
};
inline constexpr int kVerdictCount = 14;

std::string_view name(Verdict verdict);

inline constexpr std::uint64_t kDefaultMemoryMb = 1024;

// The limits of one game. Times are CPU time of the player and every process it started.
struct RefereeLimits {
  // From the opponent's move (or the start line) to the player's reply; its start-up counts
  // towards its first move.
  std::chrono::milliseconds per_move{2000};
  std::chrono::milliseconds per_game{20000};
  // After the last move: to write nothing more, close the output and exit.
  std::chrono::milliseconds after_end{2000};
  // Each limit above has a wall-clock counterpart this many times longer.
  int wall_factor = 5;
  std::uint64_t memory_mb = kDefaultMemoryMb;  // resident memory that is not a mapped file
  // Whether the kernel also caps each of the player's processes at twice memory_mb of data
  // (RLIMIT_DATA). A program that reserves far more address space than it uses (one built with
  // AddressSanitizer, a JVM) cannot start under it.
  bool data_limit = true;
  std::size_t max_line_bytes = 64;  // what it reads of one move line
  int processes = 64;               // processes and threads at once, the player's included
  std::uint64_t file_size_mb = 64;  // the largest file a process may write (RLIMIT_FSIZE)
  std::uint64_t disk_mb = 128;      // in a box: all it may write, its tmpfs (memory too)
  Isolation isolation = Isolation::where_allowed;
  bool cgroups = true;             // a cgroup for each game, where one can be made
  std::optional<UserRange> users;  // root only: the users of the game slots (kDefaultUsers)

  // The kernel's cap on a game's memory (its cgroup's) and on each process's data: twice the
  // limit, so that a player over the limit is judged by the referee, not killed first.
  constexpr std::uint64_t memory_cap_mb() const { return 2 * memory_mb; }
};

// What a run with `limits` asks of its sandbox.
SandboxRequest sandbox_request(const RefereeLimits& limits);

struct GameReport {
  Board start;
  Strategy strategy = Strategy::optimal;
  std::uint64_t seed = 0;
  Verdict verdict = Verdict::win;
  std::string detail;      // what went wrong, for the faults
  std::vector<Pit> moves;  // both sides', in order, up to the fault
  int bank1 = 0, bank2 = 0;
  std::chrono::nanoseconds slowest_move{0};      // wall-clock time from question to answer
  std::chrono::nanoseconds slowest_move_cpu{0};  // the most CPU time one move took
  std::chrono::nanoseconds cpu{0};               // the player's CPU time in the game
  std::chrono::nanoseconds wall{0};              // from the start to the verdict
  std::uint64_t peak_memory_kb = 0;              // the most memory its processes held, as sampled
  std::uint64_t max_rss_kb = 0;    // the player's peak resident set, mapped files included
  std::string player_errors;       // what the player wrote on standard error: its first bytes,
  std::string player_errors_tail;  // its last bytes after them,
  std::uint64_t player_errors_skipped = 0;  // the bytes between those two not kept,
  std::uint64_t player_error_lines = 0;     // and its lines in all
};

// Runs `player` (a command and its arguments) as player 1 from `start` against `strategy`
// (random choices seeded with `seed`), in the role of the judge, contained in `box`: writes
// the start line, reads and checks each move, answers with the strategy's. The player and
// everything it started are killed when the verdict is known. Throws SpawnError when the player
// cannot be started: that is no verdict. When `stopped` (asked as the game goes) says so, the
// game ends with RefereeStopped.
GameReport referee_game(const std::vector<std::string>& player, const Board& start,
                        Strategy strategy, std::uint64_t seed, const Table& table,
                        const RefereeLimits& limits, const Sandbox::Box& box,
                        const std::function<bool()>& stopped);

// A run of games stopped from outside (Ctrl-C): the game under way gets no verdict; run_games()
// gives those that ended before (`judged`, in plan order).
class RefereeStopped : public std::runtime_error {
 public:
  explicit RefereeStopped(std::vector<GameReport> before = {})
      : std::runtime_error("the referee was stopped"), judged(std::move(before)) {}
  std::vector<GameReport> judged;
};

// How a game ends once the player's process has ended: `status` is how it ended (nothing when
// it was still running at the deadline), `game_over` whether the last move had been made, and
// the banks decide between win, tie and loss. `detail` says what went wrong (empty for those).
struct ExitVerdict {
  Verdict verdict;
  std::string detail;
};
ExitVerdict verdict_at_exit(const std::optional<ExitStatus>& status, bool game_over, int bank1,
                            int bank2);

// Points as the IOI scored a game: 4 for a win, 2 for a tie, 0 otherwise.
int points(Verdict verdict);
inline constexpr int kPointsForWin = 4;

// A series of games: every start against every strategy.
struct RefereePlan {
  std::vector<std::string> player;  // the command and its arguments
  std::vector<Board> starts;
  std::vector<Strategy> strategies;
  std::uint64_t seed = 1;  // game i uses seed + i
  int jobs = 1;            // games played at once
  RefereeLimits limits;
  const std::atomic<bool>* stop = nullptr;  // set from outside (a signal): stop every game
};

// The most games that can run at once within this process's limit of open files (its soft
// limit, raised to the hard one first), or nothing when `jobs` fit.
std::optional<int> jobs_cap(int jobs);

// Told of each game as it ends, with how many have ended (one call at a time, in the order the
// games end).
using GameDone = std::function<void(const GameReport& report, std::size_t done)>;

// Plays every game of the plan in `sandbox` (made for the plan's player and limits), `jobs` at a
// time, each job in a slot of its own; the reports come in plan order (start by start, each
// against the strategies in turn) whatever the number of jobs. When a game cannot be started
// (SpawnError), every game under way is ended and the error is thrown: no report is given. When
// the plan is stopped, every game under way is ended and RefereeStopped is thrown with the
// reports of the games that had ended.
std::vector<GameReport> run_games(const RefereePlan& plan, const Table& table,
                                  const Sandbox& sandbox, const GameDone& done);

}  // namespace ioiwari
