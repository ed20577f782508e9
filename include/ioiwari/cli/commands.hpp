// Every command of `ioiwari`, declared in one table (commands.cpp): its options, what follows
// them, the options that do not go together, its exit statuses, and the function that runs it.
// Parsing, usage errors and help all come from the table; the tests hold the manual page and
// the bash completion to it.
#pragma once

#include <span>
#include <string_view>

#include "ioiwari/cli/options.hpp"
#include "ioiwari/core/table_format.hpp"

namespace ioiwari::cli {

// Every command, the player (the empty name) first, in the order the overview lists them.
std::span<const Command> commands();

// The command named `name` ("" for the player), or null.
const Command* find_command(std::string_view name);

// The groups of options several commands share.
std::span<const OptionGroup> option_groups();

// The options and exit statuses of `ioiwari solve` that a distributed solve shares: all but
// --memory and --work, which are the solve past memory's, on one machine.
std::span<const Option> solve_options();
std::span<const Exit> solve_exits();
// The table file format a solve's command line asks for (--format).
TableFormat written_format(const Parsed& parsed);

// The functions that run the commands, one a command (a file of its own each, or a few close
// ones together); each returns its exit status.
int run_player(Invocation& call);
int run_play(Invocation& call);
int run_opponent(Invocation& call);
int run_referee(Invocation& call);
int run_analyze(Invocation& call);
int run_starts(Invocation& call);
int run_bench(Invocation& call);
int run_solve(Invocation& call);
int run_verify(Invocation& call);
int run_convert(Invocation& call);
int run_help(Invocation& call);
int run_interact(Invocation& call);
int run_manage(Invocation& call);
int run_validate(Invocation& call);
int run_package(Invocation& call);

// Flushes what a command wrote on standard output, and returns `status`; or, when standard
// output could not be written, says so in one line and returns the exit status for it (6).
int written(Invocation& call, int status);

// Writes a command's report for people on standard output, each line wider than the terminal
// (80 columns where it is none) wrapped at spaces; lines that fit, a table's rows, as they are.
void print(Invocation& call, const std::string& text);

// The overview: every usage line, what ioiwari is, the commands with their summaries, the
// shared options, and how to get a command's help.
void write_overview(std::ostream& out, int width = 80);

}  // namespace ioiwari::cli
