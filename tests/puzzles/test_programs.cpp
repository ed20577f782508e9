// End to end: the four built puzzle programs, run as whole processes on the spec's samples,
// at the extremes of every range, and on bad input.
#include <sstream>
#include <string>
#include <vector>

#include "../catch.hpp"
#include "../support/run_program.hpp"
#include "end_nim/end_nim.hpp"
#include "stake_your_claim/stake_your_claim.hpp"
#include "take_fraction/take_fraction.hpp"
#include "twins_noughts_crosses/twins_noughts_crosses.hpp"

using ioiwari::test::Run;
using ioiwari::test::run_program;

namespace {

constexpr int kBadInput = 3;

Run run(const char* program, const std::string& input) {
  return run_program({program}, input);
}

// A bad input: what the program must have answered before it, and its one line of complaint.
struct BadCase {
  const char* program;
  std::string input;
  std::string out;
  std::string err;
};

void check_bad(const BadCase& bad) {
  INFO(bad.program << " on " << bad.input);
  const Run result = run(bad.program, bad.input);
  CHECK_FALSE(result.signaled);
  CHECK(result.status == kBadInput);
  CHECK(result.out == bad.out);
  CHECK(result.err == bad.err);
}

const std::string kStakeSample = "4\n01.1\n00..\n.01.\n...1\n4\n0.01\n0.01\n1..0\n.1..\n0\n";
const std::string kEndNimSample = "1\n5\n2\n1 1\n2\n3 2\n2\n2 3\n3\n3 5 2\n3\n2 1 2\n3\n1 2 1\n0\n";
const std::string kTwinsSample = "0 15 0\n0 0 25\n20 10\n0 0\n25 0\n";

}  // namespace

TEST_CASE("puzzles: the samples of the spec through the built programs", "[programs]") {
  const Run take = run(TAKE_FRACTION, "7 2\n8 2\n10 3\n7 3\n12 4\n10 4\n");
  CHECK(take.status == 0);
  CHECK(take.out == "-1\n1\n3\n-1\n2\n-1\n");
  CHECK(take.err.empty());

  const Run stake = run(STAKE_YOUR_CLAIM, kStakeSample);
  CHECK(stake.status == 0);
  CHECK(stake.out == "(1,2) 2\n(2,2) -1\n");
  CHECK(stake.err.empty());

  const Run nim = run(END_NIM, kEndNimSample);
  CHECK(nim.status == 0);
  CHECK(nim.out == "N\nP\nL\nR\nN\nP\nN\n");
  CHECK(nim.err.empty());

  const Run twins = run(TWINS_NOUGHTS_CROSSES, kTwinsSample);
  CHECK(twins.status == 0);
  CHECK(twins.out == "15\n80\n");
  const Run twins2 = run(TWINS_NOUGHTS_CROSSES, "18 22 15\n11 16 17\n4 25\n22 15\n10 4\n");
  CHECK(twins2.out == "72\n107\n");
  // Several cases in one run, CRLF line ends and blank lines between them.
  const Run both = run(TWINS_NOUGHTS_CROSSES,
                       "0 15 0\r\n0 0 25\r\n20 10\r\n0 0\r\n25 0\r\n\r\n18 22 15\n11 16 17\n"
                       "4 25\n22 15\n10 4\n\n");
  CHECK(both.status == 0);
  CHECK(both.out == "15\n80\n72\n107\n");
}

