// An independent statement of the rules and of negamax, to check the fast code against.
// It shares no code with the core: pits are a plain vector, the move is written afresh from
// docs/rules.md, and the search is a plain recursion with its own memo.
#pragma once

#include <vector>

namespace reference {

struct Outcome {
  std::vector<int> pits;
  int mover = 0;     // beads the move put in the mover's bank
  int opponent = 0;  // beads it put in the opponent's bank
};

// The move from the pit labelled `label` (1-based), which must hold beads.
Outcome sow(std::vector<int> pits, int label);

// The best (own bank - other bank) the player to move can force from `pits` to the end.
int negamax(const std::vector<int>& pits);

}  // namespace reference
