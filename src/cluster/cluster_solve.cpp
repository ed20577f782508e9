// `ioiwari-mpi solve`: the ring solver on the processes of an MPI job. The processes deal the
// index's lines out in stripes (ring_solver.hpp, Share); each marks and solves its own share
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

// The lines process 0 copies at a time from its own part while it writes the table (a stripe of
// another process is at most as many: Share::of).
constexpr std::uint64_t kGatherLines = 4096;

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

// The classes of each stripe of a part, in order: the differences of its lines' first ranks.
std::vector<std::uint64_t> stripe_classes(const RingPart& part, std::uint64_t lines) {
  std::vector<std::uint64_t> counts;
  const std::uint64_t held = part.share.lines_held(lines);
  std::uint64_t at = 0;  // the part's line where the stripe begins
  part.share.for_each_stripe(lines, [&](std::uint64_t first, std::uint64_t end) {
    const std::uint64_t next = at + (end - first);
    const std::uint64_t from = part.lines[kLineWords * at];
    const std::uint64_t to = next < held ? part.lines[kLineWords * next] : part.classes;
    counts.push_back(to - from);
    at = next;
  });
  return counts;
}

// Writes the table from every process's part: process 0 takes the stripes in the index's order,
// each from the process that holds it, first their lines (each line's first rank made the
// table's: the classes of the stripes before, not of the part's), then their values. The others
// send their stripes in order, a message each.
void gather(const RingPart& part, const RingGeometry& geometry, TableFormat format,
            std::optional<TableOutput>& output) {
  const Share& share = part.share;
  const int processes = share.processes;
  const std::uint64_t lines = geometry.lines();
  // Every stripe's classes, on process 0, in the index's order.
  const std::vector<std::uint64_t> mine = stripe_classes(part, lines);
  std::vector<std::uint64_t> stripes;
  std::vector<int> sizes(static_cast<std::size_t>(processes)), starts(sizes.size());
  const int size = static_cast<int>(mine.size());
  MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (std::size_t p = 0; p < sizes.size(); ++p) {
    starts[p] = total;
    total += sizes[p];
  }
  std::vector<std::uint64_t> by_process(static_cast<std::size_t>(total));
  MPI_Gatherv(mine.data(), size, MPI_UINT64_T, by_process.data(), sizes.data(), starts.data(),
              MPI_UINT64_T, 0, MPI_COMM_WORLD);

  // Format 5's code is made of every value's count, summed over the processes, before the lines.
  if (format == TableFormat::compressed) {
    ValueCounts counts{}, all{};
    add_value_counts({part.values, part.classes}, counts);
    MPI_Reduce(counts.data(), all.data(), static_cast<int>(counts.size()), MPI_UINT64_T, MPI_SUM, 0,
               MPI_COMM_WORLD);
    if (share.me == 0) output->set_value_counts(all);
  }
  const std::uint64_t stripe_lines = share.stripe_lines();
  const std::uint64_t stripe_count = (lines + stripe_lines - 1) / stripe_lines;
  if (share.me != 0) {
    // Lines, then values, a stripe a message.
    std::uint64_t at = 0, rank = 0;
    share.for_each_stripe(lines, [&](std::uint64_t first, std::uint64_t end) {
      MPI_Send(part.lines + kLineWords * at, static_cast<int>((end - first) * kLineWords),
               MPI_UINT64_T, 0, 1, MPI_COMM_WORLD);
      at += end - first;
    });
    for (const std::uint64_t count : mine) {
      MPI_Send(part.values + rank, static_cast<int>(count), MPI_INT8_T, 0, 2, MPI_COMM_WORLD);
      rank += count;
    }
    return;
  }
  // Where each process's stripes and values have got to (process 0 reads its own in place).
  std::vector<std::uint64_t> line_at(sizes.size(), 0), rank_at(sizes.size(), 0);
  std::vector<std::uint64_t> words;
  std::uint64_t running = 0;  // the classes of the stripes before this one
  for (std::uint64_t s = 0; s < stripe_count; ++s) {
    const auto from = static_cast<std::size_t>(s % static_cast<std::uint64_t>(processes));
    const std::uint64_t first = s * stripe_lines, end = std::min(lines, first + stripe_lines);
    // Process 0's own stripes (one of every line, alone) in pieces of kGatherLines; the others'
    // come whole, at most kGatherLines.
    const std::uint64_t base = from == 0 ? part.lines[kLineWords * line_at[0]] : 0;
    for (std::uint64_t at = first; at < end; at += kGatherLines) {
      const std::uint64_t count = std::min(end - at, from == 0 ? kGatherLines : end - at);
      words.resize(count * kLineWords);
      if (from == 0) {
        std::copy_n(part.lines + kLineWords * line_at[0], words.size(), words.begin());
        line_at[0] += count;
      } else {
        MPI_Recv(words.data(), static_cast<int>(words.size()), MPI_UINT64_T, static_cast<int>(from),
                 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      const std::uint64_t first_rank = from == 0 ? base : words[0];
      for (std::size_t w = 0; w < words.size(); w += kLineWords)
        words[w] = words[w] - first_rank + running;
      output->append({reinterpret_cast<const unsigned char*>(words.data()), words.size() * 8});
      if (from != 0) break;
    }
    running += by_process[static_cast<std::size_t>(starts[from]) +
                          s / static_cast<std::uint64_t>(processes)];
  }
  std::vector<std::int8_t> values;
  for (std::uint64_t s = 0; s < stripe_count; ++s) {
    const auto from = static_cast<std::size_t>(s % static_cast<std::uint64_t>(processes));
    const std::uint64_t count = by_process[static_cast<std::size_t>(starts[from]) +
                                           s / static_cast<std::uint64_t>(processes)];
    if (from == 0) {
      output->append({reinterpret_cast<const unsigned char*>(part.values + rank_at[0]), count});
      rank_at[0] += count;
      continue;
    }
    values.resize(count);
    MPI_Recv(values.data(), static_cast<int>(count), MPI_INT8_T, static_cast<int>(from), 2,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    output->append({reinterpret_cast<const unsigned char*>(values.data()), count});
  }
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
  const std::uint64_t needed = solve_bytes(geometry, processes, 1, MpiExchange::kBatch) +
                               MpiExchange::buffer_bytes(ring, processes);
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
      output.emplace(*call.parsed.text(cli::opt::out), geometry, cli::written_format(call.parsed));
    } catch (const TableFileError& error) {
      call.complain(error.what());
    }
  }
  if (!all_agree(me != 0 || output.has_value())) return to_int(ExitCode::bad_table);

  const auto begin = Clock::now();
  RingPart part;
  part.geometry = &geometry;
  part.share = Share::of(geometry, processes, me);
  const std::uint64_t held = part.share.lines_held(geometry.lines());
  LargeArray<std::uint64_t> lines(held * kLineWords);

  cli::SolveLine line(call, "solve", call.parsed.given(cli::opt::quiet) || me != 0);
  SolveOptions options = line.options();
  options.threads = 1;  // the MPI exchange is called by one thread
  LayeredSolve solve(geometry, part.share, options);
  part.classes = solve.index(lines.span());
  LargeArray<std::int8_t> values(part.classes);
  part.lines = lines.data();
  part.values = values.data();
  const double indexed = seconds_since(begin);
  MpiExchange exchange(MPI_COMM_WORLD, part);
  solve.solve(part, exchange, values.span());
  const double solved = seconds_since(begin);

  // The table, in file order: the lines of every stripe, then the values of every stripe.
  std::uint64_t classes = 0;
  MPI_Allreduce(&part.classes, &classes, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  try {
    gather(part, geometry, cli::written_format(call.parsed), output);
    if (me == 0) output->commit(classes);
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
  const Report mine{part.classes,           held,    peak_bytes(), exchange.sent_positions(),
                    exchange.rounds_made(), indexed, solved};
  std::vector<Report> reports(static_cast<std::size_t>(processes));
  MPI_Gather(&mine, sizeof mine, MPI_BYTE, reports.data(), sizeof mine, MPI_BYTE, 0,
             MPI_COMM_WORLD);
  if (me != 0) return to_int(ExitCode::ok);
  call.out << std::fixed << std::setprecision(1) << "solved the ring of " << ring.describe() << ": "
           << classes << " classes in " << seconds_since(begin) << " s on " << processes
           << (processes == 1 ? " process" : " processes") << "; wrote "
           << *call.parsed.text(cli::opt::out) << " (" << cli::bytes_text(output->size())
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
