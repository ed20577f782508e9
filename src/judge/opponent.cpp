#include "ioiwari/judge/opponent.hpp"

#include <istream>
#include <ostream>

#include "ioiwari/core/game_loop.hpp"
#include "ioiwari/input/reading.hpp"
#include "ioiwari/input/token.hpp"

namespace ioiwari {

std::string OpponentResult::summary() const {
  const std::string banks =
      std::to_string(game.bank(Player::first)) + " to " + std::to_string(game.bank(Player::second));
  switch (exit) {
    case OpponentExit::player1_won:
      return "player 1 wins " + banks;
    case OpponentExit::player1_tied:
      return "player 1 ties " + banks;
    case OpponentExit::player1_lost:
      return "player 1 loses " + banks;
    case OpponentExit::player1_broke_protocol:
      return "player 1 broke the protocol: " + fault;
  }
  return fault;
}

namespace {

// Player 1's side: its moves read and checked, once player 1 is still reading ours.
class PlayerOneSide : public Side {
 public:
  PlayerOneSide(TokenReader& reader, std::ostream& out, std::string& fault)
      : reader_(reader), out_(out), fault_(fault) {}
  std::optional<Pit> move(const Match& game) override {
    if (stopped_reading(game)) return std::nullopt;
    Pit pit = Pit::at_index(0);
    if (auto read = read_move(reader_, game, pit); read.code != ExitCode::ok) {
      fault_ = std::move(read.error);
      return std::nullopt;
    }
    return pit;
  }
  bool played(const Match& /*game*/, Pit /*pit*/) override { return true; }

  // A failed write shows at the next turn; after the last move it is no fault, as a player may
  // see the end coming and leave.
  bool stopped_reading(const Match& game) {
    if (out_) return false;
    fault_ = "player 1 stopped reading before move " + std::to_string(game.move_number());
    return true;
  }

 private:
  TokenReader& reader_;
  std::ostream& out_;
  std::string& fault_;
};

// Our side: the strategy's moves, each written once played, after player 1 has read the last.
class OurSide : public StrategySide {
 public:
  OurSide(const OpponentOptions& options, const Table& table, std::ostream& out,
          PlayerOneSide& them)
      : StrategySide(options.strategy, table, options.seed,
                     [&out](Pit pit) { out << pit.label() << '\n'
                                           << std::flush; }),
        them_(them) {}
  std::optional<Pit> move(const Match& game) override {
    if (them_.stopped_reading(game)) return std::nullopt;
    return StrategySide::move(game);
  }

 private:
  PlayerOneSide& them_;
};

}  // namespace

OpponentResult run_opponent(std::istream& in, std::ostream& out, const Table& table,
                            const OpponentOptions& options) {
  OpponentResult result{OpponentExit::player1_won, Match(options.start), {}};
  Match& game = result.game;
  TokenReader reader(in);
  out << options.start << '\n' << std::flush;
  PlayerOneSide them(reader, out, result.fault);
  OurSide us(options, table, out, them);
  if (!play_out(game, them, us)) {
    result.exit = OpponentExit::player1_broke_protocol;
    return result;
  }
  const int lead = game.bank(Player::first) - game.bank(Player::second);
  result.exit = lead > 0    ? OpponentExit::player1_won
                : lead == 0 ? OpponentExit::player1_tied
                            : OpponentExit::player1_lost;
  return result;
}

void write_record(std::ostream& out, const OpponentResult& result, const OpponentOptions& options) {
  out << "# ioiwari opponent, strategy " << name(options.strategy) << ", seed " << options.seed
      << "\n# move | pits 1.." << options.start.size() << " | bank 1 bank 2\n"
      << result.game << "# " << result.summary() << '\n';
}

}  // namespace ioiwari
