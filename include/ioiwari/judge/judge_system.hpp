// One game judged for a judge system (docs/judging.md): played against player 1 as `opponent`
// plays it, then held to the end of the protocol, and scored as the IOI scored it.
#pragma once

#include <iosfwd>
#include <string>

#include "ioiwari/input/game_file.hpp"
#include "ioiwari/judge/opponent.hpp"
#include "ioiwari/judge/referee.hpp"

namespace ioiwari {

// The exit statuses of the problem package format's validators: accepted, wrong answer. Any
// other status is the validator's own failure, which the judge system reports as a judge error.
enum class PackageExit : int {
  accepted = 42,
  wrong_answer = 43,
};

struct SystemGame {
  OpponentResult result;
  int points = 0;  // 4 for a win, 2 for a tie, 0 otherwise (referee.hpp's points())
  // The problem package's verdict: the task is pass-fail there, and every test's start can be
  // won, so a game is accepted only when it is won (docs/judging.md).
  bool won() const { return points == kPointsForWin; }
  // CMS's outcome of the test: the share of its points, 1 for a win and 0.5 for a tie.
  double outcome() const { return static_cast<double>(points) / kPointsForWin; }
  // What the judge reads: the game with both banks after every move, and the result.
  std::string judge_message;
  // What the contestant reads: the result, one line.
  std::string team_message;
};

// Plays `game` against player 1, who writes its moves to `in` and reads ours from `out`. After
// the last move player 1 may write nothing more but white space before it closes its output:
// anything else breaks the protocol, as the referee holds ("output after the end").
SystemGame judge_system_game(std::istream& in, std::ostream& out, const Table& table,
                             const GameFile& game);

}  // namespace ioiwari
