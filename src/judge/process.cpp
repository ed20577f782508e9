#include "ioiwari/judge/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <system_error>
#include <thread>

extern char** environ;

namespace ioiwari {

namespace {

// How long a start waits for the system to give it pipes and processes.
constexpr auto kSpawnPatience = std::chrono::seconds(10);

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// ---- The keeper. ------------------------------------------------------------------------------
//
// It runs in a child forked from a process that may have other threads, so from the fork on it
// calls only async-signal-safe functions (system calls) on memory prepared before the fork, and
// writes nothing to the heap.

// What the keeper tells through the start pipe when the program could not be started: a tag and
// an errno. The pipe closes without a word when the program's exec succeeds.
struct StartFailure {
  char tag;  // 'x' exec failed, 'i' no namespaces, 'r' no process
  int error;
};

// What the keeper reports through its report pipe, once, when everything below it has ended.
struct KeeperReport {
  std::int32_t signaled;
  std::int32_t number;       // the program's exit status or signal
  std::int32_t left_behind;  // processes still running when the program exited by itself
  std::int64_t max_rss_kb;   // the program's peak resident set, as the kernel counted it
};

struct KeeperPlan {
  const char* program;
  char* const* argv;
  char* const* envp;
  int stdin_read, stdout_write, stderr_write;
  int start_write;   // start failures; close-on-exec, so the program's exec closes it
  int control_read;  // end of file: kill everything now
  int report_write;  // the keeper's report
  pid_t parent;
  bool isolate;
  uid_t uid;
  gid_t gid;
  bool set_data, set_cpu;
  rlimit data, cpu;
};

void tell(int fd, char tag, int error) {
  const StartFailure failure{tag, error};
  [[maybe_unused]] const auto written = ::write(fd, &failure, sizeof failure);
}

// Writes `text` (NUL-terminated) to the file at `path`; false when it cannot.
bool write_file(const char* path, const char* text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const std::size_t length = std::strlen(text);
  const bool done = ::write(fd, text, length) == static_cast<ssize_t>(length);
  ::close(fd);
  return done;
}

// "/proc/1234/task/1234/children" and the like, without allocating: `parts` joined, with `number`
// in decimal where a part is null.
void proc_path(char* out, std::size_t size, const char* a, long number, const char* b,
               long second = -1, const char* c = nullptr) {
  std::size_t at = 0;
  const auto put = [&](const char* text) {
    for (; *text != '\0' && at + 1 < size; ++text)
      out[at++] = *text;
  };
  const auto put_number = [&](long n) {
    char digits[24];
    int count = 0;
    do {
      digits[count++] = static_cast<char>('0' + n % 10);
      n /= 10;
    } while (n > 0 && count < 24);
    while (count > 0 && at + 1 < size)
      out[at++] = digits[--count];
  };
  put(a);
  put_number(number);
  put(b);
  if (second >= 0) put_number(second);
  if (c != nullptr) put(c);
  out[at] = '\0';
}

// Reads up to size-1 bytes of the file at `path` into `buffer`, NUL-terminated; the bytes read,
// or -1.
long read_file(const char* path, char* buffer, std::size_t size) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  std::size_t got = 0;
  while (got + 1 < size) {
    const ssize_t n = ::read(fd, buffer + got, size - 1 - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  buffer[got] = '\0';
  return static_cast<long>(got);
}

// Appends the numbers in `text` ("12 345 ") to pids[count..max).
void append_numbers(const char* text, pid_t* pids, std::size_t& count, std::size_t max) {
  long number = -1;
  for (const char* c = text;; ++c) {
    if (*c >= '0' && *c <= '9') {
      number = (number < 0 ? 0 : number * 10) + (*c - '0');
      continue;
    }
    if (number >= 0 && count < max) pids[count++] = static_cast<pid_t>(number);
    number = -1;
    if (*c == '\0') return;
  }
}

struct LinuxDirent {
  std::uint64_t ino;
  std::int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[1];
};

// Appends the children of every thread of process `pid` to pids[count..max).
void append_children(pid_t pid, pid_t* pids, std::size_t& count, std::size_t max) {
  char path[64];
  proc_path(path, sizeof path, "/proc/", pid, "/task");
  const int dir = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  alignas(8) char entries[4096];
  for (;;) {
    const long bytes = ::syscall(SYS_getdents64, dir, entries, sizeof entries);
    if (bytes <= 0) break;
    for (long at = 0; at < bytes;) {
      const auto* entry = reinterpret_cast<const LinuxDirent*>(entries + at);
      at += entry->reclen;
      long tid = 0;
      bool numeric = entry->name[0] != '\0';
      for (const char* c = entry->name; *c != '\0'; ++c) {
        if (*c < '0' || *c > '9') numeric = false;
        tid = tid * 10 + (*c - '0');
      }
      if (!numeric) continue;
      char children_path[80];
      proc_path(children_path, sizeof children_path, "/proc/", pid, "/task/", tid, "/children");
      char text[4096];
      if (read_file(children_path, text, sizeof text) > 0) append_numbers(text, pids, count, max);
    }
  }
  ::close(dir);
}

// Whether process `pid` is a zombie (ended, not yet reaped), or gone.
bool ended(pid_t pid) {
  char path[48];
  proc_path(path, sizeof path, "/proc/", pid, "/stat");
  char text[512];
  if (read_file(path, text, sizeof text) <= 0) return true;
  const char* close = std::strrchr(text, ')');
  return close == nullptr || close[1] == '\0' || close[2] == 'Z' || close[2] == 'X';
}

constexpr std::size_t kMostProcesses = 4096;

// The processes below the calling process (itself single-threaded), breadth first.
std::size_t descendants(pid_t* pids, std::size_t max) {
  std::size_t count = 0;
  char text[4096];
  if (read_file("/proc/thread-self/children", text, sizeof text) > 0)
    append_numbers(text, pids, count, max);
  for (std::size_t next = 0; next < count; ++next)
    append_children(pids[next], pids, count, max);
  return count;
}

// Kills every process below the caller and reaps those that were its children, until none is
// left. In a namespace of its own the caller is its init, and kill(-1) reaches them all at once.
void kill_everything(bool isolated) {
  pid_t pids[kMostProcesses];
  for (int round = 0; round < 10000; ++round) {
    if (isolated) ::kill(-1, SIGKILL);
    const std::size_t count = descendants(pids, kMostProcesses);
    for (std::size_t i = 0; i < count; ++i)
      ::kill(pids[i], SIGKILL);
    int status = 0;
    while (::waitpid(-1, &status, WNOHANG) > 0) {
    }
    if (count == 0 && ::waitpid(-1, &status, WNOHANG) < 0 && errno == ECHILD) return;
    const timespec pause{0, 200'000};  // a killed process needs a moment to die
    ::nanosleep(&pause, nullptr);
  }
}

[[noreturn]] void start_program(const KeeperPlan& plan) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // it dies with its keeper
  ::setpgid(0, 0);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int signal = 1; signal < NSIG; ++signal) {
    if (signal != SIGKILL && signal != SIGSTOP) ::sigaction(signal, &default_action, nullptr);
  }
  if (plan.set_data) ::setrlimit(RLIMIT_DATA, &plan.data);
  if (plan.set_cpu) ::setrlimit(RLIMIT_CPU, &plan.cpu);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  // Out of the way first, so that moving one onto 0..3 cannot close another.
  const int in = ::fcntl(plan.stdin_read, F_DUPFD_CLOEXEC, 10);
  const int out = ::fcntl(plan.stdout_write, F_DUPFD_CLOEXEC, 10);
  const int err = ::fcntl(plan.stderr_write, F_DUPFD_CLOEXEC, 10);
  const int start = ::fcntl(plan.start_write, F_DUPFD_CLOEXEC, 10);
  if (in < 0 || out < 0 || err < 0 || start < 0 || ::dup2(in, STDIN_FILENO) < 0 ||
      ::dup2(out, STDOUT_FILENO) < 0 || ::dup2(err, STDERR_FILENO) < 0 ||
      ::dup3(start, 3, O_CLOEXEC) < 0) {
    tell(start >= 0 ? start : plan.start_write, 'x', errno);
    ::_exit(127);
  }
  ::close_range(4, ~0U, 0);
  ::execve(plan.program, plan.argv, plan.envp);
  tell(3, 'x', errno);
  ::_exit(127);
}

// Closes every descriptor but `a` and `b`.
void close_all_but(int a, int b) {
  if (a > b) std::swap(a, b);
  if (a > 0) ::close_range(0, static_cast<unsigned>(a) - 1, 0);
  if (b > a + 1) ::close_range(static_cast<unsigned>(a) + 1, static_cast<unsigned>(b) - 1, 0);
  ::close_range(static_cast<unsigned>(b) + 1, ~0U, 0);
}

// Starts the program, waits until it ends or until the control pipe closes, kills everything
// left below, and reports.
[[noreturn]] void keep(const KeeperPlan& plan) {
  const pid_t program = ::fork();
  if (program < 0) {
    tell(plan.start_write, 'r', errno);
    ::_exit(1);
  }
  if (program == 0) start_program(plan);
  close_all_but(plan.control_read, plan.report_write);
  const int ended_fd = static_cast<int>(::syscall(SYS_pidfd_open, program, 0));
  siginfo_t info{};
  bool exited = false;
  for (;;) {
    pollfd fds[2] = {{plan.control_read, POLLIN, 0}, {ended_fd, POLLIN, 0}};
    // Without pidfd (before Linux 5.3), look every few milliseconds.
    const int ready = ::poll(fds, ended_fd >= 0 ? 2 : 1, ended_fd >= 0 ? -1 : 5);
    if (ready < 0 && errno != EINTR) break;
    info = {};
    if (::waitid(P_PID, static_cast<id_t>(program), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == program) {
      exited = true;
      break;
    }
    if (fds[0].revents != 0) break;  // the referee is done with it
  }
  KeeperReport report{};
  if (!exited) ::kill(program, SIGKILL);
  int status = 0;
  rusage usage{};
  while (::wait4(program, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  report.signaled = WIFSIGNALED(status) ? 1 : 0;
  report.number = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
  report.max_rss_kb = usage.ru_maxrss;
  if (exited) {
    // Whatever still runs below was started by the program and left behind.
    pid_t pids[kMostProcesses];
    const std::size_t count = descendants(pids, kMostProcesses);
    for (std::size_t i = 0; i < count; ++i)
      report.left_behind += ended(pids[i]) ? 0 : 1;
  }
  kill_everything(plan.isolate);
  [[maybe_unused]] const auto written = ::write(plan.report_write, &report, sizeof report);
  ::_exit(0);
}

[[noreturn]] void keeper(const KeeperPlan& plan) {
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  for (int signal = 1; signal < NSIG; ++signal) {
    if (signal != SIGKILL && signal != SIGSTOP) ::sigaction(signal, &action, nullptr);
  }
  // The referee handles Ctrl-C and the like by telling its keepers to finish.
  action.sa_handler = SIG_IGN;
  for (int signal : {SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE})
    ::sigaction(signal, &action, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != plan.parent) ::_exit(1);  // the referee died before the line above
  if (!plan.isolate) {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    keep(plan);
  }
  // New namespaces: network and IPC at once, and the next child is the init of a new PID
  // namespace. A user who may not make them alone may within a user namespace of their own.
  const int flags = CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC;
  if (::unshare(flags) != 0) {
    const int refused = errno;
    if (::unshare(flags | CLONE_NEWUSER) != 0) {
      tell(plan.start_write, 'i', refused);
      ::_exit(1);
    }
    char map[64];
    proc_path(map, sizeof map, "", static_cast<long>(plan.uid), " ", static_cast<long>(plan.uid),
              " 1\n");
    char group_map[64];
    proc_path(group_map, sizeof group_map, "", static_cast<long>(plan.gid), " ",
              static_cast<long>(plan.gid), " 1\n");
    if (!write_file("/proc/self/setgroups", "deny") || !write_file("/proc/self/uid_map", map) ||
        !write_file("/proc/self/gid_map", group_map)) {
      tell(plan.start_write, 'i', errno);
      ::_exit(1);
    }
  }
  const pid_t init = ::fork();
  if (init < 0) {
    tell(plan.start_write, 'r', errno);
    ::_exit(1);
  }
  if (init == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    keep(plan);  // as the namespace's init
  }
  // Outside, this process only waits for the init: when it ends, so does the namespace.
  ::close_range(0, ~0U, 0);
  int status = 0;
  while (::waitpid(init, &status, 0) < 0 && errno == EINTR) {
  }
  ::_exit(0);
}

// ---- The referee's side. ----------------------------------------------------------------------

// Errors that waiting may cure: out of descriptors, processes or memory.
bool transient(int error) {
  return error == EMFILE || error == ENFILE || error == EAGAIN || error == ENOMEM;
}

struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      const int error = errno;
      throw std::system_error(error, std::generic_category(), "pipe2");
    }
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() {
    close_fd(read);
    close_fd(write);
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
};

// Reads what is available on `fd` into `into` (keeping at most `cap` bytes of it); closes
// `fd` at end of file or on error.
void drain(int& fd, std::string& into, std::size_t cap) {
  char buffer[4096];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n > 0) {
    const auto got = static_cast<std::size_t>(n);
    into.append(buffer, std::min(got, cap - std::min(cap, into.size())));
  } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
    close_fd(fd);
  }
}

// The file argv[0] names: itself when it holds a '/', else the first executable of that name
// in PATH. Done before fork, since execvp may allocate and a child of a threaded process must
// not.
std::string resolve(const std::string& program) {
  if (program.empty()) throw SpawnError(SpawnError::Kind::program, "an empty program name");
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const auto colon = dirs.find(':');
    const std::string_view dir = dirs.substr(0, colon);
    std::string candidate(dir.empty() ? std::string_view(".") : dir);
    candidate += '/';
    candidate += program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) break;
    dirs.remove_prefix(colon + 1);
  }
  throw SpawnError(SpawnError::Kind::program, "cannot find '" + program + "' in PATH");
}

