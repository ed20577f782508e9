// The names of every option of ioiwari's commands, each written once: the command table
// (commands.cpp, its options in command_options.hpp) declares its options with them, and the
// commands ask for their values by them, so that a misspelt name is a compile error, not a run-time
// one.
#pragma once

#include <string_view>

namespace ioiwari::cli::opt {

inline constexpr std::string_view capacity = "--capacity";
inline constexpr std::string_view classes = "--classes";
inline constexpr std::string_view dir = "--dir";
inline constexpr std::string_view disk = "--disk";
inline constexpr std::string_view env = "--env";
inline constexpr std::string_view exit_time = "--exit-time";
inline constexpr std::string_view fsize = "--fsize";
inline constexpr std::string_view first = "--first";
inline constexpr std::string_view format = "--format";
inline constexpr std::string_view game_time = "--game-time";
inline constexpr std::string_view isolate = "--isolate";
inline constexpr std::string_view jobs = "--jobs";
inline constexpr std::string_view json = "--json";
inline constexpr std::string_view max_line = "--max-line";
inline constexpr std::string_view memory = "--memory";
inline constexpr std::string_view move_time = "--move-time";
inline constexpr std::string_view negamax = "--negamax";
inline constexpr std::string_view no_cgroups = "--no-cgroups";
inline constexpr std::string_view no_color = "--no-color";
inline constexpr std::string_view no_data_limit = "--no-data-limit";
inline constexpr std::string_view no_isolate = "--no-isolate";
inline constexpr std::string_view out = "--out";
inline constexpr std::string_view pits = "--pits";
inline constexpr std::string_view processes = "--processes";
inline constexpr std::string_view quiet = "--quiet";
inline constexpr std::string_view record = "--record";
inline constexpr std::string_view replay = "--replay";
inline constexpr std::string_view runs = "--runs";
inline constexpr std::string_view second = "--second";
inline constexpr std::string_view seed = "--seed";
inline constexpr std::string_view show = "--show";
inline constexpr std::string_view start = "--start";
inline constexpr std::string_view start_beads = "--start-beads";
inline constexpr std::string_view start_range = "--start-range";
inline constexpr std::string_view starts = "--starts";
inline constexpr std::string_view strategy = "--strategy";
inline constexpr std::string_view table = "--table";
inline constexpr std::string_view trust_table = "--trust-table";
inline constexpr std::string_view user = "--user";
inline constexpr std::string_view wall_factor = "--wall-factor";
inline constexpr std::string_view work = "--work";

}  // namespace ioiwari::cli::opt
