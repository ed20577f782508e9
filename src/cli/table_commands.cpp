// The commands of table files: `solve` writes one, `verify` checks one.
#include <chrono>
#include <iomanip>
#include <optional>
#include <ostream>

#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/option_names.hpp"
#include "ioiwari/cli/progress.hpp"
#include "ioiwari/cli/ring_setup.hpp"
#include "ioiwari/core/table_file.hpp"

namespace ioiwari::cli {

int run_solve(Invocation& call) {
  RingSetup setup(call);
  setup.check_memory();
  // The file is prepared before the solve: a path that cannot take the table is refused now.
  TableOutput output(*call.parsed.text(opt::out), *setup.geometry());
  const auto begin = std::chrono::steady_clock::now();
  std::shared_ptr<const RingTable> table;
  int threads = 0;
  {
    const SolveLine line(call, "solve", call.parsed.given(opt::quiet));
    table = RingTable::solve(setup.geometry(), line.options());
    threads = line.threads();
  }
  const double seconds = seconds_since(begin);
  output.commit(*table);
  call.out << "solved the ring of " << setup.ring().describe() << ": " << table->classes()
           << " classes in " << std::fixed << std::setprecision(1) << seconds << " s on " << threads
           << (threads == 1 ? " thread" : " threads") << "; wrote " << *call.parsed.text(opt::out)
           << " (" << bytes_text(output.bytes()) << "), root " << hex(output.root()) << "\n";
  return written(call, to_int(ExitCode::ok));
}

int run_verify(Invocation& call) {
  const std::string& path = call.parsed.operands().front();
  const auto begin = std::chrono::steady_clock::now();
  const SolveLine line(call, "verify", call.parsed.given(opt::quiet));
  const TableCheck check = verify_table(path, line.options(), RootBook::built_in());
  call.out << "table '" << path << "' is sound: the ring of " << check.ring.describe() << ", "
           << check.classes << " classes; " << check.blocks << " blocks ("
           << bytes_text(check.bytes) << ") checked in " << std::fixed << std::setprecision(1)
           << seconds_since(begin) << " s\n"
           << "root " << hex(check.root)
           << (check.root_known ? ": the ring's true root, which ioiwari knows\n"
                                : ": ioiwari knows no root for this ring; this file is its true "
                                  "table, and --trust-table may use it\n");
  return written(call, to_int(ExitCode::ok));
}

}  // namespace ioiwari::cli
