// Reading a command's arguments: the walk through them, numbers and starts in option values,
// and the one-line messages of a command-line mistake.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ioiwari/board.hpp"

namespace ioiwari {

// Walks the arguments of one command. `option` is the one taken last, for messages.
class Arguments {
 public:
  explicit Arguments(std::span<const std::string_view> args) : args_(args) {}
  bool done() const { return at_ == args_.size(); }
  std::string_view take() { return option_ = args_[at_++]; }
  // The next argument as the value of the option just taken; nothing when there is none.
  std::optional<std::string_view> value() {
    if (done()) return std::nullopt;
    return args_[at_++];
  }
  std::span<const std::string_view> rest() const { return args_.subspan(at_); }
  std::string_view option() const { return option_; }

 private:
  std::span<const std::string_view> args_;
  std::size_t at_ = 0;
  std::string_view option_;
};

// Whether `arg` asks for help: --help or -h.
inline bool asks_for_help(std::string_view arg) {
  return arg == "--help" || arg == "-h";
}

// A command-line mistake: "ioiwari: WHAT" on `err`, then the usage of `command` (the name after
// `ioiwari`; every command's when it is empty), and the usage exit status.
int usage_error(std::ostream& err, std::string_view what, std::string_view command = {});

// Prints `command`'s help on `out`: exit status 0, or 6 when the output is closed.
int command_help(std::ostream& out, std::string_view command);

// The start in an option's text (7 counts), or nothing with `error` saying what is wrong.
std::optional<Board> start_from(std::string_view text, std::string& error);

// The whole number in an option's value, within [low, high]; nothing for anything else.
std::optional<long long> number_from(std::optional<std::string_view> text, long long low,
                                     long long high);

// "COMMAND: OPTION needs a number LOW to HIGH, not "TEXT"".
std::string range_error(std::string_view command, std::string_view option, long long low,
                        long long high, std::optional<std::string_view> text);

inline constexpr long long kMaxSeed = std::numeric_limits<long long>::max();

// --start and --seed, which play and opponent share.
struct StartOptions {
  std::optional<Board> start;
  std::optional<std::uint64_t> seed;

  // Takes `arg` (with its value from `args`) when it is one of these options, and says so;
  // `error` is set when its value is wrong.
  bool take(std::string_view command, std::string_view arg, Arguments& args, std::string& error);
};

// One of the IOI starts, drawn by `seed` (by the system's random device without one).
Board random_start(std::optional<std::uint64_t> seed);

}  // namespace ioiwari
