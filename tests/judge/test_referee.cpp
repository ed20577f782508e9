// The referee against ioiwari itself and against players that break the protocol.
#include <arpa/inet.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "ioiwari/judge/process.hpp"
#include "ioiwari/judge/referee.hpp"
#include "ioiwari/judge/report.hpp"
#include "json_schema.hpp"
#include "referee_support.hpp"
#include "run_program.hpp"
#include "support.hpp"
#include "table_files.hpp"
#include "text_support.hpp"

using namespace ioiwari;
using ioiwari::test::generous;
using ioiwari::test::perfect_moves;
using ioiwari::test::running_with;
using ioiwari::test::table;
using namespace std::chrono_literals;

namespace {

// Limits for a player that never answers (or never exits after the end) and uses no CPU time
// meanwhile: it is judged at the wall-clock limit whatever the limit is, so a short one only
// saves time.
RefereeLimits silent_during_game() {
  RefereeLimits limits = generous();
  limits.per_move = 500ms;
  limits.wall_factor = 1;
  return limits;
}
RefereeLimits silent_after_end() {
  RefereeLimits limits = generous();
  limits.after_end = 500ms;
  limits.wall_factor = 1;
  return limits;
}

// Limits for a player that computes forever: only its CPU time can end it; its wall-clock limit
// is far beyond any load.
RefereeLimits computing() {
  RefereeLimits limits = generous();
  limits.per_move = 300ms;
  limits.wall_factor = 1000;
  return limits;
}

// Limits for a player that takes memory without end.
RefereeLimits small_memory() {
  RefereeLimits limits = generous();
  limits.memory_mb = 64;
  return limits;
}

RefereePlan plan_for(std::vector<std::string> player, std::size_t starts, int jobs,
                     const RefereeLimits& limits = generous()) {
  RefereePlan plan;
  plan.player = std::move(player);
  const std::vector<Board> all = ioi_starts();
  // Spread the starts over the list.
  for (std::size_t i = 0; i < starts; ++i)
    plan.starts.push_back(all[i * all.size() / starts]);
  plan.strategies = {Strategy::optimal, Strategy::random};
  plan.jobs = jobs;
  plan.limits = limits;
  return plan;
}

// The most memory this process has held so far, in kB (VmHWM).
long peak_memory_kb() {
  std::ifstream status("/proc/self/status");
  std::string key;
  long value = 0;
  while (status >> key) {
    if (key == "VmHWM:") {
      status >> value;
      return value;
    }
    status.ignore(1 << 10, '\n');
  }
  return value;
}

}  // namespace

TEST_CASE("each faulty player gets exactly its verdict, one job or two", "[e2e][referee]") {
  struct Case {
    const char* mode;
    Verdict verdict;
    RefereeLimits limits;
  };
  const std::vector<Case> cases = {
      {"garbage", Verdict::unreadable_move, generous()},
      {"out-of-range", Verdict::out_of_range, generous()},
      {"empty-pit", Verdict::empty_pit, generous()},
      {"no-flush", Verdict::timeout, silent_during_game()},
      {"hang", Verdict::timeout, silent_during_game()},
      {"exit-early", Verdict::early_exit, generous()},
      {"after-end", Verdict::output_after_end, generous()},
      {"nonzero", Verdict::nonzero_exit, generous()},
      {"crash", Verdict::killed_by_signal, generous()},
      {"linger", Verdict::timeout, silent_after_end()},
  };
  for (const Case& c : cases) {
    for (int jobs : {1, 2}) {
      INFO(c.mode << " with " << jobs << " jobs");
      const auto reports =
          test::judge_games(plan_for({FAULTY_PLAYER, c.mode}, 3, jobs, c.limits), table());
      REQUIRE(reports.size() == 6);
      for (const GameReport& report : reports) {
        INFO(report.detail);
        CHECK(report.verdict == c.verdict);
      }
    }
  }
}

