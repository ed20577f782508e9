// One game's turns, for every front end that plays one: the player's protocol, the opponent and
// the referee each seat a side for each player, and the loop asks the side to move for its move,
// plays it, and tells both sides. The rules of whose turn it is and when the game is over are
// Match's; this is their one loop.
#pragma once

#include <functional>
#include <optional>

#include "ioiwari/core/match.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/strategy.hpp"
#include "ioiwari/core/table.hpp"

namespace ioiwari {

// One player's side of a game.
class Side {
 public:
  virtual ~Side() = default;
  // This side's move in `game`, whose turn it is; nothing ends the game here (the side keeps
  // why).
  virtual std::optional<Pit> move(const Match& game) = 0;
  // After every move, either side's, with `game` as it is after it; false ends the game here.
  virtual bool played(const Match& game, Pit pit) = 0;
};

// Plays `game` on until it is over or a side ends it. True when it is over.
bool play_out(Match& game, Side& first, Side& second);

// A side that plays a strategy's moves and tells each one, once played, to `tell` (the
// opponent writes it to player 1, the referee to its player).
class StrategySide : public Side {
 public:
  StrategySide(Strategy strategy, const Table& table, std::uint64_t seed,
               std::function<void(Pit)> tell)
      : strategy_(strategy), table_(table), random_(seed), tell_(std::move(tell)) {}
  std::optional<Pit> move(const Match& game) override;
  bool played(const Match& game, Pit pit) override;

 private:
  Strategy strategy_;
  const Table& table_;
  Random random_;
  std::function<void(Pit)> tell_;
  bool mine_ = false;  // the last move was this side's
};

}  // namespace ioiwari
