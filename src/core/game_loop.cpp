#include "ioiwari/core/game_loop.hpp"

namespace ioiwari {

bool play_out(Match& game, Side& first, Side& second) {
  while (!game.over()) {
    Side& mover = game.to_move() == Player::first ? first : second;
    const std::optional<Pit> pit = mover.move(game);
    if (!pit) return false;
    game.play(*pit);
    if (!first.played(game, *pit) || !second.played(game, *pit)) return false;
  }
  return true;
}

std::optional<Pit> StrategySide::move(const Match& game) {
  const Pit pit = choose_move(strategy_, game.board(), table_, random_);
  mine_ = true;
  return pit;
}

bool StrategySide::played(const Match& /*game*/, Pit pit) {
  if (mine_) tell_(pit);
  mine_ = false;
  return true;
}

}  // namespace ioiwari
