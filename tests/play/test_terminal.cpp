// The terminal game and the terminal view of the protocol, driven through string streams.
#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/input/token.hpp"
#include "ioiwari/play/terminal.hpp"
#include "support.hpp"
#include "textio/wrap.hpp"

using namespace ioiwari;
using ioiwari::test::perfect_moves;
using ioiwari::test::table;

namespace {

Board board(std::vector<int> counts) {
  return *Board::from_counts(counts, Ring::ioi());
}

struct Session {
  int code;
  std::string screen;
};

Session play(const std::string& typed, PlayOptions options) {
  std::istringstream in(typed);
  std::ostringstream out;
  const int code = play_terminal(in, out, table(), options);
  return {code, out.str()};
}

PlayOptions options_for(const Board& start, Player person = Player::first) {
  PlayOptions options;
  options.start = start;
  options.person = person;
  return options;
}

// The screen's lines joined into one, each run of spaces one space: what prose says, however it
// was wrapped and indented.
std::string joined(std::string screen) {
  std::replace(screen.begin(), screen.end(), '\n', ' ');
  screen.erase(std::unique(screen.begin(), screen.end(),
                           [](char a, char b) { return a == ' ' && b == ' '; }),
               screen.end());
  return screen;
}

bool has(const std::string& screen, const std::string& text) {
  return screen.find(text) != std::string::npos;
}

const Board kExample = board({4, 3, 2, 4, 2, 3, 2});

}  // namespace

TEST_CASE("prompt lines are read as pit numbers or command words", "[terminal]") {
  using Kind = Command::Kind;
  struct Case {
    const char* line;
    Kind kind;
  };
  const std::vector<Case> cases = {
      {"3", Kind::move},          {"  7 \r", Kind::move},
      {"0", Kind::no_such_pit},   {"8", Kind::no_such_pit},
      {"-1", Kind::no_such_pit},  {"99999999999999999999", Kind::no_such_pit},
      {"help", Kind::help},       {"HELP", Kind::help},
      {"?", Kind::help},          {"hint", Kind::hint},
      {"undo", Kind::undo},       {"u", Kind::undo},
      {"board", Kind::board},     {"quit", Kind::quit},
      {"q", Kind::quit},          {"exit", Kind::quit},
      {"", Kind::nothing},        {" \t ", Kind::nothing},
      {"3 4", Kind::unreadable},  {"three", Kind::unreadable},
      {"3.0", Kind::unreadable},  {"hints", Kind::unreadable},
      {"\x01", Kind::unreadable},
  };
  for (const Case& c : cases) {
    INFO(quoted(c.line));
    CHECK(parse_command(c.line, kPits).kind == c.kind);
  }
  CHECK(parse_command(" 5 ", kPits).pit == *Pit::from_label(5, kPits));
}

TEST_CASE("the board shows the ring, banks, turn and move number", "[terminal]") {
  Match game(kExample);
  std::ostringstream out;
  draw_board(out, game, Names{"you", "ioiwari"}, Style(false));
  const std::string screen = out.str();
  for (int label = 1; label <= kPits; ++label)
    CHECK(has(screen, std::to_string(label)));
  CHECK(has(screen, "(4)"));
  CHECK(has(screen, "clockwise"));
  CHECK(has(screen, "bank of you (player 1): 0"));
  CHECK(has(screen, "bank of ioiwari (player 2): 0"));
  CHECK(has(screen, "move 1: you to play"));
  CHECK_FALSE(has(screen, "\x1b["));
  // Pit 1 is drawn at the top, the others clockwise: pit 2 right of pit 7 on the same row.
  std::istringstream lines(screen);
  std::string first, second;
  std::getline(lines, first);
  CHECK(first.find('1') != std::string::npos);
  std::getline(lines, second);  // pit 1's count
  std::getline(lines, second);  // labels 7 and 2
  CHECK(second.find('7') < second.find('2'));
}

