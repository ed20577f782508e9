// take-fraction: parses nothing itself; see take_fraction.cpp and common/program.cpp.
#include "take_fraction/take_fraction.hpp"

int main(int argc, char** argv) {
  return puzzles::main(puzzles::take_fraction::kProgram, argc, argv);
}
