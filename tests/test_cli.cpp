// The command line, driven through string streams.
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/cli.hpp"
#include "ioiwari/exit_code.hpp"

using namespace ioiwari;

namespace {

struct Result {
  int code;
  std::string out, err;
};

Result cli(std::vector<std::string_view> args, const std::string& input = "") {
  std::istringstream in(input);
  std::ostringstream out, err;
  const int code = run_cli(args, in, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace

TEST_CASE("--help and --version print to standard output and succeed", "[cli]") {
  const Result help = cli({"--help"});
  CHECK(help.code == 0);
  CHECK(help.out.starts_with("usage: ioiwari"));
  CHECK(help.out.find("Exit status:") != std::string::npos);
  CHECK(help.err.empty());
  CHECK(cli({"-h"}).out == help.out);

  const Result version = cli({"--version"});
  CHECK(version.code == 0);
  CHECK(version.out.starts_with("ioiwari "));
  CHECK(version.out.ends_with("\n"));
  CHECK(version.err.empty());
}

TEST_CASE("unknown options and commands print usage to standard error and exit 2", "[cli]") {
  for (const auto& args :
       {std::vector<std::string_view>{"--frobnicate"}, std::vector<std::string_view>{"frobnicate"},
        std::vector<std::string_view>{"--help", "extra"}}) {
    const Result result = cli(args);
    INFO(args.front());
    CHECK(result.code == to_int(ExitCode::usage));
    CHECK(result.out.empty());
    CHECK(result.err.find("usage: ioiwari") != std::string::npos);
    CHECK(result.err.starts_with("ioiwari: "));
  }
}

TEST_CASE("no arguments plays player 1 and reports bad input on standard error", "[cli]") {
  const Result good = cli({}, "0 0 0 0 0 1 1\n");
  CHECK(good.code == 0);
  CHECK(good.out == "6\n");  // pit 6 captures pit 7 and empties the board
  CHECK(good.err.empty());

  const Result bad = cli({}, "0 0 0 0 0 0 0\n");
  CHECK(bad.code == to_int(ExitCode::bad_start));
  CHECK(bad.out.empty());
  CHECK(bad.err == "ioiwari: start: every pit is empty\n");
}
