// Writes the IOI ring's class index (include/ioiwari/class_index.hpp) as C++ source to the file
// its one argument names: run when ioiwari is built. The index is structure (which boards are
// rotations of each other, in which order a solve takes them); it holds no value.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "ioiwari/class_index.hpp"

using namespace ioiwari;
using namespace ioiwari::ioi_classes;

namespace {

// The board turned by one pit: the top digit comes round to pit 1.
int rotated(int code) {
  const int top_place = kCodeCount / kCodeBase;
  return code % top_place * kCodeBase + code / top_place;
}

int beads_of(int code) {
  int beads = 0;
  for (int pit = 0; pit < kPits; ++pit, code /= kCodeBase)
    beads += code % kCodeBase;
  return beads;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || std::freopen(argv[1], "w", stdout) == nullptr) {
    std::fprintf(stderr, "usage: class_index_gen OUTPUT.cpp\n");
    return 2;
  }
  // Codes in increasing order: the first code met of a class is its smallest, its canonical
  // board, and it marks the whole class.
  std::vector<int> canonical(kCodeCount, -1);
  std::vector<int> classes;
  for (int code = 0; code < kCodeCount; ++code) {
    if (canonical[static_cast<std::size_t>(code)] >= 0) continue;
    for (int turn = code, k = 0; k < kPits; ++k, turn = rotated(turn))
      canonical[static_cast<std::size_t>(turn)] = code;
    classes.push_back(code);
  }
  // Numbered by bead count, then by code.
  std::vector<int> next(kFirst.begin(), kFirst.end());
  std::vector<int> number(kCodeCount, -1);
  std::vector<std::uint32_t> records(classes.size());
  for (int code : classes) {
    const int n = next[static_cast<std::size_t>(beads_of(code))]++;
    number[static_cast<std::size_t>(code)] = n;
    std::uint32_t digits = 0, full = 0;
    for (int pit = 0, rest = code; pit < kPits; ++pit, rest /= kCodeBase) {
      const int digit = rest % kCodeBase;
      digits |= static_cast<std::uint32_t>(digit) << (kDigitBits * pit);
      full |= digit == kPitCapacity ? 1u << pit : 0u;
    }
    records[static_cast<std::size_t>(n)] = record(digits, full);
    if (code_of(records[static_cast<std::size_t>(n)]) != code) {
      std::fprintf(stderr, "class_index_gen: the record of code %d does not give it back\n", code);
      return 1;
    }
  }
  if (static_cast<int>(classes.size()) != kCount) {
    std::fprintf(stderr, "class_index_gen: %zu classes, Burnside says %d\n", classes.size(),
                 kCount);
    return 1;
  }
  std::printf(
      "// Written by class_index_gen when ioiwari was built; see include/ioiwari/"
      "class_index.hpp.\n#include \"ioiwari/class_index.hpp\"\n\nnamespace ioiwari::ioi_classes "
      "{\n\nconst std::uint16_t kClassOf[kCodeCount] = {");
  for (int code = 0; code < kCodeCount; ++code) {
    std::printf("%s%d",
                code == 0   ? "\n"
                : code % 24 ? ","
                            : ",\n",
                number[static_cast<std::size_t>(canonical[static_cast<std::size_t>(code)])]);
  }
  std::printf("};\n\nconst std::uint32_t kRecord[kCount] = {");
  for (std::size_t n = 0; n < records.size(); ++n)
    std::printf("%s0x%x", n == 0 ? "\n" : n % 8 ? "," : ",\n", static_cast<unsigned>(records[n]));
  std::printf("};\n\n}  // namespace ioiwari::ioi_classes\n");
  return std::fflush(stdout) != 0 || std::ferror(stdout) ? 1 : 0;
}