TEST_CASE("a greedy player loses some games, the same ones with any number of jobs",
          "[e2e][referee]") {
  RefereePlan plan = plan_for({FAULTY_PLAYER, "greedy"}, 51, 1);
  plan.strategies = {Strategy::optimal};
  const auto one = test::judge_games(plan, table());
  plan.jobs = 2;
  const auto two = test::judge_games(plan, table());
  int not_won = 0;
  REQUIRE(one.size() == two.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    CHECK((one[i].verdict == Verdict::win || one[i].verdict == Verdict::tie ||
           one[i].verdict == Verdict::loss));
    CHECK(one[i].verdict == two[i].verdict);
    CHECK(one[i].moves == two[i].moves);
    not_won += one[i].verdict == Verdict::win ? 0 : 1;
  }
  CHECK(not_won > 0);
}

TEST_CASE("the player and its children are killed and reaped with the verdict", "[e2e][referee]") {
  // Not isolated: the number the grandchild tells is then ours too.
  RefereeLimits shared = generous();
  shared.isolation = Isolation::off;
  const GameReport report = test::judge_game({FAULTY_PLAYER, "spawn"}, ioi_starts().front(),
                                             Strategy::optimal, 1, table(), shared);
  CHECK(report.verdict == Verdict::unreadable_move);
  std::istringstream said(report.player_errors);
  std::string word;
  pid_t grandchild = 0;
  said >> word >> grandchild;
  REQUIRE(word == "child");
  REQUIRE(grandchild > 0);
  // Gone when the game is judged, not later: its keeper reaped it before it reported.
  CHECK(!test::runs(grandchild));
}

TEST_CASE("a player that cannot be run is refused before any game, not judged", "[e2e][referee]") {
  const auto refusal = [](const std::vector<std::string>& player) -> std::string {
    try {
      test::sandbox_for(player, generous(), 1);
      return "";
    } catch (const SpawnError& error) {
      CHECK(error.kind() == SpawnError::Kind::program);
      return error.what();
    }
  };
  CHECK(refusal({"/nonexistent/player"}) ==
        "cannot run '/nonexistent/player': No such file or directory");
  CHECK(refusal({"/"}) == "cannot run '/': Permission denied");
  CHECK(refusal({"no-such-program-in-path"}) == "cannot find 'no-such-program-in-path' in PATH");
  CHECK(refusal({PLAYER_IOIWARI}).empty());
  CHECK_THROWS_AS(test::judge_game({"/nonexistent/player"}, ioi_starts().front(), Strategy::optimal,
                                   1, table(), generous()),
                  SpawnError);
}

TEST_CASE("the summary counts verdicts and points and lists failing games", "[e2e][referee]") {
  RefereePlan plan = plan_for({FAULTY_PLAYER, "greedy"}, 51, 2);
  plan.strategies = {Strategy::optimal};
  const auto sandbox = test::sandbox_for(plan.player, plan.limits, plan.jobs);
  const auto reports = run_games(plan, table(), *sandbox, {});
  std::ostringstream summary, json;
  write_summary(summary, RefereeRun{plan, *sandbox, reports, ""}, 2, 80);
  write_json(json, RefereeRun{plan, *sandbox, reports, ""});
  int wins = 0, ties = 0;
  for (const GameReport& report : reports) {
    wins += report.verdict == Verdict::win ? 1 : 0;
    ties += report.verdict == Verdict::tie ? 1 : 0;
  }
  const std::string text = summary.str();
  CHECK(text.find("51 games (51 starts x 1 strategy), 2 jobs") != std::string::npos);
  CHECK(text.find("points: " + std::to_string(4 * wins + 2 * ties) + " of 204") !=
        std::string::npos);
  CHECK(text.find("not won: start ") != std::string::npos);
  CHECK(text.find("; moves ") != std::string::npos);
  CHECK(text.ends_with("not every game won\n"));
  const std::string machine = json.str();
  CHECK(machine.starts_with("{\"games\": 51, "));
  CHECK(machine.find("\"win\": " + std::to_string(wins)) != std::string::npos);
  CHECK(machine.find("\"all_won\": false}") != std::string::npos);
}

