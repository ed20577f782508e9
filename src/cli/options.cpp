#include "ioiwari/cli/options.hpp"

#include <algorithm>
#include <ostream>

#include "ioiwari/cli/commands.hpp"
#include "ioiwari/input/token.hpp"
#include "textio/wrap.hpp"

namespace ioiwari::cli {

namespace {

// What an option's value must be, for its messages: "a number 1 to 13", "FILE".
std::string value_wanted(const Option& option) {
  switch (option.value) {
    case Value::integer:
      return "a number " + std::to_string(option.low) + " to " + std::to_string(option.high);
    case Value::choice: {
      std::string names;
      for (std::size_t i = 0; i < option.choices.size(); ++i) {
        names += i == 0 ? "" : i + 1 == option.choices.size() ? " or " : ", ";
        names += option.choices[i];
      }
      return names;
    }
    case Value::list: {
      std::string names;
      for (std::string_view choice : option.choices)
        names += std::string(choice) + ", ";
      return names + "or all";
    }
    case Value::range:
      return std::string(option.value_name) + ", counts " + std::to_string(option.low) + " to " +
             std::to_string(option.high) + " with A at most B";
    case Value::text:
    case Value::none:
      break;
  }
  return std::string(option.value_name);
}

// The two ends of a range's value, when it is one: "A..B" of whole numbers in the option's
// bounds, A at most B.
std::optional<std::pair<long long, long long>> range_of(const Option& option,
                                                        std::string_view text) {
  const auto dots = text.find("..");
  if (dots == std::string_view::npos) return std::nullopt;
  const Number low = parse_number(text.substr(0, dots));
  const Number high = parse_number(text.substr(dots + 2));
  const auto fits = [&](const Number& end) {
    return end.kind == Number::Kind::integer && end.value >= option.low && end.value <= option.high;
  };
  if (!fits(low) || !fits(high) || low.value > high.value) return std::nullopt;
  return std::pair{low.value, high.value};
}

// The items of a list's value ("all": every choice), or the first item that is no choice.
struct Items {
  std::vector<std::string> items;
  std::optional<std::string> unknown;
};
Items items_of(const Option& option, std::string_view text) {
  Items found;
  if (text == "all") {
    for (std::string_view choice : option.choices)
      found.items.emplace_back(choice);
    return found;
  }
  while (true) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    if (std::find(option.choices.begin(), option.choices.end(), item) == option.choices.end()) {
      found.unknown = std::string(item);
      return found;
    }
    found.items.emplace_back(item);
    if (comma == std::string_view::npos) return found;
    text = text.substr(comma + 1);
  }
}

bool is_help(std::string_view arg) {
  return arg == "--help" || arg == "-h";
}

// Whether `arg` reads as a number, as an operand may be ("-3" on analyze's line).
bool numeric(std::string_view arg) {
  return parse_number(arg).kind != Number::Kind::not_integer;
}

}  // namespace

std::vector<const Option*> options_of(const Command& command) {
  std::vector<const Option*> all;
  for (const Option& option : command.options)
    all.push_back(&option);
  for (const OptionGroup& group : option_groups()) {
    if (!command.takes(group.group)) continue;
    for (const Option& option : group.options)
      all.push_back(&option);
  }
  return all;
}

