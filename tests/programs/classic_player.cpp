// A player of the kind IOI 2001 contestants wrote: a plain memoized recursion over the boards
// reachable from the start, with a base-6 array as its memo. Built with the tests only, as the
// yardstick for ioiwari's whole-process speed (docs/performance.md). It shares no code with
// ioiwari: the rule and the search are written here again, plainly.
#include <cstdio>
#include <cstring>

namespace {

constexpr int kPits = 7;
constexpr int kFull = 5;
constexpr int kCodes = 279936;  // 6^7
constexpr int kUnknown = -128;

signed char memo[kCodes];

int encode(const int* pits) {
  int code = 0;
  for (int i = kPits - 1; i >= 0; --i)
    code = code * (kFull + 1) + pits[i];
  return code;
}

// Plays pit `from` on `pits` in place; returns the mover's net gain.
int sow(int* pits, int from) {
  int hand = pits[from], net = 0, at = from;
  pits[from] = 0;
  while (hand > 0) {
    at = (at + 1) % kPits;
    if (hand == 1) {
      if (pits[at] >= 1 && pits[at] <= kFull - 1) {
        net += pits[at] + 1;
        pits[at] = 0;
      } else {
        net -= 1;
      }
      hand = 0;
    } else if (pits[at] == kFull) {
      pits[at]--;
      net++;
    } else {
      pits[at]++;
      hand--;
    }
  }
  return net;
}

int solve(const int* pits) {
  const int code = encode(pits);
  if (memo[code] != kUnknown) return memo[code];
  int best = -100, any = 0;
  for (int p = 0; p < kPits; ++p) {
    if (pits[p] == 0) continue;
    int next[kPits];
    std::memcpy(next, pits, sizeof next);
    const int net = sow(next, p);
    const int value = net - solve(next);
    if (value > best) best = value;
    any = 1;
  }
  if (!any) best = 0;
  memo[code] = static_cast<signed char>(best);
  return best;
}

int best_move(const int* pits) {
  const int target = solve(pits);
  for (int p = 0; p < kPits; ++p) {
    if (pits[p] == 0) continue;
    int next[kPits];
    std::memcpy(next, pits, sizeof next);
    if (sow(next, p) - solve(next) == target) return p;
  }
  return -1;
}

bool empty(const int* pits) {
  for (int p = 0; p < kPits; ++p) {
    if (pits[p] != 0) return false;
  }
  return true;
}

}  // namespace

int main() {
  std::memset(memo, kUnknown, sizeof memo);
  int pits[kPits];
  for (int& beads : pits) {
    if (std::scanf("%d", &beads) != 1) return 1;
  }
  for (bool mine = true; !empty(pits); mine = !mine) {
    int p = 0;
    if (mine) {
      p = best_move(pits);
      std::printf("%d\n", p + 1);
      std::fflush(stdout);
    } else {
      if (std::scanf("%d", &p) != 1) return 1;
      --p;
    }
    sow(pits, p);
  }
  return 0;
}
