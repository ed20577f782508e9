// Table files through the built binary, as a hostile user would try them: damaged and crafted
// tables, FIFOs and devices, tables cut short or rewritten while a player reads them, and
// `solve --out` to places that cannot take a table, or killed in the middle.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/match.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/table.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/input/exit_code.hpp"
#include "ioiwari/judge/process.hpp"
#include "referee_support.hpp"
#include "run_program.hpp"
#include "table_files.hpp"
#include "text_support.hpp"

using namespace ioiwari;
using namespace ioiwari::test;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

const Ring kRing{8, 4};
const std::vector<std::string> kRingArgs = {"--pits", "8", "--capacity", "4"};

ioiwari::test::Run ioiwari_run(std::vector<std::string> args, const std::string& input = "") {
  args.insert(args.begin(), IOIWARI_BINARY);
  return ioiwari::test::run_program(args, input);
}

std::vector<std::string> with_ring(std::vector<std::string> args) {
  args.insert(args.begin() + (args.empty() || args.front().starts_with('-') ? 0 : 1),
              kRingArgs.begin(), kRingArgs.end());
  return args;
}

// Starts the binary with `args`, its output thrown away; its process id (-1 when it could not).
pid_t start_quietly(const std::vector<std::string>& args) {
  std::vector<char*> argv = {const_cast<char*>(IOIWARI_BINARY)};
  for (const std::string& arg : args)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    ::execv(IOIWARI_BINARY, argv.data());
    ::_exit(127);
  }
  return pid;
}

// Sends `signal` to the process `pid` and waits for it: whether that signal ended it.
bool ended_by(pid_t pid, int signal) {
  ::kill(pid, signal);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == signal;
}

// Whether two files hold the same bytes.
bool same_bytes(const std::string& a, const std::string& b) {
  std::ifstream first(a, std::ios::binary), second(b, std::ios::binary);
  return std::equal(std::istreambuf_iterator<char>(first), {},
                    std::istreambuf_iterator<char>(second), {});
}

const Table& solved() {
  static const Table table = Table::solve(kRing, {});
  return table;
}

// A start of the ring, and its line.
const Board& start() {
  static const Board board = starts(kRing, StartRule::defaults_for(kRing)).front();
  return board;
}
std::string start_line() {
  std::ostringstream line;
  line << start() << '\n';
  return line.str();
}

// A command that refuses a table: status 7, not a signal, one line on standard error naming the
// file, nothing on standard output (the player: nothing but the moves it made before).
void check_refused(const ioiwari::test::Run& run, const std::string& path,
                   const std::string& out = "") {
  INFO(run.err);
  CHECK_FALSE(run.signaled);
  CHECK(run.status == to_int(ExitCode::bad_table));
  CHECK(run.out == out);
  CHECK(run.err.starts_with("ioiwari: "));
  CHECK(run.err.find(path) != std::string::npos);
  CHECK(run.err.find('\n') == run.err.size() - 1);
}

}  // namespace

TEST_CASE("a damaged table file stops the binary with one line and status 7", "[e2e][tables]") {
  TempFolder folder;
  const std::string path = folder.file("five.table");
  REQUIRE(ioiwari_run({"solve", "--pits", "5", "--out", path}).status == 0);
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(-1, std::ios::end);
    file.put('\x7f');
  }
  const auto run = ioiwari_run({"--pits", "5", "--table", path}, "2 3 3 3 3\n");
  check_refused(run, path);
  CHECK(run.err ==
        "ioiwari: table '" + path + "' is damaged: its top hashes fail the root in its header\n");
}

