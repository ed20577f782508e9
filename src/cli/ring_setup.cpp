#include "ioiwari/cli/ring_setup.hpp"

#include <algorithm>
#include <iomanip>
#include <iterator>
#include <random>
#include <sstream>

#include "ioiwari/cli/environment.hpp"
#include "ioiwari/cli/option_names.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/input/reading.hpp"

namespace ioiwari::cli {

namespace {

// The most starts a command lists or draws from.
constexpr std::uint64_t kMostStarts = 10'000'000;

// The memory for a table file's checked blocks where the machine's is not known.
constexpr std::uint64_t kTableCacheWithoutMemory = std::uint64_t{1} << 30;

}  // namespace

RootBook root_book(const Environment& environment) {
  const RootBook roots = environment.built_in_roots ? RootBook::built_in() : RootBook::none();
  return environment.roots_list.empty() ? roots : roots.with_list(environment.roots_list);
}

TableReading table_reading(const Invocation& call) {
  TableReading reading;
  reading.roots = root_book(call.environment);
  reading.trust_unknown_root = call.parsed.given(opt::trust_table);
  // Checked copies of the blocks it reads, up to half the memory the process may take: a census
  // of every start of a large ring reads most of its table.
  const std::uint64_t memory = call.environment.memory_bytes;
  reading.cache_bytes = memory != 0 ? memory / 2 : kTableCacheWithoutMemory;
  reading.memory = memory;
  return reading;
}

std::string ring_options(Ring ring) {
  return "--pits " + std::to_string(ring.pits) + " --capacity " + std::to_string(ring.capacity);
}

RingSetup::RingSetup(const Invocation& call, Ring ring) : call_(call), ring_(ring) {
  if (!ring_.playable()) {
    throw UsageError(ring_options(ring_) + ": a ring holds at most " +
                     std::to_string(kMaxRingBeads) + " beads (pits times capacity), the most a " +
                     "table's one-byte values allow");
  }
  rule_ = StartRule::defaults_for(ring_);
  if (call.parsed.command().takes(Group::table)) file_ = call.parsed.text(opt::table);
}

namespace {

// The ring a command plays: --pits and --capacity, whose defaults are the IOI ring's (the
// option table takes them from Ring::ioi()); or, given neither, the ring of the table file
// given, which says which ring it is.
Ring ring_of(const Invocation& call) {
  const Parsed& parsed = call.parsed;
  if (parsed.command().takes(Group::table) && parsed.given(opt::table) &&
      !parsed.given(opt::pits) && !parsed.given(opt::capacity)) {
    return table_ring(*parsed.text(opt::table));
  }
  return Ring{static_cast<int>(*parsed.number(opt::pits)),
              static_cast<int>(*parsed.number(opt::capacity))};
}

}  // namespace

RingSetup::RingSetup(const Invocation& call) : RingSetup(call, ring_of(call)) {
  const Parsed& parsed = call.parsed;
  if (const auto range = parsed.range(opt::start_range)) {
    rule_.min_beads = static_cast<int>(range->first);
    rule_.max_beads = static_cast<int>(range->second);
  }
  if (parsed.given(opt::start_beads)) {
    beads_given_ = true;
    rule_.beads = static_cast<int>(*parsed.number(opt::start_beads));
  }
}

std::vector<Strategy> strategies_of(const std::vector<std::string>& names) {
  std::vector<Strategy> strategies;
  for (const std::string& name : names)
    strategies.push_back(*strategy_named(name));
  return strategies;
}

std::vector<Board> RingSetup::chosen_starts(const std::string& text, std::uint64_t seed) const {
  const std::vector<Board> all = starts();
  if (text == "all") return all;
  std::vector<Board> chosen;
  if (text == "classes") {
    std::copy_if(all.begin(), all.end(), std::back_inserter(chosen),
                 [](const Board& start) { return start.canonical() == start; });
    return chosen;
  }
  const Number count = parse_number(text);
  if (count.kind != Number::Kind::integer || count.value < 1 || count.value > 1'000'000) {
    throw UsageError("--starts is all, classes or a count 1 to 1000000, not " +
                     textio::quoted(text));
  }
  Random random(seed);
  for (long long i = 0; i < count.value; ++i)
    chosen.push_back(all[static_cast<std::size_t>(random.below(static_cast<int>(all.size())))]);
  return chosen;
}

void RingSetup::check_rule() const {
  const std::string range =
      std::to_string(rule_.min_beads) + ".." + std::to_string(rule_.max_beads);
  if (rule_.max_beads > ring_.capacity) {
    throw UsageError(
        "--start-range " + range + ": a pit holds at most " +
        textio::counted(static_cast<unsigned long long>(ring_.capacity), "bead", "beads") +
        " (--capacity)");
  }
  if (rule_.min_beads > rule_.max_beads) {
    throw UsageError("--capacity " + std::to_string(ring_.capacity) + ": the default start range " +
                     range + " holds no count; give --start-range");
  }
  const int least = ring_.pits * rule_.min_beads;
  const int most = ring_.pits * rule_.max_beads;
  if (rule_.beads < least || rule_.beads > most) {
    const std::string holds =
        "no start of " + std::to_string(ring_.pits) + " pits with " + range + " beads each holds " +
        textio::counted(static_cast<unsigned long long>(rule_.beads), "bead", "beads") +
        " (they hold " + std::to_string(least) + " to " + std::to_string(most) + ")";
    if (beads_given_) {
      throw UsageError("--start-beads " + std::to_string(rule_.beads) + ": " + holds);
    }
    throw UsageError("the default --start-beads " + std::to_string(rule_.beads) +
                     " (3N-1): " + holds + "; give --start-beads");
  }
}

std::vector<Board> RingSetup::starts() const {
  check_rule();
  const std::uint64_t count = count_starts(ring_, rule_);
  if (count > kMostStarts) {
    throw UsageError("the start rule (" + rule_.describe() + ") gives " + std::to_string(count) +
                     " starts, more than " + std::to_string(kMostStarts) +
                     "; narrow --start-range or --start-beads");
  }
  return ioiwari::starts(ring_, rule_);
}

std::optional<Board> RingSetup::given_start() const {
  const auto text = call_.parsed.text(opt::start);
  if (!text) return std::nullopt;
  std::istringstream counts(*text);
  TokenReader reader(counts);
  Board board;
  if (const auto result = read_start(reader, board, ring_); result.code != ExitCode::ok) {
    throw UsageError("--start: " + result.error);
  }
  if (const auto extra = reader.next()) {
    throw UsageError("--start: " + textio::quoted(*extra) + " after the " +
                     std::to_string(ring_.pits) + " counts");
  }
  return board;
}

Board RingSetup::start(std::optional<std::uint64_t>& seed) const {
  if (auto given = given_start()) return *given;
  return drawn_start(seed);
}

Board RingSetup::drawn_start(std::optional<std::uint64_t>& seed) const {
  const std::vector<Board> all = starts();
  if (!seed) seed = std::random_device{}();
  Random random(*seed);
  return all[static_cast<std::size_t>(random.below(static_cast<int>(all.size())))];
}

const std::shared_ptr<const RingGeometry>& RingSetup::geometry() const {
  if (!geometry_) geometry_ = RingGeometry::of(ring_);
  return geometry_;
}

void RingSetup::check_memory() const {
  // A ring of ioiwari's own path is solved in well under a megabyte, and at every start: it
  // needs no geometry, and start-up computes none.
  if (Table::built_in(ring_)) return;
  const std::uint64_t needed = solve_bytes(*geometry(), 1, SolveOptions{}.threads, kSolveBatch);
  const std::uint64_t have = call_.environment.memory_bytes;
  if (have == 0 || needed <= have) return;
  throw UsageError(ring_options(ring_) + ": solving this ring needs " + bytes_text(needed) +
                   " of memory; this process may take " + bytes_text(have));
}

const Table& RingSetup::table(int most_beads, bool quiet) {
  if (table_) return *table_;
  if (file_) {
    const TableReading reading = table_reading(call_);
    table_.emplace(Table(load_table(*file_, geometry(), reading)));
    // A file used because the user said so: its values are the file's, and the user is told.
    if (reading.trust_unknown_root && !reading.roots.find(ring_)) {
      call_.complain("using table '" + *file_ + "' unchecked (--trust-table): the true root of " +
                     ring_.describe() + " is not known, so its values are the file's; " +
                     "'ioiwari verify' checks it and records its root");
    }
    return *table_;
  }
  check_memory();
  const std::string what =
      call_.parsed.command().name.empty() ? "solving" : std::string(call_.where()) + "solving";
  const SolveLine line(call_, what, quiet);
  SolveOptions options = line.options();
  options.most_beads = most_beads;
  return table_.emplace(Table::built_in(ring_) ? Table::solve(ring_, options)
                                               : Table::solve(geometry(), options));
}

TableForStart RingSetup::table_for_games() {
  if (file_ || !Table::built_in(ring_)) {
    table();
    return [this](const Board&) -> const Table& { return *table_; };
  }
  return [this](const Board& start) -> const Table& { return table(start.total()); };
}

SolveLine::SolveLine(const Invocation& call, std::string what, bool quiet)
    : call_(call), what_(std::move(what)), where_(ProgressOutput::of(call.environment, quiet)) {
  options_.progress = [this](const SolveProgress& now) {
    threads_ = now.threads;
    if (!progress_) {
      progress_ = std::make_unique<Progress>(call_.err, where_, what_ + ", indexing", "classes",
                                             now.classes, call_.environment.progress_delay);
    }
    if (now.layer < 0) {
      progress_->update(static_cast<std::size_t>(now.done));
      return;
    }
    if (!layers_) {
      layers_ = true;
      progress_->next_stage(what_);
    }
    const auto percent = now.classes == 0 ? 100 : now.done * 100 / now.classes;
    progress_->update(static_cast<std::size_t>(now.done),
                      "layer " + std::to_string(now.layer) + " of " +
                          std::to_string(now.layers - 1) + ", " + std::to_string(percent) + "%");
  };
}

SolveLine::~SolveLine() {
  if (progress_) progress_->clear();
}

}  // namespace ioiwari::cli
