// The four puzzle programs on any bytes: the first byte picks the program, the rest (cut to a
// size that keeps each input fast) is its standard input. Whatever comes, a program answers
// in its format, then stops cleanly or with one line that names a case.
#include <cstdint>
#include <regex>
#include <sstream>
#include <string>

#include "end_nim/end_nim.hpp"
#include "fuzz_invariant.hpp"
#include "stake_your_claim/stake_your_claim.hpp"
#include "take_fraction/take_fraction.hpp"
#include "twins_noughts_crosses/twins_noughts_crosses.hpp"

namespace {

// At most this much input: a take-fraction line at its extremes takes tens of milliseconds.
constexpr std::size_t kMaxInput = 400;

struct Target {
  const puzzles::Program* program;
  std::regex answer;  // one line of its output
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Target targets[] = {
      {&puzzles::take_fraction::kProgram, std::regex("-1|[1-9][0-9]*")},
      {&puzzles::stake_your_claim::kProgram, std::regex("\\([0-7],[0-7]\\) -?[0-9]+")},
      {&puzzles::end_nim::kProgram, std::regex("[LRNP]")},
      {&puzzles::twins_noughts_crosses::kProgram, std::regex("[0-9]+")},
  };
  if (size == 0) return 0;
  const Target& target = targets[data[0] % 4];
  const std::string input(reinterpret_cast<const char*>(data) + 1, std::min(size - 1, kMaxInput));
  std::istringstream in(input);
  std::ostringstream out, err;
  const int status = puzzles::run(*target.program, {}, in, out, err);
  FUZZ_CHECK(status == 0 || status == 3);
  // Standard output: whole answer lines only.
  const std::string answers = out.str();
  FUZZ_CHECK(answers.empty() || answers.back() == '\n');
  std::istringstream lines(answers);
  for (std::string line; std::getline(lines, line);)
    FUZZ_CHECK(std::regex_match(line, target.answer));
  // Standard error: nothing, or one line naming the program and the case.
  const std::string error = err.str();
  if (status == 0) {
    FUZZ_CHECK(error.empty());
  } else {
    FUZZ_CHECK(error.starts_with(std::string(target.program->name) + ": case "));
    FUZZ_CHECK(error.find('\n') == error.size() - 1);
    FUZZ_CHECK(error.size() < 300);
  }
  return 0;
}
