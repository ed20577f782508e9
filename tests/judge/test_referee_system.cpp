// The referee's isolation and the system beneath it: a player without network or a way out, and
// a system that refuses the referee something (the open-file limit, privileges, processes,
// namespaces, a box or a filter); and a referee stopped by a signal.
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
TEST_CASE("with isolation a player has no network, its own process numbers, and no way out",
          "[e2e][referee][hostile][isolate]") {
  if (const auto refused = isolation_refused()) {
    WARN("no isolation test: " << *refused);
    return;
  }
  // A port that answers, for a player that is not isolated to reach.
  const int server = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(server >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(server, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(::listen(server, 8) == 0);
  socklen_t length = sizeof address;
  REQUIRE(::getsockname(server, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  const std::string port = std::to_string(ntohs(address.sin_port));
  RefereeLimits isolated = generous();
  isolated.isolation = Isolation::required;
  RefereeLimits shared = generous();
  shared.isolation = Isolation::off;
  const auto game = [&](std::vector<std::string> player, const RefereeLimits& limits) {
    return test::judge_game(player, ioi_starts().front(), Strategy::optimal, 1, table(), limits);
  };
  const GameReport open = game({FAULTY_PLAYER, "network", port}, shared);
  CHECK(open.verdict == Verdict::win);
  CHECK(open.player_errors == "network: connected\n");
  const GameReport closed = game({FAULTY_PLAYER, "network", port}, isolated);
  CHECK(closed.verdict == Verdict::win);
  CHECK(closed.player_errors.starts_with("network: "));
  CHECK(closed.player_errors != "network: connected\n");
  ::close(server);
  // The player is alone in its PID namespace, below its keeper, the namespace's init.
  const GameReport pid = game({FAULTY_PLAYER, "pid"}, isolated);
  CHECK(pid.verdict == Verdict::win);
  CHECK(pid.player_errors == "pid 2\n");
  // What it leaves is judged and killed as without isolation.
  for (const char* mode : {"setsid-child", "double-fork"}) {
    const std::string mark = "mark-" + std::to_string(::getpid()) + "-isolated-" + mode;
    const GameReport left = game({FAULTY_PLAYER, mode, mark}, isolated);
    CHECK(left.verdict == Verdict::left_behind);
    CHECK(test::kill_survivors(mark) == 0);
  }
  // ioiwari itself plays as ever.
  CHECK(game({PLAYER_IOIWARI}, isolated).verdict == Verdict::win);
}

namespace {

// Runs the binary with `args` in a child whose limits `prepare` sets (in the child, before exec),
// and collects how it ends: the tests' one way to run a program (support/run_program.hpp).
using Ended = ioiwari::test::Run;
Ended run_limited(const std::string& binary, const std::vector<std::string>& args,
                  const std::function<void()>& prepare) {
  std::vector<std::string> argv = {binary};
  argv.insert(argv.end(), args.begin(), args.end());
  ioiwari::test::RunOptions options;
  options.prepare = prepare;
  return ioiwari::test::run_program(argv, "", options);
}

}  // namespace

TEST_CASE(
    "a --jobs the open-file limit cannot serve is capped, once, and every game is judged right",
    "[e2e][referee][hostile]") {
  const Ended ended = run_limited(
      IOIWARI_BINARY, test::referee_args({"--starts", "24", "--jobs", "256", "--", PLAYER_IOIWARI}),
      [] {
        const rlimit files{80, 80};  // soft and hard: the referee cannot raise it
        ::setrlimit(RLIMIT_NOFILE, &files);
      });
  INFO(ended.err);
  CHECK(ended.status == 0);
  CHECK(ended.err ==
        "ioiwari: referee: --jobs 256 capped at 2: this process may open too few "
        "files for more games at once\n");
  CHECK(ended.out.find("24 games (24 starts x 1 strategy), 2 jobs") != std::string::npos);
  CHECK(ended.out.ends_with("every game won\n"));
}

TEST_CASE("the open-file limit is raised to its hard limit before --jobs is capped",
          "[e2e][referee][hostile]") {
  const Ended ended =
      run_limited(IOIWARI_BINARY,
                  test::referee_args({"--starts", "8", "--jobs", "8", "--", PLAYER_IOIWARI}), [] {
                    const rlimit files{64, 4096};  // too few for 8 games, until raised
                    ::setrlimit(RLIMIT_NOFILE, &files);
                  });
  INFO(ended.err);
  CHECK(ended.status == 0);
  CHECK(ended.err.find("capped") == std::string::npos);
  CHECK(ended.out.find("8 games (8 starts x 1 strategy), 8 jobs") != std::string::npos);
}

TEST_CASE("an unprivileged referee still keeps every player in, and says what it lacks",
          "[e2e][referee][hostile][containment]") {
  if (::geteuid() != 0) {
    WARN("no test of an unprivileged referee: it needs root to switch to another user");
    return;
  }
  // The binaries go where that user can run them.
  test::TempFolder folder;
  ::chmod(folder.path().c_str(), 0755);
  const std::string binary = folder.file("ioiwari"), player = folder.file("faulty_player");
  std::filesystem::copy_file(IOIWARI_BINARY, binary);
  std::filesystem::copy_file(FAULTY_PLAYER, player);
  ::chmod(binary.c_str(), 0755);
  ::chmod(player.c_str(), 0755);
  const uid_t nobody = 65534;
  for (const char* mode : {"kill-keeper", "stop-keeper", "hold-keeper", "trace-keeper",
                           "forge-report", "leader-exits", "write-referee"}) {
    const std::string mark = "mark-" + std::to_string(::getpid()) + "-nobody-" + mode;
    std::vector<std::string> args =
        test::referee_args_without_root({"--starts", "2", "--", player, mode, mark});
    const Ended ended = run_limited(binary, args, [=] {
      if (::setgroups(0, nullptr) != 0 || ::setgid(nobody) != 0 || ::setuid(nobody) != 0) {
        ::_exit(126);
      }
    });
    INFO(mode << ": " << ended.err << ended.out);
    REQUIRE(ended.status != 126);
    // No cgroup for nobody: it says so once, and the keeper counts.
    CHECK(ended.err.starts_with("ioiwari: referee: no cgroups ("));
    CHECK(ended.out.find("(forged)") == std::string::npos);
    if (std::string(mode) == "write-referee") {
      CHECK(ended.status == 0);
    } else {
      CHECK(ended.status == 1);
      CHECK(ended.out.find("  left processes behind      2\n") != std::string::npos);
    }
    CHECK(test::kill_survivors(mark) == 0);
  }
  // Without namespaces, nothing but its being undumpable keeps the keeper's descriptors from a
  // player of its own user (which can still kill it: docs/referee.md says so).
  for (const char* mode : {"forge-report", "hold-keeper", "write-referee"}) {
    const std::string mark = "mark-" + std::to_string(::getpid()) + "-nobody-shared-" + mode;
    const Ended ended = run_limited(
        binary,
        test::referee_args_without_root(
            {"--no-isolate", "--starts", "2", "--", player, mode, mark}),
        [=] {
          if (::setgroups(0, nullptr) != 0 || ::setgid(nobody) != 0 || ::setuid(nobody) != 0) {
            ::_exit(126);
          }
        });
    INFO(mode << ", not isolated: " << ended.err << ended.out);
    CHECK(ended.out.find("(forged)") == std::string::npos);
    if (std::string(mode) != "write-referee") {
      CHECK(ended.out.find("  left processes behind      2\n") != std::string::npos);
    }
    CHECK(test::kill_survivors(mark) == 0);
  }
}

TEST_CASE("when the system refuses processes the referee waits, and its failure is never a verdict",
          "[e2e][referee][hostile]") {
  // RLIMIT_NPROC binds a user other than root; the binary goes where that user can run it.
  if (::geteuid() != 0 || test::kSanitized) {
    WARN(
        "no test of a process limit: it needs root to run the referee as another user, and "
        "programs without the sanitizers' threads");
    return;
  }
  test::TempFolder folder;
  ::chmod(folder.path().c_str(), 0755);
  const std::string binary = folder.file("ioiwari");
  std::filesystem::copy_file(IOIWARI_BINARY, binary);
  ::chmod(binary.c_str(), 0755);
  // RLIMIT_NPROC counts every process of the user, so the user is one that no other process
  // is: not nobody, whom another test runs referees as, at the same time under ctest -j.
  const uid_t alone = 3999999917;
  const auto as_alone_with = [&](rlim_t processes) {
    return [=] {
      const rlimit limit{processes, processes};
      ::setrlimit(RLIMIT_NPROC, &limit);
      if (::setgroups(0, nullptr) != 0 || ::setgid(alone) != 0 || ::setuid(alone) != 0) {
        ::_exit(126);
      }
    };
  };
  // Room for the referee's threads and one game at a time: the other jobs' forks are refused
  // (EAGAIN) until a game ends. Every game is still played, and won.
  const Ended tight = run_limited(binary, {"referee", "--starts", "8", "--jobs", "3", "--", binary},
                                  as_alone_with(6));
  INFO(tight.err);
  REQUIRE(tight.status != 126);
  CHECK(tight.status == 0);
  CHECK(tight.out.find("8 games (8 starts x 1 strategy), 3 jobs") != std::string::npos);
  CHECK(tight.out.find("  win                        8\n") != std::string::npos);
  // No room at all: the referee gives up with its own status and one line; nothing is judged.
  const Ended none =
      run_limited(binary, {"referee", "--starts", "2", "--", binary}, as_alone_with(1));
  INFO(none.err);
  CHECK(none.status == static_cast<int>(RefereeExit::failed));
  CHECK(none.out.empty());
  CHECK(none.err.starts_with("ioiwari: referee: fork: Resource temporarily unavailable"));
  CHECK(none.err.find('\n') == none.err.size() - 1);
}

TEST_CASE("a user at its process limit waits for the last game's processes to go",
          "[e2e][referee][hostile]") {
  // A game's user, limited to 3 processes, still has 4: an earlier game's, being torn down.
  // The kernel then refuses the next program's execve (EAGAIN), which is no fault of the
  // program: the start waits until they are gone, and runs.
  if (::geteuid() != 0) {
    WARN("no test of a user's process limit: it needs root to run programs as another user");
    return;
  }
  Containment held;
  held.user = RunAs{test::own_first_user(), test::own_first_user()};
  const std::string mark = "mark-" + std::to_string(::getpid()) + "-user-limit";
  std::vector<std::unique_ptr<ChildProcess>> earlier;
  for (int k = 0; k < 4; ++k)
    earlier.push_back(std::make_unique<ChildProcess>(
        std::vector<std::string>{FAULTY_PLAYER, "hang", mark}, held));
  // Each has exec'd: its keeper read the start pipe's end.
  Containment limited = held;
  limited.processes = 3;
  std::thread ending([&] {
    std::this_thread::sleep_for(200ms);
    earlier.clear();  // killed and reaped
  });
  std::optional<ChildProcess> next;
  try {
    next.emplace(std::vector<std::string>{FAULTY_PLAYER, "hang", mark + "-next"}, limited);
  } catch (const SpawnError& error) {
    FAIL_CHECK("the start gave up: " << error.what());
  }
  ending.join();
  CHECK(next.has_value());
  next.reset();
  CHECK(test::kill_survivors(mark) == 0);
}

TEST_CASE("isolation where the system refuses namespaces is refused with one line",
          "[e2e][referee][isolate]") {
  const Ended refused = run_limited(
      DENY_NAMESPACES,
      [] {
        std::vector<std::string> args = {IOIWARI_BINARY};
        for (const std::string& arg :
             test::referee_args({"--isolate", "--starts", "2", "--", PLAYER_IOIWARI}))
          args.push_back(arg);
        return args;
      }(),
      [] {});
  INFO(refused.err);
  CHECK(refused.status == 2);
  CHECK(refused.out.empty());
  CHECK(refused.err ==
        "ioiwari: referee: --isolate: cannot make new namespaces: Operation not permitted\n");
  // Without --isolate the same system runs the games.
  const Ended plain = run_limited(
      DENY_NAMESPACES,
      [] {
        std::vector<std::string> args = {IOIWARI_BINARY};
        for (const std::string& arg : test::referee_args({"--starts", "2", "--", PLAYER_IOIWARI}))
          args.push_back(arg);
        return args;
      }(),
      [] {});
  CHECK(plain.status == 0);
}

TEST_CASE("a box or a filter the system refuses is said once, and refused with --isolate",
          "[e2e][referee][isolate][box]") {
  if (::geteuid() != 0 || isolation_refused()) {
    WARN("no test of the box's fallback: a box needs root and namespaces");
    return;
  }
  const auto referee = [](const char* deny, std::vector<std::string> flags) {
    std::vector<std::string> args = {deny, IOIWARI_BINARY};
    flags.insert(flags.end(), {"--starts", "2", "--", PLAYER_IOIWARI});
    for (const std::string& arg : test::referee_args(flags))
      args.push_back(arg);
    return run_limited(DENY_NAMESPACES, args, [] {});
  };
  // Without --isolate, one line says what the games go without, and they are played.
  const std::pair<const char*, const char*> noted[] = {
      {"--box",
       "no box (cannot build the game's box (moving into it): Operation not permitted): players "
       "share the machine's files, /tmp among them"},
      {"--filter",
       "no call refused (cannot filter the player's system calls: Invalid argument): players "
       "may use io_uring, the kernel's keyrings and new namespaces"}};
  for (const auto& [deny, note] : noted) {
    const Ended ran = referee(deny, {});
    INFO(ran.err);
    CHECK(ran.status == 0);
    CHECK(ran.err == "ioiwari: referee: " + std::string(note) + "\n");
  }
  for (const char* deny : {"--box", "--filter"}) {
    const Ended refused = referee(deny, {"--isolate"});
    INFO(refused.err);
    CHECK(refused.status == 2);
    CHECK(refused.out.empty());
    CHECK(refused.err.starts_with("ioiwari: referee: --isolate: cannot "));
  }
}

TEST_CASE("a referee stopped by a signal ends every game and judges none",
          "[e2e][referee][hostile]") {
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    INFO("signal " << signal);
    const std::string mark =
        "mark-" + std::to_string(::getpid()) + "-stopped-" + std::to_string(signal);
    const std::string player = FAULTY_PLAYER;  // copied before the fork, not in the child
    const pid_t referee = ::fork();
    REQUIRE(referee >= 0);
    if (referee == 0) {
      const int null = ::open("/dev/null", O_RDWR);
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
      ::execl(IOIWARI_BINARY, IOIWARI_BINARY, "referee", "--no-data-limit", "--starts", "6",
              "--jobs", "2", "--move-time", "100000", "--", player.c_str(), "hang", mark.c_str(),
              nullptr);
      ::_exit(127);
    }
    // Two games under way, their players waiting. (The referee and its keepers hold the mark
    // too, in the player's command line they were given.)
    const auto deadline = Clock::now() + 120s;
    while (running_with(mark, player).size() < 2 && Clock::now() < deadline)
      std::this_thread::sleep_for(10ms);
    REQUIRE(running_with(mark, player).size() == 2);
    ::kill(referee, signal);
    int status = 0;
    ::waitpid(referee, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 128 + signal);
    CHECK(test::kill_survivors(mark) == 0);
  }
}
