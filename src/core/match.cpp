#include "ioiwari/core/match.hpp"

#include <algorithm>
#include <cassert>
#include <ostream>
#include <string>

namespace ioiwari {

std::optional<Player> Match::leader() const {
  if (bank(Player::first) == bank(Player::second)) return std::nullopt;
  return bank(Player::first) > bank(Player::second) ? Player::first : Player::second;
}

const Match::Ply& Match::play(Pit pit) {
  assert(board_.is_legal(pit));
  const Player mover = to_move();
  const MoveResult result = ioiwari::play(board_, pit);
  banks_[static_cast<int>(mover)] += result.mover_gain;
  banks_[static_cast<int>(opponent(mover))] += result.opponent_gain;
  plies_.push_back(Ply{mover, pit, board_, result});
  board_ = result.after;
  return plies_.back();
}

bool Match::undo() {
  if (plies_.empty()) return false;
  const Ply& ply = plies_.back();
  banks_[static_cast<int>(ply.mover)] -= ply.result.mover_gain;
  banks_[static_cast<int>(opponent(ply.mover))] -= ply.result.opponent_gain;
  board_ = ply.before;
  plies_.pop_back();
  return true;
}

std::ostream& operator<<(std::ostream& out, const Match& game) {
  // The first column as wide as its widest row, "player 1 plays 16" on a ring of 16 pits.
  const std::string plays = "player 1 plays ";
  const std::size_t width = plays.size() + std::to_string(game.start().size()).size();
  const auto column = [&](std::string text) {
    text.resize(std::max(text.size(), width), ' ');
    return text;
  };
  out << column("start") << " | " << game.start() << " | 0 0\n";
  std::array<int, 2> banks{};
  for (const Match::Ply& ply : game.history()) {
    banks[static_cast<int>(ply.mover)] += ply.result.mover_gain;
    banks[static_cast<int>(opponent(ply.mover))] += ply.result.opponent_gain;
    out << column("player " + std::to_string(number(ply.mover)) + " plays " +
                  std::to_string(ply.pit.label()))
        << " | " << ply.result.after << " | " << banks[0] << ' ' << banks[1] << '\n';
  }
  return out;
}

}  // namespace ioiwari