TEST_CASE("a player's standard error reaches the summary and the JSON escaped, and cut with ...",
          "[e2e][referee]") {
  RefereePlan plan = plan_for({PLAYER_IOIWARI}, 1, 1);
  plan.strategies = {Strategy::optimal};
  const auto sandbox = test::sandbox_for(plan.player, plan.limits, plan.jobs);
  GameReport report;
  report.start = plan.starts.front();
  report.verdict = Verdict::loss;
  const std::string long_line(300, 'x');
  report.player_errors = "a\\b \\q \"quoted\"\n" + long_line + "\n";
  // Text in UTF-8 (a no-break space, é, €, 𝄞), controls (C0, DEL, C1), and bytes that are no UTF-8:
  // a lone continuation byte, 0xff, an overlong '/', a surrogate, a sequence cut short at the end.
  report.player_errors +=
      "\xc2\xa0\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e \x01\t\x7f\xc2\x9b "
      "\x80\xff\xc0\xaf\xed\xa0\x80\xe2\x82\n";
  report.player_error_lines = 3;
  const std::vector<GameReport> reports = {report};
  std::ostringstream summary, json;
  write_summary(summary, RefereeRun{plan, *sandbox, reports, ""}, 5, 80);
  write_json(json, RefereeRun{plan, *sandbox, reports, ""});
  INFO(summary.str());
  // The summary: a backslash and a quote escaped, a line too long for the width cut with "...".
  CHECK(summary.str().find("  its standard error: \"a\\\\b \\\\q \\\"quoted\\\"\"\n") !=
        std::string::npos);
  CHECK(summary.str().find("xxx...\"\n") != std::string::npos);
  // On a terminal wide enough for the whole 200 bytes, the line is cut there, and says so.
  std::ostringstream wide;
  write_summary(wide, RefereeRun{plan, *sandbox, reports, ""}, 5, 400);
  CHECK(wide.str().find("  its standard error: \"" + std::string(200, 'x') + "...\"\n") !=
        std::string::npos);
  // The JSON: a string that decodes to the bytes written, the long line cut at 200 bytes.
  const std::string document = json.str();
  CHECK(document.find(
            "\"stderr\": [\"a\\\\b \\\\q \\\"quoted\\\"\", \"" + std::string(200, 'x') +
            "\", \"\xc2\xa0\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e \\u0001\\u0009\\u007f\\u009b "
            "\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"]") !=
        std::string::npos);
  // The summary shows every byte outside printable ASCII as \xNN, so that none reaches a
  // terminal as it is.
  CHECK(summary.str().find("\"\\xc2\\xa0\\xc3\\xa9 \\xe2\\x82\\xac") != std::string::npos);
}

TEST_CASE("a player's standard error: its first and last lines, kept apart or joined",
          "[e2e][referee]") {
  RefereePlan plan = plan_for({PLAYER_IOIWARI}, 1, 1);
  plan.strategies = {Strategy::optimal};
  const auto sandbox = test::sandbox_for(plan.player, plan.limits, plan.jobs);
  // What the JSON says of the player's standard error, kept as the child keeps it: its first
  // bytes, the bytes after them (the tail), and how many were skipped between.
  const auto shown = [&](const std::string& head, const std::string& tail, std::uint64_t skipped,
                         std::uint64_t lines) {
    GameReport report;
    report.start = plan.starts.front();
    report.verdict = Verdict::loss;
    report.player_errors = head;
    report.player_errors_tail = tail;
    report.player_errors_skipped = skipped;
    report.player_error_lines = lines;
    std::ostringstream json;
    write_json(json, RefereeRun{plan, *sandbox, {report}, ""});
    const std::string document = json.str();
    const auto from = document.find("\"stderr\": ");
    return document.substr(from, document.find('}', from) - from);
  };
  // Nothing skipped: the tail goes on from the head, a line across the two joined.
  CHECK(shown("line 1\nline 2\nline 3\nline 4 begins", " and ends\nline 5\nline 6\n", 0, 6) ==
        "\"stderr\": [\"line 1\", \"line 2\", \"line 3\"], \"stderr_last\": [\"line 4 begins and "
        "ends\", \"line 5\", \"line 6\"], \"stderr_lines\": 6");
  // Bytes skipped: the tail begins within a line, which is left out as a part; its last three
  // lines are shown.
  CHECK(shown("line 1\nline 2\nline 3\nline 4\n",
              "rt of line 89\nline 90\nline 91\nline 92\nline 93\n", 5000, 93) ==
        "\"stderr\": [\"line 1\", \"line 2\", \"line 3\"], \"stderr_last\": [\"line 91\", "
        "\"line 92\", \"line 93\"], \"stderr_lines\": 93");
  // The last line without its line feed, after a one-byte part; a count of lines under those
  // shown (none given) is made up to them.
  CHECK(shown("line 1\n", "x\nline 93", 5000, 0) ==
        "\"stderr\": [\"line 1\"], \"stderr_last\": [\"line 93\"], \"stderr_lines\": 2");
  // A tail that is all one part of a line: none of it is a whole line.
  CHECK(shown("line 1\n", "part of a line", 5000, 2) ==
        "\"stderr\": [\"line 1\"], \"stderr_last\": [], \"stderr_lines\": 2");
}

