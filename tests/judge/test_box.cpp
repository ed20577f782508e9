// A box for every game (docs/referee.md): what one game writes the next never sees, and no
// player reaches the judge's files or another run's players. Each attack is a mode of
// faulty_player (box_attacks.cpp), written as the attacker; where it matters, the same attack is
// run without the box too, to show that it is real and that the test can fail.
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/judge/box.hpp"
#include "ioiwari/judge/process.hpp"
#include "ioiwari/judge/referee.hpp"
#include "ioiwari/judge/sandbox.hpp"
#include "referee_support.hpp"
#include "run_program.hpp"
#include "support.hpp"
#include "table_files.hpp"

using namespace ioiwari;
using ioiwari::test::generous;
using ioiwari::test::table;
namespace fs = std::filesystem;

namespace {

// Whether games here get a box: root, and namespaces allowed.
bool boxed_here() {
  if (::geteuid() != 0) {
    WARN("no box tests: a box needs root");
    return false;
  }
  if (const auto refused = isolation_refused()) {
    WARN("no box tests: " << *refused);
    return false;
  }
  return true;
}

std::string mark_for(const std::string& what) {
  return "mark-" + std::to_string(::getpid()) + "-" + what;
}

RefereeLimits unboxed() {
  RefereeLimits limits = generous();
  limits.isolation = Isolation::off;
  return limits;
}

// `count` games of faulty_player in `mode` (with `args`), one after another in one slot (one
// user), in a sandbox that `adjust` may change; then no process of it may run.
std::vector<GameReport> games(const std::string& mode, const std::vector<std::string>& args,
                              const RefereeLimits& limits, std::size_t count = 1,
                              const std::function<void(SandboxRequest&)>& adjust = {}) {
  const std::string mark = mark_for(mode);
  RefereePlan plan;
  plan.player = {FAULTY_PLAYER, mode};
  plan.player.insert(plan.player.end(), args.begin(), args.end());
  plan.player.push_back(mark);
  const std::vector<Board> all = ioi_starts();
  plan.starts.assign(all.begin(), all.begin() + static_cast<long>(count));
  plan.strategies = {Strategy::optimal};
  plan.limits = limits;
  const auto sandbox = test::sandbox_for(plan.player, limits, 1, adjust);
  const std::vector<GameReport> reports = run_games(plan, table(), *sandbox, {});
  for (const GameReport& report : reports)
    INFO(mode << ": " << name(report.verdict) << " (" << report.detail << ")\n"
              << report.player_errors);
  CHECK(test::kill_survivors(mark) == 0);
  return reports;
}

bool has_line(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

// A folder of the test's own, removed with everything in it at the end.
struct Folder {
  fs::path path;
  explicit Folder(const std::string& what, fs::perms mode = fs::perms(0755)) {
    std::string pattern = (fs::temp_directory_path() / ("ioiwari-box-" + what + "-XXXXXX"));
    path = ::mkdtemp(pattern.data());
    fs::permissions(path, mode);
  }
  ~Folder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

// Users of this test's range held as another referee run holds them: by the lock of each in
// the suite's folder of locks. Released when it ends.
struct HeldUsers {
  std::vector<int> locks;
  void hold(uid_t uid) {
    fs::create_directories(test::user_locks());
    const int fd = ::open((test::user_locks() + "/" + std::to_string(uid)).c_str(),
                          O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    INFO("user " << uid << ": " << std::strerror(errno));
    REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
    locks.push_back(fd);
  }
  ~HeldUsers() {
    for (int fd : locks)
      ::close(fd);
  }
};

// `ioiwari referee` with `args`, as the suite runs it: this test process's users as root, and
// no data limit for a sanitized player.
std::vector<std::string> in_referee(const std::vector<std::string>& args) {
  std::vector<std::string> command = {IOIWARI_BINARY};
  for (const std::string& arg : test::referee_args(args))
    command.push_back(arg);
  return command;
}

}  // namespace

TEST_CASE("nothing a game writes is there for the next: files, shared memory and keys",
          "[e2e][referee][hostile][box]") {
  if (!boxed_here()) return;
  const std::string mark = mark_for("carry");
  const std::vector<std::string> places = {"/tmp/", "/var/tmp/", "/dev/shm/",
                                           fs::current_path().string() + "/"};
  // Two games in one slot: the same user, one after the other, as a whole run's games are.
  const std::vector<GameReport> reports = games("carry", {}, generous(), 2);
  REQUIRE(reports.size() == 2);
  for (const GameReport& report : reports)
    CHECK(report.verdict == Verdict::win);
  for (const char* place : {"/tmp/", "/var/tmp/", "/dev/shm/", "./"}) {
    const std::string path = std::string(place) + "carry-" + mark;
    // Each game could write there, in its box; the next found nothing.
    CHECK(has_line(reports[0].player_errors, "carry: left " + path + ": ok"));
    CHECK(has_line(reports[1].player_errors, "carry: found " + path + ": ENOENT"));
  }
  CHECK(has_line(reports[1].player_errors, "carry: found key: EPERM"));
  CHECK(has_line(reports[1].player_errors, "carry: left key: EPERM"));
  // And nothing is left on the machine.
  for (const std::string& place : places) {
    const fs::path path = place + "carry-" + mark;
    CHECK_FALSE(fs::exists(path));
    std::error_code ignored;
    fs::remove(path, ignored);
  }

  // Without the box the same attack carries its files from game to game: the test can fail.
  const std::vector<GameReport> open = games("carry", {}, unboxed(), 2);
  CHECK(has_line(open[1].player_errors, "carry: found /tmp/carry-" + mark + ": ok 21 bytes"));
  for (const std::string& place : places) {
    std::error_code ignored;
    fs::remove(place + "carry-" + mark, ignored);
  }
}

TEST_CASE("a unix socket outside the box is out of reach, by path or abstract",
          "[e2e][referee][hostile][box]") {
  if (!boxed_here()) return;
  const std::string mark = mark_for("socket");
  const Folder folder("socket");
  const std::string path = (folder.path / "helper.sock").string();
  const std::string abstract = "@ioiwari-" + mark;
  // The helper outside: listening, by path (anyone may connect) and abstract.
  const auto listen_on = [](const std::string& where) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const bool abstract_name = where.starts_with('@');
    std::memcpy(address.sun_path + (abstract_name ? 1 : 0), where.c_str() + (abstract_name ? 1 : 0),
                where.size() - (abstract_name ? 1 : 0));
    const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + where.size());
    REQUIRE(::bind(fd, reinterpret_cast<const sockaddr*>(&address), length) == 0);
    REQUIRE(::listen(fd, 4) == 0);
    return fd;
  };
  const int by_path = listen_on(path);
  ::chmod(path.c_str(), 0777);
  const int by_name = listen_on(abstract);
  const auto accepted = [](int fd) {
    const int peer = ::accept4(fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (peer >= 0) ::close(peer);
    return peer >= 0;
  };

  const GameReport boxed = games("socket", {path, abstract}, generous()).front();
  CHECK(boxed.verdict == Verdict::win);
  CHECK(has_line(boxed.player_errors, "socket " + path + ": ENOENT"));
  CHECK(has_line(boxed.player_errors, "socket " + abstract + ": ECONNREFUSED"));
  CHECK_FALSE(accepted(by_path));
  CHECK_FALSE(accepted(by_name));

  // Without the box, and in the machine's network namespace, both reach the helper.
  const GameReport open = games("socket", {path, abstract}, unboxed()).front();
  CHECK(has_line(open.player_errors, "socket " + path + ": connected"));
  CHECK(has_line(open.player_errors, "socket " + abstract + ": connected"));
  CHECK(accepted(by_path));
  CHECK(accepted(by_name));
  ::close(by_path);
  ::close(by_name);
}

TEST_CASE("the player's environment is a short list, and --env passes one more",
          "[e2e][referee][hostile][box]") {
  ::setenv("IOIWARI_TEST_SECRET", "token-of-the-judge", 1);
  const std::string here = fs::current_path().string();
  for (const RefereeLimits& limits : {generous(), unboxed()}) {
    const GameReport report = games("environment", {}, limits).front();
    CHECK(report.verdict == Verdict::win);
    CHECK(report.player_errors.find("token-of-the-judge") == std::string::npos);
    CHECK(has_line(report.player_errors, "env PATH=/usr/local/bin:/usr/bin:/bin"));
    CHECK(has_line(report.player_errors, "env LIBC_FATAL_STDERR_=1"));
    const bool boxed =
        ::geteuid() == 0 && limits.isolation != Isolation::off && !isolation_refused();
    if (boxed) {
      // HOME is its own working folder, at the path of ours, and nothing of ours is in it.
      CHECK(has_line(report.player_errors, "env HOME=" + here));
      CHECK(has_line(report.player_errors, "cwd " + here + ": 0 entries"));
    }
    const auto lines = std::count(report.player_errors.begin(), report.player_errors.end(), '\n');
    CHECK(lines == (boxed ? 4 : 3));  // the variables, and the working folder
  }
  const GameReport passed =
      games("environment", {}, generous(), 1, [](SandboxRequest& request) {
        request.environment = {"IOIWARI_TEST_SECRET=passed on purpose", "PATH=/usr/bin"};
      }).front();
  CHECK(has_line(passed.player_errors, "env IOIWARI_TEST_SECRET=passed on purpose"));
  CHECK(has_line(passed.player_errors, "env PATH=/usr/bin"));
  CHECK_FALSE(has_line(passed.player_errors, "env PATH=/usr/local/bin:/usr/bin:/bin"));
  ::unsetenv("IOIWARI_TEST_SECRET");
}

TEST_CASE("the judge's files are out of reach: its command line, its table, its folders",
          "[e2e][referee][hostile][box]") {
  if (!boxed_here()) return;
  // A table of the judge's, which any user of the machine could read.
  const Folder folder("answers");
  const std::string key = (folder.path / "answer.table").string();
  std::ofstream(key) << "the judge's answers\n";
  ::chmod(key.c_str(), 0644);

  const GameReport boxed = games("peek", {"at:" + key}, generous()).front();
  CHECK(boxed.verdict == Verdict::win);
  CHECK(has_line(boxed.player_errors, "peek /proc/1/cmdline: ENOENT"));  // the keeper: unseen
  CHECK(has_line(boxed.player_errors, "peek at:" + key + ": ENOENT"));

  // Without the box its path can be read.
  const GameReport open = games("peek", {"at:" + key}, unboxed()).front();
  CHECK(has_line(open.player_errors, "peek at:" + key + ": ok 20 bytes"));
}

TEST_CASE("the judge's table, named on its command line, is out of reach of its players",
          "[e2e][referee][hostile][box]") {
  if (!boxed_here()) return;
  // As a judge runs it: `ioiwari referee --table F`, the player reading its keeper's command
  // line for F. It then leaves, so that its standard error is in the JSON.
  const Folder folder("key");
  const std::string key = (folder.path / "ioi.table").string();
  REQUIRE(test::run_program({IOIWARI_BINARY, "solve", "--out", key}, "").success());
  const std::string mark = mark_for("table");
  const auto run = test::run_program(
      in_referee({"--table", key, "--starts", "1", "--strategy", "optimal", "--json", "--",
                  FAULTY_PLAYER, "peek", "at:" + key, "--then-exit", mark}),
      "");
  INFO(run.out << run.err);
  CHECK(run.status == 1);
  CHECK(run.out.find("\"verdict\": \"exit before the end\"") != std::string::npos);
  CHECK(run.out.find("\"peek /proc/1/cmdline: ENOENT\", \"peek at:" + key + ": ENOENT\"") !=
        std::string::npos);
  CHECK(run.out.find("peek judge's") == std::string::npos);
}

TEST_CASE("the calls isolate leaves out fail in the player, and the game goes on",
          "[e2e][referee][hostile][box]") {
  for (const RefereeLimits& limits : {generous(), unboxed()}) {
    const GameReport report = games("kernel", {}, limits).front();
    CHECK(report.verdict == Verdict::win);
    CHECK(has_line(report.player_errors, "kernel io_uring_setup: ENOSYS"));
    CHECK(has_line(report.player_errors, "kernel keyctl: EPERM"));
    CHECK(has_line(report.player_errors, "kernel unshare: EPERM"));
    CHECK(has_line(report.player_errors, "kernel bpf: EPERM"));
  }
}

TEST_CASE("a game's disk is limited, by file and in all, and nothing of it is left",
          "[e2e][referee][hostile][box]") {
  if (!boxed_here()) return;
  const std::string here = fs::current_path().string();
  {
    RefereeLimits limits = generous();
    limits.file_size_mb = 1;
    const GameReport report = games("write-file", {"3"}, limits).front();
    CHECK(report.verdict == Verdict::disk_limit);
    CHECK(report.detail == "killed by SIGXFSZ: it wrote past the file size limit of 1 MB");
  }
  {
    RefereeLimits limits = generous();
    limits.disk_mb = 2;
    const GameReport report = games("write-file", {"3"}, limits).front();
    CHECK(report.verdict == Verdict::disk_limit);
    CHECK(report.detail ==
          "its box's disk of 2 MB was full (then: move 1: exited with status 1 "
          "before the game was over)");
    CHECK(has_line(report.player_errors, "write-file: ENOSPC"));
  }
  {
    // 10 GB at once, then a win: refused, and nothing on the machine's disk.
    RefereeLimits limits = generous();
    limits.file_size_mb = 1 << 20;
    const std::string mark = mark_for("fallocate");
    const GameReport report = games("fallocate", {"10240"}, limits).front();
    CHECK(has_line(report.player_errors, "fallocate: ENOSPC"));
    CHECK(report.verdict == Verdict::win);
    CHECK_FALSE(fs::exists(here + "/fill-" + mark));
  }
}

TEST_CASE(
    "a player runs from a folder its user cannot enter, and one it cannot run is refused "
    "with why",
    "[e2e][referee][box]") {
  if (!boxed_here()) return;
  const Folder hidden("player", fs::perms::owner_all);  // 0700, as mktemp -d makes it
  const fs::path program = hidden.path / "player";
  fs::copy_file(FAULTY_PLAYER, program);
  fs::permissions(program, fs::perms(0755));
  const std::string mark = mark_for("hidden");
  const std::vector<std::string> player = {program.string(), "pid", mark};
  const auto sandbox = test::sandbox_for(player, generous(), 1);
  CHECK(referee_game(player, ioi_starts().front(), Strategy::optimal, 1, table(), generous(),
                     sandbox->box(0), {})
            .verdict == Verdict::win);
  CHECK(test::kill_survivors(mark) == 0);

  // Without the box, the folder is in the way: said as such.
  try {
    test::sandbox_for(player, unboxed(), 1);
    FAIL("no refusal");
  } catch (const SpawnError& error) {
    CHECK(std::string(error.what())
              .find("its folder '" + hidden.path.string() +
                    "' is mode 700, which they may not enter") != std::string::npos);
  }
  // A folder of the player's (an interpreter's, say) that its user cannot enter: in the box
  // with --dir, and only then.
  // As /root/.pyenv: a folder others may enter, in one they may not.
  const Folder home("home", fs::perms::owner_all);
  const fs::path library = home.path / "library";
  fs::create_directory(library);
  fs::permissions(library, fs::perms(0755));
  std::ofstream(library / "helper.txt") << "help\n";
  fs::permissions(library / "helper.txt", fs::perms(0644));
  const std::string helper = "at:" + (library / "helper.txt").string();
  const auto with_dir = [&](SandboxRequest& request) { request.dirs = {library.string()}; };
  CHECK(has_line(games("peek", {helper}, generous(), 1, with_dir).front().player_errors,
                 "peek " + helper + ": ok 5 bytes"));
  CHECK(has_line(games("peek", {helper}, generous()).front().player_errors,
                 "peek " + helper + ": ENOENT"));

  // A program its users may not read: in the box too.
  fs::permissions(program, fs::perms(0700));
  try {
    test::sandbox_for(player, generous(), 1);
    FAIL("no refusal");
  } catch (const SpawnError& error) {
    CHECK(std::string(error.what())
              .find("it is mode 700, which they may not execute (chmod o+rx it)") !=
          std::string::npos);
  }
}

TEST_CASE(
    "two runs at once hold users of their own, and a user is handed on only when nothing "
    "of it is left",
    "[e2e][referee][hostile][box]") {
  if (::geteuid() != 0) {
    WARN("no test of users: they need root");
    return;
  }
  const uid_t first = test::own_first_user();
  fs::create_directories(test::user_locks());
  // What a player of an earlier run left behind, running as the range's first user.
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t left = ::fork();
  if (left == 0) {
    if (::setgid(first) != 0 || ::setuid(first) != 0) ::_exit(1);
    ::close(ready[1]);
    for (;;)
      ::pause();
  }
  ::close(ready[1]);
  char none;
  REQUIRE(::read(ready[0], &none, 1) == 0);  // it runs as the user now
  ::close(ready[0]);
  const std::vector<std::string> player = {FAULTY_PLAYER, "pid", mark_for("users")};
  const auto a = test::sandbox_for(player, generous(), 2);
  int status = 0;
  REQUIRE(::waitpid(left, &status, 0) == left);
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
  const auto b = test::sandbox_for(player, generous(), 2);
  std::set<uid_t> all(a->slot_users().begin(), a->slot_users().end());
  all.insert(b->slot_users().begin(), b->slot_users().end());
  CHECK(a->slot_users().size() == 2);
  CHECK(b->slot_users().size() == 2);
  CHECK(all.size() == 4);

  // Every other user of the range held, as by other runs: a third run asking for two gets one,
  // and says so; a fourth gets none, and says so in one line.
  HeldUsers held;
  for (uid_t uid = first; uid < first + kMostSlots; ++uid) {
    if (!all.contains(uid) && uid != first + kMostSlots - 1) held.hold(uid);
  }
  const auto c = test::sandbox_for(player, generous(), 2);
  CHECK(c->slots() == 1);
  CHECK(c->slot_users() == std::vector<uid_t>{first + kMostSlots - 1});
  REQUIRE(c->notes().size() >= 1);
  CHECK(c->notes().back().find("other referee runs hold all but 1 of the users") !=
        std::string::npos);
  try {
    test::sandbox_for(player, generous(), 1);
    FAIL("no refusal");
  } catch (const SandboxError& error) {
    CHECK(error.busy());
    CHECK(std::string(error.what())
              .starts_with("other referee runs hold every user of " + std::to_string(first) +
                           " to "));
  }
}

TEST_CASE("referee runs at once, as processes, never give two games one user",
          "[e2e][referee][hostile][box]") {
  if (::geteuid() != 0) {
    WARN("no test of users: they need root");
    return;
  }
  // Another run, as a process of its own, holds the range's first two users; this run's games
  // tell which user they run as, and leave, so that the JSON shows it.
  const uid_t first = test::own_first_user();
  HeldUsers held;
  held.hold(first);
  held.hold(first + 1);
  const std::string mark = mark_for("whoami");
  const auto run =
      test::run_program(in_referee({"--starts", "2", "--strategy", "optimal", "--jobs", "2",
                                    "--json", "--", FAULTY_PLAYER, "whoami", "--then-exit", mark}),
                        "");
  INFO(run.out << run.err);
  CHECK(run.status == 1);
  for (uid_t uid : {first, first + 1})
    CHECK(run.out.find("\"uid " + std::to_string(uid) + "\"") == std::string::npos);
  CHECK(run.out.find("\"uid " + std::to_string(first + 2) + "\"") != std::string::npos);
  CHECK(run.out.find("\"uid " + std::to_string(first + 3) + "\"") != std::string::npos);
}

TEST_CASE("the option --env passes a variable, with the referee's value or its own, and is checked",
          "[e2e][referee][box]") {
  ::setenv("IOIWARI_TEST_PASSED", "one", 1);
  ::setenv("IOIWARI_TEST_KEPT", "secret", 1);
  const auto command =
      in_referee({"--starts", "1", "--json", "--env", "IOIWARI_TEST_PASSED", "--env", "SECOND=two",
                  "--env", "IOIWARI_TEST_UNSET", "--", "/bin/sh", "-c",
                  "echo \"[$IOIWARI_TEST_PASSED][$SECOND][${IOIWARI_TEST_UNSET-unset}]"
                  "[${IOIWARI_TEST_KEPT-unset}]\" >&2; exit 3"});
  const auto run = test::run_program(command, "");
  INFO(run.out << run.err);
  CHECK(run.status == 1);
  CHECK(run.out.find("\"stderr\": [\"[one][two][unset][unset]\"]") != std::string::npos);
  const auto bad =
      test::run_program({IOIWARI_BINARY, "referee", "--env", "=x", "--", "/bin/true"}, "");
  CHECK(bad.status == 2);
  CHECK(bad.err.starts_with("ioiwari: referee: --env is NAME or NAME=VALUE, not \"=x\"\n"));
  ::unsetenv("IOIWARI_TEST_PASSED");
  ::unsetenv("IOIWARI_TEST_KEPT");
}
