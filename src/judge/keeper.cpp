#include "keeper.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <utility>

namespace ioiwari::keeping {

namespace {

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
}  // namespace

void proc_path(char* out, std::size_t size, const char* a, long number, const char* b, long second,
               const char* c) {
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

namespace {

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

}  // namespace

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

namespace {

// Whether process `pid` is a zombie (ended, not yet reaped), or gone.
bool ended(pid_t pid) {
  char path[48];
  proc_path(path, sizeof path, "/proc/", pid, "/stat");
  char text[512];
  if (read_file(path, text, sizeof text) <= 0) return true;
  const char* close = std::strrchr(text, ')');
  return close == nullptr || close[1] == '\0' || close[2] == 'Z' || close[2] == 'X';
}

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

}  // namespace

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

}  // namespace ioiwari::keeping
