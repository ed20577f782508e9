// Ioiwari for a person at a terminal: `ioiwari play`, and the view of the protocol game that
// plain `ioiwari` shows on standard error when a person types the opponent's moves.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "ioiwari/core/match.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/strategy.hpp"
#include "ioiwari/core/table.hpp"
#include "ioiwari/input/game_record.hpp"
#include "ioiwari/play/render.hpp"
#include "ioiwari/player/protocol.hpp"

namespace ioiwari {

// A line typed at the prompt of `ioiwari play`.
struct Command {
  enum class Kind {
    move,         // `pit` names a pit 1..kPits (which may still be empty)
    no_such_pit,  // an integer that names no pit (`text` holds it)
    help,
    hint,
    undo,
    redo,
    board,
    quit,
    nothing,     // an empty line
    unreadable,  // anything else (`text` holds it)
  };
  Kind kind = Kind::nothing;
  Pit pit = Pit::at_index(0);
  std::string text;
};

// Reads one line typed at the prompt: a pit number or a command word (in any case, with
// surrounding white space). Never fails: what it cannot read is `unreadable`.
Command parse_command(std::string_view line, int pits);

struct PlayOptions {
  Board start;
  std::optional<std::uint64_t> seed;  // the seed that drew the start, if one did
  Player person = Player::first;
  // How ioiwari chooses its moves: optimal plays Table::best_move(), the lowest-labelled best
  // move, so that a game goes the same way every time; the others (strategy.hpp) draw among
  // their choices with `strategy_seed`.
  Strategy strategy = Strategy::optimal;
  std::uint64_t strategy_seed = 0;
  bool color = false;
  int columns = 80;  // prose is wrapped to this width
  // Asked when input ends: true when it ended because of Ctrl-C.
  std::function<bool()> interrupted = [] { return false; };
  // Told each game when it ends or is left, to keep it (`--record`); empty: not kept.
  std::function<void(const Match& game)> keep;
  // A new start for "play again" after a game ends; empty: the question is not asked. Where
  // the ring draws no start of its own (`new_starts` false), only the same start is offered.
  std::function<Board()> next_start;
  bool new_starts = true;
};

// Exit status of `ioiwari play` when Ctrl-C ended the game (128 + SIGINT, as shells report it).
inline constexpr int kInterruptedExit = 130;

// Plays games between the person (typing on `in`) and the table, writing everything to `out`:
// one, and more while the person asks to play again. Returns 0 when the games ended, the person
// quit or input ended; kInterruptedExit on Ctrl-C.
int play_terminal(std::istream& in, std::ostream& out, const Table& table,
                  const PlayOptions& options);

// Plays a recorded game back on `out`: each move described and the board after it, then the
// result and the lesson, as the game itself showed them. `record`'s ring is the table's.
void replay_terminal(std::ostream& out, const Table& table, const GameRecord& record,
                     const PlayOptions& options);

// Shows a protocol game to a person on `out` (standard error): the board after each move,
// what the move did, and a prompt before each read.
class TerminalView : public ProtocolObserver {
 public:
  TerminalView(std::ostream& out, bool color, Player me, int columns = 80)
      : out_(out), style_(color), me_(me), columns_(columns) {}
  void reading_start(Ring ring) override;
  void started(const Match& game) override;
  void moved(const Match& game) override;
  void reading_move(const Match& game) override;

 private:
  Names names() const;
  std::ostream& out_;
  Style style_;
  Player me_;
  int columns_;
};

}  // namespace ioiwari
