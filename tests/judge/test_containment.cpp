// The referee's containment against players that attack it: each attack is a mode of
// faulty_player, run in the test's own game, and each test looks for survivors by its own mark.
// Run as root (as CI runs them) they go through cgroups, the players' own users and new
// namespaces; each fallback (no cgroups, no namespaces, an unprivileged referee) is tried for
// what it still guarantees (docs/referee.md).
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "ioiwari/judge/cgroup.hpp"
#include "ioiwari/judge/process.hpp"
#include "ioiwari/judge/referee.hpp"
#include "ioiwari/judge/sandbox.hpp"
#include "referee_support.hpp"
#include "support.hpp"
#include "table_files.hpp"

using namespace ioiwari;
using ioiwari::test::generous;
using ioiwari::test::read_proc;
using ioiwari::test::running_with;
using ioiwari::test::table;
using namespace std::chrono_literals;

namespace {

// The same in one of the fallbacks.
RefereeLimits without_cgroups() {
  RefereeLimits limits = generous();
  limits.cgroups = false;
  return limits;
}
RefereeLimits without_namespaces() {
  RefereeLimits limits = generous();
  limits.isolation = Isolation::off;
  return limits;
}

// Whether this run can test the kernel's accounting: root, and cgroups to be had.
bool cgroups_here() {
  try {
    CgroupRun::make();
    return true;
  } catch (const CgroupError& error) {
    WARN("no cgroup tests: " << error.what());
    return false;
  }
}

// A mark for one test's players, found in their command lines.
std::string mark_for(const std::string& what) {
  return "mark-" + std::to_string(::getpid()) + "-" + what;
}

// One game of faulty_player in `mode` (with `args`), from the first start, against the optimal
// strategy; then no process of it may run.
GameReport hostile(const std::string& mode, const std::vector<std::string>& args,
                   const RefereeLimits& limits, const Board& start = ioi_starts().front()) {
  const std::string mark = mark_for(mode);
  std::vector<std::string> player = {FAULTY_PLAYER, mode};
  player.insert(player.end(), args.begin(), args.end());
  player.push_back(mark);
  const GameReport report = test::judge_game(player, start, Strategy::optimal, 1, table(), limits);
  INFO(mode << ": " << name(report.verdict) << " (" << report.detail << ") "
            << report.player_errors);
  CHECK(test::kill_survivors(mark) == 0);
  return report;
}

std::string left_text(int count) {
  return "exited, leaving " + std::to_string(count) + (count == 1 ? " process" : " processes") +
         " running (killed since)";
}

}  // namespace

TEST_CASE("the keeper cannot be killed, stopped, traced or held by the player",
          "[e2e][referee][hostile][containment]") {
  // Each of these escaped before: the sleeper outlived the referee. Now the keeper is the init
  // of the player's namespaces, of another user, and not dumpable.
  for (const RefereeLimits& limits : {generous(), without_cgroups(), without_namespaces()}) {
    INFO("cgroups " << limits.cgroups << ", isolation " << static_cast<int>(limits.isolation));
    for (const char* mode : {"kill-keeper", "stop-keeper", "hold-keeper", "trace-keeper"}) {
      const GameReport report = hostile(mode, {}, limits);
      INFO(mode << ": " << report.detail << " " << report.player_errors);
      CHECK(report.verdict == Verdict::left_behind);
      CHECK(report.detail == left_text(1));
      if (std::string(mode) == "trace-keeper" && ::geteuid() == 0) {
        CHECK(report.player_errors.find("trace-keeper: traced") == std::string::npos);
      }
      if (std::string(mode) == "hold-keeper" && ::geteuid() == 0) {
        CHECK(report.player_errors.find("hold-keeper: 0 held") != std::string::npos);
      }
    }
  }
}

TEST_CASE("a player that traces itself is judged at its time limit, and its tracer dies",
          "[e2e][referee][hostile][containment]") {
  // It plays to the end and exits; its tracer never waits for it, so it never ends for its
  // keeper: judged at the limit after the end, and then everything dies.
  RefereeLimits limits = generous();
  limits.after_end = 500ms;
  limits.wall_factor = 1;
  const GameReport report = hostile("trace-player", {}, limits);
  INFO(report.detail);
  CHECK(report.verdict == Verdict::timeout);
  CHECK(report.detail.starts_with("after the game ended"));
}

