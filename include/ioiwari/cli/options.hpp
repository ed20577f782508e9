// A command's options, declared once: the declaration (Option, Command) says each option's
// name, value and range, default and help, and the parsing, the usage errors and the help text
// all come from it. The commands themselves are declared in commands.cpp, their options in
// command_options.hpp.
#pragma once

#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ioiwari {

struct Environment;

namespace cli {

// What an option's value is.
enum class Value {
  none,     // a flag: no value
  integer,  // a whole number from `low` to `high`
  text,     // any text but the empty one (a file, the counts of a start)
  choice,   // one of `choices`
  list,     // some of `choices`, separated by commas, or "all" of them
  range,    // "A..B": whole numbers from `low` to `high`, A at most B
};

struct Option {
  std::string_view name;        // "--pits"
  std::string_view value_name;  // "N", as help shows the value; empty for a flag
  Value value = Value::none;
  std::string_view help;  // what it does, one sentence; help wraps it
  // Its default as help shows it, for a default that is no number (a text, or one that
  // depends on other options, "3N-1"); empty: none, or said in `help`.
  std::string_view fallback{};
  long long low = 0, high = 0;                  // for an integer or a range
  std::span<const std::string_view> choices{};  // for a choice or a list
  bool required = false;                        // the command cannot run without it
  // An integer's default, taken from the struct whose field the option sets (RefereeLimits{},
  // Ring::ioi(), ...), so that the two cannot differ; help shows it.
  std::optional<long long> preset{};
  bool repeatable = false;  // may be given more than once: texts() has every value
};

// The options several commands share, each declared once (command_options.hpp).
enum class Group : unsigned {
  ring = 1,   // the ring and its starts: --pits, --capacity, --start-beads, --start-range
  table = 2,  // --table FILE
  json = 4,   // --json: the output as one JSON object
  quiet = 8,  // --quiet: no progress line
};
constexpr unsigned operator|(Group a, Group b) {
  return static_cast<unsigned>(a) | static_cast<unsigned>(b);
}

struct OptionGroup {
  Group group;
  std::string_view title;  // "Ring", in help; empty: listed with the command's own options
  std::string_view about;  // what help says before the group's options
  std::span<const Option> options;
};

// What follows a command's options.
enum class Operands {
  none,    // nothing
  words,   // any words, numbers that start with '-' included (analyze's board)
  one,     // exactly one word (verify's FILE)
  command  // a program and its arguments, after "--" or the first word that is no option
};

// Two options that do not go together.
struct Conflict {
  std::string_view a, b;
};

// An exit status a command may end with, and what it means.
struct Exit {
  int status;
  std::string_view meaning;
};

struct Invocation;

struct Command {
  std::string_view name;     // the word after `ioiwari`; empty for the player itself
  std::string_view summary;  // one line, for the overview
  std::string_view details;  // what it does, in prose; help wraps it
  std::span<const Option> options{};
  unsigned groups = 0;  // the shared groups it takes (Group bits)
  Operands operands = Operands::none;
  std::string_view operands_name{};  // how usage shows them: "P1 ... PN | CODE"
  std::span<const Conflict> conflicts{};
  std::span<const Exit> exits{};
  int (*run)(Invocation&) = nullptr;
  std::string_view program = "ioiwari";  // the program whose command it is

  bool takes(Group group) const { return (groups & static_cast<unsigned>(group)) != 0; }
};

// A mistake on the command line, found while parsing or later (a ring that cannot be played):
// one line, which names the option. The command line is then refused with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Every option `command` takes: its own, then its groups', in help's order.
std::vector<const Option*> options_of(const Command& command);

// A command's line, parsed against its declaration: which options were given with which
// values, and the operands. Throws UsageError for an unknown option, a missing or bad value, an
// option given twice, two that conflict, or operands the command does not take.
class Parsed {
 public:
  Parsed(const Command& command, std::span<const std::string_view> args);

  const Command& command() const { return *command_; }
  // Whether --help or -h was among the options.
  bool asks_for_help() const { return help_; }
  // Whether the option was given (for a flag, whether it is set).
  bool given(std::string_view name) const { return values_.contains(name); }
  // An integer option's value, or its declared default, or nothing.
  std::optional<long long> number(std::string_view name) const;
  // A text or choice option's value, or its declared default, or nothing.
  std::optional<std::string> text(std::string_view name) const;
  // A list option's values, in the order given ("all": every choice, in the declared order), or
  // its declared default's, or nothing.
  std::optional<std::vector<std::string>> list(std::string_view name) const;
  // Every value of a repeatable option, in the order given.
  std::vector<std::string> texts(std::string_view name) const;
  // A range option's two ends, or nothing.
  std::optional<std::pair<long long, long long>> range(std::string_view name) const;
  const std::vector<std::string>& operands() const { return operands_; }

 private:
  const Option& declared(std::string_view name) const;
  const Command* command_;
  std::map<std::string, std::string, std::less<>> values_;
  std::map<std::string, std::vector<std::string>, std::less<>> repeated_;
  std::vector<std::string> operands_;
  bool help_ = false;
};

// What a command runs with: its parsed line, its streams, and where it runs.
struct Invocation {
  const Parsed& parsed;
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  const Environment& environment;

  // "play: " (empty for the player): what a message about this command starts with, after
  // "ioiwari: ".
  std::string where() const;
  // Writes "ioiwari: WHERE`what`" as one line on standard error.
  void complain(std::string_view what) const;
};

// Help, from the declarations: a command's usage line, and its whole help; and the pieces of it,
// options and exit statuses, that the overview shows too.
std::string synopsis(const Command& command);
void write_help(std::ostream& out, const Command& command, int width = 80);
void write_options(std::ostream& out, std::span<const Option> options, int width = 80);
void write_exits(std::ostream& out, std::span<const Exit> exits, int width = 80);

}  // namespace cli
}  // namespace ioiwari
