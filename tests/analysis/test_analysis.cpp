// Analysis of boards and the census of starts.
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/analysis/analysis.hpp"
#include "support.hpp"

using namespace ioiwari;
using ioiwari::test::perfect_moves;
using ioiwari::test::table;

namespace {

const Board kExample = *Board::from_counts(std::vector{4, 3, 2, 4, 2, 3, 2}, Ring::ioi());

std::optional<Board> parse(std::vector<std::string_view> args, std::string& error) {
  return board_from_arguments(args, Ring::ioi(), error);
}

}  // namespace

TEST_CASE("analyze reads 7 counts, one quoted line of them, or a board code", "[analysis]") {
  std::string error;
  CHECK(parse({"4", "3", "2", "4", "2", "3", "2"}, error) == kExample);
  CHECK(parse({"4 3 2 4 2 3 2"}, error) == kExample);
  CHECK(parse({std::to_string(kExample.code())}, error) == kExample);
  CHECK(parse({"0 0 0 0 0 0 0"}, error) == Board(Ring::ioi()));
  CHECK(parse({"0"}, error) == Board(Ring::ioi()));
  CHECK(parse({std::to_string(kCodeCount - 1)}, error) ==
        Board::from_code(static_cast<Board::Code>(kCodeCount - 1), Ring::ioi()));

  struct Case {
    std::vector<std::string_view> args;
    std::string error;
  };
  const std::vector<Case> cases = {
      {{}, "give 7 bead counts or one board code, not 0 numbers"},
      {{"4", "3", "2"}, "give 7 bead counts or one board code, not 3 numbers"},
      {{"1 1 1 1 1 1 1 1"}, "give 7 bead counts or one board code, not more numbers"},
      {{"279936"}, "\"279936\" is not a board code 0 to 279935 (or give 7 counts)"},
      {{"-1"}, "\"-1\" is not a board code 0 to 279935 (or give 7 counts)"},
      {{"x"}, "\"x\" is not a board code 0 to 279935 (or give 7 counts)"},
      {{"4 3 2 4 2 3 6"}, "board, pit 7: \"6\" beads: a pit holds 0 to 5"},
      {{"x 0 0 0 0 0 0"}, "board, pit 1: \"x\" is not an integer"},
  };
  for (const Case& c : cases) {
    INFO(c.error);
    error.clear();
    CHECK_FALSE(parse(c.args, error));
    CHECK(error == c.error);
  }
}

TEST_CASE("analysis gives every move's value and the best line to the end", "[analysis]") {
  const Analysis analysis = analyze(table(), kExample);
  CHECK(analysis.value == 2);
  REQUIRE(analysis.moves.size() == 7);
  CHECK(analysis.line.over());
  CHECK(analysis.line.bank(Player::first) - analysis.line.bank(Player::second) == 2);
  // The line is as long as the moves to the end say, and each of its moves is of the best value.
  CHECK(analysis.line.history().size() == static_cast<std::size_t>(analysis.to_end));
  CHECK(analysis.moves.front().moves == analysis.to_end);
  for (const Match::Ply& ply : analysis.line.history()) {
    CHECK(table().move_value(ply.before, ply.pit) == table().value(ply.before));
  }
  std::ostringstream text;
  write_analysis(text, analysis, false);
  CHECK(text.str().find("value for the player to move: +2") != std::string::npos);
  CHECK(text.str().find("  pit 7:  +2  10 moves  best\n  pit 4:  +2  13 moves  best\n") !=
        std::string::npos);
  CHECK(text.str().find("\n   6   2      7   | 0 0 0 0 0 0 0 | 11 9\n") != std::string::npos);
  CHECK(text.str().ends_with("result: 11 to 9, player 1 wins by 2\n"));
  std::ostringstream json;
  write_analysis(json, analysis, true);
  CHECK(
      json.str().starts_with("{\"board\": [4, 3, 2, 4, 2, 3, 2], \"code\": 120190, "
                             "\"beads\": 20, \"value\": 2, \"to_end\": 6, \"moves\": [{\"pit\": 2, "
                             "\"value\": 2, \"to_end\": 6}, "));
  CHECK(
      json.str().ends_with("{\"player\": 2, \"pit\": 7, \"board\": [0, 0, 0, 0, 0, 0, 0], "
                           "\"bank1\": 11, \"bank2\": 9}]}\n"));
}

TEST_CASE("the analysis of an empty board says the game is over", "[analysis]") {
  const Analysis analysis = analyze(table(), Board(Ring::ioi()));
  CHECK(analysis.moves.empty());
  std::ostringstream text;
  write_analysis(text, analysis, false);
  CHECK(text.str() ==
        "board 0 0 0 0 0 0 0 (code 0), 0 beads\nevery pit is empty: the game is over\n");
}

TEST_CASE("a greedy move is the largest immediate gain, ties to the lowest pit", "[analysis]") {
  // 0 3 0 2 1 0 0: pit 2 captures 2 (net +2); pit 4 drops in 5 and gives a bead away on 6
  // (-1); pit 5's last bead falls on empty pit 6 (-1).
  CHECK(greedy_move(*Board::from_counts(std::vector{0, 3, 0, 2, 1, 0, 0}, Ring::ioi())) ==
        *Pit::from_label(2, kPits));
  // 1 1 1 1 1 1 1: every move captures 2; the lowest pit wins the tie.
  CHECK(greedy_move(*Board::from_counts(std::vector{1, 1, 1, 1, 1, 1, 1}, Ring::ioi())) ==
        *Pit::from_label(1, kPits));
}

TEST_CASE("the census of starts checks the task's claim", "[analysis]") {
  const auto starts = census(table(), ioi_starts(), false);
  REQUIRE(starts.size() == 357);
  int wins = 0, greedy_losses = 0;
  for (const StartReport& report : starts) {
    INFO(report.start);
    CHECK(report.value > 0);
    wins += report.value > 0 ? 1 : 0;
    REQUIRE_FALSE(report.best.empty());
    CHECK(report.best.front() == *table().best_move(report.start));
    for (Pit pit : report.best)
      CHECK(table().move_value(report.start, pit) == report.value);
    // Against perfect play nobody does better than the value.
    CHECK(report.greedy_margin <= report.value);
    greedy_losses += report.greedy_margin < 0 ? 1 : 0;
  }
  CHECK(wins == 357);
  CHECK(greedy_losses > 0);
  const auto classes = census(table(), ioi_starts(), true);
  CHECK(classes.size() == 51);

  std::ostringstream text, json;
  const CensusRules ioi{Ring::ioi(), StartRule::ioi(), false};
  write_census(text, starts, false, false, ioi);
  write_census(json, classes, true, true, ioi);
  CHECK(text.str().find("357 starts; with perfect play player 1 wins 357 of 357, by 2: 140, "
                        "4: 133, 6: 84, so the task's claim holds") != std::string::npos);
  CHECK(json.str().find("\"count\": 51, \"first_player_wins\": 51") != std::string::npos);
  CHECK(json.str().ends_with("\"claim_holds\": true}\n"));
}
