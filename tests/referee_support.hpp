// Running the referee's games from the tests, each run in a sandbox of its own, made as
// `ioiwari referee` makes it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ioiwari/judge/referee.hpp"
#include "ioiwari/judge/sandbox.hpp"

namespace ioiwari::test {

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
