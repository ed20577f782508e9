#include "ioiwari/play/terminal.hpp"

#include <algorithm>
#include <cctype>
#include <istream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "ioiwari/input/token.hpp"
#include "textio/number.hpp"
#include "textio/wrap.hpp"

namespace ioiwari {

Command parse_command(std::string_view line, int pits) {
  const auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!line.empty() && is_space(line.front()))
    line.remove_prefix(1);
  while (!line.empty() && is_space(line.back()))
    line.remove_suffix(1);
  Command command;
  command.text = std::string(line.substr(0, TokenReader::kMaxKept));
  if (line.empty()) return command;  // nothing
  std::string word;
  for (char c : line)
    word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  struct Word {
    std::string_view text;
    Command::Kind kind;
  };
  static constexpr Word kWords[] = {
      {"help", Command::Kind::help}, {"h", Command::Kind::help},    {"?", Command::Kind::help},
      {"hint", Command::Kind::hint}, {"undo", Command::Kind::undo}, {"u", Command::Kind::undo},
      {"redo", Command::Kind::redo}, {"r", Command::Kind::redo},    {"board", Command::Kind::board},
      {"b", Command::Kind::board},   {"quit", Command::Kind::quit}, {"q", Command::Kind::quit},
      {"exit", Command::Kind::quit},
  };
  for (const Word& known : kWords) {
    if (word == known.text) {
      command.kind = known.kind;
      return command;
    }
  }
  const Number number = parse_number(line);
  if (number.kind == Number::Kind::not_integer) {
    command.kind = Command::Kind::unreadable;
    return command;
  }
  const auto pit =
      number.kind == Number::Kind::integer ? Pit::from_label(number.value, pits) : std::nullopt;
  if (!pit) {
    command.kind = Command::Kind::no_such_pit;
    return command;
  }
  command.kind = Command::Kind::move;
  command.pit = *pit;
  return command;
}

namespace {

// What `help` says at the prompt, with the ring's numbers.
std::string help_text(Ring ring) {
  const std::string full = std::to_string(ring.capacity);
  std::string text = "Type a pit number (1-";
  text += std::to_string(ring.pits);
  text +=
      ") to sow it, or one of:\n"
      "  hint   the value of each of your moves, best first\n"
      "  undo   take back your last move and the reply to it\n"
      "  redo   play again a move you took back, and its reply\n"
      "  board  draw the board again\n"
      "  help   this text\n"
      "  quit   leave the game (Ctrl-D and Ctrl-C leave too)\n"
      "A move lifts every bead of the pit and sows them clockwise from the next pit, one a pit.\n"
      "A full pit (";
  text += full;
  text += ") met by a hand of several beads gives one bead to your bank instead.\n";
  if (ring.capacity == 1) {
    text += "The last bead always goes to your opponent's bank: a pit holds 0 or 1.\n";
    text += "When every pit is empty, the larger bank wins.\n";
    return text;
  }
  text += "The last bead takes a pit of ";
  text += ring.capacity == 2 ? "1 bead" : "1-" + std::to_string(ring.capacity - 1) + " beads";
  text += " into your bank, with itself; on a pit of 0 or ";
  text += full;
  text += " it goes to your opponent's bank. When every pit is empty, the larger bank wins.\n";
  return text;
}

// The pits of `board` that hold beads, as "1, 3, 4"; or, `short_runs`, runs of three or more
// as ranges: "1-3, 5, 9-12".
std::string legal_pits(const Board& board, bool short_runs = false) {
  std::vector<int> labels;
  for (Pit pit : board.pits())
    if (board.is_legal(pit)) labels.push_back(pit.label());
  std::string text;
  for (std::size_t i = 0; i < labels.size();) {
    std::size_t end = i + 1;
    while (end < labels.size() && labels[end] == labels[end - 1] + 1)
      ++end;
    if (!text.empty()) text += ", ";
    if (short_runs && end - i >= 3) {
      text += std::to_string(labels[i]) + "-" + std::to_string(labels[end - 1]);
      i = end;
    } else {
      text += std::to_string(labels[i]);
      ++i;
    }
  }
  return text;
}

// A prompt of `head` ("move 3, your turn"), the legal pits and `commands`, narrower than
// `columns` (the cursor stays on its line): with the commands cut to help, and then the pits'
// runs as ranges, where it would be wider.
std::string prompt(const std::string& head, const Board& board, const std::string& commands,
                   int columns) {
  const auto fits = [&](const std::string& text) {
    return static_cast<int>(textio::width_of(text)) < std::max(columns, 20);
  };
  std::string text = head + " [" + legal_pits(board) + commands + "]> ";
  if (fits(text) || commands.empty()) return text;
  text = head + " [" + legal_pits(board) + "; help]> ";
  if (fits(text)) return text;
  return head + " [" + legal_pits(board, true) + "; help]> ";
}

// Every move of the person's that gave away value: what it cost and what was better; or that
// there was none. What the end of a game and a replay teach.
std::string lesson(const Match& game, Player person, const Table& table) {
  std::ostringstream text;
  int costly = 0, cost = 0;
  std::ostringstream moves;
  for (const Match::Ply& ply : game.history()) {
    if (ply.mover != person) continue;
    const int best = table.value(ply.before);
    const int played = table.move_value(ply.before, ply.pit);
    if (played == best) continue;
    const int move_number = static_cast<int>(&ply - game.history().data()) + 1;
    const Pit better = *table.best_move(ply.before);
    ++costly;
    cost += best - played;
    moves << "\n  move " << move_number << ", pit " << ply.pit.label() << " on " << ply.before
          << ": it cost you "
          << textio::counted(static_cast<unsigned>(best - played), "bead", "beads") << " (worth "
          << textio::signed_number(played) << "; pit " << better.label() << " was worth "
          << textio::signed_number(best) << ")";
  }
  if (costly == 0) return "You never gave away a bead: every move of yours was a best move.";
  text << "Your costly " << (costly == 1 ? "move" : "moves") << ", which gave away "
       << textio::counted(static_cast<unsigned>(cost), "bead", "beads")
       << " in all:" << moves.str();
  return text.str();
}

// Prose for a terminal of `columns`: each line of `text` a paragraph, wrapped at spaces; a line
// that starts indented (an item of a list) keeps its continuation lines indented under it, under
// its text where the item is a word and its text ("  hint   the value of ...").
std::string prose(const std::string& text, int columns) {
  const auto width = static_cast<std::size_t>(std::max(columns, 20));
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("  ")) {
      out += textio::wrap(line, width) + '\n';
      continue;
    }
    const auto gap = line.find("  ", 2);
    const auto words = gap == std::string::npos ? gap : line.find_first_not_of(' ', gap);
    if (words == std::string::npos || words >= width / 2) {
      out += textio::wrap(line, width, 4) + '\n';
      continue;
    }
    // "  hint   text": the item's words as they are, the text wrapped in the column after them.
    out += textio::hanging(std::string_view(line).substr(0, words),
                           std::string_view(line).substr(words), width) +
           '\n';
  }
  return out;
}

