// end-nim: parses nothing itself; see end_nim.cpp and common/program.cpp.
#include "end_nim/end_nim.hpp"

int main(int argc, char** argv) {
  return puzzles::main(puzzles::end_nim::kProgram, argc, argv);
}
