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
#include <utility>
#include <vector>

#include "ioiwari/core/board.hpp"
#include "ioiwari/core/ring.hpp"

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

// The start in an option's text (ring.pits counts), or nothing with `error` saying what is
// wrong.
std::optional<Board> start_from(std::string_view text, Ring ring, std::string& error);

// The whole number in an option's value, within [low, high]; nothing for anything else.
std::optional<long long> number_from(std::optional<std::string_view> text, long long low,
                                     long long high);

// "COMMAND: OPTION needs a number LOW to HIGH, not "TEXT"".
std::string range_error(std::string_view command, std::string_view option, long long low,
                        long long high, std::optional<std::string_view> text);

inline constexpr long long kMaxSeed = std::numeric_limits<long long>::max();

// --pits, --capacity, --start-beads, --start-range and --table: the ring a command plays and
// where its table comes from. Every command but help takes them; without them it is the IOI's.
struct RingOptions {
  Ring ring;
  std::optional<int> start_beads;
  std::optional<std::pair<int, int>> start_range;  // A..B
  std::optional<std::string> table;                // a table file to map instead of solving
  bool takes_table = true;                         // whether the command accepts --table

  // Takes `arg` (with its value from `args`) when it is one of these options, and says so;
  // `error` is set when its value is wrong.
  bool take(std::string_view command, std::string_view arg, Arguments& args, std::string& error);

  // Whether any of them was given: the ring is then not the IOI's default.
  bool given() const { return given_; }

  // The rule of the ring's starts: its defaults, with what was given.
  StartRule start_rule() const;

  // Why no board of the ring is a start under start_rule(), naming the option to change;
  // nothing when the rule fits.
  std::optional<std::string> start_problem(std::string_view command) const;

 private:
  bool given_ = false;
};

// --start and --seed, which play and opponent share. The start's counts are read once the
// ring is known (its options may come after --start).
struct StartOptions {
  std::optional<std::string> start_text;
  std::optional<std::uint64_t> seed;

  // Takes `arg` (with its value from `args`) when it is one of these options, and says so;
  // `error` is set when its value is wrong.
  bool take(std::string_view command, std::string_view arg, Arguments& args, std::string& error);

  // The start given with --start, read as a board of `ring`; nothing without --start, or with
  // `error` set when it is not one.
  std::optional<Board> start(std::string_view command, Ring ring, std::string& error) const;
};

// One of `starts` (which must not be empty), drawn by `seed` (by the system's random device
// without one).
Board random_start(const std::vector<Board>& starts, std::optional<std::uint64_t> seed);

}  // namespace ioiwari
