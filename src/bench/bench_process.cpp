// `ioiwari bench`'s whole-process figures: ioiwari run as a child on a whole game, and with
// --version for comparison (POSIX: posix_spawn, pipes, wait4).
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <string>
#include <vector>

#include "ioiwari/bench/bench.hpp"
#include "ioiwari/core/match.hpp"

extern char** environ;

namespace ioiwari {

namespace {

// The start the README's figures and the classic player's comparison use.
constexpr std::array<int, kPits> kBenchStart{4, 3, 2, 4, 2, 3, 2};

// A whole game between a player 1 and a player 2 that both play `table`'s best moves: what
// player 2 sends (the start, then its replies, one a line) and what player 1 must write.
struct Dialogue {
  std::string input, moves;
};

Dialogue game_dialogue(const Table& table) {
  Match game(*Board::from_counts(kBenchStart, Ring::ioi()));
  Dialogue dialogue;
  for (const int beads : kBenchStart)
    dialogue.input += std::to_string(beads) + ' ';
  dialogue.input.back() = '\n';
  while (!game.over()) {
    const Pit pit = *table.best_move(game.board());
    std::string& side = game.to_move() == Player::first ? dialogue.moves : dialogue.input;
    side += std::to_string(pit.label()) + '\n';
    game.play(pit);
  }
  return dialogue;
}

struct Run {
  double ms = 0;
  long faults = 0;
  std::string output;
};

// Writes all of `data` to `fd`; false when it cannot.
bool write_all(int fd, const std::string& data) {
  for (std::size_t done = 0; done < data.size();) {
    const ssize_t bytes = ::write(fd, data.data() + done, data.size() - done);
    if (bytes < 0 && errno == EINTR) continue;
    if (bytes <= 0) return false;
    done += static_cast<std::size_t>(bytes);
  }
  return true;
}

// Reads `fd` to its end, keeping at most kMaxOutput bytes.
void read_all(int fd, std::string& into) {
  constexpr std::size_t kMaxOutput = 4096;
  char buffer[512];
  for (;;) {
    const ssize_t bytes = ::read(fd, buffer, sizeof buffer);
    if (bytes < 0 && errno == EINTR) continue;
    if (bytes <= 0) return;
    if (into.size() < kMaxOutput) into.append(buffer, static_cast<std::size_t>(bytes));
  }
}

// Runs `program` with `arguments` and `input` on its standard input, and collects its standard
// output (its standard error is thrown away); nothing unless it exits with status 0. A spawn
// (vfork underneath) costs the same whatever this process holds, so the time is the child's,
// start-up included. The input is a few dozen bytes, which the pipe holds whole: writing it
// never waits for the child, and then reading the output to its end cannot deadlock.
std::optional<Run> run_once(const std::string& program, const std::vector<std::string>& arguments,
                            const std::string& input) {
  int to_child[2], from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0) return std::nullopt;
  if (::pipe2(from_child, O_CLOEXEC) != 0) {
    ::close(to_child[0]);
    ::close(to_child[1]);
    return std::nullopt;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& argument : arguments)
    argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  Run run;
  const auto begin = std::chrono::steady_clock::now();
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(to_child[0]);
  ::close(from_child[1]);
  const bool written = spawned == 0 && write_all(to_child[1], input);
  ::close(to_child[1]);
  if (spawned == 0) read_all(from_child[0], run.output);
  ::close(from_child[0]);
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
  run.ms = std::chrono::duration<double, std::milli>(end - begin).count();
  run.faults = usage.ru_minflt;
  return run;
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
  // A child that exits before reading its input must not kill us as we write it.
  std::signal(SIGPIPE, SIG_IGN);
  const Dialogue game = game_dialogue(table);
  std::vector<double> game_ms, version_ms;
  std::vector<long> game_faults, version_faults;
  // In turn, so that a machine that slows down meanwhile slows both alike.
  for (int run = 0; run < runs; ++run) {
    const auto played = run_once(program, {}, game.input);
    const auto version = run_once(program, {"--version"}, "");
    // Only a child that played the whole game, move for move, has been timed on it.
    if (!played || played->output != game.moves) return std::nullopt;
    if (!version || !version->output.starts_with("ioiwari ")) return std::nullopt;
    game_ms.push_back(played->ms);
    game_faults.push_back(played->faults);
    version_ms.push_back(version->ms);
    version_faults.push_back(version->faults);
  }
  return ProcessBench{runs, median_of(game_ms), median_of(version_ms), median_of(game_faults),
                      median_of(version_faults)};
}

}  // namespace ioiwari