TEST_CASE("puzzles: the extremes of every range through the built programs", "[programs]") {
  using namespace puzzles;
  const auto expected_move = [](take_fraction::Grains n, take_fraction::Grains m) {
    const auto move = take_fraction::winning_move(n, m);
    return move ? std::to_string(*move) : std::string("-1");
  };
  const Run take = run(TAKE_FRACTION,
                       "1000000000000000000 2\n1000000000000000000 1000000\n"
                       "1 2\n999999 1000000\n");
  CHECK(take.status == 0);
  CHECK(take.out == expected_move(take_fraction::kMaxGrains, 2) + "\n" +
                        expected_move(take_fraction::kMaxGrains, take_fraction::kMaxDivisor) +
                        "\n-1\n-1\n");
  CHECK(take.out.starts_with(std::to_string(1'000'000'000'000'000'000 - ((1ULL << 59) - 1))));

  // 1000 heaps of 10^9, then 999 of them.
  std::string heaps = "1000\n", fewer = "999\n";
  for (int i = 0; i < 1000; ++i) {
    heaps += (i ? " " : "") + std::string("1000000000");
    if (i < 999) fewer += (i ? " " : "") + std::string("1000000000");
  }
  const Run nim = run(END_NIM, heaps + "\n" + fewer + "\n1\n1\n1\n1000000000\n0\n");
  CHECK(nim.status == 0);
  CHECK(nim.out == "P\nN\nN\nN\n");

  // One empty square; ten on the largest grid.
  const Run one = run(STAKE_YOUR_CLAIM, "1\n.\n2\n01\n0.\n0\n");
  CHECK(one.status == 0);
  CHECK(one.out == "(0,0) 1\n(1,1) 0\n");
  // A checkerboard with five 0s and five 1s taken out.
  const std::vector<std::string> ten_empty = {"01010101", "10101010", "01010101", "10.0.0.0",
                                              ".1.1.101", "..101010", "..010101", "10101010"};
  std::string ten_input = "8\n";
  for (const std::string& row : ten_empty)
    ten_input += row + "\n";
  const Run ten = run(STAKE_YOUR_CLAIM, ten_input + "0\n");
  CHECK(ten.status == 0);
  CHECK(ten.err.empty());
  const stake_your_claim::Answer best = stake_your_claim::solve(ten_empty);
  CHECK(ten.out == "(" + std::to_string(best.row) + "," + std::to_string(best.column) + ") " +
                       std::to_string(best.difference) + "\n");

  const Run zeros = run(TWINS_NOUGHTS_CROSSES, "0 0 0\n0 0 0\n0 0\n0 0\n0 0\n");
  CHECK(zeros.status == 0);
  CHECK(zeros.out == "0\n0\n");
  const Run hundreds =
      run(TWINS_NOUGHTS_CROSSES, "100 100 100\n100 100 100\n100 100\n100 100\n100 100\n");
  CHECK(hundreds.status == 0);
  twins_noughts_crosses::Weights full;
  for (auto& row : full.vertical)
    row.fill(100);
  for (auto& row : full.horizontal)
    row.fill(100);
  const twins_noughts_crosses::Totals totals = twins_noughts_crosses::solve(full);
  CHECK(hundreds.out == std::to_string(totals.first) + "\n" + std::to_string(totals.second) + "\n");
  CHECK(totals.first + totals.second == 1200);
}

