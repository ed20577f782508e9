// What `ioiwari --help`, `ioiwari help [COMMAND]` and `ioiwari COMMAND --help` print: every
// command's usage, summary and options, written once. The man page (src/man/ioiwari.1) says
// the same in roff, and a test checks that it names every command listed here.
#pragma once

#include <iosfwd>
#include <span>
#include <string_view>

namespace ioiwari {

struct CommandHelp {
  std::string_view name;      // the word after `ioiwari`; empty for the player itself
  std::string_view synopsis;  // its usage line, starting "ioiwari"
  std::string_view summary;   // one line, for the overview
  std::string_view details;   // what it does, its options and its exit status
};

// Every command, the player first, in the order the overview lists them.
std::span<const CommandHelp> commands();

// The command named `name` ("" for the player), or null.
const CommandHelp* find_command(std::string_view name);

// The usage lines of every command, as after a mistake that names no command.
void write_usage(std::ostream& out);

// The overview: every usage line, what ioiwari is, the commands with their summaries, and how
// to get a command's options.
void write_overview(std::ostream& out);

// One command's usage, summary and details.
void write_command_help(std::ostream& out, const CommandHelp& command);

}  // namespace ioiwari