TEST_CASE("crafted tables end analyze, starts and the player with one line, never a signal",
          "[e2e][tables][hostile]") {
  TempFolder folder;
  const std::string path = folder.file("crafted.table");
  const RingGeometry size(kRing);
  const TableLayout& layout = size.layout();
  struct Craft {
    const char* what;
    std::uint64_t from, count;
    unsigned char byte;
  };
  const std::vector<Craft> crafts = {
      {"values zeroed", layout.values_offset, size.values_bytes(), 0},
      {"values 0x7f", layout.values_offset, size.values_bytes(), 0x7f},
      {"values 0x80", layout.values_offset, size.values_bytes(), 0x80},
      {"index zeroed", layout.lines_offset, size.index_bytes(), 0},
      {"index all ones", layout.lines_offset, size.index_bytes(), 0xff},
  };
  std::ostringstream board;
  board << start();
  for (const Craft& craft : crafts) {
    INFO(craft.what);
    save_table(*solved().classes(), path);
    rewrite(path, [&](std::vector<unsigned char>& bytes) {
      std::fill_n(bytes.begin() + static_cast<std::ptrdiff_t>(craft.from), craft.count, craft.byte);
    });
    check_refused(ioiwari_run(with_ring({"analyze", "--table", path, board.str()})), path);
    check_refused(ioiwari_run(with_ring({"starts", "--table", path})), path);
    check_refused(ioiwari_run(with_ring({"--table", path}), start_line()), path);
    const auto verified = ioiwari_run({"verify", path});
    check_refused(verified, path);
  }
  // The sound table passes all of them.
  save_table(*solved().classes(), path);
  CHECK(ioiwari_run(with_ring({"starts", "--table", path})).status == 0);
  const auto sound = ioiwari_run({"verify", path});
  CHECK(sound.status == 0);
  CHECK(test::unwrapped(sound.out).starts_with(
      "table '" + path +
      "' is the true table of the ring of 8 pits, capacity 4: "
      "48915 classes; 2 blocks ("));
}

TEST_CASE("a FIFO, a directory or a device given as a table is refused at once",
          "[e2e][tables][hostile]") {
  TempFolder folder;
  const std::string fifo = folder.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::vector<std::string> places = {fifo, folder.file("")};
  const std::string device = folder.file("device");
  if (::mknod(device.c_str(), S_IFCHR | 0600, makedev(1, 3)) == 0) places.push_back(device);
  for (const std::string& place : places) {
    INFO(place);
    // A FIFO with no writer would hang an open() forever; run_program kills a hang after its
    // limit, which fails the test as a signal.
    check_refused(ioiwari_run(with_ring({"starts", "--table", place})), place);
    check_refused(ioiwari_run(with_ring({"--table", place}), start_line()), place);
    check_refused(ioiwari_run({"verify", place}), place);
  }
}

namespace {

// A ring of many blocks, so that a game reads some of them only after the file has changed.
const Ring kLargeRing{10, 4};

const Table& large_solved() {
  static const Table table = Table::solve(kLargeRing, {});
  return table;
}

// A player of kLargeRing from `path`, driven a move at a time: its first move read, the game
// waiting for player 2's reply, so that the file can be changed while the player holds it.
struct HeldPlayer {
  ChildProcess child;
  Match game;
  explicit HeldPlayer(const std::string& path)
      : child({IOIWARI_BINARY, "--pits", "10", "--capacity", "4", "--table", path}),
        game(starts(kLargeRing, StartRule::defaults_for(kLargeRing)).front()) {
    std::ostringstream line;
    line << game.board() << '\n';
    child.write(line.str());
    expect_best_move();
  }
  // Reads the player's move, which must be the true table's.
  bool expect_best_move() {
    std::string line;
    if (child.read_line(line, Clock::now() + 120s, 64) != ChildProcess::Read::line) return false;
    const Pit pit = *Pit::from_label(std::stoi(line), kLargeRing.pits);
    REQUIRE(pit == *large_solved().best_move(game.board()));
    game.play(pit);
    return true;
  }
  // Plays player 2's best replies to the end; every move of the player is held to the true
  // table's. Then collects how the player ended.
  ioiwari::test::Run play_out() {
    while (!game.over()) {
      const Pit pit = *large_solved().best_move(game.board());
      child.write(std::to_string(pit.label()) + "\n");
      game.play(pit);
      if (game.over() || !expect_best_move()) break;
    }
    const auto status = child.wait_until(Clock::now() + 120s);
    REQUIRE(status);
    ioiwari::test::Run run;
    run.signaled = status->signaled;
    run.status = status->number;
    run.err = child.error_output();
    return run;
  }
};

// How a player whose table changed under it must end: the game played to its end from its own
// checked copies, or refused with one line and status 7.
void check_ended_well(const ioiwari::test::Run& run, const std::string& path) {
  INFO(run.err);
  CHECK_FALSE(run.signaled);
  if (run.status == 0) {
    CHECK(run.err.empty());
    return;
  }
  CHECK(run.status == to_int(ExitCode::bad_table));
  CHECK(run.err.starts_with("ioiwari: table '" + path + "'"));
  CHECK(run.err.find('\n') == run.err.size() - 1);
}

}  // namespace

