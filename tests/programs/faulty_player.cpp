// A player 1 that breaks the protocol in one chosen way, for testing the referee: one mode
// per verdict, and some that attack the referee itself. Usage: faulty_player MODE [ARG] [MARK...];
// the marks are ignored (tests use them to find the process; the children it makes keep them in
// their command line). It plays the table's best moves until its fault.
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
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

#include "box_attacks.hpp"
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

// Spins on the CPU for `seconds` of its own CPU time, then returns.
void spin_for(double seconds) {
  timespec now{};
  const auto cpu = [&] {
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
  };
  const double until = cpu() + seconds;
  volatile unsigned long long count = 0;
  while (cpu() < until)
    for (int i = 0; i < 100000; ++i)
      count = count + 1;
}

// Touches `bytes` of private memory, and keeps it (where the compiler cannot see it unused).
char* volatile held = nullptr;
void hold_memory(std::size_t bytes) {
  held = static_cast<char*>(std::malloc(bytes));
  if (held != nullptr) std::memset(held, 1, bytes);
}

// The descriptors of process `pid` that this one can open for writing.
std::vector<int> open_descriptors_of(pid_t pid) {
  std::vector<int> opened;
  const std::string folder = "/proc/" + std::to_string(pid) + "/fd";
  DIR* dir = ::opendir(folder.c_str());
  if (dir == nullptr) return opened;
  while (const dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    const int fd = ::open((folder + "/" + entry->d_name).c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) opened.push_back(fd);
  }
  ::closedir(dir);
  return opened;
}

// The processes this one sees in /proc.
int processes_seen() {
  int count = 0;
  DIR* dir = ::opendir("/proc");
  if (dir == nullptr) return -1;
  while (const dirent* entry = ::readdir(dir))
    count += entry->d_name[0] >= '1' && entry->d_name[0] <= '9' ? 1 : 0;
  ::closedir(dir);
  return count;
}

// Leaves a stubborn process behind, in a new session.
void leave_sleeper() {
  if (::fork() == 0) {
    ::setsid();
    stubborn();
  }
}

// A child that does `what` (and says how it went) and then stays, ignoring every signal; the
// player goes on once the child has said it.
template <class What>
void child_says_then_stays(What what) {
  int said[2];
  if (::pipe(said) != 0) return;
  if (::fork() == 0) {
    ::close(said[0]);
    what();
    [[maybe_unused]] const auto written = ::write(said[1], "!", 1);
    ::close(said[1]);
    stubborn();
  }
  ::close(said[1]);
  char byte;
  [[maybe_unused]] const auto got = ::read(said[0], &byte, 1);  // a byte, or the child's end
  ::close(said[0]);
}

void* spin_thread(void*) {
  spin();
}

void* wait_thread(void*) {
  wait_forever();
}

void* memory_thread(void* bytes) {
  hold_memory(*static_cast<std::size_t*>(bytes));
  wait_forever();
}

// A process whose first thread ends while another runs `body`: it is no zombie.
void leader_exits(void* (*body)(void*), void* argument) {
  if (::fork() != 0) return;
  pthread_t thread;
  ::pthread_create(&thread, nullptr, body, argument);
  ::syscall(SYS_exit, 0);  // this thread alone
}

