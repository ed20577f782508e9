#include "keeper.hpp"

#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <utility>

namespace ioiwari::keeping {

namespace {

void tell(int fd, char tag, int error, int step = -1) {
  const StartFailure failure{tag, error, step};
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

// Calls `each(tid)` for every thread of process `pid`, until it returns false, without
// allocating.
template <class Each>
void for_each_thread(pid_t pid, Each each) {
  char path[64];
  proc_path(path, sizeof path, "/proc/", pid, "/task");
  const int dir = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  alignas(8) char entries[4096];
  bool more = true;
  for (long bytes; more && (bytes = ::syscall(SYS_getdents64, dir, entries, sizeof entries)) > 0;) {
    for (long at = 0; more && at < bytes;) {
      const auto* entry = reinterpret_cast<const LinuxDirent*>(entries + at);
      at += entry->reclen;
      long tid = 0;
      bool numeric = entry->name[0] != '\0';
      for (const char* c = entry->name; *c != '\0'; ++c) {
        if (*c < '0' || *c > '9') numeric = false;
        tid = tid * 10 + (*c - '0');
      }
      if (numeric) more = each(tid);
    }
  }
  ::close(dir);
}

// Whether thread `tid` of process `pid` is a zombie (ended, not yet reaped), or gone.
bool thread_ended(pid_t pid, long tid) {
  char path[80];
  proc_path(path, sizeof path, "/proc/", pid, "/task/", tid, "/stat");
  char text[512];
  if (read_file(path, text, sizeof text) <= 0) return true;
  const char* close = std::strrchr(text, ')');
  return close == nullptr || close[1] == '\0' || close[2] == 'Z' || close[2] == 'X';
}

}  // namespace

// Appends the children of every thread of process `pid` to pids[count..max), reading each
// children file into `text`.
void append_children(pid_t pid, pid_t* pids, std::size_t& count, std::size_t max, char* text,
                     std::size_t text_size) {
  for_each_thread(pid, [&](long tid) {
    char children_path[80];
    proc_path(children_path, sizeof children_path, "/proc/", pid, "/task/", tid, "/children");
    if (read_file(children_path, text, text_size) > 0) append_numbers(text, pids, count, max);
    return true;
  });
}

bool any_thread_runs(pid_t pid) {
  bool runs = false;
  for_each_thread(pid, [&](long tid) {
    runs = !thread_ended(pid, tid);
    return !runs;
  });
  return runs;
}

namespace {

// The processes below the calling process (itself single-threaded), breadth first.
std::size_t descendants(pid_t* pids, std::size_t max) {
  std::size_t count = 0;
  // The keeper's alone (it has one thread): in its BSS, untouched until used.
  static char text[kChildrenFileBytes];
  if (read_file("/proc/thread-self/children", text, sizeof text) > 0)
    append_numbers(text, pids, count, max);
  for (std::size_t next = 0; next < count; ++next)
    append_children(pids[next], pids, count, max, text, sizeof text);
  return count;
}

// How the program ended, once the keeper has reaped it.
struct Ending {
  bool reaped = false;
  int status = 0;
  rusage usage{};
};

// Reaps every child that has ended, without waiting; the program's status goes to `ending`.
void reap(pid_t program, Ending& ending) {
  for (;;) {
    int status = 0;
    rusage usage{};
    const pid_t pid = ::wait4(-1, &status, WNOHANG, &usage);
    if (pid < 0 && errno == EINTR) continue;
    if (pid <= 0) return;
    if (pid == program) ending = {true, status, usage};
  }
}

// Kills every process below the caller and reaps those that were its children, until none is
// left. In a namespace of its own the caller is its init, and kill(-1) reaches them all at once.
void kill_everything(bool isolated, pid_t program, Ending& ending) {
  static pid_t pids[kMostProcesses];
  for (int round = 0; round < 10000; ++round) {
    if (isolated) ::kill(-1, SIGKILL);
    const std::size_t count = descendants(pids, kMostProcesses);
    for (std::size_t i = 0; i < count; ++i)
      ::kill(pids[i], SIGKILL);
    reap(program, ending);
    if (count == 0 && ::waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD) return;
    const timespec pause{0, 200'000};  // a killed process needs a moment to die
    ::nanosleep(&pause, nullptr);
  }
}

[[noreturn]] void start_program(const KeeperPlan& plan, pid_t keeper) {
  // Into the game's cgroup first: from here on the kernel counts everything it and its
  // processes do, and they cannot leave.
  for (int i = 0; i < plan.join_count; ++i) {
    if (::write(plan.join[i], "0", 1) != 1) {
      tell(plan.start_write, 'c', errno);
      ::_exit(127);
    }
  }
  ::setpgid(0, 0);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int signal = 1; signal < NSIG; ++signal) {
    if (signal != SIGKILL && signal != SIGSTOP) ::sigaction(signal, &default_action, nullptr);
  }
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (plan.set_data) ::setrlimit(RLIMIT_DATA, &plan.data);
  if (plan.set_cpu) ::setrlimit(RLIMIT_CPU, &plan.cpu);
  if (plan.set_nproc) ::setrlimit(RLIMIT_NPROC, &plan.nproc);
  if (plan.set_fsize) ::setrlimit(RLIMIT_FSIZE, &plan.fsize);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  // By system call: the C library's setgroups and setres*id change every thread of what it takes
  // for the process, and would wait for threads a clone did not copy.
  if (plan.set_user && (::syscall(SYS_setgroups, 0, nullptr) != 0 ||
                        ::syscall(SYS_setresgid, plan.run_gid, plan.run_gid, plan.run_gid) != 0 ||
                        ::syscall(SYS_setresuid, plan.run_uid, plan.run_uid, plan.run_uid) != 0)) {
    tell(plan.start_write, 'u', errno);
    ::_exit(127);
  }
  // Nothing it runs gains privileges (no set-user-ID program, no file capability).
  ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  // The calls it may not make fail from here on, in it and in everything it starts.
  if (plan.filter != nullptr) {
    const sock_fprog program{plan.filter_length, const_cast<sock_filter*>(plan.filter)};
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) != 0) {
      tell(plan.start_write, 's', errno);
      ::_exit(127);
    }
  }
  // It dies with its keeper. After the change of user, which clears this.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != keeper) ::_exit(127);  // the keeper died before the line above
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

// Closes every descriptor but those of `keep` (ascending).
void close_all_but(int a, int b, int c) {
  int keep[3] = {a, b, c};
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      if (keep[j] < keep[i]) std::swap(keep[i], keep[j]);
  unsigned from = 0;
  for (int fd : keep) {
    if (fd < 0) continue;
    if (static_cast<unsigned>(fd) > from) ::close_range(from, static_cast<unsigned>(fd) - 1, 0);
    from = static_cast<unsigned>(fd) + 1;
  }
  ::close_range(from, ~0U, 0);
}

// Whether the box's disk (its tmpfs, seen at /tmp) has no room left.
bool disk_full(const KeeperPlan& plan) {
  struct statfs disk {};
  return plan.box_steps > 0 && ::statfs("/tmp", &disk) == 0 &&
         (disk.f_bavail == 0 || disk.f_ffree == 0);
}

void send_report(int fd, const Ending& ending, int left_behind, bool full) {
  KeeperReport report{};
  report.disk_full = full ? 1 : 0;
  report.signaled = WIFSIGNALED(ending.status) ? 1 : 0;
  report.number = WIFSIGNALED(ending.status) ? WTERMSIG(ending.status) : WEXITSTATUS(ending.status);
  report.left_behind = left_behind;
  report.max_rss_kb = ending.usage.ru_maxrss;
  [[maybe_unused]] const auto written = ::write(fd, &report, sizeof report);
}

// Starts the program and reaps what ends below (it is the subreaper, or the namespace's init).
// In a cgroup, it reports as soon as the program is reaped and goes on reaping until the
// referee, which counts and kills through the cgroup, closes the control pipe. Without one, it
// counts what the program left running when it exited, kills everything below, and reports.
[[noreturn]] void keep(const KeeperPlan& plan) {
  sigset_t child_signals;
  sigemptyset(&child_signals);
  sigaddset(&child_signals, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &child_signals, nullptr);
  const int ended_fd = ::signalfd(-1, &child_signals, SFD_CLOEXEC | SFD_NONBLOCK);
  const pid_t me = ::getpid();
  // The C library's fork() takes its own locks, which a raw clone (start_isolated) left in any
  // state: a fork by system call alone.
  const auto program =
      static_cast<pid_t>(::syscall(SYS_clone, SIGCHLD, nullptr, nullptr, nullptr, nullptr));
  if (program < 0) {
    tell(plan.start_write, 'r', errno);
    ::_exit(1);
  }
  if (program == 0) start_program(plan, me);
  close_all_but(plan.control_read, plan.report_write, ended_fd);
  Ending ending;
  bool reported = false;
  const bool in_cgroup = plan.join_count > 0;
  for (;;) {
    pollfd fds[2] = {{plan.control_read, POLLIN, 0}, {ended_fd, POLLIN, 0}};
    // Without a signalfd, look every few milliseconds.
    const int ready = ::poll(fds, ended_fd >= 0 ? 2 : 1, ended_fd >= 0 ? -1 : 5);
    if (ready < 0 && errno != EINTR) break;
    if (ended_fd >= 0 && fds[1].revents != 0) {
      signalfd_siginfo drained[16];
      while (::read(ended_fd, drained, sizeof drained) > 0) {
      }
    }
    reap(program, ending);
    if (ending.reaped && in_cgroup && !reported) {
      send_report(plan.report_write, ending, 0, disk_full(plan));
      reported = true;
    }
    if (ending.reaped && !in_cgroup) break;
    if (fds[0].revents != 0) break;  // the referee is done with it
  }
  int left_behind = 0;
  if (ending.reaped && !in_cgroup) {
    // Whatever still runs below was started by the program and left behind.
    static pid_t pids[kMostProcesses];
    const std::size_t count = descendants(pids, kMostProcesses);
    for (std::size_t i = 0; i < count; ++i)
      left_behind += any_thread_runs(pids[i]) ? 1 : 0;
  }
  if (!ending.reaped) ::kill(program, SIGKILL);
  kill_everything(plan.isolate, program, ending);
  if (!reported) send_report(plan.report_write, ending, left_behind, disk_full(plan));
  ::_exit(0);
}

// A bind of `source` at `target`, read-only, without set-user-ID programs or devices: below it
// too where the kernel can say so at once (mount_setattr), else at its top.
bool bind_read_only(const char* source, const char* target) {
  if (::mount(source, target, nullptr, MS_BIND | MS_REC, nullptr) != 0) return false;
#ifdef SYS_mount_setattr
  struct {
    std::uint64_t set, clear, propagation, userns;
  } attributes{0x1 | 0x2 | 0x4, 0, 0, 0};  // MOUNT_ATTR_RDONLY, _NOSUID, _NODEV
  if (::syscall(SYS_mount_setattr, AT_FDCWD, target, 0x8000 /* AT_RECURSIVE */, &attributes,
                sizeof attributes) == 0) {
    return true;
  }
#endif
  return ::mount(nullptr, target, nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
                 nullptr) == 0;
}

// Runs one step of the box (`source`: what a bind binds, opened); false, with errno, when it
// fails.
bool box_step(const BoxStep& step, const char* source, const KeeperPlan& plan) {
  switch (step.op) {
    case BoxStep::folder:
      return ::mkdir(step.target, step.mode) == 0 || errno == EEXIST;
    case BoxStep::bind:
      return bind_read_only(source, step.target);
    case BoxStep::bind_file: {
      const int fd = ::open(step.target, O_WRONLY | O_CREAT | O_CLOEXEC, 0444);
      if (fd < 0) return false;
      ::close(fd);
      return bind_read_only(source, step.target);
    }
    case BoxStep::link:
      return ::symlink(step.source, step.target) == 0;
    case BoxStep::root:
      return ::mount("box", step.target, "tmpfs", MS_NOSUID, step.source) == 0;
    case BoxStep::tmpfs:
      return ::mount("box", step.target, "tmpfs", MS_NOSUID | MS_NODEV, step.source) == 0;
    case BoxStep::proc:
      return ::mount("proc", step.target, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, step.source) ==
             0;
    case BoxStep::node:
      return ::mknod(step.target, S_IFCHR | step.mode, step.device) == 0;
    case BoxStep::writable:
      return ::mount(step.source, step.target, nullptr, MS_BIND, nullptr) == 0;
    case BoxStep::own:
      return ::chown(step.target, plan.run_uid, plan.run_gid) == 0 &&
             ::chmod(step.target, step.mode) == 0;
    case BoxStep::detach:
      return ::umount2(step.target, MNT_DETACH) == 0 && ::rmdir(step.target) == 0;
    case BoxStep::read_only:
      return ::mount(nullptr, step.target, nullptr, MS_REMOUNT | MS_RDONLY | MS_NOSUID, nullptr) ==
             0;
  }
  errno = EINVAL;
  return false;
}

// Builds the game's file system at BoxLayout::kStaging and moves into it, the keeper's own
// root included: nothing of the host's is left in this mount namespace but what it binds.
void build_box(const KeeperPlan& plan) {
  // Every source first, while the staging folder still shows what it shows outside. A bind
  // then names its source by its descriptor.
  static char sources[BoxLayout::kMostBinds][32];
  int opened = 0;
  const int first_fd = 64;  // out of the way of the pipes
  for (int i = 0; i < plan.box_steps; ++i) {
    const BoxStep& step = plan.box[i];
    if (step.op != BoxStep::bind && step.op != BoxStep::bind_file) continue;
    const int fd = ::open(step.source, O_PATH | O_CLOEXEC);
    if (fd < 0 || opened >= BoxLayout::kMostBinds) {
      tell(plan.start_write, 'b', fd < 0 ? errno : E2BIG, i);
      ::_exit(1);
    }
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, first_fd);
    ::close(fd);
    proc_path(sources[opened++], sizeof sources[0], "/proc/self/fd/", moved, "");
  }
  const mode_t mask = ::umask(0);
  for (int i = 0, bind = 0; i < plan.box_steps; ++i) {
    const BoxStep& step = plan.box[i];
    const bool binds = step.op == BoxStep::bind || step.op == BoxStep::bind_file;
    if (!box_step(step, binds ? sources[bind++] : nullptr, plan)) {
      tell(plan.start_write, 'b', errno, i);
      ::_exit(1);
    }
  }
  if (::chdir(BoxLayout::kStaging) != 0 || ::syscall(SYS_pivot_root, ".", ".") != 0 ||
      ::umount2(".", MNT_DETACH) != 0 || ::chdir("/") != 0 || ::chdir(plan.box_work) != 0) {
    tell(plan.start_write, 'b', errno, plan.box_steps);
    ::_exit(1);
  }
  ::umask(mask);
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
  // The referee died before the line above. (In a PID namespace of its own the keeper cannot
  // see its parent; a dead referee shows there as its control pipe closing.)
  if (!plan.isolate && ::getppid() != plan.parent) ::_exit(1);
  // No process of the player's user may trace the keeper or open its descriptors.
  ::prctl(PR_SET_DUMPABLE, 0);
  if (!plan.isolate) {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    keep(plan);
  }
  // It was started as the init of new PID, mount and IPC namespaces (and a network one, unless
  // it joins the slot's), within a user namespace of its own where the referee may not make
  // them alone (then it maps its own user, and only it).
  if (plan.user_namespace) {
    char map[64];
    proc_path(map, sizeof map, "", static_cast<long>(plan.uid), " ", static_cast<long>(plan.uid),
              " 1\n");
    char group_map[64];
    proc_path(group_map, sizeof group_map, "", static_cast<long>(plan.gid), " ",
              static_cast<long>(plan.gid), " 1\n");
    // A process that is not dumpable cannot write its own maps: for this moment only, before
    // the program exists, it is.
    ::prctl(PR_SET_DUMPABLE, 1);
    const bool mapped = write_file("/proc/self/setgroups", "deny") &&
                        write_file("/proc/self/uid_map", map) &&
                        write_file("/proc/self/gid_map", group_map);
    const int error = errno;
    ::prctl(PR_SET_DUMPABLE, 0);
    if (!mapped) {
      tell(plan.start_write, 'i', error);
      ::_exit(1);
    }
  }
  if (plan.network >= 0 && ::setns(plan.network, CLONE_NEWNET) != 0) {
    tell(plan.start_write, 'i', errno);
    ::_exit(1);
  }
  // Nothing it mounts reaches the mounts outside. Then a file system of the game's own, or the
  // host's with its own /proc, which shows the namespace's processes only.
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    tell(plan.start_write, 'i', errno);
    ::_exit(1);
  }
  if (plan.box_steps > 0) {
    build_box(plan);
  } else if (::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) {
    tell(plan.start_write, 'i', errno);
    ::_exit(1);
  }
  keep(plan);  // as the namespace's init
}

pid_t start_isolated(KeeperPlan& plan) {
  // clone() without a stack is fork() with flags: the child goes on from here, on a copy.
  const unsigned long flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC |
                              (plan.network >= 0 ? 0UL : static_cast<unsigned long>(CLONE_NEWNET));
  plan.user_namespace = false;
  long pid = ::syscall(SYS_clone, SIGCHLD | flags, nullptr, nullptr, nullptr, nullptr);
  if (pid < 0 && errno == EPERM) {
    plan.user_namespace = true;
    pid = ::syscall(SYS_clone, SIGCHLD | flags | CLONE_NEWUSER, nullptr, nullptr, nullptr, nullptr);
    if (pid < 0) errno = errno == EINVAL ? EPERM : errno;
  }
  return static_cast<pid_t>(pid);
}

}  // namespace ioiwari::keeping