TEST_CASE("without colour, the counts the last move changed are in brackets", "[terminal]") {
  // 4 3 2 4 2 3 2; you play pit 2, ioiwari pit 3: 4 0 0 4 1 4 0. Pit 3 was emptied, pit 4
  // skimmed, pits 5 and 6 dropped in, pit 7 captured; pits 1 and 2 stayed as they were.
  Match game(kExample);
  game.play(*Pit::from_label(2, kPits));
  game.play(*Pit::from_label(3, kPits));
  std::ostringstream out;
  draw_board(out, game, Names{"you", "ioiwari"}, Style(false));
  CHECK(out.str() ==
        "                        1\n"
        "                       (4)\n"
        "          7                           2\n"
        "         [0]                         (0)\n"
        "                   clockwise ->\n"
        "      6                                   3*\n"
        "     [4]                                 [0]\n"
        "                5               4\n"
        "               [1]             [4]\n"
        "  bank of you (player 1): 3    bank of ioiwari (player 2): 4\n"
        "  move 3: you to play   (* = pit just played, [n] = a count it changed)\n");
}

TEST_CASE("each move is described: drops, skims, capture, the bead given away", "[terminal]") {
  const Names names{"you", "ioiwari"};
  Match game(board({5, 0, 0, 5, 5, 0, 0}));
  game.play(*Pit::from_label(1, kPits));
  CHECK(describe_last_move(game, names, Style(false)) ==
        "You played pit 1 (5 beads); dropped in pits 2, 3; skimmed full pit 4: 1 bead to you; "
        "skimmed full pit 5: 1 bead to you; dropped in pits 6, 7; the last bead fell on empty "
        "pit 1: 1 bead to ioiwari. Banks: you 2, ioiwari 1.");

  Match capture(board({0, 3, 0, 2, 1, 0, 0}));
  capture.play(*Pit::from_label(2, kPits));
  CHECK(has(describe_last_move(capture, names, Style(false)),
            "the last bead captured pit 5: 2 beads to you"));

  Match full(board({0, 0, 0, 0, 0, 1, 5}));
  full.play(*Pit::from_label(6, kPits));
  CHECK(has(describe_last_move(full, names, Style(false)),
            "the last bead fell on full pit 7: 1 bead to ioiwari"));
}

TEST_CASE("the game's prose wraps at word boundaries to the terminal's width", "[terminal]") {
  // The same game at 80 columns, 60 and 30: no line is wider than the width (the board aside,
  // drawn for 80), no word is cut, and joined up again the prose is the same.
  std::map<int, std::string> screens;
  for (const int columns : {80, 60, 30}) {
    PlayOptions options =
        options_for(*Board::from_counts(std::vector{5, 0, 0, 5, 5, 0, 0}, Ring::ioi()));
    options.columns = columns;
    options.seed = 12345678901234567;
    const Session session = play("1\nhint\nhelp\nquit\n", options);
    std::istringstream lines(session.screen);
    std::string line, prose;
    while (std::getline(lines, line)) {
      if (line.starts_with("  ")) continue;  // the board, the hint's moves
      // The prompt: what the person types ends its line, and the input here is not echoed.
      if (const auto prompt = line.find("]> "); prompt != std::string::npos) {
        line.erase(0, prompt + 3);
      }
      INFO(columns << " columns: " << line);
      CHECK(textio::width_of(line) <= static_cast<std::size_t>(columns));
      prose += line + ' ';
    }
    screens[columns] = prose;
  }
  const auto words = [](const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> all;
    for (std::string word; in >> word;)
      all.push_back(word);
    return all;
  };
  CHECK(words(screens[60]) == words(screens[80]));
  CHECK(words(screens[30]) == words(screens[80]));
  // At 80 columns the greeting, of 102 characters, takes two lines, broken between words.
  CHECK(has(screens[80], "Type help for the commands."));
}

TEST_CASE("the board of every ring fits 80 columns", "[terminal][rings]") {
  for (int pits = kMinPits; pits <= kMaxPits; ++pits) {
    const Ring ring{pits, 9};
    std::vector<int> counts(static_cast<std::size_t>(pits), 9);
    Match game(*Board::from_counts(counts, ring));
    game.play(Pit::at_index(pits - 1));
    std::ostringstream out;
    draw_board(out, game, {"ioiwari", "you"}, Style(false));
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) {
      INFO(pits << " pits: " << line);
      CHECK(line.size() <= 80);
    }
  }
}

TEST_CASE("a person who plays perfectly wins and is told so", "[terminal]") {
  const Session session = play(perfect_moves(kExample, Player::first), options_for(kExample));
  CHECK(session.code == 0);
  CHECK(has(session.screen, "Game over: you 11, ioiwari 9. You win by 2."));
  CHECK(has(session.screen, "You never gave away a bead"));
}

