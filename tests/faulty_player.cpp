// A player 1 that breaks the protocol in one chosen way, for testing the referee: one mode
// per verdict, and some that attack the referee itself. Usage: faulty_player MODE [ARG] [MARK...];
// the marks are ignored (tests use them to find the process; the children it makes keep them in
// their command line). It plays the table's best moves until its fault.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include "ioiwari/core/match.hpp"
#include "ioiwari/core/table.hpp"

using namespace ioiwari;

namespace {

[[noreturn]] void wait_forever() {
  while (true)
    ::pause();
}

void say(int label) {
  std::cout << label << '\n' << std::flush;
}

// Makes a process that ignores every signal it can, then waits forever.
[[noreturn]] void stubborn() {
  for (int signal = 1; signal < NSIG; ++signal) {
    if (signal != SIGKILL && signal != SIGSTOP) ::signal(signal, SIG_IGN);
  }
  wait_forever();
}

// Spins on the CPU forever.
[[noreturn]] void spin() {
  volatile unsigned long long count = 0;
  while (true)
    count = count + 1;
}

// Takes memory without end, 16 MB at a time, touching every page: private memory, or shared
// anonymous memory (which RLIMIT_DATA does not count) when `shared`.
[[noreturn]] void allocate(bool shared) {
  constexpr std::size_t kChunk = std::size_t{16} << 20;
  while (true) {
    void* chunk =
        shared ? ::mmap(nullptr, kChunk, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)
               : std::malloc(kChunk);
    if (chunk == nullptr || chunk == MAP_FAILED) wait_forever();
    std::memset(chunk, 1, kChunk);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: faulty_player MODE [MARK...]\n";
    return 2;
  }
  const std::string_view mode = argv[1];
  const Table table = Table::solve();
  std::array<int, kPits> counts{};
  for (int& count : counts)
    std::cin >> count;
  Match game(*Board::from_counts(counts));

  // Modes that leave a process behind, however it hides, then play perfectly.
  if (mode == "setsid-child" || mode == "setpgid-child" || mode == "double-fork") {
    const pid_t child = ::fork();
    if (child == 0) {
      if (mode == "setsid-child") ::setsid();
      if (mode == "setpgid-child") ::setpgid(0, 0);
      if (mode == "double-fork" && ::fork() != 0) ::_exit(0);  // the grandchild stays
      stubborn();
    }
    if (mode == "double-fork") ::waitpid(child, nullptr, 0);
  }
  // Modes that tell about the world the player sees, then play perfectly.
  if (mode == "pid") std::cerr << "pid " << ::getpid() << '\n' << std::flush;
  if (mode == "network" && argc > 2) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(std::atoi(argv[2])));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool connected =
        fd >= 0 && ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
    std::cerr << "network: " << (connected ? "connected" : std::strerror(errno)) << '\n'
              << std::flush;
  }
  // Modes that use up a resource.
  if (mode == "spin") spin();
  if (mode == "spin-child") {
    if (::fork() == 0) spin();
    wait_forever();  // it itself uses no time: its child does
  }
  if (mode == "allocate") allocate(false);
  if (mode == "allocate-shared") allocate(true);

  if (mode == "slow") ::sleep(1), ::usleep(500'000);  // then it plays perfectly
  if (mode == "crash") std::abort();  // SIGABRT: sanitizers leave it to kill the process
  if (mode == "hang") wait_forever();
  if (mode == "garbage") {
    std::cout << "hello\n" << std::flush;
    wait_forever();
  }
  if (mode == "out-of-range") {
    say(kPits + 1);
    wait_forever();
  }
  if (mode == "no-flush") {
    // A whole move, never flushed: the referee must see silence, not the move.
    std::cout << table.best_move(game.board())->label() << '\n';
    wait_forever();
  }
  if (mode == "spawn") {
    // Leaves a grandchild that ignores SIGTERM in its process group, says so, and answers
    // garbage; the referee must kill both.
    const pid_t child = ::fork();
    if (child == 0) {
      ::signal(SIGTERM, SIG_IGN);
      wait_forever();
    }
    std::cerr << "child " << child << '\n' << std::flush;
    std::cout << "hello\n" << std::flush;
    wait_forever();
  }
  if (mode == "flood") {
    // Output without end and without a line break: the referee must stop reading.
    const std::string chunk(1 << 16, 'x');
    while (true)
      std::cout << chunk << std::flush;
  }
  if (mode == "flood-errors") {
    // Standard error without end, standard output silent.
    const std::string chunk(1 << 16, 'e');
    while (true)
      std::cerr << chunk << std::flush;
  }
  if (mode == "ignore-term") {
    ::signal(SIGTERM, SIG_IGN);
    wait_forever();
  }
  if (mode == "close-input") {
    // Plays its first move, closes its standard input and leaves: the referee's reply finds
    // no reader.
    say(table.best_move(game.board())->label());
    ::close(STDIN_FILENO);
    return 0;
  }

  while (!game.over()) {
    if (game.to_move() == Player::second) {
      int label = 0;
      if (!(std::cin >> label)) return 0;
      game.play(*Pit::from_label(label, kPits));
      continue;
    }
    Pit pit = *table.best_move(game.board());
    if (mode == "greedy") {
      int best = -kMaxBeads - 1;
      for (Pit candidate : game.board().pits()) {
        if (game.board().is_legal(candidate) && play(game.board(), candidate).net() > best) {
          best = play(game.board(), candidate).net();
          pit = candidate;
        }
      }
    }
    if (mode == "empty-pit" && game.move_number() > 1) {
      for (Pit candidate : game.board().pits()) {
        if (!game.board().is_legal(candidate)) {
          say(candidate.label());
          wait_forever();
        }
      }
    }
    say(pit.label());
    game.play(pit);
    if (mode == "exit-early") return 0;
  }
  if (mode == "after-end") say(1);
  if (mode == "nonzero") return 3;
  if (mode == "linger") {
    std::string more;
    std::cin >> more;  // reads past the end: waits for input that never comes
  }
  return 0;
}