TEST_CASE("puzzles: bad input names the case and the token, after the cases before it",
          "[programs]") {
  const std::vector<BadCase> cases = {
      // take-fraction: a letter, a missing number, out of range, extra words, a sign.
      {TAKE_FRACTION, "7 2\n8 x\n", "-1\n",
       "take-fraction: case 2, line 2: m \"x\" is not a number 2 to 1000000\n"},
      {TAKE_FRACTION, "7 2\n\n8\n", "-1\n",
       "take-fraction: case 2, line 3: m is missing after n \"8\"\n"},
      {TAKE_FRACTION, "0 2\n", "",
       "take-fraction: case 1, line 1: n \"0\" is out of range 1 to 1000000000000000000\n"},
      {TAKE_FRACTION, "1000000000000000001 2\n", "",
       "take-fraction: case 1, line 1: n \"1000000000000000001\" is out of range 1 to "
       "1000000000000000000\n"},
      {TAKE_FRACTION, "99999999999999999999999 2\n", "",
       "take-fraction: case 1, line 1: n \"99999999999999999999999\" is out of range 1 to "
       "1000000000000000000\n"},
      {TAKE_FRACTION, "5 1\n", "",
       "take-fraction: case 1, line 1: m \"1\" is out of range 2 to 1000000\n"},
      {TAKE_FRACTION, "5 2 3\n", "", "take-fraction: case 1, line 1: \"3\" after n and m\n"},
      {TAKE_FRACTION, "-5 2\n", "",
       "take-fraction: case 1, line 1: n \"-5\" is not a number 1 to 1000000000000000000\n"},
      {TAKE_FRACTION, "8 2\n+5 2\n", "1\n",
       "take-fraction: case 2, line 2: n \"+5\" is not a number 1 to 1000000000000000000\n"},
      // stake-your-claim: the missing 0, a short row, a letter, a missing row, n out of range,
      // too many empty squares, digits out of turn.
      {STAKE_YOUR_CLAIM, kStakeSample.substr(0, kStakeSample.size() - 2), "(1,2) 2\n(2,2) -1\n",
       "stake-your-claim: case 3, line 10: input ended without the line \"0\" that ends it\n"},
      {STAKE_YOUR_CLAIM, "4\n01.1\n00.\n.01.\n...1\n0\n", "",
       "stake-your-claim: case 1, line 3: row 2 \"00.\" has 3 squares, 4 expected\n"},
      {STAKE_YOUR_CLAIM, "1\n.\n4\n01.1\n00x.\n.01.\n...1\n0\n", "(0,0) 1\n",
       "stake-your-claim: case 2, line 5: row 2 \"00x.\": square 3 is \"x\", not 0, 1 or .\n"},
      {STAKE_YOUR_CLAIM, "2\n0.\n", "",
       "stake-your-claim: case 1, line 2: input ended after 1 of the 2 rows\n"},
      {STAKE_YOUR_CLAIM, "9\n", "",
       "stake-your-claim: case 1, line 1: the size n \"9\" is out of range 0 to 8\n"},
      {STAKE_YOUR_CLAIM, "4\n....\n....\n....\n....\n0\n", "",
       "stake-your-claim: case 1, line 1: the grid has 16 empty squares, 1 to 10 expected\n"},
      {STAKE_YOUR_CLAIM, "2\n11\n0.\n0\n", "",
       "stake-your-claim: case 1, line 1: the grid has 1 0s and 2 1s: player 0 has as many "
       "digits as player 1, or one more\n"},
      {STAKE_YOUR_CLAIM, "2\n01\n10\n0\n", "",
       "stake-your-claim: case 1, line 1: the grid has 0 empty squares, 1 to 10 expected\n"},
      // end-nim: the missing 0, a letter, a short row, a long row, out of range, no row.
      {END_NIM, "2\n3 2\n", "L\n",
       "end-nim: case 2, line 2: input ended without the line \"0\" that ends it\n"},
      {END_NIM, "2\n1 x\n0\n", "",
       "end-nim: case 1, line 2: heap 2 \"x\" is not a number 1 to 1000000000\n"},
      {END_NIM, "1\n5\n2\n1\n0\n", "N\n",
       "end-nim: case 2, line 4: the line has 1 of the 2 heap sizes\n"},
      {END_NIM, "2\n1 2 3\n0\n", "", "end-nim: case 1, line 2: \"3\" after the 2 heap sizes\n"},
      {END_NIM, "1001\n", "",
       "end-nim: case 1, line 1: the number of heaps \"1001\" is out of range 0 to 1000\n"},
      {END_NIM, "1\n1000000001\n0\n", "",
       "end-nim: case 1, line 2: heap 1 \"1000000001\" is out of range 1 to 1000000000\n"},
      {END_NIM, "2\n", "", "end-nim: case 1, line 1: input ended before the line of heap sizes\n"},
      {END_NIM, "1\n0\n0\n", "",
       "end-nim: case 1, line 2: heap 1 \"0\" is out of range 1 to 1000000000\n"},
      // twins-noughts-crosses: a missing line, a letter, out of range, a short line, and a
      // second case cut short after a whole first one.
      {TWINS_NOUGHTS_CROSSES, "0 15 0\n0 0 25\n20 10\n0 0\n", "",
       "twins-noughts-crosses: case 1, line 4: input ended before c row 3\n"},
      {TWINS_NOUGHTS_CROSSES, "0 15 0\n0 a 25\n", "",
       "twins-noughts-crosses: case 1, line 2: b row 2 weight 2 \"a\" is not a number 0 to 100\n"},
      {TWINS_NOUGHTS_CROSSES, "0 15 101\n", "",
       "twins-noughts-crosses: case 1, line 1: b row 1 weight 3 \"101\" is out of range 0 to "
       "100\n"},
      {TWINS_NOUGHTS_CROSSES, "0 15\n", "",
       "twins-noughts-crosses: case 1, line 1: b row 1 has 2 of its 3 weights\n"},
      {TWINS_NOUGHTS_CROSSES, kTwinsSample + "1 2 3\n4 5 6\n7 8\n", "15\n80\n",
       "twins-noughts-crosses: case 2, line 8: input ended before c row 2\n"},
      {TWINS_NOUGHTS_CROSSES, "", "",
       "twins-noughts-crosses: case 1: input ended before b row 1\n"},
  };
  for (const BadCase& bad : cases)
    check_bad(bad);
}

