// What the command line's tests share: ioiwari's command line run through string streams, and
// a folder of a test's own.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "ioiwari/cli/cli.hpp"
#include "ioiwari/cli/environment.hpp"

namespace ioiwari::test {

struct CliResult {
  int code;
  std::string out, err;
};

// The command line `args` on `input`, in `environment` (this process's when not given).
inline CliResult run(std::vector<std::string_view> args, const std::string& input = "") {
  std::istringstream in(input);
  std::ostringstream out, err;
  const int code = run_cli(args, in, out, err);
  return {code, out.str(), err.str()};
}
inline CliResult run_in(const Environment& environment, std::vector<std::string_view> args,
                        const std::string& input = "") {
  std::istringstream in(input);
  std::ostringstream out, err;
  const int code = run_cli(args, in, out, err, environment);
  return {code, out.str(), err.str()};
}

// A folder of its own for one test, removed afterwards.
struct CliFolder {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("ioiwari-cli-" + std::to_string(::getpid()));
  CliFolder() { std::filesystem::create_directories(path); }
  ~CliFolder() { std::filesystem::remove_all(path); }
};

}  // namespace ioiwari::test