TEST_CASE("a person who errs is shown the costly move and what was better", "[terminal]") {
  // From the example start pit 2, 4 and 7 are worth +2, pit 5 only -2 (table analysis).
  std::string typed = "5\n";
  Match game(kExample);
  game.play(*Pit::from_label(5, kPits));
  while (!game.over()) {
    const Pit pit = *table().best_move(game.board());
    if (game.to_move() == Player::first && game.history().size() > 1) {
      typed += std::to_string(pit.label()) + "\n";
    }
    game.play(pit);
  }
  const Session session = play(typed, options_for(kExample));
  CHECK(session.code == 0);
  CHECK(has(joined(session.screen),
            "Your costly move, which gave away 4 beads in all: move 1, pit 5 on 4 3 2 4 2 3 2: "
            "it cost you 4 beads (worth -2; pit 2 was worth +2) "));
}

TEST_CASE("the lesson names every costly move, not only the first", "[terminal]") {
  // The person plays the worst move at every turn.
  std::string typed;
  Match game(kExample);
  std::vector<std::string> costly;
  while (!game.over()) {
    Pit pit = *table().best_move(game.board());
    if (game.to_move() == Player::first) {
      const std::vector<PitValue> moves = table().analyze(game.board());
      pit = moves.back().pit;
      if (moves.back().value != moves.front().value) {
        costly.push_back("  move " + std::to_string(game.move_number()) + ", pit " +
                         std::to_string(pit.label()) + " on ");
      }
      typed += std::to_string(pit.label()) + "\n";
    }
    game.play(pit);
  }
  REQUIRE(costly.size() >= 2);
  const Session session = play(typed, options_for(kExample));
  CHECK(has(session.screen, "Your costly moves, which gave away "));
  std::size_t at = 0;
  for (const std::string& move : costly) {
    INFO(move);
    at = session.screen.find(move, at);
    CHECK(at != std::string::npos);
  }
}

TEST_CASE("playing second, ioiwari moves first", "[terminal]") {
  const Session session =
      play(perfect_moves(kExample, Player::second), options_for(kExample, Player::second));
  CHECK(session.code == 0);
  CHECK(has(session.screen, "you are player 2; ioiwari moves first"));
  CHECK(has(session.screen, "Ioiwari played pit 2 (3 beads)"));
  CHECK(has(session.screen, "ioiwari wins by 2."));
}

TEST_CASE("hint lists every legal move for the person, best first", "[terminal]") {
  const Session session = play("hint\n", options_for(kExample));
  CHECK(has(session.screen,
            "pit 2: +2  pit 4: +2  pit 7: +2  pit 1: 0  pit 6: 0  pit 3: -2  pit 5: -2\n"));
}

TEST_CASE("bad entries get their own messages and a new prompt", "[terminal]") {
  // 0 3 0 2 1 0 0: pits 1, 3, 6 and 7 are empty.
  const Session session = play("1\n9\nfive\n\n2\n", options_for(board({0, 3, 0, 2, 1, 0, 0})));
  CHECK(has(session.screen, "Pit 1 is empty: choose a pit with beads (2, 4, 5)."));
  CHECK(has(session.screen, "There is no pit 9: the pits are 1 to 7."));
  CHECK(has(session.screen, "I can't read \"five\": type a pit number, or help"));
  CHECK(has(session.screen, "You played pit 2"));
  std::size_t prompts = 0;
  for (std::size_t at = 0; (at = session.screen.find("your turn", at)) != std::string::npos; ++at) {
    ++prompts;
  }
  CHECK(prompts >= 5);  // one per line typed
}

TEST_CASE("undo takes back the person's move and the reply", "[terminal]") {
  const Session nothing = play("undo\n", options_for(kExample));
  CHECK(has(nothing.screen, "Nothing to undo: you have not moved yet."));

  const Session session = play("2\nundo\nboard\n", options_for(kExample));
  CHECK(has(session.screen, "Took back your move from pit 2 and ioiwari's reply."));
  // After the undo the board is the start again, with empty banks, at move 1.
  const std::string after = session.screen.substr(session.screen.find("Took back"));
  CHECK(has(after, "(4)"));
  CHECK(has(after, "bank of you (player 1): 0"));
  CHECK(has(after, "move 1: you to play"));
}

