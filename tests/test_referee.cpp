// The referee against ioiwari itself and against players that break the protocol.
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "ioiwari/process.hpp"
#include "ioiwari/referee.hpp"
#include "support.hpp"
#include "text_support.hpp"

using namespace ioiwari;
using ioiwari::test::perfect_moves;
using ioiwari::test::table;
using namespace std::chrono_literals;

namespace {

// Limits for a player that answers: far beyond what any load makes a move or an exit take, so
// that no verdict here can turn into a time limit on a busy machine.
RefereeLimits generous() {
  RefereeLimits limits;
  limits.per_move = 30s;
  limits.per_game = 300s;
  limits.after_end = 30s;
  return limits;
}

// Limits for a player that never answers (or never exits after the end): it is judged at the
// limit whatever the limit is, so a short one only saves time.
RefereeLimits silent_during_game() {
  RefereeLimits limits = generous();
  limits.per_move = 500ms;
  return limits;
}
RefereeLimits silent_after_end() {
  RefereeLimits limits = generous();
  limits.after_end = 500ms;
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

// Whether process `pid` is gone: no such process, or a zombie waiting for init.
bool gone(pid_t pid) {
  if (::kill(pid, 0) != 0) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const auto close = line.rfind(')');
  return close != std::string::npos && line.size() > close + 2 && line[close + 2] == 'Z';
}

// The processes whose command line holds `mark` and that still run (zombies are dead).
std::vector<pid_t> running_with(const std::string& mark) {
  std::vector<pid_t> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream file(entry.path() / "cmdline");
    std::string command((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (command.find(mark) == std::string::npos) continue;
    const pid_t pid = std::stoi(name);
    if (!gone(pid)) found.push_back(pid);
  }
  return found;
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
      const auto reports = run_games(plan_for({FAULTY_PLAYER, c.mode}, 3, jobs, c.limits), table());
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
  const auto one = run_games(plan, table());
  plan.jobs = 2;
  const auto two = run_games(plan, table());
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

TEST_CASE("the player's whole process group is killed and reaped", "[e2e][referee]") {
  const GameReport report = referee_game({FAULTY_PLAYER, "spawn"}, ioi_starts().front(),
                                         Strategy::optimal, 1, table(), generous());
  CHECK(report.verdict == Verdict::unreadable_move);
  std::istringstream said(report.player_errors);
  std::string word;
  pid_t grandchild = 0;
  said >> word >> grandchild;
  REQUIRE(word == "child");
  REQUIRE(grandchild > 0);
  const auto deadline = Clock::now() + 30s;  // returns as soon as it is gone
  while (!gone(grandchild) && Clock::now() < deadline)
    std::this_thread::sleep_for(10ms);
  CHECK(gone(grandchild));
}

TEST_CASE("a player that cannot be run is judged, not fatal", "[e2e][referee]") {
  const GameReport report = referee_game({"/nonexistent/player"}, ioi_starts().front(),
                                         Strategy::optimal, 1, table(), RefereeLimits{});
  CHECK(report.verdict == Verdict::early_exit);
  CHECK(report.detail.find("/nonexistent/player") != std::string::npos);
}

TEST_CASE("the summary counts verdicts and points and lists failing games", "[e2e][referee]") {
  RefereePlan plan = plan_for({FAULTY_PLAYER, "greedy"}, 51, 2);
  plan.strategies = {Strategy::optimal};
  const auto reports = run_games(plan, table());
  std::ostringstream summary, json;
  write_summary(summary, plan, reports, 2);
  write_json(json, plan, reports);
  int wins = 0, ties = 0;
  for (const GameReport& report : reports) {
    wins += report.verdict == Verdict::win ? 1 : 0;
    ties += report.verdict == Verdict::tie ? 1 : 0;
  }
  const std::string text = summary.str();
  CHECK(text.find("51 games (51 starts x 1 strategies), 2 jobs") != std::string::npos);
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
  };
  const long before = peak_memory_kb();
  for (const Case& c : cases) {
    const std::string mark = "mark-" + std::to_string(::getpid()) + "-" + c.mode;
    INFO(c.mode);
    const auto reports =
        run_games(plan_for({FAULTY_PLAYER, c.mode, mark}, 2, 2, c.limits), table());
    for (const GameReport& report : reports) {
      CHECK(report.verdict == c.verdict);
      CHECK(report.player_errors.size() <= ChildProcess::kMaxErrorBytes);
    }
    // Children that the kill orphaned are reaped by init; give it a moment (the wait ends as
    // soon as they are gone).
    const auto deadline = Clock::now() + 30s;
    while (!running_with(mark).empty() && Clock::now() < deadline) {
      std::this_thread::sleep_for(10ms);
    }
    CHECK(running_with(mark).empty());
  }
  // Flooding players must not make the referee hold their output.
  CHECK(peak_memory_kb() - before < 32 * 1024);
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
  plan.player = {IOIWARI_BINARY};
  plan.strategies = {Strategy::optimal};
  plan.limits = generous();
  for (const Case& c : cases) {
    const Board start = *Board::from_counts(c.start);
    INFO("start " << start);
    const GameReport report =
        referee_game(plan.player, start, Strategy::optimal, 1, table(), plan.limits);
    CHECK(report.verdict == c.verdict);
    CHECK(report.bank1 == c.bank1);
    CHECK(report.bank2 == c.bank2);
    CHECK(points(report.verdict) == c.points);
    plan.starts.push_back(start);
  }
  // The same three through the summary and the JSON document, pinned whole but for the time
  // of the slowest move: 2 + 0 + 4 points of 12.
  const auto reports = run_games(plan, table());
  std::ostringstream summary, json;
  write_summary(summary, plan, reports, 5);
  write_json(json, plan, reports);
  // Which game had the slowest move is a matter of timing too.
  CHECK(test_support::replace_after(summary.str(), "slowest move: ", "\n", "0 ms (start ?)") ==
        "ioiwari referee: 3 games (3 starts x 1 strategies), 1 job\n"
        "  win                        1\n"
        "  tie                        1\n"
        "  loss                       1\n"
        "  unreadable move            0\n"
        "  move out of range          0\n"
        "  empty pit                  0\n"
        "  time limit                 0\n"
        "  exit before the end        0\n"
        "  output after the end       0\n"
        "  non-zero exit              0\n"
        "  killed by a signal         0\n"
        "points: 6 of 12\n"
        "slowest move: 0 ms (start ?)\n"
        "not won: start 1 0 0 1 0 0 0, optimal, seed 1: tie; banks 1 1; moves 1 4\n"
        "not won: start 0 0 0 0 0 0 1, optimal, seed 2: loss; banks 0 1; moves 7\n"
        "not every game won\n");
  CHECK(test_support::replace_after(json.str(), "\"slowest_move_ms\": ", ",", "0") ==
        "{\"games\": 3, \"starts\": 3, \"strategies\": [\"optimal\"], \"jobs\": 1, "
        "\"verdicts\": {\"win\": 1, \"tie\": 1, \"loss\": 1, \"unreadable move\": 0, "
        "\"move out of range\": 0, \"empty pit\": 0, \"time limit\": 0, "
        "\"exit before the end\": 0, \"output after the end\": 0, \"non-zero exit\": 0, "
        "\"killed by a signal\": 0}, \"points\": 6, \"max_points\": 12, \"slowest_move_ms\": 0, "
        "\"not_won\": [{\"start\": \"1 0 0 1 0 0 0\", \"strategy\": \"optimal\", \"seed\": 1, "
        "\"verdict\": \"tie\", \"detail\": \"\", \"bank1\": 1, \"bank2\": 1, \"moves\": [1, 4]}, "
        "{\"start\": \"0 0 0 0 0 0 1\", \"strategy\": \"optimal\", \"seed\": 2, "
        "\"verdict\": \"loss\", \"detail\": \"\", \"bank1\": 0, \"bank2\": 1, \"moves\": [7]}], "
        "\"all_won\": false}\n");
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
