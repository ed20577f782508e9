#include "reference.hpp"

#include <map>
#include <numeric>

#include "ioiwari/core/constants.hpp"

namespace reference {

Outcome sow(std::vector<int> pits, int label) {
  Outcome outcome;
  const int n = static_cast<int>(pits.size());
  int position = label - 1;
  int hand = pits[position];
  pits[position] = 0;
  while (hand != 0) {
    position = (position + 1) % n;
    int& pit = pits[position];
    if (hand == 1) {
      // The last bead: a pit of 1..4 is captured with it, otherwise the bead is given away.
      if (pit >= 1 && pit <= ioiwari::kPitCapacity - 1) {
        outcome.mover += pit + 1;
        pit = 0;
      } else {
        outcome.opponent += 1;
      }
      hand = 0;
    } else if (pit == ioiwari::kPitCapacity) {
      pit -= 1;  // skim a full pit; the hand keeps its beads
      outcome.mover += 1;
    } else {
      pit += 1;
      hand -= 1;
    }
  }
  outcome.pits = pits;
  return outcome;
}

int negamax(const std::vector<int>& pits) {
  static std::map<std::vector<int>, int> memo;
  if (std::accumulate(pits.begin(), pits.end(), 0) == 0) return 0;
  if (auto found = memo.find(pits); found != memo.end()) return found->second;
  int best = -1000;
  for (int label = 1; label <= static_cast<int>(pits.size()); ++label) {
    if (pits[label - 1] == 0) continue;
    const Outcome outcome = sow(pits, label);
    best = std::max(best, outcome.mover - outcome.opponent - negamax(outcome.pits));
  }
  memo.emplace(pits, best);
  return best;
}

}  // namespace reference
