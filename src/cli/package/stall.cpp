// Never answers: it reads the start and then waits, using no CPU. Time limit exceeded, by the
// judge's wall-clock limit.
#include <chrono>
#include <iostream>
#include <thread>

constexpr int kPits = 7;

int main() {
  int beads = 0;
  for (int i = 0; i < kPits; ++i)
    if (!(std::cin >> beads)) return 0;
  for (;;)
    std::this_thread::sleep_for(std::chrono::hours(1));
}
