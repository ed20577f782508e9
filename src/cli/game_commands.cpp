// The commands that play a game: the player (no command), `play` and `opponent`.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <istream>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/environment.hpp"
#include "ioiwari/cli/option_names.hpp"
#include "ioiwari/cli/ring_setup.hpp"
#include "ioiwari/input/game_record.hpp"
#include "ioiwari/judge/opponent.hpp"
#include "ioiwari/play/terminal.hpp"
#include "ioiwari/player/protocol.hpp"

namespace ioiwari::cli {

namespace {

// ": No such file or directory", the reason a file could not be opened (errno), or nothing.
std::string reason(int error) {
  return error != 0 ? ": " + std::string(std::strerror(error)) : std::string();
}

std::optional<std::uint64_t> seed_of(const Invocation& call) {
  if (!call.parsed.given(opt::seed)) return std::nullopt;
  return static_cast<std::uint64_t>(*call.parsed.number(opt::seed));
}

}  // namespace

int run_player(Invocation& call) {
  RingSetup setup(call);
  const Environment& environment = call.environment;
  const Player me = call.parsed.given(opt::second) ? Player::second : Player::first;
  std::optional<TerminalView> view;
  if (environment.input_is_terminal && environment.error_is_terminal) {
    view.emplace(call.err, !environment.no_color, me, environment.columns);
  }
  const ProtocolResult result = play_protocol(call.in, call.out, setup.ring(),
                                              setup.table_for_games(), me, view ? &*view : nullptr);
  if (result.code != ExitCode::ok) call.complain(result.error);
  return to_int(result.code);
}

namespace {

// The most bytes a record file may have: tens of thousands of games.
constexpr std::streamsize kMostRecordBytes = std::streamsize{1} << 24;

// `play --replay FILE`: every game of the file played back.
int replay(Invocation& call, const std::string& path, PlayOptions options) {
  std::ifstream file(path, std::ios::binary);
  std::string text(static_cast<std::size_t>(kMostRecordBytes) + 1, '\0');
  file.read(text.data(), kMostRecordBytes + 1);
  if (!file.eof() && (!file || file.gcount() > kMostRecordBytes)) {
    call.complain("cannot read the record '" + path + "'" +
                  (file.gcount() > kMostRecordBytes ? ": it is longer than 16 MB" : ""));
    return to_int(ExitCode::usage);
  }
  text.resize(static_cast<std::size_t>(file.gcount()));
  std::vector<GameRecord> games;
  try {
    games = read_game_records(text);
  } catch (const GameRecordError& error) {
    call.complain("'" + path + "' is no record of games: " + error.what());
    return to_int(ExitCode::usage);
  }
  for (std::size_t i = 0; i < games.size(); ++i) {
    // Each game under a line of its own, where the file holds more than one.
    if (games.size() > 1) {
      call.out << (i > 0 ? "\n" : "") << "---- game " << i + 1 << " of " << games.size()
               << " ----\n";
    }
    // The ring is the record's: its table comes from --table or a solve, as for any game.
    RingSetup setup(call, games[i].ring);
    replay_terminal(call.out, setup.table(games[i].start.total()), games[i], options);
  }
  return written(call, to_int(ExitCode::ok));
}

}  // namespace

int run_play(Invocation& call) {
  const Environment& environment = call.environment;
  PlayOptions options;
  options.color =
      environment.output_is_terminal && !environment.no_color && !call.parsed.given(opt::no_color);
  options.columns = environment.columns;
  if (const auto path = call.parsed.text(opt::replay)) return replay(call, *path, options);
  RingSetup setup(call);
  options.person = call.parsed.given(opt::second) ? Player::second : Player::first;
  std::optional<std::uint64_t> seed = seed_of(call);
  options.start = setup.start(seed);
  // Said only when a seed drew the start, to tell which.
  if (!call.parsed.given(opt::start)) options.seed = seed;
  options.strategy = *strategy_named(*call.parsed.text(opt::strategy));
  options.strategy_seed = seed ? *seed : std::random_device{}();
  options.interrupted = environment.interrupted;
  // A new game's start: one of the ring's at random, also after a game from --start; where the
  // ring's start rule holds none (a start was given), only the same start again.
  try {
    options.new_starts = !setup.starts().empty();
  } catch (const UsageError&) {
    options.new_starts = false;
  }
  options.next_start = [&setup, &options] {
    if (!options.new_starts) return options.start;
    std::optional<std::uint64_t> none;
    return setup.drawn_start(none);
  };
  // Each game added to --record's file as it ends or is left, whole: a record is never a part.
  const auto record = call.parsed.text(opt::record);
  std::ofstream record_file;
  bool record_failed = false;
  if (record) {
    errno = 0;
    record_file.open(*record, std::ios::binary | std::ios::app);
    if (!record_file) {
      call.complain("cannot write the record to '" + *record + "'" + reason(errno));
      return to_int(ExitCode::usage);
    }
    options.keep = [&](const Match& game) {
      record_file << write_game_record(game, options.person, options.strategy) << '\n'
                  << std::flush;
      if (!record_file && !record_failed) {
        record_failed = true;
        call.complain("writing the record to '" + *record + "' failed");
      }
    };
  }
  // Solved as far as the start, and a new start of the ring's rule, need.
  const Table& table = setup.table(std::max(options.start.total(), setup.start_rule().beads));
  environment.catch_interrupts();
  std::istream& input =
      environment.interruptible_input ? *environment.interruptible_input : call.in;
  return play_terminal(input, call.out, table, options);
}

int run_opponent(Invocation& call) {
  RingSetup setup(call);
  OpponentOptions options;
  // One seed draws the start and the strategy's choices.
  std::optional<std::uint64_t> seed = seed_of(call);
  options.start = setup.start(seed);
  options.seed = seed ? *seed : std::random_device{}();
  options.strategy = *strategy_named(*call.parsed.text(opt::strategy));
  const auto record = call.parsed.text(opt::record);
  std::ofstream record_file;
  if (record) {
    errno = 0;
    record_file.open(*record);
    if (!record_file) {
      call.complain("cannot write the record to '" + *record + "'" + reason(errno));
      return to_int(ExitCode::usage);
    }
  }
  const Table& table = setup.table(options.start.total());
  const OpponentResult result = run_opponent(call.in, call.out, table, options);
  if (record) {
    write_record(record_file, result, options);
    record_file.flush();
    if (!record_file) call.complain("writing the record to '" + *record + "' failed");
  }
  call.err << "ioiwari opponent: " << result.summary() << '\n';
  return static_cast<int>(result.exit);
}

}  // namespace ioiwari::cli
