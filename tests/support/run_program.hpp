// Runs a built program as a whole process for end-to-end tests: its input from a file, its
// output and error into files, so that no size of either can block it. The one helper the
// tests run a program with to its end (a test that talks to a running program uses the
// referee's own ChildProcess instead).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace ioiwari::test {

struct Run {
  bool signaled = false;
  int status = 0;  // the exit status, or the signal
  std::string out, err;
  long peak_kb = 0;  // its peak resident memory (ru_maxrss)
  bool success() const { return !signaled && status == 0; }
};

struct RunOptions {
  // Its standard output is a pipe nobody reads from, so writes to it fail (EPIPE).
  bool close_output = false;
  // A program still running after this long is killed (and reported as signaled), so a hang
  // fails a test instead of stopping the suite; far beyond what any load makes them take.
  int limit_seconds = 300;
  // Run in the child before the program, to set its limits or its user.
  std::function<void()> prepare;
};

// Runs argv[0] with the arguments argv[1..] on `input`.
Run run_program(const std::vector<std::string>& argv, const std::string& input,
                const RunOptions& options);
inline Run run_program(const std::vector<std::string>& argv, const std::string& input) {
  return run_program(argv, input, RunOptions{});
}

}  // namespace ioiwari::test
