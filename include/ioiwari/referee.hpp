// Judging a player program: one game with the program as player 1 against a strategy.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ioiwari/board.hpp"
#include "ioiwari/process.hpp"
#include "ioiwari/solver.hpp"
#include "ioiwari/strategy.hpp"

namespace ioiwari {

// How a game ended for the player. Each fault is its own verdict.
enum class Verdict {
  win,
  tie,
  loss,
  unreadable_move,   // a line that is not a single integer, or too long
  out_of_range,      // an integer that is not a pit label
  empty_pit,         // a pit with no beads
  timeout,           // silence past the time limit, or still running after the game ended
  early_exit,        // output closed before the game was over
  output_after_end,  // wrote something after the last move
  nonzero_exit,      // exited with a status other than 0
  killed_by_signal,  // ended by a signal
};
inline constexpr int kVerdictCount = 11;

std::string_view name(Verdict verdict);

struct RefereeLimits {
  std::chrono::milliseconds per_move{2000};  // from the opponent's move to the player's reply
  std::chrono::milliseconds per_game{20000};
  // After the last move: to write nothing more, close the output and exit.
  std::chrono::milliseconds after_end{2000};
  std::size_t max_line_bytes = 64;  // what it reads of one move line
};

struct GameReport {
  Board start;
  Strategy strategy = Strategy::optimal;
  std::uint64_t seed = 0;
  Verdict verdict = Verdict::win;
  std::string detail;      // what went wrong, for the faults
  std::vector<Pit> moves;  // both sides', in order, up to the fault
  int bank1 = 0, bank2 = 0;
  std::chrono::nanoseconds slowest_move{0};
  std::string player_errors;  // what the player wrote on standard error
};

// Runs `player` (a command and its arguments) as player 1 from `start` against `strategy`
// (random choices seeded with `seed`), in the role of the judge: writes the start line,
// reads and checks each move, answers with the strategy's. The player is killed and reaped
// when the verdict is known.
GameReport referee_game(const std::vector<std::string>& player, const Board& start,
                        Strategy strategy, std::uint64_t seed, const Table& table,
                        const RefereeLimits& limits);

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
};

// Told of each game as it ends, with how many have ended (one call at a time, in the order the
// games end).
using GameDone = std::function<void(const GameReport& report, std::size_t done)>;

// Plays every game of the plan, `jobs` at a time; the reports come in plan order (start by
// start, each against the strategies in turn) whatever the number of jobs.
std::vector<GameReport> run_games(const RefereePlan& plan, const Table& table,
                                  const GameDone& done = {});

// The summary for people: verdict counts, points, the slowest move, and the first
// `show_failures` games not won with their moves.
void write_summary(std::ostream& out, const RefereePlan& plan,
                   const std::vector<GameReport>& reports, int show_failures);

// The same as one JSON object, every game not won included.
void write_json(std::ostream& out, const RefereePlan& plan, const std::vector<GameReport>& reports);

}  // namespace ioiwari
