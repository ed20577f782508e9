#include "common/program.hpp"

#include <cerrno>
#include <charconv>
#include <csignal>
#include <exception>
#include <iostream>
#include <istream>
#include <ostream>

#include "textio/quoted.hpp"
#include "textio/wrap.hpp"

#ifndef IOIWARI_VERSION
#define IOIWARI_VERSION "unknown"
#endif

namespace puzzles {

std::optional<std::string> LineReader::next() {
  std::string line;
  if (!std::getline(in_, line)) return std::nullopt;
  ++line_;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

std::optional<std::string> LineReader::next_nonblank() {
  for (;;) {
    auto line = next();
    if (!line || !trim(*line).empty()) return line;
  }
}

void Where::fail(const std::string& what) const {
  std::string where = "case " + std::to_string(case_number);
  if (line > 0) where += ", line " + std::to_string(line);  // 0: the input had no line at all
  throw BadInput(where + ": " + what);
}

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && is_blank(line[at]))
      ++at;
    const std::size_t start = at;
    while (at < line.size() && !is_blank(line[at]))
      ++at;
    if (at > start) words.push_back(line.substr(start, at - start));
  }
  return words;
}

std::string_view trim(std::string_view line) {
  while (!line.empty() && is_blank(line.front()))
    line.remove_prefix(1);
  while (!line.empty() && is_blank(line.back()))
    line.remove_suffix(1);
  return line;
}

std::string quoted(std::string_view token) {
  return textio::quoted(token);
}

long long number_in(std::string_view word, long long low, long long high, std::string_view name,
                    const Where& where) {
  const std::string range = std::to_string(low) + " to " + std::to_string(high);
  bool digits = !word.empty();
  for (char c : word)
    digits = digits && c >= '0' && c <= '9';
  long long value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (!digits) where.fail(std::string(name) + " " + quoted(word) + " is not a number " + range);
  if (error != std::errc{} || end != word.data() + word.size() || value < low || value > high) {
    where.fail(std::string(name) + " " + quoted(word) + " is out of range " + range);
  }
  return value;
}

std::optional<long long> next_case_size(LineReader& in, Where& where, long long high,
                                        std::string_view name) {
  ++where.case_number;
  const auto header = in.next_nonblank();
  where.line = in.line();
  if (!header) where.fail("input ended without the line \"0\" that ends it");
  const auto words = split(*header);
  if (words.size() > 1) where.fail(quoted(words[1]) + " after " + std::string(name));
  const long long size = number_in(words[0], 0, high, name, where);
  if (size == 0) return std::nullopt;
  return size;
}

void answer(std::ostream& out, std::string_view line) {
  errno = 0;
  out << line << '\n' << std::flush;
  if (!out) throw OutputClosed(errno);  // the failed write's
}

namespace {

void usage(const Program& program, std::ostream& out) {
  out << "usage: " << program.name << " < INPUT\n"
      << "       " << program.name << " --help | --version\n";
}

// A command-line mistake: one line saying what, the usage, and the usage status.
int usage_error(const Program& program, std::ostream& err, const std::string& what) {
  err << program.name << ": " << what << '\n';
  usage(program, err);
  return static_cast<int>(Exit::usage);
}

}  // namespace

int run(const Program& program, std::span<const std::string_view> args, std::istream& in,
        std::ostream& out, std::ostream& err) {
  if (!args.empty()) {
    const std::string_view first = args.front();
    const bool known = first == "--help" || first == "-h" || first == "--version";
    if (known && args.size() > 1) {
      // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "'" + std::string.
      std::string what = "'";
      what.append(first).append("' takes no arguments, got '").append(args[1]).append("'");
      return usage_error(program, err, what);
    }
    if (first == "--help" || first == "-h") {
      usage(program, out);
      // Prose wrapped at 80 columns, as a terminal shows it and as it reads in a file.
      out << '\n'
          << textio::wrap(std::string(program.name) + ": " + std::string(program.summary), 80)
          << "\n\n"
          << textio::wrap(program.help, 80);
      out << "\nExit status:\n"
             "  0  every case was answered\n"
             "  1  internal error\n"
             "  2  bad command line\n"
             "  3  bad input: one line on standard error names the case, the line and the\n"
             "     token; every case before it has been answered in full\n"
             "  6  standard output could not be written (its reader went away: nothing is\n"
             "     said; any other reason: one line)\n"
          << std::flush;
      return static_cast<int>(out ? Exit::ok : Exit::output_closed);
    }
    if (first == "--version") {
      out << program.name << ' ' << IOIWARI_VERSION << '\n' << std::flush;
      return static_cast<int>(out ? Exit::ok : Exit::output_closed);
    }
    if (first.starts_with('-')) {
      return usage_error(program, err, "unknown option '" + std::string(first) + "'");
    }
    return usage_error(
        program, err,
        "takes no arguments (the cases come on standard input), got '" + std::string(first) + "'");
  }
  LineReader reader(in);
  try {
    program.solve(reader, out);
  } catch (const BadInput& bad) {
    err << program.name << ": " << bad.what() << '\n';
    return static_cast<int>(Exit::bad_input);
  } catch (const OutputClosed& closed) {
    if (closed.error != EPIPE) err << program.name << ": " << closed.what() << '\n';
    return static_cast<int>(Exit::output_closed);
  }
  return static_cast<int>(Exit::ok);
}

int main(const Program& program, int argc, char** argv) {
  // A reader that goes away must give us EPIPE on write, not kill us with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  std::ios::sync_with_stdio(false);
  try {
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    return run(program, args, std::cin, std::cout, std::cerr);
  } catch (const std::exception& error) {
    std::cerr << program.name << ": internal error: " << error.what() << '\n';
    return static_cast<int>(Exit::failure);
  }
}

}  // namespace puzzles