TEST_CASE("a forged report cannot change a verdict", "[e2e][referee][hostile][containment]") {
  for (const RefereeLimits& limits : {generous(), without_cgroups(), without_namespaces()}) {
    const GameReport report = hostile("forge-report", {}, limits);
    INFO(report.player_errors);
    CHECK(report.verdict == Verdict::left_behind);
    CHECK(report.player_errors == "forge-report: 0 written\n");
  }
}

TEST_CASE("a process hidden from /proc is still counted and killed",
          "[e2e][referee][hostile][containment]") {
  for (const RefereeLimits& limits : {generous(), without_cgroups()}) {
    const GameReport report = hostile("hide-proc", {}, limits);
    INFO(report.player_errors);
    CHECK(report.verdict == Verdict::left_behind);
    CHECK(report.detail == left_text(2));
  }
}

TEST_CASE("what is left behind is counted exactly, however it looks",
          "[e2e][referee][hostile][containment]") {
  for (const RefereeLimits& limits : {generous(), without_cgroups()}) {
    INFO("cgroups " << limits.cgroups);
    // A process whose first thread has ended while another runs is no zombie.
    const GameReport leader = hostile("leader-exits", {}, limits);
    CHECK(leader.verdict == Verdict::left_behind);
    CHECK(leader.detail == left_text(1));
    // More children than one children file's first read can list.
    // (Without a cgroup, pages that forked processes share count once for each of them.)
    RefereeLimits many = limits;
    many.processes = 2000;
    many.memory_mb = 64 * 1024;
    const GameReport crowd = hostile("many-children", {"1001"}, many);
    CHECK(crowd.verdict == Verdict::left_behind);
    CHECK(crowd.detail == left_text(1001));
  }
  // A chain that forks and exits without end: every game is judged, none escapes.
  if (!cgroups_here()) return;
  RefereePlan plan;
  plan.player = {FAULTY_PLAYER, "fork-chain", mark_for("fork-chain-plan")};
  plan.starts = std::vector<Board>(16, ioi_starts().front());
  plan.strategies = {Strategy::optimal};
  plan.jobs = 2;
  plan.limits = generous();
  for (const GameReport& report : test::judge_games(plan, table())) {
    CHECK(report.verdict == Verdict::left_behind);
  }
  CHECK(test::kill_survivors(mark_for("fork-chain-plan")) == 0);
}

TEST_CASE("the kernel caps a game's processes", "[e2e][referee][hostile][containment]") {
  if (test::kSanitized) {
    // LeakSanitizer needs a thread of its own when the player exits, which the cap refuses.
    WARN("no test of the process cap under the sanitizers");
    return;
  }
  // 20 children asked for, 8 tasks allowed: the player and 7 of them.
  for (RefereeLimits limits : {generous(), without_cgroups()}) {
    if (!limits.cgroups && ::geteuid() != 0) continue;  // the user's limit needs a user of its own
    limits.processes = 8;
    const GameReport report = hostile("many-children", {"20"}, limits);
    INFO("cgroups " << limits.cgroups << ": " << report.detail);
    CHECK(report.verdict == Verdict::left_behind);
    if (limits.cgroups) {
      CHECK(report.detail == left_text(7));
    } else {
      // RLIMIT_NPROC of the game's user also counts what is still being torn down.
      CHECK(report.detail.starts_with("exited, leaving "));
      CHECK(report.detail.find("leaving 20 ") == std::string::npos);
    }
  }
}

TEST_CASE("a process left after a tie or a loss is judged as after a win",
          "[e2e][referee][hostile][containment]") {
  // 1 0 0 1 0 0 0 is a tie, 0 0 0 0 0 0 1 a loss, whatever is played.
  for (const std::vector<int>& counts :
       {std::vector<int>{1, 0, 0, 1, 0, 0, 0}, std::vector<int>{0, 0, 0, 0, 0, 0, 1}}) {
    const GameReport report =
        hostile("leave-on-tie", {}, generous(), *Board::from_counts(counts, Ring::ioi()));
    CHECK(report.verdict == Verdict::left_behind);
    CHECK(report.bank1 <= report.bank2);
  }
}