TEST_CASE("a run stopped from outside keeps the games judged before, and says so",
          "[e2e][referee]") {
  // Stopped as Ctrl-C stops it, once two games have ended: those two are reported, the rest not.
  RefereePlan plan = plan_for({PLAYER_IOIWARI}, 3, 1);
  std::atomic<bool> stop{false};
  plan.stop = &stop;
  const auto sandbox = test::sandbox_for(plan.player, plan.limits, plan.jobs);
  std::vector<GameReport> judged;
  try {
    run_games(plan, table(), *sandbox, [&](const GameReport&, std::size_t done) {
      if (done == 2) stop = true;
    });
    FAIL("the run was not stopped");
  } catch (RefereeStopped& stopped) {
    judged = std::move(stopped.judged);
  }
  REQUIRE(judged.size() == 2);
  CHECK(judged[0].start == plan.starts[0]);  // in plan order: the first start's two games
  CHECK(judged[1].strategy == Strategy::random);
  for (const GameReport& report : judged)
    CHECK(report.verdict == Verdict::win);
  std::ostringstream summary, json;
  write_summary(summary, RefereeRun{plan, *sandbox, judged, "SIGINT"}, 5, 80);
  write_json(json, RefereeRun{plan, *sandbox, judged, "SIGINT"});
  const std::string text = summary.str();
  INFO(text);
  CHECK(text.starts_with("ioiwari referee: 2 of 6 games judged before SIGINT stopped the run"));
  CHECK(text.find("points: 8 of 8\n") != std::string::npos);
  CHECK(text.ends_with("stopped by SIGINT: 4 of the games planned were not judged\n"));
  CHECK(
      json.str().starts_with("{\"games\": 2, \"planned_games\": 6, \"stopped_by\": \"SIGINT\", "));
}

TEST_CASE("hostile players: the referee keeps its memory, judges them, leaves nothing running",
          "[e2e][referee][hostile]") {
  struct Case {
    const char* mode;
    Verdict verdict;
    RefereeLimits limits;
  };
  const std::vector<Case> cases = {
      // a line longer than the cap
      {"flood", Verdict::unreadable_move, generous()},
      // silent on standard output
      {"flood-errors", Verdict::timeout, silent_during_game()},
      // killed with SIGKILL all the same
      {"ignore-term", Verdict::timeout, silent_during_game()},
      // the reply cannot be written, and there is no SIGPIPE for the referee
      {"close-input", Verdict::early_exit, generous()},
      // its child ignores SIGTERM too
      {"spawn", Verdict::unreadable_move, generous()},
      // a child that escapes its process group, its session, or its parent, and ignores every
      // signal it can: the game is won, but the player is judged for what it left running
      {"setsid-child", Verdict::left_behind, generous()},
      {"setpgid-child", Verdict::left_behind, generous()},
      {"double-fork", Verdict::left_behind, generous()},
  };
  const long before = peak_memory_kb();
  for (const Case& c : cases) {
    const std::string mark = "mark-" + std::to_string(::getpid()) + "-" + c.mode;
    INFO(c.mode);
    const auto reports =
        test::judge_games(plan_for({FAULTY_PLAYER, c.mode, mark}, 2, 2, c.limits), table());
    for (const GameReport& report : reports) {
      INFO(report.detail);
      CHECK(report.verdict == c.verdict);
      CHECK(report.player_errors.size() <= ChildProcess::kMaxErrorBytes);
      if (c.verdict == Verdict::left_behind) {
        CHECK(report.detail == "exited, leaving 1 process running (killed since)");
        CHECK(report.bank1 > report.bank2);  // it would have won
      }
    }
    // Nothing of any game is left: not a process, not a zombie waiting for init.
    CHECK(test::kill_survivors(mark) == 0);
  }
  // Flooding players must not make the referee hold their output.
  CHECK(peak_memory_kb() - before < 32 * 1024);
}

