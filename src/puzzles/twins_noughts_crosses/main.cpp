// twins-noughts-crosses: parses nothing itself; see twins_noughts_crosses.cpp and
// common/program.cpp.
#include "twins_noughts_crosses/twins_noughts_crosses.hpp"

int main(int argc, char** argv) {
  return puzzles::main(puzzles::twins_noughts_crosses::kProgram, argc, argv);
}
