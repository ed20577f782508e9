// The command line of `ioiwari`: parses the arguments and hands over to a front end.
#pragma once

#include <iosfwd>
#include <span>
#include <string_view>

#include "ioiwari/cli/environment.hpp"

namespace ioiwari {

namespace cli {
struct Command;
}

// Runs the command named by `args` (without the program name) and returns its exit status
// (see exit_code.hpp). Diagnostics go to `err`, one line each, prefixed "ioiwari: ".
int run_cli(std::span<const std::string_view> args, std::istream& in, std::ostream& out,
            std::ostream& err, const Environment& environment = {});

// Runs `command` (of any program: ioiwari's, or another's declared the same way) on the words
// after its name: its help when asked for, a usage error (status 2) or a refused table file
// (status 7) as one line, else its own status.
int run_command(const cli::Command& command, std::span<const std::string_view> args,
                std::istream& in, std::ostream& out, std::ostream& err,
                const Environment& environment = {});

}  // namespace ioiwari