Parsed::Parsed(const Command& command, std::span<const std::string_view> args)
    : command_(&command) {
  const std::vector<const Option*> known = options_of(command);
  // --help anywhere among the options asks for help, whatever else is wrong.
  for (std::string_view arg : args) {
    if (arg == "--") break;
    if (is_help(arg)) {
      help_ = true;
      return;
    }
  }
  bool options_done = false;
  for (std::size_t at = 0; at < args.size(); ++at) {
    const std::string_view arg = args[at];
    const bool operand = options_done || !arg.starts_with('-') || arg == "-" ||
                         (command.operands == Operands::words && numeric(arg));
    if (operand) {
      if (command.operands == Operands::none) {
        throw UsageError("unexpected operand '" + std::string(arg) + "'");
      }
      operands_.emplace_back(arg);
      // A command's operands are a program and its arguments: all of the rest is theirs.
      if (command.operands == Operands::command) options_done = true;
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    // "--name value" or "--name=value".
    const auto equals = arg.find('=');
    const std::string_view name = arg.substr(0, equals);
    const auto found = std::find_if(known.begin(), known.end(),
                                    [&](const Option* option) { return option->name == name; });
    if (found == known.end()) throw UsageError("unknown option '" + std::string(name) + "'");
    const Option& option = **found;
    if (values_.contains(name) && !option.repeatable) {
      throw UsageError(std::string(name) + " is given twice");
    }
    std::optional<std::string_view> value;
    if (equals != std::string_view::npos) {
      value = arg.substr(equals + 1);
    } else if (option.value != Value::none && at + 1 < args.size()) {
      value = args[++at];
    }
    if (option.value == Value::none) {
      if (value) throw UsageError(std::string(name) + " takes no value");
      values_.emplace(name, "");
      continue;
    }
    const std::string wanted = std::string(name) + " needs " + value_wanted(option);
    if (!value || value->empty()) throw UsageError(wanted);
    if (option.value == Value::integer) {
      const Number number = parse_number(*value);
      if (number.kind != Number::Kind::integer || number.value < option.low ||
          number.value > option.high) {
        throw UsageError(wanted + ", not " + textio::quoted(*value));
      }
    }
    if (option.value == Value::choice &&
        std::find(option.choices.begin(), option.choices.end(), *value) == option.choices.end()) {
      throw UsageError(std::string(name) + " is one of " + value_wanted(option) + ", not " +
                       textio::quoted(*value));
    }
    if (option.value == Value::range && !range_of(option, *value)) {
      throw UsageError(wanted + ", not " + textio::quoted(*value));
    }
    if (option.value == Value::list) {
      if (const auto unknown = items_of(option, *value).unknown) {
        throw UsageError(std::string(name) + ": " + textio::quoted(*unknown) + " is not one of " +
                         value_wanted(option));
      }
    }
    values_.insert_or_assign(std::string(name), std::string(*value));
    if (option.repeatable) repeated_[std::string(name)].emplace_back(*value);
  }
  for (const Option* option : known) {
    if (option->required && !given(option->name)) {
      throw UsageError("needs " + std::string(option->name) + " " +
                       std::string(option->value_name) + ": " + std::string(option->help));
    }
  }
  for (const Conflict& conflict : command.conflicts) {
    if (given(conflict.a) && given(conflict.b)) {
      throw UsageError(std::string(conflict.a) + " and " + std::string(conflict.b) +
                       " do not go together");
    }
  }
  if (command.operands == Operands::one && operands_.size() != 1) {
    if (operands_.empty()) throw UsageError("needs " + std::string(command.operands_name));
    throw UsageError("takes one " + std::string(command.operands_name) + ", got '" + operands_[1] +
                     "' too");
  }
  if (command.operands == Operands::command && operands_.empty()) {
    throw UsageError("needs " + std::string(command.operands_name) + ", after --");
  }
}

const Option& Parsed::declared(std::string_view name) const {
  for (const Option* option : options_of(*command_)) {
    if (option->name == name) return *option;
  }
  throw std::logic_error("ioiwari: no option " + std::string(name) + " is declared for '" +
                         std::string(command_->name) + "'");
}

std::optional<long long> Parsed::number(std::string_view name) const {
  const Option& option = declared(name);
  const auto given = values_.find(name);
  if (given == values_.end()) return option.preset;
  const Number number = parse_number(given->second);
  if (number.kind != Number::Kind::integer) return std::nullopt;
  return number.value;
}

std::optional<std::vector<std::string>> Parsed::list(std::string_view name) const {
  const Option& option = declared(name);
  const auto given = values_.find(name);
  const std::string_view text =
      given != values_.end() ? std::string_view(given->second) : option.fallback;
  if (text.empty()) return std::nullopt;
  return items_of(option, text).items;
}

std::optional<std::pair<long long, long long>> Parsed::range(std::string_view name) const {
  const Option& option = declared(name);
  const auto given = values_.find(name);
  if (given == values_.end()) return std::nullopt;
  return range_of(option, given->second);
}

std::optional<std::string> Parsed::text(std::string_view name) const {
  const Option& option = declared(name);
  if (const auto given = values_.find(name); given != values_.end()) return given->second;
  if (option.fallback.empty()) return std::nullopt;
  return std::string(option.fallback);
}

std::vector<std::string> Parsed::texts(std::string_view name) const {
  declared(name);
  const auto given = repeated_.find(name);
  return given != repeated_.end() ? given->second : std::vector<std::string>{};
}

std::string Invocation::where() const {
  const std::string_view name = parsed.command().name;
  return name.empty() ? std::string() : std::string(name) + ": ";
}

void Invocation::complain(std::string_view what) const {
  err << parsed.command().program << ": " << where() << what << '\n';
}

std::string synopsis(const Command& command) {
  std::string line(command.program);
  if (!command.name.empty()) line.append(" ").append(command.name);
  const auto shown = [](const Option& option) {
    std::string text(option.name);
    if (!option.value_name.empty()) text.append(" ").append(option.value_name);
    return text;
  };
  // The command's own options, then those of the untitled groups it takes.
  std::vector<const Option*> own;
  for (const Option& option : command.options)
    own.push_back(&option);
  for (const OptionGroup& group : option_groups()) {
    if (!command.takes(group.group) || !group.title.empty()) continue;
    for (const Option& option : group.options)
      own.push_back(&option);
  }
  std::vector<std::string_view> done;
  // A long list of options is shown as one word; help lists them.
  constexpr std::size_t kMostShown = 6;
  if (own.size() > kMostShown) line += " [OPTIONS]";
  for (const Option* option : own) {
    if (own.size() > kMostShown) break;
    if (std::find(done.begin(), done.end(), option->name) != done.end()) continue;
    std::string alternatives = shown(*option);
    // Options that do not go together are shown as one choice.
    for (const Conflict& conflict : command.conflicts) {
      if (conflict.a != option->name) continue;
      for (const Option* other : own) {
        if (other->name == conflict.b) alternatives.append(" | ").append(shown(*other));
      }
      done.push_back(conflict.b);
    }
    line += option->required ? " " + alternatives : " [" + alternatives + "]";
  }
  for (const OptionGroup& group : option_groups()) {
    if (!command.takes(group.group) || group.title.empty()) continue;
    std::string title(group.title);
    std::transform(title.begin(), title.end(), title.begin(),
                   [](char c) { return static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c); });
    line += " [" + title + "]";
  }
  if (command.operands == Operands::command) line += " --";
  if (!command.operands_name.empty()) line += " " + std::string(command.operands_name);
  return line;
}

