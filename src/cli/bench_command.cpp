// `ioiwari bench`: the table's build time and signature, and a game as a process.
#include <ostream>
#include <sstream>

#include "ioiwari/bench/bench.hpp"
#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/environment.hpp"
#include "ioiwari/cli/option_names.hpp"
#include "ioiwari/cli/progress.hpp"
#include "ioiwari/cli/ring_setup.hpp"

namespace ioiwari::cli {

namespace {

// The most boards --negamax solves: it holds an entry of 8 bytes for each.
constexpr std::uint64_t kMostNegamaxBoards = 100'000'000;

}  // namespace

int run_bench(Invocation& call) {
  const Parsed& parsed = call.parsed;
  RingSetup setup(call);
  const Ring ring = setup.ring();
  const bool negamax = parsed.given(opt::negamax);
  const bool json = parsed.given(opt::json);
  if (negamax && ring.code_count() > kMostNegamaxBoards) {
    throw UsageError("--negamax holds an entry for every board of the ring: " +
                     std::to_string(ring.code_count()) + " boards, more than " +
                     std::to_string(kMostNegamaxBoards));
  }
  setup.check_memory();
  // A ring solved by ioiwari's own path takes under a millisecond: many runs; others may take
  // minutes each.
  const bool quick = Table::built_in(ring);
  const int runs = parsed.given(opt::runs) ? static_cast<int>(*parsed.number(opt::runs))
                   : quick                 ? 101
                                           : 1;
  Progress progress(call.err,
                    ProgressOutput::of(call.environment, json || parsed.given(opt::quiet)), "bench",
                    "runs", static_cast<std::size_t>(runs), call.environment.progress_delay);
  BenchResult result = run_bench(
      runs, negamax, ring, [&](int done) { progress.update(static_cast<std::size_t>(done)); });
  result.named = setup.named();
  // What a judge waits for: a whole game as a process of its own, start-up included, where the
  // game is the one ioiwari plays with no options.
  if (quick && !setup.named() && !call.environment.self_path.empty()) {
    result.process =
        time_processes(call.environment.self_path, runs, Table::solve(Ring::ioi(), {}));
    if (!result.process) {
      call.complain("'" + call.environment.self_path +
                    "' did not play a whole game as a child; no process figures");
    }
  }
  progress.clear();
  std::ostringstream text;
  write_bench(text, result, json);
  if (json) {
    call.out << text.str();
  } else {
    print(call, text.str());
  }
  return written(call, to_int(ExitCode::ok));
}

}  // namespace ioiwari::cli