TEST_CASE("a player is charged for the CPU time it and its processes use",
          "[e2e][referee][hostile]") {
  // Computing forever: judged when its CPU time runs out, whatever the clock says.
  for (const char* mode : {"spin", "spin-child"}) {
    INFO(mode);
    const std::string mark = "mark-" + std::to_string(::getpid()) + "-" + mode;
    const GameReport report = test::judge_game({FAULTY_PLAYER, mode, mark}, ioi_starts().front(),
                                               Strategy::optimal, 1, table(), computing());
    INFO(report.detail);
    CHECK(report.verdict == Verdict::timeout);
    CHECK(report.detail.starts_with("move 1: used "));
    CHECK(report.detail.find(" of CPU time; the limit is 300 ms") != std::string::npos);
    CHECK(report.cpu >= 300ms);
    CHECK(report.cpu < 10s);  // about the limit: a sample or two late at most
    CHECK(test::kill_survivors(mark) == 0);
  }
  // Waiting forever uses no CPU time: judged at the wall-clock limit, five times the CPU limit.
  RefereeLimits waiting = generous();
  waiting.per_move = 200ms;
  const GameReport report = test::judge_game({FAULTY_PLAYER, "hang"}, ioi_starts().front(),
                                             Strategy::optimal, 1, table(), waiting);
  INFO(report.detail);
  CHECK(report.verdict == Verdict::timeout);
  CHECK(report.detail.starts_with("move 1: nothing within 1000 ms of wall-clock time (it used "));
  // It used almost no CPU time: the verdict names the usual cause.
  CHECK(
      report.detail.ends_with("; a player that waits this much has most often written its move "
                              "without flushing it: docs/protocol.md)"));
  CHECK(report.wall >= 1000ms);
  CHECK(report.cpu < 200ms);
}

TEST_CASE("a player that takes memory without end gets the memory limit",
          "[e2e][referee][hostile]") {
  // Private memory (which the kernel also caps, at twice the limit) and shared memory (which it
  // does not): both are the player's, and both are counted.
  for (const char* mode : {"allocate", "allocate-shared"}) {
    INFO(mode);
    const std::string mark = "mark-" + std::to_string(::getpid()) + "-" + mode;
    const GameReport report = test::judge_game({FAULTY_PLAYER, mode, mark}, ioi_starts().front(),
                                               Strategy::optimal, 1, table(), small_memory());
    INFO(report.detail);
    CHECK(report.verdict == Verdict::memory_limit);
    CHECK(report.detail.find("; the limit is ") != std::string::npos);
    CHECK(report.detail.find("64 MB") != std::string::npos);
    // What it held, to a tenth of a MB or in kB: never a rounded figure that reads as the limit
    // itself.
    if (report.detail.find("killed a process at the cap") == std::string::npos) {
      CHECK(std::regex_search(report.detail,
                              std::regex("held ([0-9]+\\.[0-9] MB; the limit is 64 MB|[0-9]+ kB; "
                                         "the limit is 65536 kB \\(64 MB\\))")));
      CHECK(report.detail.find("held 64.0 MB") == std::string::npos);
      CHECK(report.detail.find("held 64 MB") == std::string::npos);
    }
    CHECK(report.peak_memory_kb > 64 * 1024);
    // The kernel's cap, at twice the limit, holds the first: nothing is over it.
    if (!test::kSanitized && std::string(mode) == "allocate") {
      CHECK(report.peak_memory_kb <= 2 * 64 * 1024 + 1024);  // and a stack
    }
    CHECK(test::kill_survivors(mark) == 0);
  }
  // A player that maps a table file pays nothing for it: its peak is its own memory.
  const GameReport fine = test::judge_game({PLAYER_IOIWARI}, ioi_starts().front(),
                                           Strategy::optimal, 1, table(), small_memory());
  CHECK(fine.verdict == Verdict::win);
  CHECK(fine.max_rss_kb > 0);
  CHECK(fine.peak_memory_kb < 64 * 1024);
}

