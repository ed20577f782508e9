// `ioiwari help`, and the overview that `ioiwari --help` prints.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ostream>

#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/environment.hpp"
#include "ioiwari/input/exit_code.hpp"
#include "textio/wrap.hpp"

namespace ioiwari::cli {

int written(Invocation& call, int status) {
  call.out.flush();
  if (call.out) return status;
  const int error = call.environment.output_error();
  // A reader that went away (`ioiwari starts | head`) wanted no more: the status says so, and
  // nothing is said, as grep and ls say nothing. Any other failure is said.
  if (error != EPIPE) {
    call.complain("cannot write standard output" +
                  (error != 0 ? ": " + std::string(std::strerror(error)) : std::string()));
  }
  return to_int(ExitCode::output_closed);
}

void print(Invocation& call, const std::string& text) {
  call.out << textio::fit(text, static_cast<std::size_t>(std::max(call.environment.columns, 20)));
}

void write_overview(std::ostream& out, int width) {
  const auto columns = static_cast<std::size_t>(width);
  const char* label = "usage: ";
  for (const Command& command : commands()) {
    out << textio::wrap(label + synopsis(command), columns, 7) << '\n';
    label = "       ";
  }
  const Command& player = commands().front();
  out << label << "ioiwari --help | --version\n\n"
      << "ioiwari: the perfect player of Ioiwari, the mancala game of IOI 2001.\n\n"
      << "With no arguments it plays player 1 over standard input and output.\n"
      << textio::wrap(player.details, columns) << "\n\n";
  write_options(out, player.options, width);
  out << '\n';
  write_exits(out, player.exits, width);
  out << "\nCommands:\n";
  for (const Command& command : commands()) {
    if (command.name.empty()) continue;
    const std::string item =
        "  " + std::string(command.name) +
        std::string(command.name.size() < 8 ? 10 - command.name.size() : 2, ' ');
    out << textio::hanging(item, command.summary, columns) << '\n';
  }
  // The groups many commands share, by their titles; the untitled ones (--json, --quiet) are
  // each command's own and are listed in its help.
  for (const OptionGroup& group : option_groups()) {
    if (group.title.empty()) continue;
    out << '\n'
        << textio::wrap(std::string(group.title) + ": " + std::string(group.about), columns)
        << '\n';
    write_options(out, group.options, width);
  }
  out << "\n'ioiwari help COMMAND' or 'ioiwari COMMAND --help' prints a command's options.\n";
}

int run_help(Invocation& call) {
  const auto& words = call.parsed.operands();
  const int width = call.environment.columns;
  if (words.empty()) {
    write_overview(call.out, width);
    return written(call, to_int(ExitCode::ok));
  }
  if (words.size() > 1) throw UsageError("one command at a time, got '" + words[1] + "'");
  const Command* command = words.front().empty() ? nullptr : find_command(words.front());
  if (command == nullptr) throw UsageError("no command '" + words.front() + "'");
  write_help(call.out, *command, width);
  return written(call, to_int(ExitCode::ok));
}

}  // namespace ioiwari::cli
