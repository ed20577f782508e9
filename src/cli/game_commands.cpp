// The commands that play a game: the player (no command), `play` and `opponent`.
#include <fstream>
#include <istream>
#include <optional>
#include <ostream>
#include <random>

#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/environment.hpp"
#include "ioiwari/cli/option_names.hpp"
#include "ioiwari/cli/ring_setup.hpp"
#include "ioiwari/judge/opponent.hpp"
#include "ioiwari/play/terminal.hpp"
#include "ioiwari/player/protocol.hpp"

namespace ioiwari::cli {

namespace {

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

int run_play(Invocation& call) {
  RingSetup setup(call);
  const Environment& environment = call.environment;
  PlayOptions options;
  options.person = call.parsed.given(opt::second) ? Player::second : Player::first;
  std::optional<std::uint64_t> seed = seed_of(call);
  options.start = setup.start(seed);
  // Said only when a seed drew the start, to tell which.
  if (!call.parsed.given(opt::start)) options.seed = seed;
  options.color =
      environment.output_is_terminal && !environment.no_color && !call.parsed.given(opt::no_color);
  options.columns = environment.columns;
  options.interrupted = environment.interrupted;
  const Table& table = setup.table(options.start.total());
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
    record_file.open(*record);
    if (!record_file) {
      call.complain("cannot write the record to '" + *record + "'");
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