TEST_CASE("games whose verdict is known in advance: a tie, a loss, a win by 3", "[e2e][referee]") {
  struct Case {
    std::vector<int> start;
    Verdict verdict;
    int bank1, bank2, points;
  };
  const std::vector<Case> cases = {
      // 1 0 0 1 0 0 0: each side has one move, a single bead dropped on an empty pit, which
      // goes to the other side: 1 to 1, whatever either plays.
      {{1, 0, 0, 1, 0, 0, 0}, Verdict::tie, 1, 1, 2},
      // 0 0 0 0 0 0 1: player 1's only move gives its bead away.
      {{0, 0, 0, 0, 0, 0, 1}, Verdict::loss, 0, 1, 0},
      // 0 0 0 1 2 0 0: pit 4 captures pit 5, three beads, and ends the game.
      {{0, 0, 0, 1, 2, 0, 0}, Verdict::win, 3, 0, 4},
  };
  RefereePlan plan;
  plan.player = {PLAYER_IOIWARI};
  plan.strategies = {Strategy::optimal};
  plan.limits = generous();
  for (const Case& c : cases) {
    const Board start = *Board::from_counts(c.start, Ring::ioi());
    INFO("start " << start);
    const GameReport report =
        test::judge_game(plan.player, start, Strategy::optimal, 1, table(), plan.limits);
    CHECK(report.verdict == c.verdict);
    CHECK(report.bank1 == c.bank1);
    CHECK(report.bank2 == c.bank2);
    CHECK(points(report.verdict) == c.points);
    plan.starts.push_back(start);
  }
  // The same three through the summary and the JSON document, pinned whole but for times and
  // memory, which vary: 2 + 0 + 4 points of 12. (The summary as a wide terminal shows it, a
  // line to each item; it is wrapped at 80 columns in "every line of the summary fits".)
  const auto sandbox = test::sandbox_for(plan.player, plan.limits, plan.jobs);
  const auto reports = run_games(plan, table(), *sandbox, {});
  std::ostringstream summary, json;
  write_summary(summary, RefereeRun{plan, *sandbox, reports, ""}, 5, 1000);
  write_json(json, RefereeRun{plan, *sandbox, reports, ""});
  std::string text = summary.str();
  for (const char* key : {"contained: ", "slowest move: ", "most memory: "})
    text = ioiwari::test::replace_after(text, key, "\n", "?");
  CHECK(text ==
        "ioiwari referee: 3 games (3 starts x 1 strategy), 1 job\n"
        "limits: CPU time 30000 ms a move, 300000 ms a game, 30000 ms to exit after it; "
        "wall-clock time 5 times as long; 1024 MB of memory" +
            std::string(test::kSanitized ? " (no data limit)" : "") +
            "; 64 processes\n"
            "contained: ?\n"
            "  win                        1\n"
            "  tie                        1\n"
            "  loss                       1\n"
            "  unreadable move            0\n"
            "  move out of range          0\n"
            "  empty pit                  0\n"
            "  time limit                 0\n"
            "  memory limit               0\n"
            "  disk limit                 0\n"
            "  exit before the end        0\n"
            "  output after the end       0\n"
            "  non-zero exit              0\n"
            "  killed by a signal         0\n"
            "  left processes behind      0\n"
            "points: 6 of 12\n"
            "slowest move: ?\n"
            "most memory: ?\n"
            "not won: start 1 0 0 1 0 0 0, optimal, seed 1: tie; banks 1 1; moves 1 4\n"
            "not won: start 0 0 0 0 0 0 1, optimal, seed 2: loss; banks 0 1; moves 7\n"
            "not every game won\n");
  std::string document = json.str();
  for (const char* key :
       {"\"slowest_move_ms\": ", "\"slowest_move_cpu_ms\": ", "\"peak_memory_kb\": ",
        "\"cpu_ms\": ", "\"wall_ms\": ", "\"max_rss_kb\": ", "\"cgroups\": ", "\"users\": ",
        "\"isolated\": ", "\"boxed\": "})
    document = ioiwari::test::replace_after(document, key, ",}", "0");
  CHECK(
      document ==
      "{\"games\": 3, \"planned_games\": 3, \"stopped_by\": null, \"starts\": 3, \"strategies\": "
      "[\"optimal\"], \"jobs\": 1, "
      "\"limits\": {\"move_cpu_ms\": 30000, \"game_cpu_ms\": 300000, \"exit_cpu_ms\": 30000, "
      "\"wall_factor\": 5, \"memory_mb\": 1024, \"data_limit\": " +
          std::string(test::kSanitized ? "false" : "true") +
          ", \"max_line_bytes\": 64, \"processes\": 64, \"file_size_mb\": 64, "
          "\"disk_mb\": 128}, "
          "\"containment\": {\"cgroups\": 0, \"users\": 0, \"isolated\": 0, \"boxed\": 0}, "
          "\"verdicts\": {\"win\": 1, \"tie\": 1, \"loss\": 1, \"unreadable move\": 0, "
          "\"move out of range\": 0, \"empty pit\": 0, \"time limit\": 0, \"memory limit\": 0, "
          "\"disk limit\": 0, \"exit before the end\": 0, \"output after the end\": 0, \"non-zero "
          "exit\": 0, "
          "\"killed by a signal\": 0, \"left processes behind\": 0}, \"points\": 6, "
          "\"max_points\": 12, \"slowest_move_ms\": 0, \"slowest_move_cpu_ms\": 0, "
          "\"peak_memory_kb\": 0, "
          "\"not_won\": [{\"start\": \"1 0 0 1 0 0 0\", \"strategy\": \"optimal\", \"seed\": 1, "
          "\"verdict\": \"tie\", \"detail\": \"\", \"bank1\": 1, \"bank2\": 1, \"moves\": [1, 4], "
          "\"stderr\": [], \"stderr_last\": [], \"stderr_lines\": 0}, "
          "{\"start\": \"0 0 0 0 0 0 1\", \"strategy\": \"optimal\", \"seed\": 2, "
          "\"verdict\": \"loss\", \"detail\": \"\", \"bank1\": 0, \"bank2\": 1, \"moves\": [7], "
          "\"stderr\": [], \"stderr_last\": [], \"stderr_lines\": 0}], "
          "\"reports\": [{\"start\": \"1 0 0 1 0 0 0\", \"strategy\": \"optimal\", \"seed\": 1, "
          "\"verdict\": \"tie\", \"bank1\": 1, \"bank2\": 1, \"cpu_ms\": 0, \"wall_ms\": 0, "
          "\"peak_memory_kb\": 0, \"max_rss_kb\": 0}, {\"start\": \"0 0 0 0 0 0 1\", \"strategy\": "
          "\"optimal\", "
          "\"seed\": 2, \"verdict\": \"loss\", \"bank1\": 0, \"bank2\": 1, \"cpu_ms\": 0, "
          "\"wall_ms\": 0, \"peak_memory_kb\": 0, \"max_rss_kb\": 0}, {\"start\": \"0 0 0 1 2 0 "
          "0\", "
          "\"strategy\": \"optimal\", \"seed\": 3, \"verdict\": \"win\", \"bank1\": 3, "
          "\"bank2\": 0, \"cpu_ms\": 0, \"wall_ms\": 0, \"peak_memory_kb\": 0, \"max_rss_kb\": "
          "0}], "
          "\"all_won\": false}\n");
  test::check_documented("referee", {json.str()});
  // Every game's figures are there: a player's memory and time are never nothing.
  for (const GameReport& report : reports) {
    // (A cgroup's memory counts are the kernel's, which it gathers from each CPU in batches: a
    // player as small as these may be counted at 0 kB. Its resident set never is.)
    CHECK(report.max_rss_kb > 0);
    CHECK(report.max_rss_kb >= report.peak_memory_kb);
    CHECK(report.cpu > 0ns);
    CHECK(report.wall >= report.slowest_move);
  }
}