TEST_CASE("puzzles: --help, --version and bad command lines", "[programs]") {
  for (const char* program : {TAKE_FRACTION, STAKE_YOUR_CLAIM, END_NIM, TWINS_NOUGHTS_CROSSES}) {
    const std::string name = std::string(program).substr(std::string(program).rfind('/') + 1);
    INFO(name);
    const Run help = run_program({program, "--help"}, "");
    CHECK(help.status == 0);
    CHECK(help.out.starts_with("usage: " + name + " < INPUT\n"));
    CHECK(help.out.find("Exit status:") != std::string::npos);
    CHECK(help.err.empty());
    const Run version = run_program({program, "--version"}, "");
    CHECK(version.status == 0);
    CHECK(version.out.starts_with(name + " "));
    CHECK(version.out.find('\n') == version.out.size() - 1);
    const Run unknown = run_program({program, "--bogus"}, "");
    CHECK(unknown.status == 2);
    CHECK(unknown.out.empty());
    CHECK(unknown.err.starts_with(name + ": unknown option '--bogus'\nusage: "));
    const Run extra = run_program({program, "cases.txt"}, "");
    CHECK(extra.status == 2);
    CHECK(extra.err.starts_with(name + ": takes no arguments"));
    const Run too_many = run_program({program, "--version", "x"}, "");
    CHECK(too_many.status == 2);
  }
}

TEST_CASE("puzzles: a reader gone away ends the program quietly with status 6, no crash",
          "[programs]") {
  // As ioiwari does and grep does: `take-fraction | head -2` prints nothing on standard error.
  ioiwari::test::RunOptions closed_output;
  closed_output.close_output = true;
  for (const char* program : {TAKE_FRACTION, STAKE_YOUR_CLAIM, END_NIM, TWINS_NOUGHTS_CROSSES}) {
    INFO(program);
    const Run closed = run_program({program}, "", closed_output);
    const Run help = run_program({program, "--help"}, "", closed_output);
    CHECK_FALSE(closed.signaled);
    CHECK(help.status == 6);
    CHECK(help.err.empty());
  }
  const Run closed = run_program({TAKE_FRACTION}, "8 2\n7 2\n", closed_output);
  CHECK_FALSE(closed.signaled);
  CHECK(closed.status == 6);
  CHECK(closed.err.empty());
}

TEST_CASE("puzzles: each help fits 80 columns", "[programs]") {
  for (const char* program : {TAKE_FRACTION, STAKE_YOUR_CLAIM, END_NIM, TWINS_NOUGHTS_CROSSES}) {
    const Run help = run_program({program, "--help"}, "");
    REQUIRE(help.status == 0);
    std::istringstream lines(help.out);
    for (std::string line; std::getline(lines, line);) {
      INFO(program << ": " << line);
      CHECK(line.size() <= 80);
    }
  }
}
