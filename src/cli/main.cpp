// ioiwari: parses nothing itself; see cli.cpp.
#include <csignal>
#include <exception>
#include <iostream>
#include <string_view>
#include <vector>

#include "ioiwari/cli/cli.hpp"
#include "ioiwari/cli/environment.hpp"
#include "ioiwari/input/exit_code.hpp"

int main(int argc, char** argv) {
  // A reader that goes away must give us EPIPE on write, not kill us with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    std::vector<std::string_view> args(argv + 1, argv + argc);
    // CMS runs a Communication task's manager as ./manager FROM_USER TO_USER, and gives it no
    // command: under that name ioiwari is `ioiwari manage` (docs/judging.md).
    const std::string_view name = argc > 0 ? std::string_view(argv[0]) : std::string_view();
    if (name == "manager" || name.ends_with("/manager")) args.insert(args.begin(), "manage");
    ioiwari::ProcessOutput process;
    return ioiwari::run_cli(args, std::cin, process.out, std::cerr, process.environment);
  } catch (const std::exception& error) {
    std::cerr << "ioiwari: internal error: " << error.what() << '\n';
    return ioiwari::to_int(ioiwari::ExitCode::failure);
  }
}
