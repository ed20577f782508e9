// ioiwari: parses nothing itself; see cli.cpp.
#include <unistd.h>

#include <csignal>
#include <exception>
#include <iostream>
#include <string_view>
#include <vector>

#include "ioiwari/cli/cli.hpp"
#include "ioiwari/cli/environment.hpp"
#include "ioiwari/core/exit_code.hpp"

int main(int argc, char** argv) {
  // A reader that goes away must give us EPIPE on write, not kill us with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    ioiwari::FileOutput output(STDOUT_FILENO);
    std::ostream out(&output);
    ioiwari::Environment environment = ioiwari::Environment::of_process();
    environment.output_error = [&output] { return output.error(); };
    return ioiwari::run_cli(args, std::cin, out, std::cerr, environment);
  } catch (const std::exception& error) {
    std::cerr << "ioiwari: internal error: " << error.what() << '\n';
    return ioiwari::to_int(ioiwari::ExitCode::failure);
  }
}