// A child that forks and exits without end: some process of the chain always runs, each under
// a new number.
void fork_chain(double spin_each) {
  if (::fork() != 0) return;
  for (;;) {
    if (spin_each > 0) spin_for(spin_each);
    if (::fork() != 0) ::_exit(0);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: faulty_player MODE [MARK...]\n";
    return 2;
  }
  const std::string_view mode = argv[1];
  const Table table = Table::solve(Ring::ioi(), {});
  std::array<int, kPits> counts{};
  for (int& count : counts)
    std::cin >> count;
  Match game(*Board::from_counts(counts, Ring::ioi()));

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
  // Attacks on the keeper and the referee, then perfect play, leaving a sleeper: whatever they
  // did, the sleeper must not outlive the game, and the game must not be won.
  if (mode == "kill-keeper") {
    leave_sleeper();
    ::kill(::getppid(), SIGKILL);
  }
  if (mode == "stop-keeper") {
    leave_sleeper();
    ::kill(::getppid(), SIGSTOP);
  }
  if (mode == "trace-player") {
    // A child traces the player, lets it go on, and stays: the player's end is then its
    // tracer's to see first, and the player's keeper cannot reap it.
    const pid_t player = ::getpid();
    child_says_then_stays([player] {
      if (::ptrace(PTRACE_ATTACH, player, nullptr, nullptr) == 0) {
        ::waitpid(player, nullptr, __WALL);
        ::ptrace(PTRACE_CONT, player, nullptr, nullptr);
      }
    });
  }
  if (mode == "trace-keeper") {
    // A child traces the keeper: a referee that waited on the keeper would wait for ever.
    const pid_t keeper = ::getppid();
    child_says_then_stays([keeper] {
      const bool traced = ::ptrace(PTRACE_ATTACH, keeper, nullptr, nullptr) == 0;
      std::cerr << "trace-keeper: " << (traced ? "traced" : std::strerror(errno)) << '\n'
                << std::flush;
    });
  }
  if (mode == "hold-keeper") {
    // A child holds every descriptor of the keeper it can open, its control pipe among them.
    const pid_t keeper = ::getppid();
    child_says_then_stays([keeper] {
      const std::vector<int> descriptors = open_descriptors_of(keeper);
      std::cerr << "hold-keeper: " << descriptors.size() << " held\n" << std::flush;
    });
  }
  if (mode == "forge-report") {
    // Writes a report of "exited 0, nothing left" into every descriptor of the keeper it can
    // open, then leaves a sleeper and wins.
    const std::int32_t forged[6] = {0, 0, 0, 0, 0, 0};
    int written = 0;
    for (int fd : open_descriptors_of(::getppid()))
      written += ::write(fd, forged, sizeof forged) == static_cast<ssize_t>(sizeof forged) ? 1 : 0;
    std::cerr << "forge-report: " << written << " written\n" << std::flush;
    leave_sleeper();
  }
  if (mode == "write-referee") {
    // Writes into the standard output of every process it can: the referee's report among them.
    int written = 0;
    if (DIR* dir = ::opendir("/proc")) {
      while (const dirent* entry = ::readdir(dir)) {
        if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
        if (std::atoi(entry->d_name) == ::getpid()) continue;
        const std::string path = std::string("/proc/") + entry->d_name + "/fd/1";
        const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
        if (fd < 0) continue;
        const char forged[] = "every game won (forged)\n";
        written += ::write(fd, forged, sizeof forged - 1) > 0 ? 1 : 0;
        ::close(fd);
      }
      ::closedir(dir);
    }
    std::cerr << "write-referee: " << written << " written\n" << std::flush;
  }
  if (mode == "hide-proc") {
    // A child, in a mount namespace of its own (a user namespace lets anyone), puts a tmpfs
    // over /proc and stays there with a child of its own: what it sees of /proc is no way to
    // hide from the keeper. (The player's own /proc stays, for its exit.)
    child_says_then_stays([] {
      if (::unshare(CLONE_NEWNS) == 0 ||
          (::unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0 &&
           ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0)) {
        const bool hidden = ::mount("none", "/proc", "tmpfs", 0, nullptr) == 0;
        std::cerr << "hide-proc: " << (hidden ? "hidden" : std::strerror(errno)) << '\n'
                  << std::flush;
      }
      if (::fork() == 0) stubborn();
    });
  }
  // Processes the keeper must count, however they look.
  if (mode == "leader-exits") leader_exits(wait_thread, nullptr);
  if (mode == "fork-chain") fork_chain(0);
  if (mode == "many-children" && argc > 2) {
    for (int i = std::atoi(argv[2]); i > 0; --i)
      if (::fork() == 0) wait_forever();
  }
  // Memory in forms a sampler of /proc does not see.
  if ((mode == "memfd" || mode == "memfd-fallocate" || mode == "shm") && argc > 2) {
    const long megabytes = std::atol(argv[2]);
    int fd = -1;
    if (mode == "shm") {
      const std::string name = "/ioiwari-test-" + std::string(argc > 3 ? argv[3] : "shm");
      fd = ::shm_open(name.c_str(), O_RDWR | O_CREAT, 0600);
    } else {
      fd = static_cast<int>(::syscall(SYS_memfd_create, "hostile", 0));
    }
    if (mode == "memfd-fallocate") {
      ::fallocate(fd, 0, 0, megabytes << 20);
    } else {
      const std::string chunk(1 << 20, 'm');
      for (long i = 0; i < megabytes; ++i)
        if (::write(fd, chunk.data(), chunk.size()) < 0) break;
    }
    wait_forever();  // never closed, never mapped
  }
  if (mode == "leader-exits-memory" && argc > 2) {
    static std::size_t bytes = static_cast<std::size_t>(std::atol(argv[2])) << 20;
    leader_exits(memory_thread, &bytes);
    wait_forever();
  }
  if (mode == "zombies-hide-worker" && argc > 3) {
    // Many zombies, never reaped, then a worker that takes memory.
    for (int i = std::atoi(argv[2]); i > 0; --i)
      if (::fork() == 0) ::_exit(0);
    if (::fork() == 0) {
      hold_memory(static_cast<std::size_t>(std::atol(argv[3])) << 20);
      wait_forever();
    }
    wait_forever();
  }
  if (mode == "split-memory" && argc > 3) {
    // Memory in several processes, none of which holds much: the sum counts.
    for (int i = std::atoi(argv[2]); i > 0; --i) {
      if (::fork() == 0) {
        hold_memory(static_cast<std::size_t>(std::atol(argv[3])) << 20);
        wait_forever();
      }
    }
    wait_forever();
  }
  // CPU time in forms a sampler of /proc does not see.
  if (mode == "reaped-by-kernel") {
    // Children that compute, end and are reaped by the kernel: no parent ever waits for them.
    ::signal(SIGCHLD, SIG_IGN);
    for (;;) {
      if (::fork() == 0) {
        spin_for(0.05);
        ::_exit(0);
      }
      ::usleep(60'000);
    }
  }
  if (mode == "reaped-child") {
    // Children that compute, end, and are waited for, one after another: their time is then
    // their parent's. Each alone is under the limit of the tests; together they are over it.
    for (int child = 0; child < 3; ++child) {
      if (::fork() == 0) {
        spin_for(0.2);
        ::_exit(0);
      }
      ::wait(nullptr);
    }
    wait_forever();
  }
  if (mode == "fork-chain-spin") {
    fork_chain(0.02);
    wait_forever();
  }
  if (mode == "leader-exits-spin") {
    leader_exits(spin_thread, nullptr);
    wait_forever();
  }

  // Attacks on the state around it (box_attacks.cpp): its last word is the mark.
  {
    std::vector<std::string> args(argv + 2, argv + argc);
    const std::string mark = args.empty() ? std::string("none") : args.back();
    if (!args.empty()) args.pop_back();
    box_attack(mode, args, mark);
  }

  // Modes that tell about the world the player sees, then play perfectly.
  if (mode == "pid") std::cerr << "pid " << ::getpid() << '\n' << std::flush;
  if (mode == "processes") std::cerr << "processes " << processes_seen() << '\n' << std::flush;
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
  const bool slow_moves = mode == "slow-moves";       // each move after a wait, using no CPU time
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
    if (slow_moves && argc > 2) ::usleep(static_cast<useconds_t>(std::atol(argv[2])) * 1000);
    say(pit.label());
    game.play(pit);
    if (mode == "exit-early") return 0;
  }
  if (mode == "after-end") say(1);
  if (mode == "spin-after-close") {
    ::close(STDOUT_FILENO);
    spin();
  }
  if (mode == "leave-on-tie") leave_sleeper();
  if (mode == "nonzero") return 3;
  if (mode == "linger") {
    std::string more;
    std::cin >> more;  // reads past the end: waits for input that never comes
  }
  return 0;
}