TEST_CASE("the verdict at the player's exit, case by case", "[referee]") {
  const auto exited = [](int status) {
    return std::optional<ExitStatus>(ExitStatus{false, status});
  };
  CHECK(verdict_at_exit(exited(0), true, 11, 9).verdict == Verdict::win);
  CHECK(verdict_at_exit(exited(0), true, 10, 10).verdict == Verdict::tie);
  CHECK(verdict_at_exit(exited(0), true, 9, 11).verdict == Verdict::loss);
  CHECK(verdict_at_exit(exited(0), true, 0, 1).verdict == Verdict::loss);
  CHECK(verdict_at_exit(exited(0), true, 11, 9).detail.empty());
  const ExitVerdict nonzero = verdict_at_exit(exited(3), true, 11, 9);
  CHECK(nonzero.verdict == Verdict::nonzero_exit);
  CHECK(nonzero.detail == "exited with status 3");
  const ExitVerdict early = verdict_at_exit(exited(0), false, 11, 9);
  CHECK(early.verdict == Verdict::early_exit);
  CHECK(early.detail == "exited with status 0 before the game was over");
  const ExitVerdict killed = verdict_at_exit(ExitStatus{true, 9}, true, 11, 9);
  CHECK(killed.verdict == Verdict::killed_by_signal);
  CHECK(killed.detail == "killed by signal 9");
  const ExitVerdict running = verdict_at_exit(std::nullopt, true, 11, 9);
  CHECK(running.verdict == Verdict::timeout);
  CHECK(running.detail == "closed its output but did not exit");
  CHECK(points(Verdict::win) == 4);
  CHECK(points(Verdict::tie) == 2);
  CHECK(points(Verdict::loss) == 0);
  for (int v = static_cast<int>(Verdict::unreadable_move); v < kVerdictCount; ++v)
    CHECK(points(static_cast<Verdict>(v)) == 0);
}

