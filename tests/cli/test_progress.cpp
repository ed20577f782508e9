// The progress line: what it says, how often it is redrawn, and that it is erased, or never
// drawn at all where nobody watches.
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/cli/cli.hpp"
#include "ioiwari/cli/environment.hpp"
#include "ioiwari/cli/progress.hpp"

using namespace ioiwari;
using namespace std::chrono_literals;

namespace {

constexpr std::string_view kErase = "\r\x1b[K";

// A terminal 80 columns wide, a log, and nowhere.
constexpr ProgressOutput kTerminal{ProgressOutput::Kind::terminal, 80};
constexpr ProgressOutput kLog{ProgressOutput::Kind::log, 80};
constexpr ProgressOutput kNowhere{};

// A clock the test moves by hand.
struct FakeClock {
  Progress::Clock::time_point now{};
  std::function<Progress::Clock::time_point()> reader() {
    return [this] { return now; };
  }
};

}  // namespace

TEST_CASE("durations read like a clock", "[progress]") {
  CHECK(clock_time(0s) == "0:00");
  CHECK(clock_time(4s) == "0:04");
  CHECK(clock_time(4999ms) == "0:04");
  CHECK(clock_time(750s) == "12:30");
  CHECK(clock_time(3723s) == "1:02:03");
}