TEST_CASE("memory no process maps, and memory of processes a sampler misses, is counted",
          "[e2e][referee][hostile][containment]") {
  if (!cgroups_here()) return;
  RefereeLimits limits = generous();
  limits.memory_mb = 64;
  limits.processes = 1000;
  limits.file_size_mb = 1 << 20;  // a memfd or a POSIX shm is a file: its size is limited too
  struct Case {
    const char* mode;
    std::vector<std::string> args;
  };
  const std::string shm_name = mark_for("shm");
  const std::vector<Case> cases = {
      {"memfd", {"512"}},                       // written, never mapped
      {"memfd-fallocate", {"512"}},             // allocated, never written
      {"shm", {"512", shm_name}},               // a POSIX shared memory file
      {"leader-exits-memory", {"100"}},         // held by a thread whose leader has ended
      {"zombies-hide-worker", {"800", "100"}},  // behind 800 zombies
      {"split-memory", {"4", "24"}},            // 96 MB in all, 24 MB a process
  };
  for (const Case& c : cases) {
    const GameReport report = hostile(c.mode, c.args, limits);
    INFO(c.mode << ": " << report.detail);
    CHECK(report.verdict == Verdict::memory_limit);
  }
  // What a player leaves in a shared file system is its own to lose; the test's to clean.
  std::error_code ignored;
  std::filesystem::remove("/dev/shm/ioiwari-test-" + shm_name, ignored);
  // Without cgroups the sampler still sums its processes.
  const GameReport split = hostile("split-memory", {"4", "24"}, [&] {
    RefereeLimits sampled = limits;
    sampled.cgroups = false;
    return sampled;
  }());
  CHECK(split.verdict == Verdict::memory_limit);
}

TEST_CASE("CPU time of processes nobody waits for, or after the output closes, is charged",
          "[e2e][referee][hostile][containment]") {
  if (!cgroups_here()) return;
  // Only the CPU time can end these games: the clock's limit is far beyond any load.
  RefereeLimits limits = generous();
  limits.per_move = 300ms;
  limits.after_end = 300ms;
  limits.wall_factor = 1000;
  for (const char* mode : {"reaped-by-kernel", "fork-chain-spin", "leader-exits-spin"}) {
    const GameReport report = hostile(mode, {}, limits);
    INFO(mode << ": " << report.detail);
    CHECK(report.verdict == Verdict::timeout);
    CHECK(report.detail.find(" of CPU time; the limit is 300 ms") != std::string::npos);
  }
  // Without a cgroup, the CPU time of a child its parent waited for is still the player's.
  for (const RefereeLimits& base : {limits, [&] {
                                      RefereeLimits sampled = limits;
                                      sampled.cgroups = false;
                                      return sampled;
                                    }()}) {
    const GameReport report = hostile("reaped-child", {}, base);
    INFO("cgroups " << base.cgroups << ": " << report.detail);
    CHECK(report.verdict == Verdict::timeout);
    CHECK(report.detail.find(" of CPU time; the limit is 300 ms") != std::string::npos);
  }
  const GameReport closed = hostile("spin-after-close", {}, limits);
  INFO(closed.detail);
  CHECK(closed.verdict == Verdict::timeout);
  CHECK(closed.detail.starts_with("after the game ended, its output closed, still running: used "));
}

TEST_CASE("a game's wall-clock limit is its CPU limit times the factor",
          "[e2e][referee][hostile][containment]") {
  // Each move waits 900 ms and uses no CPU time: within a move's limit, past the game's 2 s at
  // the third of its five moves, however fast the machine. (Moves of 400 ms came to 2 s with
  // the fifth, the last: a race the game sometimes won.)
  RefereeLimits limits = generous();
  limits.per_game = 1000ms;
  limits.wall_factor = 2;
  const GameReport report = hostile("slow-moves", {"900"}, limits);
  INFO(report.detail);
  CHECK(report.verdict == Verdict::timeout);
  CHECK(report.wall >= 2000ms);
  CHECK(report.detail.find("nothing within ") != std::string::npos);
}