TEST_CASE("help, board, quit, end of input and Ctrl-C", "[terminal]") {
  CHECK(has(play("help\n", options_for(kExample)).screen, "hint   the value of each"));
  const Session quit = play("quit\n2\n", options_for(kExample));
  CHECK(quit.code == 0);
  CHECK(has(quit.screen, "You left the game at move 1."));
  CHECK_FALSE(has(quit.screen, "You played"));

  const Session ended = play("2\n", options_for(kExample));
  CHECK(ended.code == 0);
  CHECK(has(ended.screen, "End of input: game left at move 3, banks you 3, ioiwari 4."));

  PlayOptions options = options_for(kExample);
  options.interrupted = [] { return true; };
  const Session interrupted = play("", options);
  CHECK(interrupted.code == kInterruptedExit);
  CHECK(has(interrupted.screen, "Interrupted: game left at move 1"));
}

TEST_CASE("colour only when asked for", "[terminal]") {
  PlayOptions options = options_for(kExample);
  CHECK_FALSE(has(play("2\n", options).screen, "\x1b["));
  options.color = true;
  const std::string screen = play("2\n", options).screen;
  CHECK(has(screen, "\x1b[1m"));
  CHECK(has(screen, "\x1b[0m"));
}

TEST_CASE("the protocol view draws the game on its own stream, and the moves stay clean",
          "[terminal]") {
  std::istringstream in("4 3 2 4 2 3 2\n3\n");
  std::ostringstream out, screen;
  TerminalView view(screen, false, Player::first);
  const ProtocolResult result = play_protocol(in, out, table(), Player::first, &view);
  CHECK(result.code == ExitCode::input_ended);
  CHECK(out.str() == "2\n5\n");
  CHECK(has(screen.str(), "Type the start"));
  CHECK(has(screen.str(), "Ioiwari played pit 2 (3 beads)"));
  CHECK(has(screen.str(), "You played pit 3"));
  CHECK(has(screen.str(), "move 2, your move as player 2 [1, 3, 4, 6, 7]> "));
}

TEST_CASE("your own move is drawn, its changes marked, before ioiwari's reply", "[terminal]") {
  const Session session = play("2\n", options_for(kExample));
  const std::string& screen = session.screen;
  const auto mine = screen.find("You played pit 2");
  const auto reply = screen.find("Ioiwari played pit 3");
  REQUIRE(mine != std::string::npos);
  REQUIRE(reply != std::string::npos);
  // Between them, the board after your move alone: 4 0 3 5 0 3 2, pit 2 just played, pits 3 to 5
  // changed, your bank 3 (you captured pit 5).
  const std::string board = screen.substr(mine, reply - mine);
  CHECK(has(board, "2*"));
  CHECK(has(board, "[0]"));
  CHECK(has(board, "[3]"));
  CHECK(has(board, "[5]"));
  CHECK(has(board, "bank of you (player 1): 3"));
  CHECK(has(board, "move 2: ioiwari to play"));
}

TEST_CASE("the prompt offers what can be done now: undo once you moved, redo once you undid",
          "[terminal]") {
  const Session session = play("2\nundo\nredo\n", options_for(kExample));
  const std::string& screen = session.screen;
  CHECK(has(screen, "move 1, your turn [1, 2, 3, 4, 5, 6, 7, hint, board, help, quit]> "));
  CHECK(has(screen, "move 3, your turn [1, 4, 5, 6, hint, undo, board, help, quit]> "));
  CHECK(has(screen, "move 1, your turn [1, 2, 3, 4, 5, 6, 7, hint, redo, board, help, quit]> "));
  CHECK(has(screen, "Took back your move from pit 2 and ioiwari's reply."));
  // Redo plays the move and the reply that were taken back: the game is where it was.
  const std::string after = screen.substr(screen.rfind("Took back"));
  CHECK(has(after, "You played pit 2"));
  CHECK(has(after, "Ioiwari played pit 3"));
  CHECK(play("redo\n", options_for(kExample)).screen.find("Nothing to redo") != std::string::npos);
}

