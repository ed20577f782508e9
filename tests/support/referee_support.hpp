// Running the referee's games from the tests, each run in a sandbox of its own, made as
// `ioiwari referee` makes it.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ioiwari/judge/referee.hpp"
#include "ioiwari/judge/sandbox.hpp"
#include "support.hpp"

namespace ioiwari::test {

// A copy of the built program at `built`, in a folder of this test process's under the
// temporary folder that every user may enter: run as root, the referee runs each player as a
// user of its own, who may not reach the build tree. Made once; removed when the tests end.
inline const char* runnable(const char* built) {
  struct Folder {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("ioiwari-players-" + std::to_string(::getpid()));
    std::map<std::string, std::string> copies;
    ~Folder() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static Folder folder;
  static std::mutex guard;
  const std::lock_guard lock(guard);
  auto& copy = folder.copies[built];
  if (copy.empty()) {
    std::filesystem::create_directories(folder.path);
    ::chmod(folder.path.c_str(), 0755);
    const auto target = folder.path / std::filesystem::path(built).filename();
    std::filesystem::copy_file(built, target, std::filesystem::copy_options::overwrite_existing);
    ::chmod(target.c_str(), 0755);
    copy = target.string();
  }
  return copy.c_str();
}

// Limits for a player that answers: far beyond what any load makes a move or an exit take, so
// that no verdict can turn into a time limit on a busy machine.
inline RefereeLimits generous() {
  using namespace std::chrono_literals;
  RefereeLimits limits;
  limits.data_limit = !kSanitized;
  limits.per_move = 30s;
  limits.per_game = 300s;
  limits.after_end = 30s;
  return limits;
}

// The text of a file under /proc, or "" when it cannot be read. A process may end while it is
// read; a C++ stream would then throw from inside its buffer (ESRCH), so this reads plainly.
inline std::string read_proc(const std::string& path) {
  std::string text;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char buffer[4096];
  for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;)
    text.append(buffer, static_cast<std::size_t>(got));
  ::close(fd);
  return text;
}

// Whether process `pid` runs: neither gone nor a zombie (a process whose first thread has ended
// while another runs does run).
inline bool runs(pid_t pid) {
  std::error_code error;
  for (std::filesystem::directory_iterator task("/proc/" + std::to_string(pid) + "/task", error),
       end;
       !error && task != end; task.increment(error)) {
    const std::string line = read_proc(task->path().string() + "/stat");
    const auto close = line.rfind(')');
    if (close != std::string::npos && line.size() > close + 2 && line[close + 2] != 'Z' &&
        line[close + 2] != 'X') {
      return true;
    }
  }
  return false;
}

// The processes whose command line holds `mark`, and begins with `program`, that still run.
// Processes may end while /proc is read: they are skipped.
inline std::vector<pid_t> running_with(const std::string& mark, const std::string& program) {
  std::vector<pid_t> found;
  std::error_code error;
  for (std::filesystem::directory_iterator entry("/proc", error), end; !error && entry != end;
       entry.increment(error)) {
    const std::string name = entry->path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string command = read_proc("/proc/" + name + "/cmdline");
    if (command.find(mark) == std::string::npos || !command.starts_with(program)) continue;
    const pid_t pid = std::stoi(name);
    if (runs(pid)) found.push_back(pid);
  }
  return found;
}
inline std::vector<pid_t> running_with(const std::string& mark) {
  return running_with(mark, "");
}

// Kills every process still running with `mark` (the test's own players, found by their mark)
// and says how many there were: a test that finds survivors fails, and leaves none.
inline std::size_t kill_survivors(const std::string& mark) {
  const std::vector<pid_t> found = running_with(mark);
  for (pid_t pid : found)
    ::kill(pid, SIGKILL);
  return found.size();
}

// The programs the tests give the referee as players.
#define FAULTY_PLAYER (::ioiwari::test::runnable(FAULTY_PLAYER_BUILT))
#define PLAYER_IOIWARI (::ioiwari::test::runnable(IOIWARI_BINARY))

// Where the tests' referee runs hold their users: the folder CTest names for every test of the
// suite (IOIWARI_USER_LOCKS, which `ioiwari referee` reads too), so that the suite's processes
// honour one another's locks and touch no system folder.
inline std::string user_locks() {
  const char* folder = std::getenv("IOIWARI_USER_LOCKS");
  return folder != nullptr && folder[0] == '/' ? folder : kUserLocks;
}

// The sandbox a run of `player` with `limits` and `slots` jobs gets, as `adjust` changes its
// request.
inline std::unique_ptr<Sandbox> sandbox_for(
    const std::vector<std::string>& player, const RefereeLimits& limits, int slots,
    const std::function<void(SandboxRequest&)>& adjust = {}) {
  SandboxRequest request = sandbox_request(limits);
  request.slots = slots;
  request.user_locks = user_locks();
  if (::geteuid() == 0 && !request.users) {
    const auto first = own_first_user();
    request.users = UserRange{first, first};
  }
  if (adjust) adjust(request);
  return std::make_unique<Sandbox>(player, request);
}

// One game, in a sandbox of its own.
inline GameReport judge_game(const std::vector<std::string>& player, const Board& start,
                             Strategy strategy, std::uint64_t seed, const Table& table,
                             const RefereeLimits& limits) {
  const auto sandbox = sandbox_for(player, limits, 1);
  return referee_game(player, start, strategy, seed, table, limits, sandbox->box(0), {});
}

// Every game of `plan`, in a sandbox of its own.
inline std::vector<GameReport> judge_games(const RefereePlan& plan, const Table& table) {
  const auto sandbox = sandbox_for(plan.player, plan.limits, plan.jobs);
  return run_games(plan, table, *sandbox, {});
}

}  // namespace ioiwari::test
