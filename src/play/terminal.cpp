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
      {"help", Command::Kind::help},   {"h", Command::Kind::help},    {"?", Command::Kind::help},
      {"hint", Command::Kind::hint},   {"undo", Command::Kind::undo}, {"u", Command::Kind::undo},
      {"board", Command::Kind::board}, {"b", Command::Kind::board},   {"quit", Command::Kind::quit},
      {"q", Command::Kind::quit},      {"exit", Command::Kind::quit},
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
  text += "\nit goes to your opponent's bank. When every pit is empty, the larger bank wins.\n";
  return text;
}

// The pits of `board` that hold beads, as "1, 3, 4".
std::string legal_pits(const Board& board) {
  std::string text;
  for (Pit pit : board.pits()) {
    if (!board.is_legal(pit)) continue;
    if (!text.empty()) text += ", ";
    text += std::to_string(pit.label());
  }
  return text;
}

class TerminalGame {
 public:
  TerminalGame(std::istream& in, std::ostream& out, const Table& table, const PlayOptions& options)
      : in_(in),
        out_(out),
        table_(table),
        options_(options),
        style_(options.color),
        game_(options.start) {
    names_[static_cast<int>(options.person)] = "you";
    names_[static_cast<int>(opponent(options.person))] = "ioiwari";
  }

  int run() {
    std::ostringstream greeting;
    greeting << style_.bold("Ioiwari") << ": you are player " << number(options_.person)
             << (options_.person == Player::first ? " and move first" : "; ioiwari moves first")
             << ". Start: " << game_.start();
    if (options_.seed) greeting << " (drawn by --seed " << *options_.seed << ")";
    greeting << ". Type help for the commands.";
    say(greeting.str());
    draw();
    while (!game_.over()) {
      if (game_.to_move() != options_.person) {
        game_.play(*table_.best_move(game_.board()));
        say(describe_last_move(game_, names_, style_));
        if (!game_.over()) draw();
        continue;
      }
      out_ << "move " << game_.move_number() << ", your turn [" << legal_pits(game_.board())
           << ", hint, undo, help]> " << std::flush;
      std::string line;
      if (!std::getline(in_, line)) {
        const bool interrupted = options_.interrupted();
        out_ << '\n'
             << (interrupted ? "Interrupted" : "End of input") << ": game left at move "
             << game_.move_number() << ", banks you " << game_.bank(options_.person) << ", ioiwari "
             << game_.bank(opponent(options_.person)) << ".\n";
        return interrupted ? kInterruptedExit : 0;
      }
      if (!obey(parse_command(line, game_.board().size()))) return 0;
    }
    draw();
    summary();
    return 0;
  }

 private:
  void draw() { draw_board(out_, game_, names_, style_); }
  // Prose for the person, one paragraph wrapped to the terminal's width.
  void say(const std::string& text) { out_ << textio::wrap(text, width()) << '\n'; }
  std::size_t width() const { return static_cast<std::size_t>(std::max(options_.columns, 20)); }

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
        game_.play(command.pit);
        say(describe_last_move(game_, names_, style_));
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
        out_ << help_text(game_.board().ring());
        break;
      case Command::Kind::hint:
        hint();
        break;
      case Command::Kind::undo:
        undo();
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
    const auto& history = game_.history();
    const bool moved = std::any_of(history.begin(), history.end(), [&](const Match::Ply& ply) {
      return ply.mover == options_.person;
    });
    if (!moved) {
      out_ << "Nothing to undo: you have not moved yet.\n";
      return;
    }
    int taken = 0;
    while (game_.history().back().mover != options_.person) {
      game_.undo();
      ++taken;
    }
    const Pit pit = game_.history().back().pit;
    game_.undo();
    out_ << "Took back your move from pit " << pit.label()
         << (taken > 0 ? " and ioiwari's reply" : "") << ".\n";
    draw();
  }

  void summary() {
    const std::string taught = lesson();  // read from the table before anything is said
    const int mine = game_.bank(options_.person);
    const int theirs = game_.bank(opponent(options_.person));
    std::string result =
        "Game over: you " + std::to_string(mine) + ", ioiwari " + std::to_string(theirs) + ". ";
    if (mine > theirs) {
      result += style_.good("You win by " + std::to_string(mine - theirs) + ".");
    } else if (mine < theirs) {
      result += style_.bad("ioiwari wins by " + std::to_string(theirs - mine) + ".");
    } else {
      result += "A tie.";
    }
    say(result);
    say(taught);
  }

  // The first of the person's moves that gave away value, what it cost and what was better; or
  // that there was none.
  std::string lesson() const {
    std::ostringstream text;
    text << "You never gave away a bead: every move of yours was a best move.";
    for (const Match::Ply& ply : game_.history()) {
      if (ply.mover != options_.person) continue;
      const int best = table_.value(ply.before);
      const int played = table_.move_value(ply.before, ply.pit);
      if (played == best) continue;
      const int move_number = static_cast<int>(&ply - game_.history().data()) + 1;
      const Pit better = *table_.best_move(ply.before);
      text.str("");
      text << "Your first costly move was move " << move_number << ", pit " << ply.pit.label()
           << " on " << ply.before << ": it cost you " << best - played
           << (best - played == 1 ? " bead" : " beads") << " (worth "
           << textio::signed_number(played) << "; pit " << better.label() << " was worth "
           << textio::signed_number(best) << ").";
      break;
    }
    return text.str();
  }

  std::istream& in_;
  std::ostream& out_;
  const Table& table_;
  const PlayOptions& options_;
  Style style_;
  Match game_;
  Names names_;
};

}  // namespace

int play_terminal(std::istream& in, std::ostream& out, const Table& table,
                  const PlayOptions& options) {
  return TerminalGame(in, out, table, options).run();
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
