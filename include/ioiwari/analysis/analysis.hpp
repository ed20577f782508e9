// Analysis for students of the game: any board in depth (`ioiwari analyze`), and a census of
// all the IOI starts (`ioiwari starts`).
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ioiwari/core/end_distance.hpp"
#include "ioiwari/core/match.hpp"
#include "ioiwari/core/table.hpp"

namespace ioiwari {

// The board that `analyze` was asked about: ring.pits counts (as separate arguments or as one
// argument holding them all), or one board code 0..ring.code_count()-1. Nothing, with `error`
// set, for anything else.
std::optional<Board> board_from_arguments(std::span<const std::string_view> args, Ring ring,
                                          std::string& error);

struct Analysis {
  Board board;
  int value = 0;                   // for the player to move
  int to_end = 0;                  // moves to the end with perfect play (EndDistance)
  std::vector<MoveOutlook> moves;  // best first, as EndDistance ranks them
  Match line;                      // the best line to the end, the first of each ranking
};

// Every move's value and moves to the end, and the best line of play from `board`, player 1 to
// move, banks empty.
Analysis analyze(const Table& table, const Board& board);
void write_analysis(std::ostream& out, const Analysis& analysis, bool json);

// One start in the census.
struct StartReport {
  Board start;
  int value = 0;          // what perfect play gives player 1
  std::vector<Pit> best;  // every move that achieves it
  int greedy_margin = 0;  // bank 1 - bank 2 when a greedy player 1 meets a perfect player 2
};

// A greedy player's move: the largest net gain of the move itself, ties to the lowest label.
Pit greedy_move(const Board& board);

// Every one of `starts` (boards of the table's ring), or one of each rotation class (the
// smallest code of each). `done`, when given, is told how many starts are done as it goes.
std::vector<StartReport> census(const Table& table, const std::vector<Board>& starts,
                                bool classes_only,
                                const std::function<void(std::size_t)>& done = {});

// Which ring's starts a census covers, and whether the document names them. The IOI task's
// census (not `named`) keeps its words and keys as they always were; a named ring is given,
// and its ties and losses counted too.
struct CensusRules {
  Ring ring;
  StartRule starts;
  bool named = false;
};

void write_census(std::ostream& out, const std::vector<StartReport>& starts, bool classes_only,
                  bool json, const CensusRules& rules);

}  // namespace ioiwari
