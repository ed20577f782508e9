// `ioiwari bench`'s whole-process figures: ioiwari run as a child on a whole game, and with
// --version for comparison (POSIX: posix_spawn, pipe, wait4).
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <string>
#include <vector>

#include "ioiwari/bench.hpp"
#include "ioiwari/game.hpp"

extern char** environ;

namespace ioiwari {

namespace {

// The start the README's figures and the classic player's comparison use.
constexpr std::array<int, kPits> kBenchStart{4, 3, 2, 4, 2, 3, 2};

// What player 2 sends to a player 1 that plays `table`'s best moves: the start, then player
// 2's own best replies, one a line. The player writes its moves; we know them in advance.
std::string game_input(const Table& table) {
  Game game(*Board::from_counts(kBenchStart));
  std::string input;
  for (const int beads : kBenchStart)
    input += std::to_string(beads) + ' ';
  input.back() = '\n';
  while (!game.over()) {
    const Pit pit = *table.best_move(game.board());
    if (game.to_move() == Player::second) input += std::to_string(pit.label()) + '\n';
    game.play(pit);
  }
  return input;
}

struct Run {
  double ms = 0;
  long faults = 0;
};

// Runs `program` with `arguments`, `input` on its standard input and its output thrown away;
// nothing unless it exits with status 0. A spawn (vfork underneath) costs the same whatever
// this process holds, so the time is the child's, start-up included.
std::optional<Run> run_once(const std::string& program, const std::vector<std::string>& arguments,
                            const std::string& input) {
  int pipe_ends[2];
  if (::pipe2(pipe_ends, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[0], STDIN_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& argument : arguments)
    argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  const auto begin = std::chrono::steady_clock::now();
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_ends[0]);
  bool written = spawned == 0;
  // The game is a few dozen bytes: the pipe holds it all, so this never waits for the child.
  for (std::size_t done = 0; written && done < input.size();) {
    const ssize_t bytes = ::write(pipe_ends[1], input.data() + done, input.size() - done);
    if (bytes < 0 && errno == EINTR) continue;
    written = bytes > 0;
    if (written) done += static_cast<std::size_t>(bytes);
  }
  ::close(pipe_ends[1]);
  if (spawned != 0) return std::nullopt;
  int status = 0;
  rusage usage{};
  pid_t waited = -1;
  do {
    waited = ::wait4(pid, &status, 0, &usage);
  } while (waited < 0 && errno == EINTR);
  const auto end = std::chrono::steady_clock::now();
  if (waited != pid || !written || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return std::nullopt;
  }
  return Run{std::chrono::duration<double, std::milli>(end - begin).count(), usage.ru_minflt};
}

template <class Value>
Value median_of(std::vector<Value> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

std::optional<ProcessBench> time_processes(const std::string& program, int runs,
                                           const Table& table) {
  if (runs < 1) return std::nullopt;
  const std::string input = game_input(table);
  std::vector<double> game_ms, version_ms;
  std::vector<long> game_faults, version_faults;
  // In turn, so that a machine that slows down meanwhile slows both alike.
  for (int run = 0; run < runs; ++run) {
    const auto game = run_once(program, {}, input);
    const auto version = run_once(program, {"--version"}, "");
    if (!game || !version) return std::nullopt;
    game_ms.push_back(game->ms);
    game_faults.push_back(game->faults);
    version_ms.push_back(version->ms);
    version_faults.push_back(version->faults);
  }
  return ProcessBench{runs, median_of(game_ms), median_of(version_ms), median_of(game_faults),
                      median_of(version_faults)};
}

}  // namespace ioiwari
