// stake-your-claim: parses nothing itself; see stake_your_claim.cpp and common/program.cpp.
#include "stake_your_claim/stake_your_claim.hpp"

int main(int argc, char** argv) {
  return puzzles::main(puzzles::stake_your_claim::kProgram, argc, argv);
}
