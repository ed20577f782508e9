// Runs a built program as a whole process for end-to-end tests: its input from a file, its
// output and error into files, so that no size of either can block it.
#pragma once

#include <string>
#include <vector>

namespace test_support {

struct Run {
  bool signaled = false;
  int status = 0;  // the exit status, or the signal
  std::string out, err;
  long peak_kb = 0;  // its peak resident memory (ru_maxrss)
};

// Runs argv[0] with the arguments argv[1..] on `input`. When `close_output`, its standard
// output is a pipe nobody reads from, so writes to it fail (EPIPE). A program still running
// after `limit_seconds` is killed (and reported as signaled), so a hang fails a test instead of
// stopping the suite; the limit is far beyond what any load makes these programs take.
Run run_program(const std::vector<std::string>& argv, const std::string& input,
                bool close_output = false, int limit_seconds = 300);

}  // namespace test_support