Names names_for(Player person) {
  Names names;
  names[static_cast<int>(person)] = "you";
  names[static_cast<int>(opponent(person))] = "ioiwari";
  return names;
}

// The result of a game that is over, for the person.
std::string result_of(const Match& game, Player person, const Style& style) {
  const int mine = game.bank(person);
  const int theirs = game.bank(opponent(person));
  std::string result =
      "Game over: you " + std::to_string(mine) + ", ioiwari " + std::to_string(theirs) + ". ";
  if (mine > theirs)
    return result + style.good("You win by " + std::to_string(mine - theirs) + ".");
  if (mine < theirs)
    return result + style.bad("ioiwari wins by " + std::to_string(theirs - mine) + ".");
  return result + "A tie.";
}

class TerminalGame {
 public:
  TerminalGame(std::istream& in, std::ostream& out, const Table& table, const PlayOptions& options)
      : in_(in),
        out_(out),
        table_(table),
        options_(options),
        style_(options.color),
        game_(options.start),
        names_(names_for(options.person)),
        random_(options.strategy_seed) {}

  int run() {
    for (bool first = true;; first = false) {
      const int code = one_game(first);
      if (code != kAgain) return code;
      game_ = Match(same_start_ || !options_.next_start ? game_.start() : options_.next_start());
      redo_.clear();
    }
  }

 private:
  static constexpr int kAgain = -1;  // one_game(): the person plays again

