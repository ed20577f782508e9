#include "ioiwari/arguments.hpp"

#include <ostream>
#include <random>
#include <sstream>
#include <vector>

#include "ioiwari/command_help.hpp"
#include "ioiwari/exit_code.hpp"
#include "ioiwari/protocol.hpp"
#include "ioiwari/random.hpp"
#include "ioiwari/token.hpp"

namespace ioiwari {

int usage_error(std::ostream& err, std::string_view what, std::string_view command) {
  err << "ioiwari: " << what << '\n';
  const CommandHelp* help = command.empty() ? nullptr : find_command(command);
  if (help == nullptr) {
    write_usage(err);
  } else {
    err << "usage: " << help->synopsis << "\n'ioiwari help " << command
        << "' prints its options.\n";
  }
  return to_int(ExitCode::usage);
}

int command_help(std::ostream& out, std::string_view command) {
  write_command_help(out, *find_command(command));
  out << std::flush;
  return to_int(out ? ExitCode::ok : ExitCode::output_closed);
}

std::optional<Board> start_from(std::string_view text, std::string& error) {
  std::istringstream counts{std::string(text)};
  TokenReader reader(counts);
  Board board;
  if (auto result = read_start(reader, board); result.code != ExitCode::ok) {
    error = result.error;
    return std::nullopt;
  }
  if (auto extra = reader.next()) {
    error = quoted(*extra) + " after the " + std::to_string(kPits) + " counts";
    return std::nullopt;
  }
  return board;
}

std::optional<long long> number_from(std::optional<std::string_view> text, long long low,
                                     long long high) {
  if (!text) return std::nullopt;
  const Number number = parse_number(*text);
  if (number.kind != Number::Kind::integer || number.value < low || number.value > high) {
    return std::nullopt;
  }
  return number.value;
}

std::string range_error(std::string_view command, std::string_view option, long long low,
                        long long high, std::optional<std::string_view> text) {
  std::string message = std::string(command) + ": " + std::string(option) + " needs a number " +
                        std::to_string(low) + " to " + std::to_string(high);
  if (text) message += ", not " + quoted(*text);
  return message;
}

bool StartOptions::take(std::string_view command, std::string_view arg, Arguments& args,
                        std::string& error) {
  const std::string where = std::string(command) + ": " + std::string(arg);
  if (arg == "--start") {
    const auto text = args.value();
    if (!text) {
      error = where + " needs the counts, as \"4 3 2 4 2 3 2\"";
    } else if (std::string why; !(start = start_from(*text, why))) {
      error = where + ": " + why;
    }
    return true;
  }
  if (arg == "--seed") {
    const auto text = args.value();
    const auto number = number_from(text, 0, kMaxSeed);
    if (!number) error = range_error(command, arg, 0, kMaxSeed, text);
    if (number) seed = static_cast<std::uint64_t>(*number);
    return true;
  }
  return false;
}

Board random_start(std::optional<std::uint64_t> seed) {
  const std::vector<Board> starts = ioi_starts();
  Random random(seed ? *seed : std::random_device{}());
  return starts[static_cast<std::size_t>(random.below(static_cast<int>(starts.size())))];
}

}  // namespace ioiwari
