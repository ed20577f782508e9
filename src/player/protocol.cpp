#include "ioiwari/player/protocol.hpp"

#include <istream>
#include <optional>
#include <ostream>
#include <vector>

#include "ioiwari/core/game_loop.hpp"

namespace ioiwari {

namespace {

ProtocolResult fail(ExitCode code, std::string message) {
  return {code, std::move(message)};
}

}  // namespace

ProtocolResult play_protocol(std::istream& in, std::ostream& out, const Table& table, Player me,
                             ProtocolObserver* observer) {
  return play_protocol(
      in, out, table.ring(), [&](const Board&) -> const Table& { return table; }, me, observer);
}

namespace {

// The player's side: the table's best move, written on a line of its own and flushed.
class TableSide : public Side {
 public:
  TableSide(std::ostream& out, const Table& table, ProtocolResult& result)
      : out_(out), table_(table), result_(result) {}
  std::optional<Pit> move(const Match& game) override {
    const Pit pit = *table_.best_move(game.board());
    out_ << pit.label() << '\n' << std::flush;
    if (!out_) {
      result_ = fail(ExitCode::output_closed,
                     "standard output closed at " + move_place(game) + ": cannot write the move");
      return std::nullopt;
    }
    return pit;
  }
  bool played(const Match& /*game*/, Pit /*pit*/) override { return true; }

 private:
  std::ostream& out_;
  const Table& table_;
  ProtocolResult& result_;
};

// The opponent's side: its moves read and checked; the watcher told of every move.
class ReaderSide : public Side {
 public:
  ReaderSide(TokenReader& reader, ProtocolObserver& watch, ProtocolResult& result)
      : reader_(reader), watch_(watch), result_(result) {}
  std::optional<Pit> move(const Match& game) override {
    watch_.reading_move(game);
    Pit pit = Pit::at_index(0);
    if (auto read = read_move(reader_, game, pit); read.code != ExitCode::ok) {
      result_ = std::move(read);
      return std::nullopt;
    }
    return pit;
  }
  bool played(const Match& game, Pit /*pit*/) override {
    watch_.moved(game);
    return true;
  }

 private:
  TokenReader& reader_;
  ProtocolObserver& watch_;
  ProtocolResult& result_;
};

}  // namespace

ProtocolResult play_protocol(std::istream& in, std::ostream& out, Ring ring,
                             const TableForStart& table_for, Player me,
                             ProtocolObserver* observer) {
  ProtocolObserver silent;
  ProtocolObserver& watch = observer != nullptr ? *observer : silent;
  TokenReader reader(in);
  Board start;
  watch.reading_start(ring);
  if (auto result = read_start(reader, start, ring); result.code != ExitCode::ok) {
    return result;
  }
  const Table& table = table_for(start);
  Match game(start);
  watch.started(game);
  ProtocolResult result;
  TableSide mine(out, table, result);
  ReaderSide theirs(reader, watch, result);
  if (me == Player::first) {
    play_out(game, mine, theirs);
  } else {
    play_out(game, theirs, mine);
  }
  return result;
}

}  // namespace ioiwari