  int one_game(bool first) {
    std::ostringstream greeting;
    greeting << style_.bold("Ioiwari") << ": you are player " << number(options_.person)
             << (options_.person == Player::first ? " and move first" : "; ioiwari moves first")
             << ". Start: " << game_.start();
    if (first && options_.seed) greeting << " (drawn by --seed " << *options_.seed << ")";
    if (options_.strategy != Strategy::optimal)
      greeting << ". ioiwari plays " << name(options_.strategy) << " moves, not the best";
    greeting << ". Type help for the commands.";
    say(greeting.str());
    draw();
    while (!game_.over()) {
      if (game_.to_move() != options_.person) {
        reply();
        continue;
      }
      out_ << prompt("move " + std::to_string(game_.move_number()) + ", your turn", game_.board(),
                     std::string(", hint") + (can_undo() ? ", undo" : "") +
                         (redo_.empty() ? "" : ", redo") + ", board, help, quit",
                     options_.columns)
           << std::flush;
      std::string line;
      if (!std::getline(in_, line)) {
        const bool interrupted = options_.interrupted();
        out_ << '\n'
             << (interrupted ? "Interrupted" : "End of input") << ": game left at move "
             << game_.move_number() << ", banks you " << game_.bank(options_.person) << ", ioiwari "
             << game_.bank(opponent(options_.person)) << ".\n";
        keep();
        return interrupted ? kInterruptedExit : 0;
      }
      if (!obey(parse_command(line, game_.board().size()))) {
        keep();
        return 0;
      }
    }
    say(result_of(game_, options_.person, style_));
    say(lesson(game_, options_.person, table_));
    keep();
    return again() ? kAgain : 0;
  }

  // ioiwari's move: its strategy's, described and drawn.
  void reply() {
    const Pit pit = options_.strategy == Strategy::optimal
                        ? *table_.best_move(game_.board())
                        : choose_move(options_.strategy, game_.board(), table_, random_);
    game_.play(pit);
    say(describe_last_move(game_, names_, style_));
    draw();
  }

  // After a game: whether the person plays another (only where a new start can be had). Asks
  // until the answer is one it knows: a typo or a bare Enter must not end the program and send
  // the next keys to the shell.
  bool again() {
    if (!options_.next_start) return false;
    for (;;) {
      out_ << (options_.new_starts ? "Play again? [y: a new start, s: the same start, n: quit]> "
                                   : "Play again? [s: the same start, n: quit]> ")
           << std::flush;
      std::string line;
      if (!std::getline(in_, line)) {
        out_ << '\n';
        return false;
      }
      std::string answer = parse_command(line, 1).text;
      for (char& c : answer)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if ((answer == "y" || answer == "yes") && options_.new_starts) {
        same_start_ = false;
        return true;
      }
      if (answer == "s" || answer == "same") {
        same_start_ = true;
        return true;
      }
      if (answer == "n" || answer == "no" || answer == "q" || answer == "quit") return false;
      say((answer.empty() ? std::string("Nothing typed") : "I can't read " + quoted(line)) +
          (options_.new_starts ? ": type y for a new start, s for the same one, or n to stop."
                               : ": this ring draws no start of its own (--start-range); type "
                                 "s for the same one, or n to stop."));
    }
  }

  void keep() {
    if (options_.keep) options_.keep(game_);
  }

  void draw() { draw_board(out_, game_, names_, style_); }
  // Prose for the person, one paragraph a line, wrapped to the terminal's width.
  void say(const std::string& text) { out_ << prose(text, options_.columns); }
  std::size_t width() const { return static_cast<std::size_t>(std::max(options_.columns, 20)); }

  bool can_undo() const {
    const auto& history = game_.history();
    return std::any_of(history.begin(), history.end(),
                       [&](const Match::Ply& ply) { return ply.mover == options_.person; });
  }

  // Carries out one command; false when the person quits.
  bool obey(const Command& command) {
    switch (command.kind) {
      case Command::Kind::nothing:
        break;
      case Command::Kind::move:
        if (!game_.board().is_legal(command.pit)) {
          say("Pit " + std::to_string(command.pit.label()) +
              " is empty: choose a pit with beads (" + legal_pits(game_.board()) + ").");
          break;
        }
        redo_.clear();
        game_.play(command.pit);
        say(describe_last_move(game_, names_, style_));
        draw();
        break;
      case Command::Kind::no_such_pit:
        say("There is no pit " + command.text + ": the pits are 1 to " +
            std::to_string(game_.board().size()) + ".");
        break;
      case Command::Kind::unreadable:
        say("I can't read " + quoted(command.text) +
            ": type a pit number, or help for the commands.");
        break;
      case Command::Kind::help:
        say(help_text(game_.board().ring()));
        break;
      case Command::Kind::hint:
        hint();
        break;
      case Command::Kind::undo:
        undo();
        break;
      case Command::Kind::redo:
        redo();
        break;
      case Command::Kind::board:
        draw();
        break;
      case Command::Kind::quit:
        out_ << "You left the game at move " << game_.move_number() << ".\n";
        return false;
    }
    return true;
  }

