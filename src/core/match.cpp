#include "ioiwari/core/match.hpp"

#include <cassert>
#include <ostream>

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
  out << "start          | " << game.start() << " | 0 0\n";
  std::array<int, 2> banks{};
  for (const Match::Ply& ply : game.history()) {
    banks[static_cast<int>(ply.mover)] += ply.result.mover_gain;
    banks[static_cast<int>(opponent(ply.mover))] += ply.result.opponent_gain;
    out << "player " << number(ply.mover) << " plays " << ply.pit.label() << " | "
        << ply.result.after << " | " << banks[0] << ' ' << banks[1] << '\n';
  }
  return out;
}

}  // namespace ioiwari
