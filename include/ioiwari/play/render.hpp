// Drawing the game for a person: the ring of pits, the banks, and what a move did.
#pragma once

#include <array>
#include <iosfwd>
#include <string>
#include <string_view>

#include "ioiwari/core/match.hpp"

namespace ioiwari {

// How text is decorated: ANSI colours, or plain text where colour is off.
class Style {
 public:
  explicit Style(bool color) : color_(color) {}
  std::string bold(std::string_view text) const { return paint("1", text); }
  std::string dim(std::string_view text) const { return paint("2", text); }
  std::string good(std::string_view text) const { return paint("32", text); }
  std::string bad(std::string_view text) const { return paint("31", text); }
  std::string mark(std::string_view text) const { return paint("1;33", text); }

 private:
  std::string paint(std::string_view code, std::string_view text) const;
  bool color_;
};

// What the two players are called in messages: names[0] for player 1, names[1] for player 2.
using Names = std::array<std::string, 2>;

inline const std::string& name_of(const Names& names, Player player) {
  return names[static_cast<int>(player)];
}

// Draws the ring with pit labels and counts, the clockwise direction, both banks, and whose
// turn it is with the move number (or that the game is over). The pits the last move changed
// are marked.
void draw_board(std::ostream& out, const Match& game, const Names& names, const Style& style);

// A sentence saying what the last move of `game` did: the pit, the drops, the skims, the
// capture or the bead given away, and the banks after it; callers wrap it to their width. The
// game must have a move.
std::string describe_last_move(const Match& game, const Names& names, const Style& style);

}  // namespace ioiwari
