// Writes the IOI ring's class index and the moves between its classes
// (include/ioiwari/core/class_index.hpp) as C++ source to the file its one argument names: run when
// ioiwari is built, with the move rule of board.cpp. It is the game's structure (which boards
// are rotations of each other, where each move leads and what it nets), never a value.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "ioiwari/core/board.hpp"
#include "ioiwari/core/class_index.hpp"

using namespace ioiwari;
using namespace ioiwari::ioi_classes;

namespace {

template <class T>
void write_array(const char* declaration, const std::vector<T>& items, int per_line) {
  std::printf("\n%s = {", declaration);
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::printf("%s%d",
                i == 0                                   ? "\n"
                : i % static_cast<std::size_t>(per_line) ? ","
                                                         : ",\n",
                static_cast<int>(items[i]));
  }
  std::printf("};\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || std::freopen(argv[1], "w", stdout) == nullptr) {
    std::fprintf(stderr, "usage: class_index_gen OUTPUT.cpp\n");
    return 2;
  }
  // Codes in increasing order: the first code met of a class is its smallest, its canonical
  // board, and it marks the whole class.
  std::vector<Board::Code> canonical(kCodeCount, kCodeCount);
  std::vector<Board::Code> classes;
  for (Board::Code code = 0; code < static_cast<Board::Code>(kCodeCount); ++code) {
    if (canonical[code] != kCodeCount) continue;
    const Board board = Board::from_code(code, Ring::ioi());
    for (int steps = 0; steps < kPits; ++steps)
      canonical[board.rotated(steps).code()] = code;
    classes.push_back(code);
  }
  if (static_cast<int>(classes.size()) != kCount) {
    std::fprintf(stderr, "class_index_gen: %zu classes, Burnside says %d\n", classes.size(),
                 kCount);
    return 1;
  }
  // Numbered by bead count, then by code.
  std::vector<int> next(kFirst.begin(), kFirst.end());
  std::vector<std::uint16_t> number(kCodeCount);
  std::vector<Board::Code> numbered(classes.size());
  for (Board::Code code : classes) {
    const int n = next[static_cast<std::size_t>(Board::from_code(code, Ring::ioi()).total())]++;
    number[code] = static_cast<std::uint16_t>(n);
    numbered[static_cast<std::size_t>(n)] = code;
  }
  std::vector<std::uint16_t> class_of(kCodeCount);
  for (Board::Code code = 0; code < static_cast<Board::Code>(kCodeCount); ++code)
    class_of[code] = number[canonical[code]];
  // Every move of every class's canonical board, by the rule of play().
  std::vector<std::uint16_t> after;
  std::vector<std::int8_t> net;
  for (Board::Code code : numbered) {
    const Board board = Board::from_code(code, Ring::ioi());
    for (Pit pit : board.pits()) {
      if (!board.is_legal(pit)) {
        after.push_back(0);
        net.push_back(kNoMove);
        continue;
      }
      const MoveResult move = play(board, pit);
      after.push_back(class_of[move.after.code()]);
      net.push_back(static_cast<std::int8_t>(move.net()));
    }
  }
  std::printf(
      "// Written by class_index_gen when ioiwari was built; see include/ioiwari/core/"
      "class_index.hpp.\n#include \"ioiwari/core/class_index.hpp\"\n\nnamespace "
      "ioiwari::ioi_classes "
      "{\n");
  write_array("const std::uint16_t kClassOf[kCodeCount]", class_of, 24);
  write_array("const std::uint16_t kAfter[kCount * kPits]", after, 21);
  write_array("const std::int8_t kNet[kCount * kPits]", net, 28);
  std::printf("\n}  // namespace ioiwari::ioi_classes\n");
  return std::fflush(stdout) != 0 || std::ferror(stdout) ? 1 : 0;
}
