// The referee's reports of a run of games: a summary for people, wrapped to a terminal's
// width, and one JSON object for programs (docs/json.md).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "ioiwari/judge/referee.hpp"
#include "ioiwari/judge/sandbox.hpp"

namespace ioiwari {

// A run of the plan's games as it ended: the games judged, in plan order (all of them, unless a
// signal stopped the run first; then `stopped_by` names it: "SIGINT").
struct RefereeRun {
  const RefereePlan& plan;
  const Sandbox& sandbox;
  const std::vector<GameReport>& reports;
  std::string stopped_by;
};

// The summary for people: verdict counts, points, the slowest move, and the first
// `show_failures` games not won with their moves and the first and last lines of the player's
// standard error; no line wider than `columns`, but a verdict's row.
void write_summary(std::ostream& out, const RefereeRun& run, int show_failures, int columns);

// The same as one JSON object, every game not won included.
void write_json(std::ostream& out, const RefereeRun& run);

}  // namespace ioiwari
