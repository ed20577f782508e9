// The game file and the answer file of the judge systems (game_file.hpp, docs/judging.md): what
// is written is read back, and every departure from the format is refused by line.
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/input/game_file.hpp"
#include "support.hpp"
#include "textio/quoted.hpp"

using namespace ioiwari;

namespace {

const std::string kGood =
    "ioiwari game 1\npits 7\ncapacity 5\nstart 4 3 2 4 2 3 2\nstrategy random\nseed 17\n";

std::string refusal(const std::string& text) {
  try {
    read_game_file(text);
  } catch (const GameFileError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a game file is read as it is written, for every strategy and ring", "[game-file]") {
  const GameFile read = read_game_file(kGood);
  CHECK(read.ring == Ring::ioi());
  CHECK(read.start == *Board::from_counts(std::vector{4, 3, 2, 4, 2, 3, 2}, Ring::ioi()));
  CHECK(read.strategy == Strategy::random);
  CHECK(read.seed == 17);
  CHECK(write_game_file(read) == kGood);
  for (const Ring ring : {Ring::ioi(), Ring{3, 1}, Ring{16, 7}, Ring{9, 9}}) {
    if (!ring.playable()) continue;
    std::vector<int> counts(static_cast<std::size_t>(ring.pits), ring.capacity);
    for (const Strategy strategy : kAllStrategies) {
      const GameFile game{ring, *Board::from_counts(counts, ring), strategy, 9223372036854775807};
      const GameFile again = read_game_file(write_game_file(game));
      CHECK(again.ring == game.ring);
      CHECK(again.start == game.start);
      CHECK(again.strategy == game.strategy);
      CHECK(again.seed == game.seed);
    }
  }
}

TEST_CASE("a game file that departs from the format is refused, naming the line", "[game-file]") {
  struct Case {
    std::string text, says;
  };
  const auto with = [](std::string from, const std::string& to) {
    std::string text = kGood;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  for (const Case& c : std::vector<Case>{
           {"", "a game file has 6 lines, not 0"},
           {kGood.substr(0, kGood.size() - 1), "line 6: no newline"},
           {kGood + "\n", "a game file has 6 lines, not 7"},
           {with("ioiwari game 1", "ioiwari game 2"), "line 1: a game file begins"},
           {with("pits 7", "pits  7"), "line 2: pits is a number 0 to 16, not \" 7\""},
           {with("pits 7", "pits 07"), "line 2: pits is a number"},
           {with("pits 7", "pits +7"), "line 2: pits is a number"},
           {with("pits 7", "pits 17"), "line 2: pits is a number 0 to 16"},
           {with("pits 7", "pits 2"), "line 3: no ring of 2 pits"},
           {with("capacity 5", "capacity 0"), "line 3: no ring of 7 pits and capacity 0"},
           {with("pits 7\ncapacity 5", "pits 16\ncapacity 9"), "line 3: no ring of 16 pits"},
           {with("pits 7", "pit 7"), "line 2: expected \"pits ...\""},
           {with("4 3 2 4 2 3 2", "4 3 2 4 2 3"), "line 4: the start has 6 pits, not 7"},
           {with("4 3 2 4 2 3 2", "4 3 2 4 2 3 6"),
            "line 4: each pit of the start is a number 0 "
            "to 5, not \"6\""},
           {with("4 3 2 4 2 3 2", "4 3 2 4 2 3  2"), "line 4: each pit of the start"},
           {with("4 3 2 4 2 3 2", "0 0 0 0 0 0 0"), "line 4: the start holds no bead"},
           {with("random", "clever"), "line 5: no strategy \"clever\""},
           {with("seed 17", "seed 9223372036854775808"), "line 6: seed is a number"},
           {with("seed 17", "seed -1"), "line 6: seed is a number"},
           {with("\nseed", "\r\nseed"), "line 5: no strategy \"random\\x0d\""},
       }) {
    INFO(textio::quoted(c.text) << ": " << refusal(c.text));
    CHECK(refusal(c.text).starts_with(c.says));
  }
}

TEST_CASE("an answer file is one signed value", "[game-file]") {
  CHECK(write_answer(2) == "value +2\n");
  CHECK(write_answer(0) == "value 0\n");
  CHECK(write_answer(-4) == "value -4\n");
  for (int value = -127; value <= 127; ++value)
    CHECK(read_answer(write_answer(value)) == value);
  for (const char* bad : {"", "value 2\n", "value +0\n", "value -0\n", "value +2", "value +128\n",
                          "value +02\n", "value  +2\n", "score +2\n"}) {
    INFO(textio::quoted(bad));
    CHECK_THROWS_AS(read_answer(bad), GameFileError);
  }
}
