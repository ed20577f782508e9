// Player 1 of Ioiwari, as a contestant writes it: one file, the standard library only. With
// kGreedy false it plays perfectly (a memoized negamax over the boards reachable from the
// start); with kGreedy true it takes the move that nets the most at once, and loses games.
// With kCrashAtEnd true it plays perfectly and then aborts once the board is empty, its last
// move written; with kStallAtEnd true it plays perfectly and then never exits. Each fails after
// a won game, where the interactor has nothing against it, so that the judge system's own
// verdict (run-time error, time limit) is the only one: a program that dies or hangs in the
// middle of a game may be judged a wrong answer by the systems, whose interactor reads the end
// of its output and may end first (docs/judging.md).
//
// The move rule is written again here so that the file stands alone; ioiwari's own is
// include/ioiwari/core/sowing.hpp, and the package's tests hold this copy to it by playing it
// against ioiwari on every start.
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <thread>
#include <vector>

constexpr int kPits = 7;
constexpr int kCapacity = 5;
constexpr bool kGreedy = false;
constexpr bool kCrashAtEnd = false;
constexpr bool kStallAtEnd = false;

using Pits = std::array<int, kPits>;

struct Move {
  Pits after;
  int net = 0;  // the mover's beads banked minus the opponent's
};

// Sows pit `from` (0-based): a full pit skims one bead to the mover while the hand holds two
// or more; the last bead captures a pit of 1 to kCapacity-1 beads, and is given away on an
// empty or full one.
Move sow(const Pits& pits, int from) {
  Move move{pits, 0};
  int hand = move.after[from];
  move.after[from] = 0;
  int at = from;
  while (hand > 0) {
    at = (at + 1) % kPits;
    int& pit = move.after[at];
    if (hand >= 2) {
      if (pit == kCapacity) {
        --pit;
        ++move.net;
      } else {
        ++pit;
        --hand;
      }
    } else {
      if (pit >= 1 && pit < kCapacity) {
        move.net += pit + 1;
        pit = 0;
      } else {
        --move.net;
      }
      hand = 0;
    }
  }
  return move;
}

std::uint64_t code(const Pits& pits) {
  std::uint64_t value = 0;
  for (int i = kPits - 1; i >= 0; --i)
    value = value * (kCapacity + 1) + static_cast<std::uint64_t>(pits[i]);
  return value;
}

bool empty(const Pits& pits) {
  for (int beads : pits)
    if (beads != 0) return false;
  return true;
}

constexpr std::int8_t kUnknown = -128;
std::vector<std::int8_t> memo;

// The most the player to move can net from `pits` to the end of the game.
int value(const Pits& pits) {
  if (empty(pits)) return 0;
  std::int8_t& known = memo[code(pits)];
  if (known != kUnknown) return known;
  int best = -1000;
  for (int pit = 0; pit < kPits; ++pit) {
    if (pits[pit] == 0) continue;
    const Move move = sow(pits, pit);
    const int worth = move.net - value(move.after);
    if (worth > best) best = worth;
  }
  known = static_cast<std::int8_t>(best);
  return best;
}

// The pit to play (0-based): the lowest of the best.
int choose(const Pits& pits) {
  int chosen = -1, best = -1000;
  for (int pit = 0; pit < kPits; ++pit) {
    if (pits[pit] == 0) continue;
    const Move move = sow(pits, pit);
    const int worth = kGreedy ? move.net : move.net - value(move.after);
    if (worth > best) {
      best = worth;
      chosen = pit;
    }
  }
  return chosen;
}

int main() {
  Pits pits{};
  for (int& beads : pits)
    if (!(std::cin >> beads)) return 1;
  if (!kGreedy) {
    std::uint64_t boards = 1;
    for (int i = 0; i < kPits; ++i)
      boards *= kCapacity + 1;
    memo.assign(boards, kUnknown);
  }
  bool ours = true;
  while (!empty(pits)) {
    int pit = 0;
    if (ours) {
      pit = choose(pits);
      std::cout << pit + 1 << std::endl;
    } else {
      if (!(std::cin >> pit) || pit < 1 || pit > kPits || pits[pit - 1] == 0) return 1;
      --pit;
    }
    pits = sow(pits, pit).after;
    ours = !ours;
  }
  if (kCrashAtEnd) std::abort();
  while (kStallAtEnd)
    std::this_thread::sleep_for(std::chrono::hours(1));  // no CPU: the wall clock's limit
  return 0;
}