TEST_CASE(
    "a failed game shows the first lines of the player's standard error, and a file the "
    "games' users cannot read is said before any game",
    "[e2e][referee]") {
  // A folder only its owner may enter, as `mktemp -d` makes it, and a file in it.
  const std::string folder =
      std::filesystem::temp_directory_path() / ("ioiwari-private-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  REQUIRE(::chmod(folder.c_str(), 0700) == 0);
  const std::string secret = folder + "/ten.table";
  std::ofstream(secret) << "x";
  REQUIRE(::chmod(secret.c_str(), 0600) == 0);
  // The player tries to read the file it is given, says what came of it on standard error
  // (with a line of bytes no terminal should get raw, and more lines than are shown), and
  // exits before the game: "exit before the end".
  const std::string script =
      "if cat \"$0\" >/dev/null 2>&1; then echo \"read $0\" >&2; else echo \"cannot read $0\" "
      ">&2; fi; printf 'bell \\007 and \\033[31mred\\n' >&2; echo three >&2; echo four >&2; "
      "exit 3";
  RefereePlan plan = plan_for({"/bin/sh", "-c", script, secret}, 1, 1);
  plan.strategies = {Strategy::optimal};
  const auto sandbox = test::sandbox_for(plan.player, plan.limits, plan.jobs);
  const bool as_others = sandbox->users().has_value();
  const auto noted =
      std::find_if(sandbox->notes().begin(), sandbox->notes().end(), [&](const std::string& note) {
        return note.find("cannot read '" + secret + "'") != std::string::npos;
      });
  if (as_others) {
    // A box brings the file in whatever its folder allows; its own mode still holds.
    REQUIRE(noted != sandbox->notes().end());
    CHECK(noted->find(sandbox->boxed()
                          ? "it is mode 600, which they may not read"
                          : "its folder '" + folder + "' is mode 700, which they may not enter") !=
          std::string::npos);
  } else {
    CHECK(noted == sandbox->notes().end());  // the games run as this user, who can read it
  }
  const auto reports = run_games(plan, table(), *sandbox, {});
  std::ostringstream summary, json;
  write_summary(summary, RefereeRun{plan, *sandbox, reports, ""}, 5, 80);
  write_json(json, RefereeRun{plan, *sandbox, reports, ""});
  const std::string text = summary.str();
  INFO(text);
  const std::string first = as_others ? "cannot read " + secret : "read " + secret;
  CHECK(text.find("\n  its standard error: \"" + first + "\"\n") != std::string::npos);
  CHECK(text.find("\n  its standard error: \"bell \\x07 and \\x1b[31mred\"\n") !=
        std::string::npos);
  CHECK(text.find("\n  its standard error: \"three\"\n") != std::string::npos);
  // The fourth and last line too: the first three and the last three are shown.
  CHECK(text.find("\n  its standard error: \"four\"\n") != std::string::npos);
  CHECK(text.find(" more ...") == std::string::npos);
  const std::string machine = json.str();
  CHECK(machine.find("\"stderr\": [\"" + first +
                     "\", \"bell \\u0007 and \\u001b[31mred\", "
                     "\"three\"], \"stderr_last\": [\"four\"], \"stderr_lines\": 4}") !=
        std::string::npos);
  std::filesystem::remove_all(folder);
}
