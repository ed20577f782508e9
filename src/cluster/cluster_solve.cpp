// `ioiwari-mpi solve`: the ring solver on the processes of an MPI job. The processes cut the
// index's lines into shares of about as many classes each; each marks and solves its own share
// with the one layered solver (ring_solver.hpp), whose successors it finds through the MPI
// exchange; process 0 then gathers the shares into the table file, which is byte for byte the
// file that `ioiwari solve` writes.
#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <iomanip>
#include <optional>
#include <ostream>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "cluster.hpp"
#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/environment.hpp"
#include "ioiwari/cli/option_names.hpp"
#include "ioiwari/cli/progress.hpp"
#include "ioiwari/cli/ring_setup.hpp"
#include "ioiwari/core/large_array.hpp"
#include "ioiwari/core/ring_index.hpp"
#include "ioiwari/core/ring_solver.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/input/exit_code.hpp"
#include "mpi_exchange.hpp"

namespace ioiwari::cluster {

namespace {

using Clock = std::chrono::steady_clock;

// The pieces each process counts the classes of, so that the shares can be cut evenly.
constexpr std::uint64_t kCountsPerProcess = 256;
// The bytes process 0 receives at a time while it writes the table.
constexpr std::uint64_t kGatherBytes = std::uint64_t{4} << 20;

// This process's peak resident memory, in bytes.
std::uint64_t peak_bytes() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

// Whether every process says yes.
bool all_agree(bool yes) {
  int mine = yes ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

// How the processes share the ring: process p holds lines [first_lines[p], first_lines[p+1])
// and the classes [first_classes[p], first_classes[p+1]).
struct Shares {
  std::vector<std::uint64_t> first_lines, first_classes;
};

// Cuts the index's lines into `processes` shares of about as many classes each. The lines are
// cut into pieces that the processes count in turn (piece i by process i mod P, so that each
// counts pieces from all over the index), the counts are added up everywhere, and the shares are
// cut at the pieces where the running count passes each P-th of the classes.
Shares cut_shares(const RingGeometry& geometry, int processes, int me) {
  const std::uint64_t lines = geometry.lines();
  const std::uint64_t pieces = std::max<std::uint64_t>(
      1, std::min(lines, kCountsPerProcess * static_cast<std::uint64_t>(processes)));
  const auto bound = [&](std::uint64_t piece) { return lines * piece / pieces; };
  std::vector<std::uint64_t> counts(pieces, 0), totals(pieces, 0);
  for (std::uint64_t piece = static_cast<std::uint64_t>(me); piece < pieces;
       piece += static_cast<std::uint64_t>(processes)) {
    counts[piece] = count_classes(geometry, bound(piece), bound(piece + 1));
  }
  MPI_Allreduce(counts.data(), totals.data(), static_cast<int>(pieces), MPI_UINT64_T, MPI_SUM,
                MPI_COMM_WORLD);
  std::uint64_t classes = 0;
  for (std::uint64_t count : totals)
    classes += count;
  Shares shares;
  shares.first_lines.push_back(0);
  shares.first_classes.push_back(0);
  std::uint64_t running = 0;
  std::uint64_t piece = 0;
  for (int p = 1; p < processes; ++p) {
    const std::uint64_t goal =
        classes * static_cast<std::uint64_t>(p) / static_cast<std::uint64_t>(processes);
    while (piece < pieces && running + totals[piece] <= goal)
      running += totals[piece++];
    shares.first_lines.push_back(bound(piece));
    shares.first_classes.push_back(running);
  }
  shares.first_lines.push_back(lines);
  shares.first_classes.push_back(classes);
  return shares;
}

// What process 0 gathers into the table: each process's part in turn, its own first. A part is
// sent in messages of at most kGatherBytes.
void gather(std::span<const unsigned char> mine, int processes, int me,
            std::optional<TableOutput>& output, std::vector<unsigned char>& buffer) {
  if (me != 0) {
    std::uint64_t size = mine.size();
    MPI_Send(&size, 1, MPI_UINT64_T, 0, 0, MPI_COMM_WORLD);
    for (std::uint64_t at = 0; at < size; at += kGatherBytes) {
      const auto length = static_cast<int>(std::min(kGatherBytes, size - at));
      MPI_Send(mine.data() + at, length, MPI_UNSIGNED_CHAR, 0, 1, MPI_COMM_WORLD);
    }
    return;
  }
  output->append(mine);
  for (int from = 1; from < processes; ++from) {
    std::uint64_t size = 0;
    MPI_Recv(&size, 1, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (std::uint64_t at = 0; at < size; at += kGatherBytes) {
      const auto length = static_cast<int>(std::min(kGatherBytes, size - at));
      buffer.resize(static_cast<std::size_t>(length));
      MPI_Recv(buffer.data(), length, MPI_UNSIGNED_CHAR, from, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      output->append(buffer);
    }
  }
}

template <class T>
std::span<const unsigned char> bytes_of(const LargeArray<T>& array) {
  return {reinterpret_cast<const unsigned char*>(array.data()), array.size() * sizeof(T)};
}

}  // namespace

int run_solve(cli::Invocation& call) {
  int processes = 0, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const cli::RingSetup setup(call);
  const Ring ring = setup.ring();
  const RingGeometry& geometry = *setup.geometry();

  // Each process's memory, on every machine of the job: its share of the table, its batches
  // and the exchange's buffers.
  const std::uint64_t needed =
      solve_bytes(geometry, processes, 1, MpiExchange::kBatch) + MpiExchange::buffer_bytes(ring);
  const std::uint64_t have = call.environment.memory_bytes;
  const bool fits = have == 0 || needed <= have;
  if (!fits) {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    call.complain(cli::ring_options(ring) + ": each of the " + std::to_string(processes) +
                  " processes needs about " + cli::bytes_text(needed) + " of memory; " + host +
                  " has " + cli::bytes_text(have));
  }
  if (!all_agree(fits)) return to_int(ExitCode::usage);

  // The file is prepared before the solve, by process 0: a path that cannot take the table is
  // refused now, by every process.
  std::optional<TableOutput> output;
  if (me == 0) {
    try {
      output.emplace(*call.parsed.text(cli::opt::out), geometry);
    } catch (const TableFileError& error) {
      call.complain(error.what());
    }
  }
  if (!all_agree(me != 0 || output.has_value())) return to_int(ExitCode::bad_table);

  const auto begin = Clock::now();
  const Shares shares = cut_shares(geometry, processes, me);
  const auto p = static_cast<std::size_t>(me);
  RingPart part;
  part.geometry = &geometry;
  part.first_line = shares.first_lines[p];
  part.end_line = shares.first_lines[p + 1];
  part.first_class = shares.first_classes[p];
  part.end_class = shares.first_classes[p + 1];
  LargeArray<std::uint64_t> lines((part.end_line - part.first_line) * kLineWords);
  LargeArray<std::int8_t> values(part.end_class - part.first_class);

  cli::SolveLine line(call, "solve", call.parsed.given(cli::opt::quiet) || me != 0);
  SolveOptions options = line.options();
  options.threads = 1;  // the MPI exchange is called by one thread
  LayeredSolve solve(geometry, part.first_line, part.end_line, options);
  solve.index(lines.span(), part.first_class);
  part.lines = lines.data();
  part.values = values.data();
  const double indexed = seconds_since(begin);
  MpiExchange exchange(MPI_COMM_WORLD, part, shares.first_lines);
  solve.solve(part, exchange, values.span());
  const double solved = seconds_since(begin);

  // The table, in file order: every process's lines, then every process's values.
  std::vector<unsigned char> buffer;
  try {
    gather(bytes_of(lines), processes, me, output, buffer);
    gather(bytes_of(values), processes, me, output, buffer);
    if (me == 0) output->commit(shares.first_classes.back());
  } catch (const TableFileError& error) {
    // Only process 0 writes: the others may wait for it, so the job is ended.
    call.complain(error.what());
    MPI_Abort(MPI_COMM_WORLD, to_int(ExitCode::bad_table));
  }

  // A line for the job, and one for each process: its share, its times and its peak memory.
  struct Report {
    std::uint64_t classes, lines, peak, sent, rounds;
    double indexed, solved;
  };
  const Report mine{part.end_class - part.first_class,
                    part.end_line - part.first_line,
                    peak_bytes(),
                    exchange.sent_positions(),
                    exchange.rounds_made(),
                    indexed,
                    solved};
  std::vector<Report> reports(static_cast<std::size_t>(processes));
  MPI_Gather(&mine, sizeof mine, MPI_BYTE, reports.data(), sizeof mine, MPI_BYTE, 0,
             MPI_COMM_WORLD);
  if (me != 0) return to_int(ExitCode::ok);
  call.out << std::fixed << std::setprecision(1) << "solved the ring of " << ring.describe() << ": "
           << shares.first_classes.back() << " classes in " << seconds_since(begin) << " s on "
           << processes << (processes == 1 ? " process" : " processes") << "; wrote "
           << *call.parsed.text(cli::opt::out) << " (" << cli::bytes_text(output->bytes())
           << "), root " << hex(output->root()) << "\n";
  for (std::size_t q = 0; q < reports.size(); ++q) {
    const Report& report = reports[q];
    call.out << "process " << q << ": " << report.classes << " classes in " << report.lines
             << " lines; indexed in " << report.indexed << " s, solved in " << report.solved
             << " s; " << report.rounds << " rounds, " << report.sent
             << " positions sent; peak memory " << cli::bytes_text(report.peak) << "\n";
  }
  return cli::written(call, to_int(ExitCode::ok));
}

}  // namespace ioiwari::cluster
