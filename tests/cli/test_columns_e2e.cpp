// End to end: everything the built ioiwari writes for people fits 80 columns, the width it
// assumes where its output is no terminal: every command's help, and each command's typical
// output. A message on standard error ("ioiwari: verify: ...") is one line whatever its width,
// so that a log keeps it whole and grep finds it: each is checked to be one.
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/options.hpp"
#include "referee_support.hpp"
#include "run_program.hpp"
#include "support.hpp"
#include "table_files.hpp"
#include "textio/wrap.hpp"

using namespace ioiwari;

namespace {

constexpr std::size_t kColumns = 80;

struct Shown {
  std::string what;  // the command line, for the message
  std::string text;  // what it wrote, output and error
};

Shown run(std::vector<std::string> args, const std::string& input = "") {
  std::string what = "ioiwari";
  for (const std::string& arg : args)
    what += " " + arg;
  args.insert(args.begin(), IOIWARI_BINARY);
  const test::Run done = test::run_program(args, input);
  // The messages: one line each, then at most the pointer to the help.
  std::string err = done.err;
  while (err.starts_with("ioiwari: ") || err.starts_with("Try 'ioiwari")) {
    const auto end = err.find('\n');
    err.erase(0, end == std::string::npos ? err.size() : end + 1);
  }
  return {what, done.out + err};
}

// Every line of every run no wider than 80 columns.
void check_fits(const std::vector<Shown>& runs) {
  for (const Shown& shown : runs) {
    INFO(shown.what);
    CHECK_FALSE(shown.text.empty());
    // A line ends at '\n', and at a prompt ("]> "): at a terminal, what the person types and
    // Enter end it there (the input here is not echoed).
    std::size_t at = 0;
    while (at < shown.text.size()) {
      const auto newline = std::min(shown.text.find('\n', at), shown.text.size());
      const auto prompt = shown.text.find("]> ", at);
      const bool asks = prompt < newline;
      const auto end = asks ? prompt + 3 : newline;
      const std::string line = shown.text.substr(at, end - at);
      INFO(textio::width_of(line) << " columns: " << line);
      CHECK(textio::width_of(line) <= (asks ? kColumns - 1 : kColumns));
      at = asks ? end : end + 1;
    }
  }
}

}  // namespace

TEST_CASE("every command's help fits 80 columns", "[e2e][columns]") {
  std::vector<Shown> runs = {run({"--help"}), run({"help"})};
  for (const cli::Command& command : cli::commands()) {
    if (command.name.empty()) continue;
    runs.push_back(run({std::string(command.name), "--help"}));
  }
  check_fits(runs);
}

TEST_CASE("a game, an analysis, a census, a solve and its files fit 80 columns", "[e2e][columns]") {
  test::TempFolder folder;
  const std::string table = folder.file("eight.table");
  std::vector<Shown> runs = {
      // A game with every command of the prompt, mistakes included, and the lesson at its end.
      run({"play", "--start", "4 3 2 4 2 3 2"},
          "hint\n1\nundo\nredo\nboard\nhelp\nfive\n0\n9\n2\n3\n4\n5\n6\n7\n1\n2\n3\n4\n5\n6\n7\n"
          "1\n2\n3\n4\n5\n6\n7\nt\n\nn\n"),
      run({"play", "--pits", "12", "--capacity", "3", "--second", "--strategy", "greedy"},
          "hint\nquit\n"),
      run({"analyze", "4", "3", "2", "4", "2", "3", "2"}),
      run({"analyze", "--pits", "11", "--capacity", "3", "3", "3", "3", "3", "3", "3", "3", "3",
           "3", "3", "2"}),
      run({"starts"}),
      run({"starts", "--classes"}),
      run({"solve", "--pits", "8", "--out", table}),
      run({"verify", table}),
      run({"convert", table, "--out", folder.file("eight-4.table")}),
      run({"bench", "--runs", "1"}),
      run({"package", "--format", "icpc", "--out", folder.file("package"), "--starts", "2"}),
  };
  check_fits(runs);
}

TEST_CASE("the referee's summary fits 80 columns, a failing player's long lines included",
          "[e2e][columns][referee]") {
  // A player that writes a traceback with a long last line, then fails.
  const std::string traceback =
      "echo 'Traceback (most recent call last):' >&2; "
      "echo '  File \"/home/contestant/a/very/long/path/to/the/solution/player.py\", line 11' "
      ">&2; echo '    main()' >&2; echo '  File \"player.py\", line 9, in main' >&2; "
      "echo '    think(move)' >&2; printf 'RuntimeError: %0200d\\n' 7 >&2; exit 1";
  std::vector<Shown> runs = {
      run(test::referee_args({"--starts", "3", "--", "/bin/sh", "-c", traceback})),
      run(test::referee_args(
          {"--starts", "2", "--strategy", "all", "--", FAULTY_PLAYER, "garbage"})),
  };
  check_fits(runs);
  // The traceback's last line is there, cut to fit.
  CHECK(runs[0].text.find("  its standard error: \"RuntimeError: 0000") != std::string::npos);
}