// The processes that `pid` started and that still are its children.
std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> pids(kMostProcesses);
  std::size_t count = 0;
  append_children(pid, pids.data(), count, pids.size());
  pids.resize(count);
  return pids;
}

struct Stat {
  bool zombie = false;
  std::uint64_t own_ticks = 0;       // utime + stime
  std::uint64_t children_ticks = 0;  // cutime + cstime: children it has reaped
};

std::optional<Stat> read_stat(pid_t pid) {
  char path[48];
  proc_path(path, sizeof path, "/proc/", pid, "/stat");
  char text[1024];
  if (read_file(path, text, sizeof text) <= 0) return std::nullopt;
  const char* close = std::strrchr(text, ')');
  if (close == nullptr) return std::nullopt;
  std::istringstream fields(close + 2);
  std::string state;
  fields >> state;
  std::uint64_t value = 0;
  Stat stat;
  stat.zombie = state == "Z" || state == "X";
  // Fields 4..17 after the state: utime is the 14th field of the line, the 11th after state.
  for (int field = 4; field <= 17 && fields >> value; ++field) {
    if (field == 14 || field == 15) stat.own_ticks += value;
    if (field == 16 || field == 17) stat.children_ticks += value;
  }
  return stat;
}

// Resident memory not backed by a file: RssAnon + RssShmem, in kB.
std::uint64_t private_memory_kb(pid_t pid) {
  char path[48];
  proc_path(path, sizeof path, "/proc/", pid, "/status");
  char text[4096];
  if (read_file(path, text, sizeof text) <= 0) return 0;
  std::uint64_t total = 0;
  for (const char* key : {"RssAnon:", "RssShmem:"}) {
    if (const char* at = std::strstr(text, key))
      total += std::strtoull(at + std::strlen(key), nullptr, 10);
  }
  return total;
}