TEST_CASE("a table cut short while a player reads it changes none of its moves",
          "[e2e][tables][hostile]") {
  TempFolder folder;
  const std::string path = folder.file("ten.table");
  save_table(*large_solved().classes(), path);
  HeldPlayer player(path);
  fs::resize_file(path, 2 * TableLayout::kBlockBytes);
  const auto run = player.play_out();
  check_ended_well(run, path);
  if (run.status != 0) CHECK(run.err.ends_with("changed while in use: it was cut short\n"));
}

TEST_CASE("a table rewritten while a player reads it changes none of its moves",
          "[e2e][tables][hostile]") {
  TempFolder folder;
  const std::string path = folder.file("ten.table");
  // Every value changed, and every hash made to match: only the change itself shows.
  const TableLayout layout = RingGeometry(kLargeRing).layout();
  int refused = 0;
  for (const unsigned char flip : {std::uint8_t{0x01}, std::uint8_t{0x10}}) {
    INFO("values xor " << int{flip});
    save_table(*large_solved().classes(), path);
    HeldPlayer player(path);
    rewrite(path, [&](std::vector<unsigned char>& bytes) {
      for (std::uint64_t i = 0; i < layout.values_bytes; ++i)
        bytes[layout.values_offset + i] ^= flip;
    });
    const auto run = player.play_out();
    check_ended_well(run, path);
    refused += run.status != 0 ? 1 : 0;
  }
  // A game of 10 pits reads blocks it had not read at its first move.
  CHECK(refused > 0);
}

TEST_CASE("a table that lies consistently one move deep is refused by every command",
          "[e2e][tables][hostile]") {
  // The start's value raised by 2 and the class after one of its moves set to match: every
  // check one move deep passes. Only the ring's true root shows the lie.
  TempFolder folder;
  const std::string path = folder.file("lying.table");
  const std::string clean = folder.file("clean.table");
  save_table(*solved().classes(), clean);
  save_table(*solved().classes(), path);
  const TableLayout layout = RingGeometry(kRing).layout();
  const Board& board = start();
  const int value = solved().value(board);
  rewrite(path, [&](std::vector<unsigned char>& bytes) {
    for (Pit pit : board.pits()) {
      if (!board.is_legal(pit)) continue;
      const MoveResult move = play(board, pit);
      bytes[layout.values_offset + raw(solved().classes()->class_of(board))] =
          static_cast<unsigned char>(value + 2);
      bytes[layout.values_offset + raw(solved().classes()->class_of(move.after))] =
          static_cast<unsigned char>(move.net() - (value + 2));
      return;
    }
  });
  std::ostringstream counts;
  counts << board;
  for (const bool trust : {false, true}) {
    INFO("--trust-table " << trust);
    const auto args = [&](std::vector<std::string> rest) {
      rest = with_ring(std::move(rest));
      if (trust) rest.push_back("--trust-table");
      return rest;
    };
    check_refused(ioiwari_run(args({"starts", "--table", path})), path);
    check_refused(ioiwari_run(args({"analyze", "--table", path, counts.str()})), path);
    check_refused(ioiwari_run(args({"--table", path}), start_line()), path);
    check_refused(ioiwari_run(args({"opponent", "--table", path})), path);
    // The referee's own table, and its player's (staged where a player's own user may run it).
    auto judge = args({"referee", "--starts", "3", "--table", path, "--", PLAYER_IOIWARI});
    auto player = with_ring({"--table", clean});
    judge.insert(judge.end(), player.begin(), player.end());
    check_refused(ioiwari_run(judge), path);
  }
  const auto verified = ioiwari_run({"verify", path});
  check_refused(verified, path);
  CHECK(verified.err.find("is not the true table of 8 pits, capacity 4: its root is ") !=
        std::string::npos);
}