TEST_CASE("undo twice takes back two turns, and redo twice plays them again in their order",
          "[terminal]") {
  const Session session = play("2\n1\nundo\nundo\nredo\nredo\nredo\nquit\n", options_for(kExample));
  const std::string& screen = session.screen;
  CHECK(has(screen, "Took back your move from pit 1 and ioiwari's reply."));
  CHECK(has(screen, "Took back your move from pit 2 and ioiwari's reply."));
  const auto undone = screen.find("Took back");
  const auto redone = screen.rfind("Took back");
  REQUIRE(undone != std::string::npos);
  const std::string before = screen.substr(0, undone);
  const std::string after = screen.substr(redone);
  // Redo plays pit 2 (and its reply) before pit 1 (and its reply), then has nothing more.
  const auto two = after.find("You played pit 2");
  const auto one = after.find("You played pit 1");
  REQUIRE(two != std::string::npos);
  REQUIRE(one != std::string::npos);
  CHECK(two < one);
  CHECK(has(after, "Nothing to redo"));
  // The game is where it was before the undos: the same turn and moves offered, the same banks.
  const auto last = [](const std::string& text, const std::string& head, char end) {
    const auto at = text.rfind(head);
    return at == std::string::npos ? std::string() : text.substr(at, text.find(end, at) - at);
  };
  CHECK_FALSE(last(before, "move 5, your turn [", '>').empty());
  CHECK(last(after, "move 5, your turn [", '>') == last(before, "move 5, your turn [", '>'));
  CHECK_FALSE(last(before, "bank of ioiwari", '\n').empty());
  CHECK(last(after, "bank of you", '\n') == last(before, "bank of you", '\n'));
  CHECK(last(after, "bank of ioiwari", '\n') == last(before, "bank of ioiwari", '\n'));
}

TEST_CASE("a weaker opponent plays its strategy's moves, and says so", "[terminal]") {
  PlayOptions options = options_for(kExample);
  options.strategy = Strategy::greedy;
  options.strategy_seed = 7;
  const Session session = play("2\n", options);
  CHECK(has(joined(session.screen), "ioiwari plays greedy moves, not the best"));
  // After 2 the board is 4 0 3 5 0 3 2: greedy's reply, drawn with the same seed.
  Match game(kExample);
  game.play(*Pit::from_label(2, kPits));
  Random random(7);
  const Pit reply = choose_move(Strategy::greedy, game.board(), table(), random);
  CHECK(has(session.screen, "Ioiwari played pit " + std::to_string(reply.label()) + " ("));
}

TEST_CASE("each game is kept when it ends or is left, and plays back as it went", "[terminal]") {
  std::vector<std::string> kept;
  PlayOptions options = options_for(kExample);
  options.keep = [&](const Match& game) {
    kept.push_back(write_game_record(game, options.person, options.strategy));
  };
  const Session session = play(perfect_moves(kExample, Player::first), options);
  REQUIRE(kept.size() == 1);
  const std::vector<GameRecord> records = read_game_records(kept.front());
  REQUIRE(records.size() == 1);
  CHECK(records.front().start == kExample);
  std::ostringstream replayed;
  replay_terminal(replayed, table(), records.front(), options);
  const std::string screen = replayed.str();
  CHECK(has(screen, "a recorded game: you were player 1, ioiwari played optimal moves"));
  CHECK(has(screen, "Game over: you 11, ioiwari 9. You win by 2."));
  CHECK(has(screen, "You never gave away a bead"));
  // Every move the game showed, the replay shows, in order.
  std::size_t at = 0;
  for (std::size_t from = 0; (from = session.screen.find("played pit ", from)) != std::string::npos;
       ++from) {
    const std::string move = session.screen.substr(from, session.screen.find(')', from) - from);
    at = screen.find(move, at);
    CHECK(at != std::string::npos);
  }
  // A game left is kept too, as far as it went.
  kept.clear();
  play("2\nquit\n", options);
  REQUIRE(kept.size() == 1);
  CHECK(read_game_records(kept.front()).front().moves.size() == 2);
  std::ostringstream left;
  replay_terminal(left, table(), read_game_records(kept.front()).front(), options);
  CHECK(has(left.str(), "The game was left at move 3"));
}

