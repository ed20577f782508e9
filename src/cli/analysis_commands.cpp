// The commands for students of the game: `analyze` and `starts`.
#include <ostream>
#include <sstream>
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
  std::ostringstream text;
  write_analysis(text, analysis, call.parsed.given(opt::json));
  if (call.parsed.given(opt::json)) {
    call.out << text.str();
  } else {
    print(call, text.str());
  }
  return written(call, to_int(ExitCode::ok));
}

int run_starts(Invocation& call) {
  RingSetup setup(call);
  const bool json = call.parsed.given(opt::json);
  const bool quiet = call.parsed.given(opt::quiet) || json;
  const bool classes = call.parsed.given(opt::classes);
  const std::vector<Board> all = setup.starts();
  const Table& table = setup.table(setup.start_rule().beads, quiet);
  Progress progress(call.err, ProgressOutput::of(call.environment, quiet), "starts", "starts",
                    all.size(), call.environment.progress_delay);
  const std::vector<StartReport> reports =
      census(table, all, classes, [&](std::size_t done) { progress.update(done); });
  progress.clear();
  std::ostringstream text;
  write_census(text, reports, classes, json,
               CensusRules{setup.ring(), setup.start_rule(), setup.named()});
  if (json) {
    call.out << text.str();
  } else {
    print(call, text.str());
  }
  return written(call, to_int(ExitCode::ok));
}

}  // namespace ioiwari::cli
