// The commands of table files: `solve` writes one, `verify` checks one.
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <optional>
#include <ostream>
#include <sstream>

#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/environment.hpp"
#include "ioiwari/cli/option_names.hpp"
#include "ioiwari/cli/progress.hpp"
#include "ioiwari/cli/ring_setup.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/core/tier_solver.hpp"

namespace ioiwari::cli {

namespace {

std::string in_quotes(const std::string& path) {
  return "'" + path + "'";
}

// The bytes free in the file system of `folder`. Throws TableFileError (unwritable) when it is
// no folder.
std::uint64_t free_bytes_in(const std::string& folder) {
  struct stat status {};
  struct statvfs space {};
  if (::stat(folder.c_str(), &status) != 0 || ::statvfs(folder.c_str(), &space) != 0) {
    throw TableFileError(
        TableFileError::Kind::unwritable,
        "cannot solve past memory in " + in_quotes(folder) + ": " + std::strerror(errno));
  }
  if (!S_ISDIR(status.st_mode)) {
    throw TableFileError(
        TableFileError::Kind::unwritable,
        "cannot solve past memory in " + in_quotes(folder) + ": it is no directory");
  }
  return static_cast<std::uint64_t>(space.f_bavail) * space.f_frsize;
}

// The folder of the file at `path`.
std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// Whether two paths lie in one file system.
bool same_file_system(const std::string& a, const std::string& b) {
  struct stat first {
  }, second{};
  return ::stat(a.c_str(), &first) == 0 && ::stat(b.c_str(), &second) == 0 &&
         first.st_dev == second.st_dev;
}

// Solves the ring of `setup` past memory (tier_solver.hpp), in at most `memory` bytes, to FILE.
int solve_past_memory(Invocation& call, RingSetup& setup, std::uint64_t memory) {
  std::ostringstream text;  // printed fitted to the width (print())
  const std::shared_ptr<const RingGeometry>& geometry = setup.geometry();
  // The progress line (which shows nothing before the solve's first report) is gone before the
  // last line is written.
  std::optional<SolveLine> line;
  line.emplace(call, "solving past memory", call.parsed.given(opt::quiet));
  TierOptions options;
  options.solve = line->options();
  options.memory = memory;
  TierSolve tier(geometry, options);
  if (tier.window() < 0) {
    throw UsageError(ring_options(setup.ring()) + ": solving this ring needs " +
                     bytes_text(solve_bytes(*geometry, 1, 0, kSolveBatch)) + " of memory, or " +
                     bytes_text(tier.least_memory_bytes()) + " past memory; it may take " +
                     bytes_text(memory));
  }
  TableOutput output(*call.parsed.text(opt::out), *geometry, written_format(call.parsed),
                     TableOutput::Room::later);
  const std::string table_folder = folder_of(output.target());
  const std::string work =
      call.parsed.given(opt::work) ? *call.parsed.text(opt::work) : table_folder;
  free_bytes_in(work);  // a work folder that is not there is refused before anything is made
  const auto begin = std::chrono::steady_clock::now();
  tier.open(work);
  const int layers = setup.ring().max_beads() + 1;
  if (tier.kept_layers() > 0 && !call.parsed.given(opt::quiet)) {
    call.err << "ioiwari: solve: taking up " << tier.kept_layers() << " of " << layers
             << " layers that a stopped solve finished in " << in_quotes(tier.folder()) << "\n";
  }
  // Room for the layers' files left to write while the solve runs, and then for the table: beside
  // every layer, so that a stop during the merge takes up at the merge, or else beside their
  // values alone, given back to the disk as the merge reads them.
  const std::uint64_t kept = tier.kept_bytes(), table = output.bytes_in_steps();
  const std::uint64_t left = tier.disk_bytes() - kept;
  const bool shared = same_file_system(work, table_folder);
  const auto beyond_kept = [&](std::uint64_t bytes) { return bytes > kept ? bytes - kept : 0; };
  const std::uint64_t keeping = shared ? left + table : left;
  const std::uint64_t needed =
      shared ? std::max(left, beyond_kept(geometry->values_bytes() + table)) : left;
  const std::uint64_t free = free_bytes_in(work);
  if (free < needed || (!shared && output.free_bytes() < table)) {
    throw TableFileError(TableFileError::Kind::unwritable,
                         "cannot solve past memory in " + in_quotes(work) +
                             ": its layers and the table need " + bytes_text(needed) +
                             " more of disk and it has " + bytes_text(free) + " free");
  }
  const TierSolve::Merge merge =
      free >= keeping ? TierSolve::Merge::keep_layers : TierSolve::Merge::give_back;
  try {
    tier.solve();
    tier.write(output, merge);
  } catch (const TableFileError& error) {
    if (tier.finished_layers() == 0) throw;
    throw TableFileError(error.kind(),
                         std::string(error.what()) + "; " + std::to_string(tier.finished_layers()) +
                             " of " + std::to_string(layers) + " layers are finished in " +
                             in_quotes(tier.folder()) + ": the same command takes up from them");
  }
  const double seconds = seconds_since(begin);
  const TierCounts& counts = tier.counts();
  const int threads = line->threads();
  line.reset();
  text << "solved the ring of " << setup.ring().describe()
       << " past memory: " << geometry->classes() << " classes in " << std::fixed
       << std::setprecision(1) << seconds << " s on " << threads
       << (threads == 1 ? " thread" : " threads") << ", " << counts.window
       << (counts.window == 1 ? " layer" : " layers") << " below each in memory ("
       << bytes_text(counts.peak_layers) << " at most), " << counts.deferred << " of "
       << counts.moves << " moves answered from files (" << bytes_text(counts.bytes_written)
       << " written to them, " << bytes_text(counts.bytes_read) << " read back); ";
  if (counts.kept_layers > 0) {
    text << "took up " << counts.kept_layers << " of " << layers << " layers from a stopped solve ("
         << bytes_text(counts.bytes_checked) << " checked); ";
  }
  text << "wrote " << *call.parsed.text(opt::out) << " (" << bytes_text(output.size()) << "), root "
       << hex(output.root()) << "\n";
  print(call, text.str());
  return written(call, to_int(ExitCode::ok));
}

}  // namespace

int run_solve(Invocation& call) {
  std::ostringstream text;  // printed fitted to the width (print())
  RingSetup setup(call);
  // The memory the solve may take: --memory, or three quarters of the machine's (the rest for the
  // system, and for the page cache that a solve past memory writes its layers through).
  const std::optional<long long> given = call.parsed.number(opt::memory);
  const std::uint64_t memory =
      given ? static_cast<std::uint64_t>(*given) << 20 : call.environment.memory_bytes / 4 * 3;
  if (!Table::built_in(setup.ring()) && memory != 0 &&
      solve_bytes(*setup.geometry(), 1, 0, kSolveBatch) > memory) {
    return solve_past_memory(call, setup, memory);
  }
  // The file is prepared before the solve: a path that cannot take the table is refused now.
  TableOutput output(*call.parsed.text(opt::out), *setup.geometry(), written_format(call.parsed));
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
  text << "solved the ring of " << setup.ring().describe() << ": " << table->classes()
       << " classes in " << std::fixed << std::setprecision(1) << seconds << " s on " << threads
       << (threads == 1 ? " thread" : " threads") << "; wrote " << *call.parsed.text(opt::out)
       << " (" << bytes_text(output.size()) << "), root " << hex(output.root()) << "\n";
  print(call, text.str());
  return written(call, to_int(ExitCode::ok));
}

int run_verify(Invocation& call) {
  std::ostringstream text;  // printed fitted to the width (print())
  const std::string& path = call.parsed.operands().front();
  const auto begin = std::chrono::steady_clock::now();
  const SolveLine line(call, "verify", call.parsed.given(opt::quiet));
  VerifyOptions options;
  options.roots = root_book(call.environment);
  options.solve = line.options();
  const std::optional<long long> given = call.parsed.number(opt::memory);
  options.memory =
      given ? static_cast<std::uint64_t>(*given) << 20 : call.environment.memory_bytes / 4 * 3;
  if (call.parsed.given(opt::work)) {
    options.work = *call.parsed.text(opt::work);
  } else {
    const char* temporary = std::getenv("TMPDIR");
    options.work = temporary != nullptr && temporary[0] != '\0' ? temporary : "/tmp";
  }
  const TableCheck check = verify_table(path, options);
  text << "table '" << path << "' is the true table of the ring of " << check.ring.describe()
       << ": " << check.classes << " classes; " << check.blocks << " blocks ("
       << bytes_text(check.bytes) << ") checked in " << std::fixed << std::setprecision(1)
       << seconds_since(begin) << " s\nroot " << hex(check.root);
  switch (check.source) {
    case RootBook::Source::built_in:
      text << ": the ring's true root, which ioiwari has built in\n";
      break;
    case RootBook::Source::recorded:
      text << ": the ring's true root, recorded in '" << options.roots.list() << "'\n";
      break;
    case RootBook::Source::none:
      text << ": the ring's true root, found by solving the ring"
           << (check.solved_past_memory ? " past memory" : "") << "\n";
      if (options.roots.list().empty()) {
        text << "not recorded: there is no home for the list of roots (neither "
                "XDG_DATA_HOME nor HOME is set); --trust-table may use this table\n";
        break;
      }
      record_root(options.roots.list(), check.ring, check.root);
      text << "recorded in '" << options.roots.list()
           << "': every command now uses this table, or any copy of it, without "
              "--trust-table, and refuses any other file of this ring\n";
      break;
  }
  print(call, text.str());
  return written(call, to_int(ExitCode::ok));
}

int run_convert(Invocation& call) {
  std::ostringstream text;  // printed fitted to the width (print())
  const std::string& path = call.parsed.operands().front();
  const TableKind kind = table_kind(path);
  const auto geometry = RingGeometry::of(kind.ring);
  // --format's, or else the other format than the file's.
  const TableFormat format = call.parsed.given(opt::format)      ? written_format(call.parsed)
                             : kind.format == TableFormat::plain ? TableFormat::compressed
                                                                 : TableFormat::plain;
  const auto begin = std::chrono::steady_clock::now();
  // A crafted file of terabytes is refused before anything is allocated for its copy; memory
  // that runs out is the core's refusal, status 7.
  const TableCopy copy =
      copy_table(path, geometry, root_book(call.environment), call.environment.memory_bytes,
                 *call.parsed.text(opt::out), format);
  struct stat status {};
  const std::uint64_t read = ::stat(path.c_str(), &status) == 0 ? status.st_size : 0;
  text << "converted the table of " << geometry->ring().describe() << " from " << in_quotes(path)
       << " (format " << copy.version << ", " << bytes_text(read) << ") to "
       << in_quotes(*call.parsed.text(opt::out)) << " (format "
       << static_cast<std::uint32_t>(format) << ", " << bytes_text(copy.size) << ") in "
       << std::fixed << std::setprecision(1) << seconds_since(begin) << " s, root "
       << hex(copy.root) << "\n";
  print(call, text.str());
  return written(call, to_int(ExitCode::ok));
}

}  // namespace ioiwari::cli