TEST_CASE("play again: a new start, the same start, or not", "[terminal]") {
  const Board other = board({2, 4, 3, 2, 3, 4, 2});
  PlayOptions options = options_for(kExample);
  options.next_start = [&] { return other; };
  const Session again = play(perfect_moves(kExample, Player::first) + "y\nquit\n", options);
  CHECK(has(again.screen, "Play again? [y: a new start, s: the same start, n: quit]> "));
  CHECK(has(again.screen, "Start: 2 4 3 2 3 4 2"));
  const Session same = play(perfect_moves(kExample, Player::first) + "s\n" +
                                perfect_moves(kExample, Player::first) + "n\n",
                            options);
  std::size_t wins = 0;
  for (std::size_t at = 0; (at = same.screen.find("You win by 2.", at)) != std::string::npos; ++at)
    ++wins;
  CHECK(wins == 2);
  CHECK(same.code == 0);
  const Session done = play(perfect_moves(kExample, Player::first) + "n\n", options);
  CHECK(done.code == 0);
  CHECK_FALSE(has(done.screen, "Start: 2 4 3 2 3 4 2"));
}

TEST_CASE("play again asks again after a typo or a bare Enter, and never ends on one",
          "[terminal]") {
  const Board other = board({2, 4, 3, 2, 3, 4, 2});
  PlayOptions options = options_for(kExample);
  options.next_start = [&] { return other; };
  const Session session =
      play(perfect_moves(kExample, Player::first) + "t\n\nyes\nquit\n", options);
  CHECK(has(session.screen,
            "I can't read \"t\": type y for a new start, s for the same one, "
            "or n to stop."));
  CHECK(has(session.screen, "Nothing typed: type y for a new start"));
  CHECK(has(session.screen, "Start: 2 4 3 2 3 4 2"));  // "yes" is a yes
  CHECK(session.code == 0);
  // End of input at the question ends the program, as n does.
  const Session ended = play(perfect_moves(kExample, Player::first) + "t\n", options);
  CHECK(ended.code == 0);
  CHECK_FALSE(has(ended.screen, "Start: 2 4 3 2 3 4 2"));
}

TEST_CASE("a record file is read strictly, naming the line at fault", "[terminal][input]") {
  const std::string good =
      "ioiwari record 1\npits 7\ncapacity 5\nstart 4 3 2 4 2 3 2\nyou 1\nopponent optimal\n"
      "moves 2 3\n";
  CHECK(read_game_records(good + "\n" + good).size() == 2);
  for (const auto& [text, says] : std::vector<std::pair<std::string, std::string>>{
           {"", "no game is recorded"},
           {"ioiwari record 2\n", "line 1: a game begins"},
           {"ioiwari record 1\npits 7\ncapacity 5\nstart 4 3 2 4 2 3 2\nyou 3\n",
            "line 5: you are"},
           {"ioiwari record 1\npits 7\ncapacity 5\nstart 4 3 2 4 2 3 2\nyou 1\nopponent optimal\n"
            "moves 2 2\n",
            "line 7: move 2, pit 2, is not legal on 4 0 3 5 0 3 2"},
           {"ioiwari record 1\npits 7\ncapacity 5\nstart 4 3 2 4 2 3\nyou 1\n",
            "line 4: the start"},
           // Strict: a count written with a leading zero is no count.
           {"ioiwari record 1\npits 7\ncapacity 5\nstart 04 3 2 4 2 3 2\nyou 1\nopponent "
            "optimal\nmoves 2 3\n",
            "line 4: the start's beads are numbers, not \"04\""},
           {"ioiwari record 1\npits 17\ncapacity 5\n", "line 3: no ring"},
           {good.substr(0, good.size() - 1), "no newline"},
       }) {
    INFO(text);
    try {
      read_game_records(text);
      FAIL("read");
    } catch (const GameRecordError& error) {
      CHECK(std::string(error.what()).find(says) != std::string::npos);
    }
  }
}

TEST_CASE(
    "a new move after undo clears what redo would play, and undo before a first move is refused",
    "[terminal]") {
  // Undo, then another move: redo has nothing to play (it played pit 2 with no beads when the
  // list was kept).
  const Session moved = play("2\nundo\n1\nredo\nquit\n", options_for(kExample));
  CHECK(has(moved.screen, "Nothing to redo: no move was taken back since your last move."));
  CHECK_FALSE(has(moved.screen, "You played pit 2 (0 beads)"));
  // Playing second: undo before one's own first move takes nothing back (ioiwari's move stays).
  const Session second = play("undo\nquit\n", options_for(kExample, Player::second));
  CHECK(second.code == 0);
  CHECK(has(second.screen, "Nothing to undo: you have not moved yet."));
  CHECK(has(second.screen, "You left the game at move 2."));
}
