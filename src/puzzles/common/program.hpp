// What the four puzzle programs share: reading their input a line at a time, saying exactly
// what was wrong with it, and the command line (--help, --version) around their solvers.
#pragma once

#include <cstring>
#include <iosfwd>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace puzzles {

// The exit statuses of every puzzle program.
enum class Exit : int {
  ok = 0,             // every case was answered
  failure = 1,        // an unexpected internal error
  usage = 2,          // the command line was wrong
  bad_input = 3,      // the input broke the format; the cases before it were answered
  output_closed = 6,  // the reader of standard output went away
};

// Input that breaks the format. The message names the case, the line and the token.
class BadInput : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Standard output could not be written: its reader went away (EPIPE: said by the status alone,
// as grep says nothing), or another error, which is said.
class OutputClosed : public std::runtime_error {
 public:
  explicit OutputClosed(int why)
      : std::runtime_error("cannot write standard output" +
                           (why != 0 ? ": " + std::string(std::strerror(why)) : std::string())),
        error(why) {}
  int error;
};

// The input a line at a time, counting lines.
class LineReader {
 public:
  explicit LineReader(std::istream& in) : in_(in) {}

  // The next line without its end ("\n", or "\r\n"); nothing at the end of input. A last line
  // without "\n" is a line.
  std::optional<std::string> next();
  // The next line that holds more than white space, skipping blank ones; nothing at the end.
  std::optional<std::string> next_nonblank();
  // The number of the line returned last, counting from 1.
  int line() const { return line_; }

 private:
  std::istream& in_;
  int line_ = 0;
};

// Where a case's input is read: messages start "case K, line L: " (just "case K: " before the
// first line).
struct Where {
  int case_number = 1;
  int line = 0;
  [[noreturn]] void fail(const std::string& what) const;
};

// The words of a line: runs of anything but spaces and tabs.
std::vector<std::string_view> split(std::string_view line);

// A line without white space at either end.
std::string_view trim(std::string_view line);

// The token in double quotes, fit for one line of a message: bytes outside printable ASCII as
// \xNN, and a long token cut short with "...".
std::string quoted(std::string_view token);

// The decimal number in `word`, `name`d in messages, which must lie in low..high: digits only
// (no sign, no point, no spaces). Otherwise fails at `where`, naming the token and the range.
long long number_in(std::string_view word, long long low, long long high, std::string_view name,
                    const Where& where);

// Reads the line that opens the next case of an input that a line "0" ends: one number, `name`d
// in messages, 0..high. Counts the case in `where` and points it at the line. Nothing for the
// "0"; fails when the input ends before it, or on anything but one such number.
std::optional<long long> next_case_size(LineReader& in, Where& where, long long high,
                                        std::string_view name);

// Writes one answer line and flushes it, so that every case answered is on its way before a
// later case can fail. Throws OutputClosed when the output has gone.
void answer(std::ostream& out, std::string_view line);

// A puzzle program: its name, its help, and its solver.
struct Program {
  std::string_view name;     // as typed: "take-fraction"
  std::string_view summary;  // one line: what it answers
  std::string_view help;     // the input and output formats, with an example
  // Reads every case from `in` and answers each on `out` as soon as it is solved. Throws
  // BadInput at the first case that breaks the format.
  void (*solve)(LineReader& in, std::ostream& out);
};

// Runs `program` with `args` (without the program name): --help and --version, or the solver
// on `in` and `out`. Every diagnostic is one line on `err`, starting with the program's name.
// Returns an Exit status.
int run(const Program& program, std::span<const std::string_view> args, std::istream& in,
        std::ostream& out, std::ostream& err);

// main() of a puzzle program: the process's streams and arguments, SIGPIPE ignored.
int main(const Program& program, int argc, char** argv);

}  // namespace puzzles
