// Crashes: it reads the start and then aborts (SIGABRT). Run-time error.
#include <cstdlib>
#include <iostream>

constexpr int kPits = 7;

int main() {
  int beads = 0;
  for (int i = 0; i < kPits; ++i)
    if (!(std::cin >> beads)) return 0;
  std::abort();
}
