// Breaks the protocol: its first move names a pit the ring does not have. Wrong answer.
#include <iostream>

constexpr int kPits = 7;

int main() {
  int beads = 0;
  for (int i = 0; i < kPits; ++i)
    if (!(std::cin >> beads)) return 0;
  std::cout << kPits + 1 << std::endl;
  // Whatever the judge does next, this program has lost: it waits for the end of its input.
  while (std::cin >> beads) {
  }
  return 0;
}
