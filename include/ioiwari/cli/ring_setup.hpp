// The ring a command plays, made once from its command line: the ring, the rule of its starts,
// and its table, loaded from --table or solved (once, with a progress line where a person
// watches), after checking that the machine has the memory for it. Where the table comes from,
// the IOI ring's own path or the ring solver or a file, is decided here and in Table::solve(),
// never by the commands.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ioiwari/cli/options.hpp"
#include "ioiwari/cli/progress.hpp"
#include "ioiwari/core/board.hpp"
#include "ioiwari/core/ring.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/strategy.hpp"
#include "ioiwari/core/table.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/player/protocol.hpp"
#include "textio/number.hpp"

namespace ioiwari::cli {

class RingSetup {
 public:
  // The ring and start rule of `call`'s options (the IOI's without them). Throws UsageError for
  // a start range that is no range.
  explicit RingSetup(const Invocation& call);
  // `ring`, which a file names (a judge system's game file), with its default start rule, and
  // the table of --table where the command takes it. Throws UsageError for a ring not played.
  RingSetup(const Invocation& call, Ring ring);

  Ring ring() const { return ring_; }
  const StartRule& start_rule() const { return rule_; }
  // The ring's geometry, computed once, when it is first asked for, and handed down to what
  // solves, reads or writes its table.
  const std::shared_ptr<const RingGeometry>& geometry() const;

  // Whether documents name the ring and its rule. They do not for the IOI task's own ring and
  // starts, whose documents keep the form they had before there were other rings.
  bool named() const { return !(ring_ == Ring::ioi() && rule_ == StartRule::ioi()); }

  // Every start of the rule, in code order. Throws UsageError, naming the option to change, when
  // the rule fits no board of the ring, and when there are more than ten million.
  std::vector<Board> starts() const;
  // The starts of --starts `text`: all of them, one of each rotation class, or N drawn by
  // `seed`. Throws UsageError for any other text.
  std::vector<Board> chosen_starts(const std::string& text, std::uint64_t seed) const;

  // The board --start gives, or nothing without --start. Throws UsageError when it is no board
  // of the ring with a bead.
  std::optional<Board> given_start() const;

  // The start of a game: --start's, or else one of the starts drawn by `seed`, which is first
  // drawn from the system's random device when it is empty.
  Board start(std::optional<std::uint64_t>& seed) const;
  // One of the starts drawn by `seed` (drawn first from the random device when empty), whether or
  // not --start gives one: the next game's.
  Board drawn_start(std::optional<std::uint64_t>& seed) const;

  // Throws UsageError when solving the ring needs more memory than this machine has.
  void check_memory() const;

  // The table: read from --table (table_reading()), or solved, once. A solve covers the boards of
  // up to `most_beads` beads where the ring's solver can stop there (the IOI ring's can), and shows
  // its progress on standard error where a person watches, unless `quiet`. Throws UsageError
  // (no memory for it) and TableFileError.
  const Table& table(int most_beads = kMaxRingBeads, bool quiet = false);

  // The table a game needs once its start is known: loaded or solved at once when that does not
  // depend on the start (so that a bad file is refused before any input is read), and else
  // solved when the start is read, as far as its beads need.
  TableForStart table_for_games();

 private:
  void check_rule() const;
  const Invocation& call_;
  Ring ring_;
  StartRule rule_;
  bool beads_given_ = false;
  std::optional<std::string> file_;
  mutable std::shared_ptr<const RingGeometry> geometry_;
  std::optional<Table> table_;
};

// The progress line of a solve, on standard error where a person watches (not with `quiet`):
// "solve: 1.2M/33.0M classes, layer 12 of 55, 3%, 0:04 elapsed, 2:01 left", and before the
// layers the index: "solve: indexing ...". It lives as long as the solve.
class SolveLine {
 public:
  SolveLine(const Invocation& call, std::string what, bool quiet);
  ~SolveLine();
  SolveLine(const SolveLine&) = delete;
  SolveLine& operator=(const SolveLine&) = delete;
  // What to solve with: progress reported to this line.
  const SolveOptions& options() const { return options_; }
  // The most threads that worked at once, as the solve reported.
  int threads() const { return threads_; }

 private:
  const Invocation& call_;
  std::string what_;
  ProgressOutput where_;
  std::unique_ptr<Progress> progress_;  // made at the first report, which tells the classes
  SolveOptions options_;
  int threads_ = 0;
  bool layers_ = false;  // whether the layers have begun (after the index)
};

// The true roots the commands hold table files to: built in, and the user's list.
RootBook root_book(const Environment& environment);

// How a command given --table reads the file: trusting a ring with no known root only with
// --trust-table, and keeping checked copies of its blocks in up to half the memory the process
// may take.
TableReading table_reading(const Invocation& call);

// The strategies of --strategy, which the command line has checked.
std::vector<Strategy> strategies_of(const std::vector<std::string>& names);

// "--pits 12 --capacity 5": a ring as the options that give it.
std::string ring_options(Ring ring);

using textio::bytes_text;

}  // namespace ioiwari::cli