std::chrono::nanoseconds ticks(std::uint64_t count) {
  static const long per_second = ::sysconf(_SC_CLK_TCK);
  return std::chrono::nanoseconds(static_cast<std::int64_t>(count) * 1'000'000'000 /
                                  (per_second > 0 ? per_second : 100));
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const Containment& containment) {
  static const bool sigpipe_ignored = [] {
    ::signal(SIGPIPE, SIG_IGN);
    return true;
  }();
  (void)sigpipe_ignored;
  if (argv.empty()) throw SpawnError(SpawnError::Kind::program, "an empty command");

  // Everything the keeper and the program need is prepared before fork.
  const std::string program = resolve(argv[0]);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);

  // Out of descriptors or processes is the machine's state, not the program's fault: wait for
  // games to finish and try again, up to a limit no healthy machine reaches. The waits are
  // drawn at random, so that starts refused together do not all come back together.
  const auto give_up = Clock::now() + kSpawnPatience;
  auto pause = std::chrono::milliseconds(5);
  thread_local std::minstd_rand jitter(std::random_device{}());
  for (;;) {
    int refused = 0;
    const char* what = "";
    try {
      Pipe input, output, error, start, control, report;
      KeeperPlan plan{};
      plan.program = program.c_str();
      plan.argv = args.data();
      plan.envp = environ;
      plan.stdin_read = input.read;
      plan.stdout_write = output.write;
      plan.stderr_write = error.write;
      plan.start_write = start.write;
      plan.control_read = control.read;
      plan.report_write = report.write;
      plan.parent = ::getpid();
      plan.isolate = containment.isolate;
      plan.uid = ::geteuid();
      plan.gid = ::getegid();
      if (containment.data_limit_bytes > 0) {
        plan.set_data = true;
        plan.data = {containment.data_limit_bytes, containment.data_limit_bytes};
      }
      if (containment.cpu_limit.count() > 0) {
        plan.set_cpu = true;
        const auto seconds = static_cast<rlim_t>(containment.cpu_limit.count());
        plan.cpu = {seconds, seconds + 1};
      }
      keeper_ = ::fork();
      if (keeper_ < 0) {
        refused = errno;
        what = "fork";
      } else if (keeper_ == 0) {
        keeper(plan);
      } else {
        // The keeper's ends are its own now: ours go, so that every pipe ends when it does.
        for (int* end :
             {&input.read, &output.write, &error.write, &start.write, &control.read, &report.write})
          close_fd(*end);
        StartFailure failure{};
        ssize_t n;
        do {
          n = ::read(start.read, &failure, sizeof failure);
        } while (n < 0 && errno == EINTR);
        std::swap(in_, input.write);
        std::swap(out_, output.read);
        std::swap(err_, error.read);
        std::swap(report_, report.read);
        std::swap(control_, control.write);
        if (n == static_cast<ssize_t>(sizeof failure)) {
          kill();
          close_fd(in_);
          close_fd(out_);
          close_fd(err_);
          if (failure.tag == 'x') {
            throw SpawnError(SpawnError::Kind::program,
                             "cannot run '" + argv[0] + "': " + std::strerror(failure.error));
          }
          if (failure.tag == 'i') {
            throw SpawnError(
                SpawnError::Kind::isolation,
                std::string("cannot make new namespaces: ") + std::strerror(failure.error));
          }
          refused = failure.error;
          what = "fork";
          keeper_ = -1;
          reaped_ = false;
          status_.reset();
          left_behind_ = 0;
        } else {
          // The program is below the keeper, or below the namespace's init under it.
          root_ = keeper_;
          std::vector<pid_t> below = children_of(keeper_);
          if (containment.isolate && !below.empty()) {
            root_ = below.front();
            below = children_of(root_);
          }
          program_ = below.empty() ? -1 : below.front();
          return;
        }
      }
    } catch (const std::system_error& error) {
      refused = error.code().value();
      what = "pipe2";
    }
    if (!transient(refused) || Clock::now() + pause > give_up) {
      throw SpawnError(SpawnError::Kind::resources,
                       std::string(what) + ": " + std::strerror(refused));
    }
    std::this_thread::sleep_for(pause / 2 + pause * (jitter() % 1024) / 1024);
    pause = std::min(pause * 2, std::chrono::milliseconds(500));
  }
}