TEST_CASE("the line says what is done, of what, and the time left", "[progress]") {
  std::ostringstream out;
  const Progress progress(out, kTerminal, "referee", "games", 1428);
  CHECK(progress.line(0, "", 0s) == "referee: 0/1428 games, 0:00 elapsed");
  CHECK(progress.line(120, "120 won, 0 not won", 4s) ==
        "referee: 120/1428 games, 120 won, 0 not won, 0:04 elapsed, 0:43 left");
  CHECK(progress.line(1428, "", 50s) == "referee: 1428/1428 games, 0:50 elapsed");
  // A ring of 14 pits counts billions of classes: the time left must not overflow on the way.
  const Progress solve(out, kTerminal, "solve", "classes", 5'597'460'306);
  CHECK(solve.line(2'798'730'153, "", 24s) ==
        "solve: 2798730153/5597460306 classes, 0:24 elapsed, 0:24 left");
  CHECK(solve.line(1, "", 3600s) ==
        "solve: 1/5597460306 classes, 1:00:00 elapsed, 1000000:00:00 left");
}

TEST_CASE("the line is redrawn in place at most every 100 ms, and erased", "[progress]") {
  std::ostringstream out;
  FakeClock clock;
  {
    Progress progress(out, kTerminal, "bench", "runs", 10, {}, clock.reader());
    progress.update(1);
    CHECK(out.str() == std::string(kErase) + "bench: 1/10 runs, 0:00 elapsed, 0:00 left");
    clock.now += 50ms;
    progress.update(2);  // too soon: not drawn
    CHECK(out.str() == std::string(kErase) + "bench: 1/10 runs, 0:00 elapsed, 0:00 left");
    clock.now += 9950ms;
    progress.update(5);
    CHECK(out.str().ends_with(std::string(kErase) + "bench: 5/10 runs, 0:10 elapsed, 0:10 left"));
    clock.now += 1ms;
    progress.update(10);  // the last is always drawn
    CHECK(out.str().ends_with(std::string(kErase) + "bench: 10/10 runs, 0:10 elapsed"));
    progress.clear();
    CHECK(out.str().ends_with("0:10 elapsed" + std::string(kErase)));
    const std::size_t cleared = out.str().size();
    progress.clear();  // nothing on screen: nothing to erase
    CHECK(out.str().size() == cleared);
    progress.update(10);
  }
  // Going out of scope erases what is on screen.
  CHECK(out.str().ends_with(std::string(kErase)));
}

TEST_CASE("a progress line with a delay draws nothing until the delay has passed", "[progress]") {
  std::ostringstream out;
  FakeClock clock;
  Progress progress(out, kTerminal, "solve", "classes", 100, 1s, clock.reader());
  progress.update(10, "layer 1 of 9");
  clock.now += 999ms;
  progress.update(99, "layer 8 of 9");
  CHECK(out.str().empty());
  clock.now += 1ms;
  progress.update(99, "layer 8 of 9");
  CHECK(out.str() ==
        std::string(kErase) + "solve: 99/100 classes, layer 8 of 9, 0:01 elapsed, 0:00 left");
}

TEST_CASE("a progress line that is not shown writes nothing at all", "[progress]") {
  std::ostringstream out;
  {
    Progress progress(out, kNowhere, "referee", "games", 3);
    progress.update(1, "1 won");
    progress.update(3, "3 won");
    progress.clear();
  }
  CHECK(out.str().empty());
}

TEST_CASE("a line wider than the terminal is cut to one column less, so that it redraws in place",
          "[progress]") {
  // 80 columns: a progress line of 85 wraps, and \r then returns to its second part only.
  std::ostringstream out;
  FakeClock clock;
  Progress progress(out, kTerminal, "analyze: solving", "classes", 32'981'556, {}, clock.reader());
  clock.now += 16s;
  progress.update(26'643'232, "layer 32 of 55, 80%");
  const std::string whole =
      "analyze: solving: 26643232/32981556 classes, layer 32 of 55, 80%, 0:16 elapsed, 0:03 left";
  REQUIRE(whole.size() > 80);
  CHECK(out.str() == std::string(kErase) + whole.substr(0, 79));
  std::ostringstream narrow;
  Progress small(narrow, {ProgressOutput::Kind::terminal, 20}, "bench", "runs", 10, {},
                 clock.reader());
  small.update(1);
  CHECK(narrow.str() == std::string(kErase) + "bench: 1/10 runs, 0");  // 19 columns
}

TEST_CASE("to a log, a whole line every 30 s, with no control codes", "[progress]") {
  std::ostringstream out;
  FakeClock clock;
  {
    Progress progress(out, kLog, "solve", "classes", 100, 1s, clock.reader());
    progress.update(1, "layer 1 of 9");
    clock.now += 29s;
    progress.update(20, "layer 2 of 9");
    CHECK(out.str().empty());
    clock.now += 1s;
    progress.update(30, "layer 3 of 9");
    CHECK(out.str() == "solve: 30/100 classes, layer 3 of 9, 0:30 elapsed, 1:10 left\n");
    clock.now += 29s;
    progress.update(60, "layer 5 of 9");
    CHECK(out.str() == "solve: 30/100 classes, layer 3 of 9, 0:30 elapsed, 1:10 left\n");
    clock.now += 1s;
    progress.update(61, "layer 5 of 9");
    progress.clear();
  }
  CHECK(out.str() ==
        "solve: 30/100 classes, layer 3 of 9, 0:30 elapsed, 1:10 left\n"
        "solve: 61/100 classes, layer 5 of 9, 1:00 elapsed, 0:38 left\n");
}

TEST_CASE("standard error's progress: a terminal's width, a log, or none when quiet",
          "[progress]") {
  Environment environment;
  environment.error_is_terminal = true;
  environment.columns = 132;
  CHECK(ProgressOutput::of(environment, false).kind == ProgressOutput::Kind::terminal);
  CHECK(ProgressOutput::of(environment, false).columns == 132);
  CHECK(ProgressOutput::of(environment, true).kind == ProgressOutput::Kind::none);
  environment.error_is_terminal = false;
  CHECK(ProgressOutput::of(environment, false).kind == ProgressOutput::Kind::log);
  CHECK(ProgressOutput::of(environment, true).kind == ProgressOutput::Kind::none);
}

TEST_CASE(
    "bench redraws progress at a terminal, logs none in a short run, none with --json or --quiet",
    "[progress][cli]") {
  const auto run = [](std::vector<std::string_view> args, bool terminal) {
    Environment environment;
    environment.error_is_terminal = terminal;
    environment.progress_delay = std::chrono::milliseconds(0);  // every bench counts as long
    std::istringstream in;
    std::ostringstream out, err;
    REQUIRE(run_cli(args, in, out, err, environment) == 0);
    return std::pair{out.str(), err.str()};
  };
  const auto [out, err] = run({"bench", "--runs", "3"}, true);
  CHECK(err.starts_with(std::string(kErase) + "bench: 1/3 runs, "));
  CHECK(err.ends_with(kErase));  // erased before the result
  CHECK(out.starts_with("table build, 3 runs: "));
  CHECK(run({"bench", "--runs", "3"}, false).second.empty());
  CHECK(run({"bench", "--runs", "3", "--quiet"}, true).second.empty());
  CHECK(run({"bench", "--runs", "3", "--json"}, true).second.empty());
}

TEST_CASE("solving a ring shows its layer and percent at a terminal, and no line in a short log",
          "[progress][cli][rings]") {
  const auto run = [](bool terminal, std::string_view quiet) {
    Environment environment;
    environment.error_is_terminal = terminal;
    environment.progress_delay = std::chrono::milliseconds(0);  // every solve counts as long
    const std::string path =
        std::filesystem::temp_directory_path() / ("ioiwari-progress-" + std::to_string(::getpid()));
    std::vector<std::string_view> args = {"solve", "--pits", "6", "--capacity", "4", "--out", path};
    if (!quiet.empty()) args.push_back(quiet);
    std::istringstream in;
    std::ostringstream out, err;
    REQUIRE(run_cli(args, in, out, err, environment) == 0);
    std::filesystem::remove(path);
    return err.str();
  };
  const std::string shown = run(true, "");
  INFO(shown);
  // The index first, then the layers.
  CHECK(shown.starts_with(std::string(kErase) + "solve, indexing: "));
  CHECK(shown.find(std::string(kErase) + "solve: ") != std::string::npos);
  CHECK(shown.find(" classes, layer ") != std::string::npos);
  // "...%, M:SS elapsed", whatever time the solve took.
  const auto percent = shown.find("%, ");
  REQUIRE(percent != std::string::npos);
  const auto colon = shown.find(':', percent);
  CHECK(colon > percent + 3);
  CHECK(shown.compare(colon + 3, 8, " elapsed") == 0);
  CHECK(shown.ends_with(kErase));
  CHECK(run(false, "").empty());
  CHECK(run(true, "--quiet").empty());
}