  void hint() {
    const std::vector<PitValue> moves = table_.analyze(game_.board());
    say("Your moves, best first, with what each nets you to the end if both sides then play "
        "perfectly:");
    // "  pit 1: +2  pit 3: -1", a line broken only between moves.
    std::string line;
    for (const PitValue& move : moves) {
      const std::string item =
          "  pit " + std::to_string(move.pit.label()) + ": " + textio::signed_number(move.value);
      if (!line.empty() && line.size() + item.size() > width()) {
        out_ << line << '\n';
        line.clear();
      }
      line += item;
    }
    out_ << line << '\n';
  }

  void undo() {
    if (!can_undo()) {
      out_ << "Nothing to undo: you have not moved yet.\n";
      return;
    }
    // The moves taken back, last first, so that redo plays them again in their order.
    int taken = 0;
    while (game_.history().back().mover != options_.person) {
      redo_.push_back(game_.history().back().pit);
      game_.undo();
      ++taken;
    }
    const Pit pit = game_.history().back().pit;
    redo_.push_back(pit);
    game_.undo();
    out_ << "Took back your move from pit " << pit.label()
         << (taken > 0 ? " and ioiwari's reply" : "") << ".\n";
    draw();
  }

  void redo() {
    if (redo_.empty()) {
      out_ << "Nothing to redo: no move was taken back since your last move.\n";
      return;
    }
    // The person's move taken back, and ioiwari's replies that followed it.
    const Pit pit = redo_.back();
    redo_.pop_back();
    game_.play(pit);
    say(describe_last_move(game_, names_, style_));
    draw();
    while (!redo_.empty() && !game_.over() && game_.to_move() != options_.person) {
      game_.play(redo_.back());
      redo_.pop_back();
      say(describe_last_move(game_, names_, style_));
      draw();
    }
  }

  std::istream& in_;
  std::ostream& out_;
  const Table& table_;
  const PlayOptions& options_;
  Style style_;
  Match game_;
  Names names_;
  Random random_;
  std::vector<Pit> redo_;  // moves taken back, the next to play again last
  bool same_start_ = false;
};

}  // namespace

int play_terminal(std::istream& in, std::ostream& out, const Table& table,
                  const PlayOptions& options) {
  return TerminalGame(in, out, table, options).run();
}

void replay_terminal(std::ostream& out, const Table& table, const GameRecord& record,
                     const PlayOptions& options) {
  const Style style(options.color);
  const Names names = names_for(record.person);
  const auto say = [&](const std::string& text) { out << prose(text, options.columns); };
  Match game(record.start);
  say(style.bold("Ioiwari") + ", a recorded game: you were player " +
      std::to_string(number(record.person)) + ", ioiwari played " +
      std::string(name(record.opponent)) + " moves. Start: " +
      [&] {
        std::ostringstream start;
        start << record.start;
        return start.str();
      }() +
      ".");
  draw_board(out, game, names, style);
  for (const Pit pit : record.moves) {
    game.play(pit);
    say(describe_last_move(game, names, style));
    draw_board(out, game, names, style);
  }
  if (game.over()) {
    say(result_of(game, record.person, style));
  } else {
    say("The game was left at move " + std::to_string(game.move_number()) + ", banks you " +
        std::to_string(game.bank(record.person)) + ", ioiwari " +
        std::to_string(game.bank(opponent(record.person))) + ".");
  }
  say(lesson(game, record.person, table));
}

Names TerminalView::names() const {
  Names names;
  names[static_cast<int>(me_)] = "ioiwari";
  names[static_cast<int>(opponent(me_))] = "you";
  return names;
}

void TerminalView::reading_start(Ring ring) {
  out_ << "ioiwari plays player " << number(me_) << ". Type the start: " << ring.pits
       << " bead counts (0-" << ring.capacity << "), pit 1 first.\nstart> " << std::flush;
}

void TerminalView::started(const Match& game) {
  draw_board(out_, game, names(), style_);
}

void TerminalView::moved(const Match& game) {
  out_ << textio::wrap(describe_last_move(game, names(), style_),
                       static_cast<std::size_t>(std::max(columns_, 20)))
       << '\n';
  draw_board(out_, game, names(), style_);
  out_ << std::flush;
}

void TerminalView::reading_move(const Match& game) {
  out_ << "move " << game.move_number() << ", your move as player " << number(opponent(me_)) << " ["
       << legal_pits(game.board()) << "]> " << std::flush;
}

}  // namespace ioiwari
