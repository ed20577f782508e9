#include "ioiwari/cli/cli.hpp"

#include <ostream>

#include "ioiwari/cli/commands.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/input/exit_code.hpp"

#ifndef IOIWARI_VERSION
#define IOIWARI_VERSION "unknown"
#endif

namespace ioiwari {

int run_cli(std::span<const std::string_view> args, std::istream& in, std::ostream& out,
            std::ostream& err, const Environment& environment) {
  using namespace cli;
  // The first word names a command; anything else (nothing, or an option) is the player's.
  const Command* command = nullptr;
  std::span<const std::string_view> rest = args;
  if (!args.empty()) {
    if (args.size() == 1 && args.front() == "--version") {
      out << "ioiwari " << IOIWARI_VERSION << '\n' << std::flush;
      return out ? to_int(ExitCode::ok) : to_int(ExitCode::output_closed);
    }
    if (!args.front().starts_with('-')) {
      command = find_command(args.front());
      if (command == nullptr || command->name.empty()) {
        err << "ioiwari: unknown command '" << args.front()
            << "'\nTry 'ioiwari --help' for the commands.\n";
        return to_int(ExitCode::usage);
      }
      rest = args.subspan(1);
    }
  }
  return run_command(command != nullptr ? *command : *find_command(""), rest, in, out, err,
                     environment);
}

int run_command(const cli::Command& chosen, std::span<const std::string_view> rest,
                std::istream& in, std::ostream& out, std::ostream& err,
                const Environment& environment) {
  using namespace cli;
  const std::string program(chosen.program);
  const std::string where = chosen.name.empty() ? "" : std::string(chosen.name) + ": ";
  // Where to look next: the command's help, or for `help` (whose mistake is a command's name)
  // the list of the commands.
  const bool about_commands = chosen.name == "help";
  const std::string again = chosen.name.empty() || about_commands
                                ? program + " --help"
                                : program + " " + std::string(chosen.name) + " --help";
  try {
    const Parsed parsed(chosen, rest);
    Invocation call{parsed, in, out, err, environment};
    if (parsed.asks_for_help()) {
      // The player's help is the overview of every command.
      if (chosen.name.empty()) {
        write_overview(out, environment.columns);
      } else {
        write_help(out, chosen, environment.columns);
      }
      return written(call, to_int(ExitCode::ok));
    }
    return chosen.run(call);
  } catch (const UsageError& error) {
    err << program << ": " << where << error.what() << "\nTry '" << again
        << (about_commands ? "' for the commands.\n" : "' for its options.\n");
    return to_int(ExitCode::usage);
  } catch (const TableError& error) {
    // A table file refused when it was opened, or found damaged or changed by a look-up.
    err << program << ": " << where << error.what() << '\n';
    return to_int(ExitCode::bad_table);
  }
}

}  // namespace ioiwari
