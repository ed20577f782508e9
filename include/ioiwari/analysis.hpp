// Analysis for students of the game: any board in depth (`ioiwari analyze`), and a census of
// all the IOI starts (`ioiwari starts`).
#pragma once

#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ioiwari/game.hpp"
#include "ioiwari/solver.hpp"

namespace ioiwari {

// The board that `analyze` was asked about: kPits counts (as separate arguments or as one
// argument holding them all), or one board code 0..kCodeCount-1. Nothing, with `error` set,
// for anything else.
std::optional<Board> board_from_arguments(std::span<const std::string_view> args,
                                          std::string& error);

struct Analysis {
  Board board;
  int value = 0;                 // for the player to move
  std::vector<MoveValue> moves;  // best first
  Game line;                     // the best line to the end, ties to the lowest label
};

// Every move's value and the best line of play from `board`, player 1 to move, banks empty.
Analysis analyze(const Table& table, const Board& board);
void write_analysis(std::ostream& out, const Analysis& analysis, bool json);

// One IOI start in the census.
struct StartReport {
  Board start;
  int value = 0;          // what perfect play gives player 1
  std::vector<Pit> best;  // every move that achieves it
  int greedy_margin = 0;  // bank 1 - bank 2 when a greedy player 1 meets a perfect player 2
};

// A greedy player's move: the largest net gain of the move itself, ties to the lowest label.
Pit greedy_move(const Board& board);

// The 357 starts, or one of each of the 51 rotation classes (the smallest code of each).
std::vector<StartReport> census(const Table& table, bool classes_only);
void write_census(std::ostream& out, const std::vector<StartReport>& starts, bool classes_only,
                  bool json);

}  // namespace ioiwari