TEST_CASE("solve refuses a path that cannot take a table before it solves anything",
          "[e2e][tables][hostile]") {
  TempFolder folder;
  // An 11-pit solve holds over 80 MB: a refusal before it holds a few.
  const auto refused = [&](const std::string& path) {
    INFO(path);
    const auto run = ioiwari_run({"solve", "--pits", "11", "--out", path});
    INFO(run.err);
    CHECK_FALSE(run.signaled);
    CHECK(run.status == to_int(ExitCode::bad_table));
    CHECK(run.err.starts_with("ioiwari: solve: cannot write the table '" + path + "': "));
    CHECK(run.err.find('\n') == run.err.size() - 1);
    CHECK(run.peak_kb < 40 * 1024);
  };
  const std::string fifo = folder.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  refused(fifo);
  CHECK(fs::is_fifo(fifo));
  const std::string socket = make_socket(folder, "socket");
  refused(socket);
  CHECK(fs::is_socket(socket));
  fs::create_directory(folder.file("dir"));
  refused(folder.file("dir"));
  refused(folder.file("missing/table"));
  const std::string device = folder.file("null");
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
    refused(device);
    CHECK(fs::is_character_file(device));
  } else {
    WARN("no device node test: mknod is not allowed here");
  }
  // Nothing was written anywhere: the nodes made above are all there is.
  CHECK(folder.entries() == (fs::exists(device) ? 4u : 3u));
}

