// Running the referee's games from the tests, each run in a sandbox of its own, made as
// `ioiwari referee` makes it.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ioiwari/judge/referee.hpp"
#include "ioiwari/judge/sandbox.hpp"

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

// The programs the tests give the referee as players.
#define FAULTY_PLAYER (::ioiwari::test::runnable(FAULTY_PLAYER_BUILT))
#define PLAYER_IOIWARI (::ioiwari::test::runnable(IOIWARI_BINARY))

// The sandbox a run of `player` with `limits` and `slots` jobs gets.
inline std::unique_ptr<Sandbox> sandbox_for(const std::vector<std::string>& player,
                                            const RefereeLimits& limits, int slots) {
  SandboxRequest request = sandbox_request(limits);
  request.slots = slots;
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