TEST_CASE("an isolated player sees only its own processes, and cannot write to the referee's",
          "[e2e][referee][hostile][containment]") {
  if (const auto refused = isolation_refused()) {
    WARN("no isolation test: " << *refused);
    return;
  }
  const GameReport seen = hostile("processes", {}, generous());
  CHECK(seen.verdict == Verdict::win);
  // Itself, and its init where that is of its own user; as root, the box's /proc hides the
  // keeper (hidepid=2).
  CHECK(seen.player_errors == (::geteuid() == 0 ? "processes 1\n" : "processes 2\n"));
  // Not isolated, it sees the machine's; and writes to none of them as another user.
  const GameReport shared = hostile("processes", {}, without_namespaces());
  CHECK(shared.player_errors != "processes 2\n");
  CHECK(shared.player_errors != "processes 1\n");
  for (const RefereeLimits& limits : {generous(), without_namespaces()}) {
    const GameReport report = hostile("write-referee", {}, limits);
    CHECK(report.verdict == Verdict::win);
    if (::geteuid() == 0) CHECK(report.player_errors == "write-referee: 0 written\n");
  }
}

TEST_CASE("a player dies with its keeper", "[e2e][referee][hostile][containment]") {
  // Not through the cgroup or a namespace, which would kill it anyway: the player's own
  // parent-death signal, which a change of user clears unless it is set after it.
  const std::string mark = mark_for("orphan");
  Containment containment;
  if (::geteuid() == 0) containment.user = RunAs{test::own_first_user(), test::own_first_user()};
  ChildProcess child({FAULTY_PLAYER, "hang", mark}, containment);
  const auto deadline = Clock::now() + 60s;
  std::vector<pid_t> player;
  while ((player = running_with(mark)).empty() && Clock::now() < deadline)
    std::this_thread::sleep_for(5ms);
  REQUIRE(player.size() == 1);
  const std::string stat = read_proc("/proc/" + std::to_string(player.front()) + "/stat");
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string state;
  pid_t keeper = 0;
  fields >> state >> keeper;
  REQUIRE(keeper > 1);
  REQUIRE(::kill(keeper, SIGKILL) == 0);
  while (!running_with(mark).empty() && Clock::now() < deadline)
    std::this_thread::sleep_for(5ms);
  CHECK(test::kill_survivors(mark) == 0);
}

TEST_CASE("a cgroup's kill leaves nothing of what ran in it, a fork chain included",
          "[e2e][referee][hostile][containment]") {
  if (!cgroups_here()) return;
  const auto run = CgroupRun::make();
  const auto group = run->game("kill-test", CgroupLimits{});
  const std::string mark = mark_for("cgroup-kill");
  const pid_t shell = ::fork();
  REQUIRE(shell >= 0);
  if (shell == 0) {
    for (int fd : group->join_descriptors())
      if (::write(fd, "0", 1) != 1) ::_exit(126);
    // Sleepers, and a chain that forks and exits without end: $0 is the mark.
    ::execl("/bin/sh", "sh", "-c", "sleep 1000 & sleep 1000 & while :; do (sleep 1000 &); done",
            mark.c_str(), nullptr);
    ::_exit(127);
  }
  const auto deadline = Clock::now() + 60s;
  while (group->processes().size() < 3 && Clock::now() < deadline)
    std::this_thread::sleep_for(5ms);
  CHECK(group->processes().size() >= 3);
  CHECK(group->kill(10s));
  CHECK(group->processes().empty());
  ::waitpid(shell, nullptr, 0);
  CHECK(test::kill_survivors(mark) == 0);
  // The kernel counted what they used, and nothing more runs to count.
  CHECK(group->usage().cpu > 0ns);
  CHECK(group->reusable());
}

TEST_CASE("the cgroup files are read as the kernel writes them", "[referee][containment]") {
  const std::string stat = "anon 4096\nfile 8192\nshmem 12288\nanon_thp 0\n";
  CHECK(keyed_value(stat, "anon") == 4096u);
  CHECK(keyed_value(stat, "shmem") == 12288u);
  CHECK(keyed_value(stat, "anon_thp") == 0u);
  CHECK_FALSE(keyed_value(stat, "an").has_value());
  CHECK_FALSE(keyed_value(stat, "swap").has_value());
  CHECK(keyed_value("usage_usec 1234567\nuser_usec 1\n", "usage_usec") == 1234567u);
}
