#include "ioiwari/cli/arguments.hpp"

#include <ostream>
#include <random>
#include <sstream>
#include <vector>

#include "ioiwari/cli/command_help.hpp"
#include "ioiwari/core/exit_code.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/input/reading.hpp"
#include "ioiwari/input/token.hpp"

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

std::optional<Board> start_from(std::string_view text, Ring ring, std::string& error) {
  std::istringstream counts{std::string(text)};
  TokenReader reader(counts);
  Board board;
  if (auto result = read_start(reader, board, ring); result.code != ExitCode::ok) {
    error = result.error;
    return std::nullopt;
  }
  if (auto extra = reader.next()) {
    error = quoted(*extra) + " after the " + std::to_string(ring.pits) + " counts";
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

bool RingOptions::take(std::string_view command, std::string_view arg, Arguments& args,
                       std::string& error) {
  const auto number = [&](int low, int high) -> std::optional<int> {
    const auto text = args.value();
    const auto value = number_from(text, low, high);
    if (!value) error = range_error(command, arg, low, high, text);
    return value ? std::optional<int>(static_cast<int>(*value)) : std::nullopt;
  };
  if (arg == "--pits") {
    if (const auto pits = number(kMinPits, kMaxPits)) ring.pits = *pits;
  } else if (arg == "--capacity") {
    if (const auto capacity = number(kMinCapacity, kMaxCapacity)) ring.capacity = *capacity;
  } else if (arg == "--start-beads") {
    start_beads = number(1, kMaxRingBeads);
  } else if (arg == "--start-range") {
    const auto text = args.value();
    const std::string where = std::string(command) + ": --start-range";
    const auto dots = text ? text->find("..") : std::string_view::npos;
    const auto low = dots == std::string_view::npos
                         ? std::nullopt
                         : number_from(text->substr(0, dots), 0, kMaxCapacity);
    const auto high = dots == std::string_view::npos
                          ? std::nullopt
                          : number_from(text->substr(dots + 2), 0, kMaxCapacity);
    if (!low || !high || *low > *high) {
      error = where + " needs A..B, counts 0 to " + std::to_string(kMaxCapacity) +
              " with A at most B" + (text ? ", not " + quoted(*text) : "");
    } else {
      start_range = std::pair{static_cast<int>(*low), static_cast<int>(*high)};
    }
  } else if (arg == "--table" && takes_table) {
    const auto text = args.value();
    if (!text || text->empty()) {
      error = std::string(command) + ": --table needs a file name";
    } else {
      table = std::string(*text);
    }
  } else {
    return false;
  }
  given_ = true;
  return true;
}

StartRule RingOptions::start_rule() const {
  StartRule rule = StartRule::defaults_for(ring);
  if (start_range) {
    rule.min_beads = start_range->first;
    rule.max_beads = start_range->second;
  }
  if (start_beads) rule.beads = *start_beads;
  return rule;
}

std::optional<std::string> RingOptions::start_problem(std::string_view command) const {
  const StartRule rule = start_rule();
  const std::string where = std::string(command) + ": ";
  const std::string range = std::to_string(rule.min_beads) + ".." + std::to_string(rule.max_beads);
  if (rule.max_beads > ring.capacity) {
    return where + "--start-range " + range + ": a pit holds at most " +
           std::to_string(ring.capacity) + " beads (--capacity)";
  }
  if (rule.min_beads > rule.max_beads) {
    return where + "--capacity " + std::to_string(ring.capacity) + ": the default start range " +
           range + " holds no count; give --start-range";
  }
  const int least = ring.pits * rule.min_beads;
  const int most = ring.pits * rule.max_beads;
  if (rule.beads < least || rule.beads > most) {
    const std::string holds = "no start of " + std::to_string(ring.pits) + " pits with " + range +
                              " beads each holds " + std::to_string(rule.beads) +
                              " beads (they hold " + std::to_string(least) + " to " +
                              std::to_string(most) + ")";
    if (start_beads) return where + "--start-beads " + std::to_string(rule.beads) + ": " + holds;
    return where + "the default --start-beads " + std::to_string(rule.beads) + " (3N-1): " + holds +
           "; give --start-beads";
  }
  return std::nullopt;
}

bool StartOptions::take(std::string_view command, std::string_view arg, Arguments& args,
                        std::string& error) {
  const std::string where = std::string(command) + ": " + std::string(arg);
  if (arg == "--start") {
    const auto text = args.value();
    if (!text) {
      error = where + " needs the counts, as \"4 3 2 4 2 3 2\"";
    } else {
      start_text = std::string(*text);
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

std::optional<Board> StartOptions::start(std::string_view command, Ring ring,
                                         std::string& error) const {
  if (!start_text) return std::nullopt;
  std::string why;
  auto board = start_from(*start_text, ring, why);
  if (!board) error = std::string(command) + ": --start: " + why;
  return board;
}

Board random_start(const std::vector<Board>& starts, std::optional<std::uint64_t> seed) {
  Random random(seed ? *seed : std::random_device{}());
  return starts[static_cast<std::size_t>(random.below(static_cast<int>(starts.size())))];
}

}  // namespace ioiwari
