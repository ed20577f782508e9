// The manual page and the bash completion are written by hand; the command table
// (src/cli/commands.cpp) is the truth they are held to here. Adding an option to the table
// without adding it to both fails one of these tests.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>

#include "catch.hpp"
#include "ioiwari/cli/commands.hpp"

using namespace ioiwari::cli;

namespace {

std::string read(const std::string& path) {
  std::ifstream file(path);
  REQUIRE(file);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

// An option as roff writes it: "\-\-pits".
std::string roff(std::string_view option) {
  std::string text;
  for (char c : option)
    text += c == '-' ? std::string("\\-") : std::string(1, c);
  return text;
}

// The part of the page between the heading `from` and the next heading of the same level.
std::string section(const std::string& page, const std::string& from, const std::string& level) {
  const auto begin = page.find(from);
  REQUIRE(begin != std::string::npos);
  const auto end = page.find(level, begin + from.size());
  return page.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// A command's entry in COMMANDS: from its heading (".TP" then ".B NAME") to the next command's.
std::string entry_of(const std::string& commands, std::string_view name) {
  // A '-' of a name is written "\-" in roff.
  const auto heading = [&](std::string_view command) {
    std::string roff;
    for (char c : command)
      roff += c == '-' ? std::string("\\-") : std::string(1, c);
    return commands.find(".TP\n.B " + roff + "\n");
  };
  const auto begin = heading(name);
  REQUIRE(begin != std::string::npos);
  auto end = std::string::npos;
  for (const Command& other : ioiwari::cli::commands()) {
    const auto at = other.name.empty() ? std::string::npos : heading(other.name);
    if (at != std::string::npos && at > begin) end = std::min(end, at);
  }
  return commands.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// The words bash completion offers after `ioiwari WORDS...` (the last word the one completed).
std::set<std::string> completed(const std::vector<std::string>& words) {
  std::string command = "source '" + std::string(IOIWARI_SOURCE_DIR) +
                        "/src/completion/ioiwari.bash'; COMP_WORDS=(ioiwari";
  for (const std::string& word : words)
    command += " '" + word + "'";
  command += "); COMP_CWORD=" + std::to_string(words.size()) +
             "; _ioiwari; printf '%s\\n' \"${COMPREPLY[@]}\"";
  const std::string shell = "bash -c \"" + [&] {
    std::string escaped;
    for (char c : command) {
      if (c == '"' || c == '\\' || c == '$' || c == '`') escaped += '\\';
      escaped += c;
    }
    return escaped;
  }() + "\"";
  FILE* pipe = ::popen(shell.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::set<std::string> offered;
  char line[256];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    std::string word(line);
    while (!word.empty() && word.back() == '\n')
      word.pop_back();
    if (!word.empty()) offered.insert(word);
  }
  REQUIRE(::pclose(pipe) == 0);
  return offered;
}

}  // namespace

TEST_CASE("the manual page names every command, option and exit status of the table",
          "[documents][cli]") {
  const std::string page = read(std::string(IOIWARI_SOURCE_DIR) + "/src/man/ioiwari.1");
  const std::string commands = section(page, ".SH COMMANDS", ".SH ");
  const std::string exits = section(page, ".SH EXIT STATUS", ".SH ");
  for (const Command& command : ioiwari::cli::commands()) {
    INFO("command '" << command.name << "'");
    // The player's options are in the synopsis and the description; a command's under its own
    // entry of COMMANDS.
    const std::string entry = command.name.empty() ? section(page, ".SH SYNOPSIS", ".SH COMMANDS")
                                                   : entry_of(commands, command.name);
    for (const Option& option : command.options) {
      INFO(option.name);
      CHECK(entry.find(roff(option.name)) != std::string::npos);
    }
    // The untitled groups' options (--json, --quiet) are the command's own, to a reader.
    for (const OptionGroup& group : option_groups()) {
      if (!group.title.empty() || !command.takes(group.group)) continue;
      for (const Option& option : group.options) {
        INFO(option.name);
        CHECK(entry.find(roff(option.name)) != std::string::npos);
      }
    }
    // Its exit statuses, in its paragraph of EXIT STATUS.
    const std::string statuses = command.name.empty()
                                     ? section(exits, ".SH EXIT STATUS", ".PP")
                                     : section(exits, ".BR " + std::string(command.name), ".PP");
    for (const Exit& exit : command.exits) {
      INFO("status " << exit.status);
      CHECK(statuses.find(std::to_string(exit.status)) != std::string::npos);
    }
  }
  const std::string ring = section(page, ".SH RING OPTIONS", ".SH ");
  for (const OptionGroup& group : option_groups()) {
    if (group.title.empty()) continue;
    for (const Option& option : group.options) {
      INFO(option.name);
      CHECK(ring.find(roff(option.name)) != std::string::npos);
    }
  }
}

TEST_CASE("bash completion offers every command and option of the table, and nothing else",
          "[documents][cli]") {
  std::set<std::string> names;
  for (const Command& command : ioiwari::cli::commands()) {
    if (!command.name.empty()) names.insert(std::string(command.name));
  }
  const std::set<std::string> first = completed({""});
  for (const std::string& name : names) {
    INFO(name);
    CHECK(first.contains(name));
  }
  for (const Command& command : ioiwari::cli::commands()) {
    if (command.name == "help") continue;  // its operand is a command, offered above
    INFO("command '" << command.name << "'");
    std::set<std::string> declared = {"--help"};
    for (const Option* option : options_of(command))
      declared.insert(std::string(option->name));
    if (command.name.empty()) declared.insert("--version");
    // The player's options follow any other of its options.
    const std::set<std::string> offered = command.name.empty()
                                              ? completed({"--second", "-"})
                                              : completed({std::string(command.name), "-"});
    for (const std::string& option : declared) {
      if (command.name.empty() &&
          (option == "--second" || option == "--help" || option == "--version")) {
        continue;  // offered as a first word, above
      }
      INFO(option);
      CHECK(offered.contains(option));
    }
    for (const std::string& option : offered) {
      if (option == "--") continue;  // the referee's end of options
      INFO(option);
      CHECK(declared.contains(option));
    }
  }
}