TEST_CASE("solve on a file system without room is refused before it solves anything",
          "[e2e][tables][hostile]") {
  // A file system of 1 MB of our own, mounted on our own folder in a mount namespace of our own:
  // nothing outside sees it, and it goes with the namespace.
  if (::access("/usr/bin/unshare", X_OK) != 0) {
    WARN("no test of a full file system: no unshare(1)");
    return;
  }
  TempFolder folder;
  const std::string script = "mount -t tmpfs -o size=1m ioiwari-test '" + folder.path().string() +
                             "' && exec '" + IOIWARI_BINARY + "' solve --pits 11 --out '" +
                             folder.file("eleven.table") + "'";
  const auto probe = ioiwari::test::run_program(
      {"/usr/bin/unshare", "--mount", "--propagation", "private", "true"}, "");
  if (probe.status != 0) {
    WARN("no test of a full file system: mount namespaces are not allowed here");
    return;
  }
  const auto run = ioiwari::test::run_program(
      {"/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script}, "");
  INFO(run.err);
  CHECK(run.status == to_int(ExitCode::bad_table));
  CHECK(run.err.find(": the table needs ") != std::string::npos);
  CHECK(run.err.find(" free\n") != std::string::npos);
  CHECK(run.peak_kb < 40 * 1024);
  CHECK(folder.entries() == 0);  // the tmpfs is gone with its namespace; nothing here
}

TEST_CASE(
    "solve past memory writes the solve in memory's file, within its memory, and leaves "
    "nothing",
    "[e2e][tables]") {
  if (kSanitized) {
    // The solve past memory runs under the sanitizers in the core's tests (every window, stopped
    // and taken up, a damaged layer); this one's subject is the process (its memory, its files,
    // signals, a full disk), three 10-pit solves a run, and the unsanitized suite runs it.
    WARN("not under the sanitizers: the core's tier solver tests run this code there");
    return;
  }
  TempFolder folder;
  fs::create_directory(folder.file("work"));
  const auto memory = ioiwari_run({"solve", "--pits", "10", "--out", folder.file("memory.table")});
  REQUIRE(memory.status == 0);
  // 10 pits takes 12 MB in memory: with 10 MB it is solved past memory, its layers in `work`.
  const auto past = ioiwari_run({"solve", "--pits", "10", "--memory", "10", "--work",
                                 folder.file("work"), "--out", folder.file("tiers.table")});
  INFO(past.err);
  REQUIRE(past.status == 0);
  CHECK(test::unwrapped(past.out).starts_with(
      "solved the ring of 10 pits, capacity 5 past memory: 6047412 "));
  CHECK(test::unwrapped(past.out).find(" moves answered from files (") != std::string::npos);
  CHECK(test::unwrapped(past.out).find(" read back); wrote ") != std::string::npos);
  CHECK(same_bytes(folder.file("tiers.table"), folder.file("memory.table")));
  // Within its 10 MB, over what the program takes for a ring of no size.
  const auto least = ioiwari_run({"solve", "--pits", "5", "--out", folder.file("five.table")});
  REQUIRE(least.status == 0);
  fs::remove(folder.file("five.table"));
#ifndef IOIWARI_SANITIZED  // a sanitized program's peak is mostly the sanitizers' own memory
  CHECK(past.peak_kb < least.peak_kb + 10 * 1024);
#endif
  CHECK(fs::is_empty(folder.file("work")));
  CHECK(folder.entries() == 3);  // the two tables and `work`
  // Less memory than a layer and its batches: refused, saying how much it needs.
  const auto small =
      ioiwari_run({"solve", "--pits", "10", "--memory", "4", "--out", folder.file("small.table")});
  CHECK(small.status == to_int(ExitCode::usage));
  CHECK(small.err.starts_with("ioiwari: solve: --pits 10 --capacity 5: solving this ring needs "));
  CHECK(small.err.find(" past memory; it may take 4.2 MB\n") != std::string::npos);
  // A work folder that is not there: one line, status 7.
  const auto nowhere = ioiwari_run({"solve", "--pits", "10", "--memory", "10", "--work",
                                    folder.file("missing"), "--out", folder.file("nowhere.table")});
  CHECK(nowhere.status == to_int(ExitCode::bad_table));
  CHECK(nowhere.err == "ioiwari: solve: cannot solve past memory in '" + folder.file("missing") +
                           "': No such file or directory\n");
  CHECK(folder.entries() == 3);
}

namespace {

// The folder of a solve of 10 pits past memory in `work`, this user's.
std::string layers_of(const std::string& work) {
  return work + "/ioiwari-layers-10-5-" + std::to_string(::geteuid());
}

// The layers a solve of 10 pits past memory has finished in `work`: its manifests, from 0 up.
int finished_layers(const std::string& work) {
  int layers = 0;
  while (fs::exists(layers_of(work) + "/layer-" + std::to_string(layers)))
    ++layers;
  return layers;
}

// Whether the folder of `work`'s layers holds a file of a name ending in ".part".
bool unfinished_files(const std::string& work) {
  if (!fs::exists(layers_of(work))) return false;
  for (const auto& entry : fs::directory_iterator(layers_of(work))) {
    if (entry.path().filename().string().ends_with(".part")) return true;
  }
  return false;
}

}  // namespace

TEST_CASE(
    "a solve past memory stopped by signals at random points takes up its finished layers, to "
    "the bytes of one never stopped",
    "[e2e][tables][hostile]") {
  if (kSanitized) {
    // The solve past memory runs under the sanitizers in the core's tests (every window, stopped
    // and taken up, a damaged layer); this one's subject is the process (its memory, its files,
    // signals, a full disk), three 10-pit solves a run, and the unsanitized suite runs it.
    WARN("not under the sanitizers: the core's tier solver tests run this code there");
    return;
  }
  TempFolder folder;
  const std::string work = folder.file("work");
  fs::create_directory(work);
  const std::string reference = folder.file("memory.table"), path = folder.file("ten.table");
  REQUIRE(ioiwari_run({"solve", "--pits", "10", "--out", reference}).status == 0);
  // 10 pits (51 layers) in 10 MB: past memory, a window of a few layers.
  const std::vector<std::string> solve = {"solve",  "--pits", "10",    "--memory", "10",
                                          "--work", work,     "--out", path};
  const unsigned seed = std::random_device{}();
  INFO("seed " << seed);
  std::mt19937 random(seed);
  constexpr int kLayers = 51;
  const int signals[] = {SIGKILL, SIGTERM, SIGINT, SIGHUP};
  // Stops at random layers, each past the last, and then once in the merge; each time the next
  // solve takes up what the last finished.
  int kept = 0;
  for (int round = 0; round < 5; ++round) {
    const bool in_merge = round == 4 || kept >= kLayers - 1;
    const int target =
        in_merge ? kLayers : std::uniform_int_distribution<int>(kept + 1, kLayers - 1)(random);
    const int signal = signals[static_cast<std::size_t>(round) % std::size(signals)];
    INFO("round " << round << ": signal " << signal << " after layer " << target - 1
                  << (in_merge ? ", in the merge" : ""));
    const pid_t solver = start_quietly(solve);
    REQUIRE(solver > 0);
    // Waits for the layer (in the merge, the last), or for the end.
    const auto deadline = Clock::now() + 300s;
    int status = 0;
    bool ended = false;
    while (Clock::now() < deadline && finished_layers(work) < target) {
      if (::waitpid(solver, &status, WNOHANG) == solver) {
        ended = true;
        break;
      }
      std::this_thread::sleep_for(1ms);
    }
    if (!ended) {
      std::this_thread::sleep_for(std::chrono::milliseconds(random() % 20));
      ::kill(solver, signal);
      REQUIRE(::waitpid(solver, &status, 0) == solver);
    }
    if (WIFEXITED(status)) {  // it ended before the signal came: a whole solve
      REQUIRE(WEXITSTATUS(status) == 0);
      break;
    }
    CHECK(WTERMSIG(status) == signal);
    const int now = finished_layers(work);
    CHECK(now >= (in_merge ? kLayers : target));
    // A signal it handles takes its unfinished files; a kill leaves them for the next solve.
    if (signal != SIGKILL) CHECK_FALSE(unfinished_files(work));
    CHECK_FALSE(fs::exists(path));
    kept = now;
    if (in_merge) break;
  }
  const auto last = ioiwari_run(solve);
  INFO(last.err);
  REQUIRE(last.status == 0);
  if (kept > 0) {
    CHECK(last.err.find("ioiwari: solve: taking up " + std::to_string(kept) +
                        " of 51 layers "
                        "that a stopped solve finished in '" +
                        layers_of(work) + "'\n") != std::string::npos);
    CHECK(test::unwrapped(last.out).find("; took up " + std::to_string(kept) +
                                         " of 51 layers from a stopped solve (") !=
          std::string::npos);
  }
  CHECK(same_bytes(path, reference));
  CHECK(fs::is_empty(work));
}

TEST_CASE("a solve past memory that fills its disk keeps its layers, and takes them up",
          "[e2e][tables][hostile]") {
  if (kSanitized) {
    // The solve past memory runs under the sanitizers in the core's tests (every window, stopped
    // and taken up, a damaged layer); this one's subject is the process (its memory, its files,
    // signals, a full disk), three 10-pit solves a run, and the unsanitized suite runs it.
    WARN("not under the sanitizers: the core's tier solver tests run this code there");
    return;
  }
  // A file system of our own, mounted on our own folder in a mount namespace of our own: the
  // solve fills it, a file that took its room goes, and the same command takes up.
  if (::access("/usr/bin/unshare", X_OK) != 0) {
    WARN("no test of a disk filled in a solve: no unshare(1)");
    return;
  }
  const auto probe = ioiwari::test::run_program(
      {"/usr/bin/unshare", "--mount", "--propagation", "private", "true"}, "");
  if (probe.status != 0) {
    WARN("no test of a disk filled in a solve: mount namespaces are not allowed here");
    return;
  }
  TempFolder folder;
  const std::string work = folder.file("work"), path = folder.file("ten.table");
  fs::create_directory(work);
  const std::string reference = folder.file("memory.table");
  REQUIRE(ioiwari_run({"solve", "--pits", "10", "--out", reference}).status == 0);
  const std::string solve = "'" + std::string(IOIWARI_BINARY) +
                            "' solve --pits 10 --memory 10 --work '" + work + "' --out '" + path +
                            "'";
  // The solve in the background; once it has finished 20 layers, `yes` takes every byte left;
  // then the solve ends, the filler goes, and the same command runs again.
  const std::string script =
      "mount -t tmpfs -o size=64m ioiwari-test '" + work + "' || exit 90\n" + solve + " 2>'" +
      folder.file("first.err") + "' >/dev/null &\nsolver=$!\ntries=0\n" + "while [ ! -e '" + work +
      "/" + fs::path(layers_of(work)).filename().string() +
      "/layer-19' ] && [ $tries -lt 30000 ]; do "
      "sleep 0.01; tries=$((tries + 1)); done\n" +
      "yes > '" + work + "/filler' 2>/dev/null\nwait $solver\necho \"first $?\"\nrm '" + work +
      "/filler'\n" + solve + " 2>'" + folder.file("second.err") + "'\necho \"second $?\"\n";
  const auto run = ioiwari::test::run_program(
      {"/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script}, "");
  INFO(run.out << run.err);
  std::ifstream first_err(folder.file("first.err")), second_err(folder.file("second.err"));
  const std::string first{std::istreambuf_iterator<char>(first_err), {}};
  const std::string second{std::istreambuf_iterator<char>(second_err), {}};
  INFO(first << second);
  CHECK(run.out.find("first 7\n") != std::string::npos);
  CHECK(first.find(": No space left on device; ") != std::string::npos);
  CHECK(first.find(" of 51 layers are finished in '" + work + "/" +
                   fs::path(layers_of(work)).filename().string() +
                   "': the same command takes up from them\n") != std::string::npos);
  CHECK(std::count(first.begin(), first.end(), '\n') == 1);
  CHECK(run.out.find("second 0\n") != std::string::npos);
  CHECK(second.starts_with("ioiwari: solve: taking up "));
  CHECK(test::unwrapped(run.out).find(" layers from a stopped solve (") != std::string::npos);
  CHECK(same_bytes(path, reference));
  CHECK(fs::is_empty(work));  // the tmpfs is gone with its namespace, and nothing was left here
}

TEST_CASE("a symbolic link given to solve leads to the table, and stays a link", "[e2e][tables]") {
  TempFolder folder;
  fs::create_directory(folder.file("store"));
  fs::create_symlink("store/eight.table", folder.file("eight.table"));
  const auto run = ioiwari_run(with_ring({"solve", "--out", folder.file("eight.table")}));
  CHECK(run.status == 0);
  CHECK(fs::is_symlink(folder.file("eight.table")));
  CHECK(fs::is_regular_file(folder.file("store/eight.table")));
  CHECK(ioiwari_run({"verify", folder.file("eight.table")}).status == 0);
}

TEST_CASE(
    "a solve ended by a signal leaves no temporary file, and one killed outright is cleaned "
    "up by the next",
    "[e2e][tables][hostile]") {
  TempFolder folder;
  const std::string path = folder.file("eleven.table");
  // Waits until the solve's temporary file is there: the solve is then under way.
  const auto temporary_appears = [&]() {
    const auto deadline = Clock::now() + 120s;
    while (Clock::now() < deadline) {
      for (const auto& entry : fs::directory_iterator(folder.path())) {
        if (entry.path().filename().string().starts_with("eleven.table.tmp-")) return true;
      }
      std::this_thread::sleep_for(5ms);
    }
    return false;
  };
  for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGKILL}) {
    INFO("signal " << signal);
    const pid_t solver = start_quietly({"solve", "--pits", "11", "--out", path});
    REQUIRE(solver > 0);
    REQUIRE(temporary_appears());
    CHECK(ended_by(solver, signal));
    CHECK_FALSE(fs::exists(path));
    // SIGKILL cannot be caught: its temporary file stays, for the next solve to remove.
    CHECK(folder.entries() == (signal == SIGKILL ? 1u : 0u));
  }
  REQUIRE(ioiwari_run(with_ring({"solve", "--out", folder.file("other")})).status == 0);
  CHECK(folder.entries() == 2u);  // another target's write leaves it alone
  fs::remove(folder.file("other"));
  const auto later = ioiwari_run({"solve", "--pits", "5", "--out", path});
  CHECK(later.status == 0);
  CHECK(folder.entries() == 1u);  // the table, and nothing else
}

TEST_CASE("the plain way and ioiwari's ring solver give every class of several rings one value",
          "[e2e][rings]") {
  // tests/programs/plain_ring_solver.cpp is written from the rules alone, with no code of
  // ioiwari's: a second, independent statement of the solution, class by class.
  for (const Ring ring : {Ring{3, 1}, Ring{5, 9}, Ring{8, 5}, Ring{9, 4}, Ring{10, 2}}) {
    INFO(ring.describe());
    const auto run = ioiwari::test::run_program({PLAIN_RING_SOLVER, std::to_string(ring.pits),
                                                 std::to_string(ring.capacity), "--every-class"},
                                                "");
    REQUIRE(run.status == 0);
    const Table table = Table::solve(ring, {});
    std::istringstream lines(run.out);
    std::uint64_t code = 0, classes = 0;
    int value = 0;
    while (lines >> code >> value) {
      const Board board = Board::from_code(code, ring);
      REQUIRE(board.canonical() == board);
      REQUIRE(table.value(board) == value);
      ++classes;
    }
    CHECK(classes == table.classes()->classes());
  }
}