ChildProcess::~ChildProcess() {
  kill();
  close_fd(in_);
  close_fd(out_);
  close_fd(err_);
}

bool ChildProcess::write(std::string_view data) {
  while (!data.empty() && in_ >= 0) {
    const ssize_t n = ::write(in_, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      close_fd(in_);  // EPIPE: the program closed its input or exited
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return data.empty();
}

void ChildProcess::close_input() {
  close_fd(in_);
}

void ChildProcess::close_output() {
  close_fd(out_);
  output_.clear();
}

void ChildProcess::take_report() {
  KeeperReport report{};
  ssize_t n;
  do {
    n = ::read(report_, &report, sizeof report);
  } while (n < 0 && errno == EINTR);
  close_fd(report_);
  if (n != static_cast<ssize_t>(sizeof report)) {
    // The keeper died without a word (killed): the program died with it.
    status_ = ExitStatus{true, SIGKILL};
    return;
  }
  status_ = ExitStatus{report.signaled != 0, report.number};
  left_behind_ = report.left_behind;
  max_rss_kb_ = static_cast<std::uint64_t>(std::max<std::int64_t>(report.max_rss_kb, 0));
}

bool ChildProcess::pump(Clock::time_point deadline) {
  pollfd fds[3];
  nfds_t count = 0;
  if (out_ >= 0) fds[count++] = {out_, POLLIN, 0};
  if (err_ >= 0) fds[count++] = {err_, POLLIN, 0};
  if (report_ >= 0) fds[count++] = {report_, POLLIN, 0};
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (left <= 0) return false;
  if (count == 0) {
    ::poll(nullptr, 0, static_cast<int>(std::min<long long>(left, 5)));
    return true;
  }
  const int ready = ::poll(fds, count, static_cast<int>(std::min<long long>(left, 1000)));
  if (ready < 0 && errno != EINTR) {
    throw std::system_error(errno, std::generic_category(), "poll");
  }
  for (nfds_t i = 0; i < count && ready > 0; ++i) {
    if (fds[i].revents == 0) continue;
    if (fds[i].fd == out_) {
      drain(out_, output_, SIZE_MAX);
    } else if (fds[i].fd == err_) {
      drain(err_, error_, kMaxErrorBytes);
    } else {
      take_report();
    }
  }
  return true;
}

ChildProcess::Read ChildProcess::read_line(std::string& line, Clock::time_point deadline,
                                           std::size_t max_bytes) {
  while (true) {
    const auto newline = output_.find('\n');
    if (newline != std::string::npos && newline <= max_bytes) {
      line.assign(output_, 0, newline);
      output_.erase(0, newline + 1);
      return Read::line;
    }
    if (output_.size() > max_bytes) return Read::too_long;
    if (out_ < 0) {
      if (output_.empty()) return Read::end;
      line = std::move(output_);
      output_.clear();
      return Read::line;
    }
    if (!pump(deadline)) return Read::timeout;
  }
}

std::optional<ExitStatus> ChildProcess::wait_until(Clock::time_point deadline) {
  while (!status_) {
    if (!pump(deadline)) break;
  }
  return status_;
}

void ChildProcess::kill() {
  if (keeper_ <= 0 || reaped_) return;
  // The keeper kills the program and everything below it, then reports and ends.
  close_fd(control_);
  if (report_ >= 0) {
    pollfd fd{report_, POLLIN, 0};
    int ready;
    do {
      ready = ::poll(&fd, 1, 30'000);
    } while (ready < 0 && errno == EINTR);
    if (ready > 0) {
      take_report();
    } else {
      ::kill(keeper_, SIGKILL);  // it did not answer: its namespace, if any, dies with it
    }
  }
  int status = 0;
  while (::waitpid(keeper_, &status, 0) < 0 && errno == EINTR) {
  }
  if (!status_) status_ = ExitStatus{true, SIGKILL};
  close_fd(report_);
  reaped_ = true;
}

Usage ChildProcess::usage() const {
  Usage usage;
  if (keeper_ <= 0 || reaped_) return usage;
  // The root of the program's tree: the keeper, or the namespace's init below it. Its reaped
  // children's time holds the program's once it has ended, and every orphan's it reaped.
  const pid_t root = root_;
  std::vector<pid_t> tree = children_of(root);
  for (std::size_t next = 0; next < tree.size() && tree.size() < kMostProcesses; ++next) {
    for (pid_t child : children_of(tree[next]))
      tree.push_back(child);
  }
  if (const auto stat = read_stat(root)) usage.cpu += ticks(stat->children_ticks);
  for (pid_t pid : tree) {
    const auto stat = read_stat(pid);
    if (!stat) continue;
    usage.cpu += ticks(stat->children_ticks);
    std::chrono::nanoseconds own = ticks(stat->own_ticks);
    if (pid == program_ && !stat->zombie) {
      // The program's own clock, to the nanosecond, where the kernel lets us read it.
      clockid_t clock;
      timespec now{};
      if (::clock_getcpuclockid(pid, &clock) == 0 && ::clock_gettime(clock, &now) == 0) {
        own = std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
      }
    }
    usage.cpu += own;
    if (stat->zombie) continue;
    usage.memory_kb += private_memory_kb(pid);
    ++usage.processes;
  }
  return usage;
}

std::optional<std::string> isolation_refused() {
  const pid_t child = ::fork();
  if (child < 0) return std::string("fork: ") + std::strerror(errno);
  if (child == 0) {
    const int flags = CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC;
    if (::unshare(flags) == 0) ::_exit(0);
    const int refused = errno;
    if (::unshare(flags | CLONE_NEWUSER) == 0) ::_exit(0);
    ::_exit(refused > 0 && refused < 256 ? refused : 255);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return std::nullopt;
  const int error = WIFEXITED(status) ? WEXITSTATUS(status) : EPERM;
  return std::string(
             "this system does not let the referee make new PID, network and IPC "
             "namespaces (") +
         std::strerror(error) + ")";
}

}  // namespace ioiwari
