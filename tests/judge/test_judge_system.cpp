// A game judged for a judge system (judge_system.hpp), driven through streams: the verdict, the
// points, and what each side is told, for every way a game can end.
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/judge/judge_system.hpp"
#include "support.hpp"
#include "textio/quoted.hpp"

using namespace ioiwari;
using ioiwari::test::table;

namespace {

GameFile game_from(const std::vector<int>& counts) {
  return GameFile{Ring::ioi(), *Board::from_counts(counts, Ring::ioi()), Strategy::optimal, 1};
}

SystemGame judge(const std::vector<int>& counts, const std::string& player1,
                 std::string* written = nullptr) {
  std::istringstream in(player1);
  std::ostringstream out;
  SystemGame judged = judge_system_game(in, out, table(), game_from(counts));
  if (written != nullptr) *written = out.str();
  return judged;
}

}  // namespace

TEST_CASE("a won game is accepted with 4 points, a tie has 2 and is not accepted, a loss none",
          "[judge]") {
  // 0 0 0 0 0 1 1: pit 6 captures pit 7, and the game is over at once.
  std::string written;
  const SystemGame won = judge({0, 0, 0, 0, 0, 1, 1}, "6\n", &written);
  CHECK(written == "0 0 0 0 0 1 1\n");
  CHECK(won.won());
  CHECK(won.points == 4);
  CHECK(won.outcome() == 1.0);
  CHECK(won.team_message == "player 1 wins 2 to 0\n");
  CHECK(won.judge_message.find("# player 1 wins 2 to 0\n") != std::string::npos);
  // 1 0 0 1 0 0 0: each side gives its bead away, whatever is played: a tie.
  const SystemGame tied = judge({1, 0, 0, 1, 0, 0, 0}, "1\n", &written);
  CHECK(written == "1 0 0 1 0 0 0\n4\n");
  CHECK_FALSE(tied.won());  // the problem package is pass-fail: every start there can be won
  CHECK(tied.points == 2);
  CHECK(tied.outcome() == 0.5);  // CMS's outcome keeps the IOI's half
  CHECK(tied.team_message == "player 1 ties 1 to 1\n");
  // 0 0 0 0 0 0 1: the one bead is given away.
  const SystemGame lost = judge({0, 0, 0, 0, 0, 0, 1}, "7\n");
  CHECK_FALSE(lost.won());
  CHECK(lost.points == 0);
  CHECK(lost.outcome() == 0.0);
  CHECK(lost.team_message == "player 1 loses 0 to 1\n");
}

TEST_CASE("a player that breaks the protocol is rejected with what it did", "[judge]") {
  const std::vector<int> start = {0, 0, 0, 0, 0, 1, 1};
  struct Case {
    std::string sent, says;
  };
  for (const Case& c : std::vector<Case>{
           {"", "input ended before move 1"},
           {"x\n", "\"x\" is not an integer"},
           {"9\n", "\"9\" is not a pit"},
           {"1\n", "pit 1 is empty"},
           {"6\n7\n", "output after the end of the game: \"7\""},
           {"6 junk", "output after the end of the game: \"junk\""},
       }) {
    INFO("sent " << textio::quoted(c.sent));
    const SystemGame judged = judge(start, c.sent);
    CHECK_FALSE(judged.won());
    CHECK(judged.result.exit == OpponentExit::player1_broke_protocol);
    CHECK(judged.team_message.starts_with("player 1 broke the protocol: "));
    CHECK(judged.team_message.find(c.says) != std::string::npos);
  }
  // White space after the last move is no output.
  CHECK(judge(start, "6\n \n\t\n").won());
}

TEST_CASE("a player that stops reading is rejected, and the judge goes on", "[judge]") {
  // A failed write (the player closed its input) shows at the next turn.
  std::istringstream in("1\n2\n3\n");
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  const SystemGame judged = judge_system_game(in, out, table(), game_from({4, 3, 2, 4, 2, 3, 2}));
  CHECK_FALSE(judged.won());
  CHECK(judged.team_message.find("stopped reading") != std::string::npos);
}
