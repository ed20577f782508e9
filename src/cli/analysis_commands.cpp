// The commands for students of the game: `analyze` and `starts`.
#include <ostream>
#include <string_view>
#include <vector>

#include "ioiwari/analysis/analysis.hpp"
#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/environment.hpp"
#include "ioiwari/cli/option_names.hpp"
#include "ioiwari/cli/progress.hpp"
#include "ioiwari/cli/ring_setup.hpp"

namespace ioiwari::cli {

int run_analyze(Invocation& call) {
  RingSetup setup(call);
  const std::vector<std::string_view> words(call.parsed.operands().begin(),
                                            call.parsed.operands().end());
  std::string error;
  const auto board = board_from_arguments(words, setup.ring(), error);
  if (!board) throw UsageError(error);
  const Table& table = setup.table(board->total());
  const Analysis analysis = analyze(table, *board);
  write_analysis(call.out, analysis, call.parsed.given(opt::json));
  return written(call, to_int(ExitCode::ok));
}

int run_starts(Invocation& call) {
  RingSetup setup(call);
  const bool json = call.parsed.given(opt::json);
  const bool quiet = call.parsed.given(opt::quiet) || json;
  const bool classes = call.parsed.given(opt::classes);
  const std::vector<Board> all = setup.starts();
  const Table& table = setup.table(setup.start_rule().beads, quiet);
  Progress progress(call.err, call.environment.error_is_terminal && !quiet, "starts", "starts",
                    all.size(), call.environment.progress_delay);
  const std::vector<StartReport> reports =
      census(table, all, classes, [&](std::size_t done) { progress.update(done); });
  progress.clear();
  write_census(call.out, reports, classes, json,
               CensusRules{setup.ring(), setup.start_rule(), setup.named()});
  return written(call, to_int(ExitCode::ok));
}

}  // namespace ioiwari::cli