namespace {

// Indents every line of `text` after the first by `indent` spaces.
std::string indented(const std::string& text, std::size_t indent) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '\n') out.append(indent, ' ');
  }
  return out;
}

// "  --pits N            pits on the ring, 3 to 16 (default 7)", the help wrapped under its
// column.
void write_option(std::ostream& out, const Option& option, std::size_t width) {
  constexpr std::size_t kColumn = 22;
  std::string head = "  ";
  head.append(option.name);
  if (!option.value_name.empty()) head.append(" ").append(option.value_name);
  std::string help(option.help);
  std::string notes;
  if (option.value == Value::integer) {
    notes = std::to_string(option.low) + " to " + std::to_string(option.high);
  }
  if (option.value == Value::choice) notes = value_wanted(option);
  if (option.preset) {
    notes += (notes.empty() ? "default " : ", default ") + std::to_string(*option.preset);
  } else if (!option.fallback.empty()) {
    notes += (notes.empty() ? "default " : ", default ") + std::string(option.fallback);
  }
  if (option.required) notes = "required";
  if (option.repeatable) notes += notes.empty() ? "may be repeated" : ", may be repeated";
  if (!notes.empty()) help += " (" + notes + ")";
  if (head.size() + 2 > kColumn) {
    out << head << '\n' << std::string(kColumn, ' ');
  } else {
    out << head << std::string(kColumn - head.size(), ' ');
  }
  out << indented(textio::wrap(help, width - kColumn), kColumn) << '\n';
}

}  // namespace

void write_options(std::ostream& out, std::span<const Option> options, int width) {
  for (const Option& option : options)
    write_option(out, option, static_cast<std::size_t>(width));
}

void write_exits(std::ostream& out, std::span<const Exit> exits, int width) {
  const auto columns = static_cast<std::size_t>(width);
  out << "Exit status:\n";
  for (const Exit& exit : exits) {
    const std::string code = std::to_string(exit.status);
    out << "  " << code << std::string(code.size() < 5 ? 5 - code.size() : 1, ' ')
        << indented(textio::wrap(exit.meaning, columns - 7), 7) << '\n';
  }
}

void write_help(std::ostream& out, const Command& command, int width) {
  const auto columns = static_cast<std::size_t>(width);
  out << textio::wrap("usage: " + synopsis(command), columns, 7) << "\n\n"
      << textio::wrap(std::string(command.summary) + ".", columns) << "\n\n";
  if (!command.details.empty()) out << textio::wrap(command.details, columns) << "\n\n";
  // The command's own options, and those of the untitled groups it takes (--json, --quiet).
  bool listed = false;
  const auto list = [&](std::span<const Option> options) {
    if (options.empty()) return;
    if (!listed) out << "Options:\n";
    listed = true;
    write_options(out, options, width);
  };
  list(command.options);
  for (const OptionGroup& group : option_groups()) {
    if (command.takes(group.group) && group.title.empty()) list(group.options);
  }
  for (const OptionGroup& group : option_groups()) {
    if (!command.takes(group.group) || group.title.empty()) continue;
    out << '\n'
        << textio::wrap(std::string(group.title) + ": " + std::string(group.about), columns)
        << '\n';
    write_options(out, group.options, width);
  }
  if (!command.exits.empty()) {
    out << '\n';
    write_exits(out, command.exits, width);
  }
}

}  // namespace ioiwari::cli
