#include "ioiwari/judge/process.hpp"

#include "files.hpp"
#include "keeper.hpp"
#include "refused_calls.hpp"

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
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <system_error>
#include <thread>

extern char** environ;

namespace ioiwari {

using namespace keeping;

namespace {

// How long a start waits for the system to give it pipes and processes.
constexpr auto kSpawnPatience = std::chrono::seconds(10);

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
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

// Reads what `fd` has into `buffer` (a read of 0 or an error closes it); returns the bytes read.
std::string_view drain(int& fd, char (&buffer)[4096]) {
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n > 0) return {buffer, static_cast<std::size_t>(n)};
  if (n == 0 || (errno != EINTR && errno != EAGAIN)) close_fd(fd);
  return {};
}

}  // namespace

// Done before fork, since execvp may allocate and a child of a threaded process must not.
std::string resolve_program(const std::string& program) {
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

namespace {

// The processes that `pid` started and that still are its children.
// The whole text of a file under /proc; "" when it cannot be read.
std::string read_proc(const std::string& path) {
  return files::read_text(path).value_or("");
}

// The children of every thread of process `pid`, each children file read whole.
std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> pids;
  const std::string task = "/proc/" + std::to_string(pid) + "/task/";
  std::error_code error;
  for (std::filesystem::directory_iterator entry(task, error), end; !error && entry != end;
       entry.increment(error)) {
    std::istringstream numbers(read_proc(entry->path().string() + "/children"));
    for (long child; numbers >> child;)
      pids.push_back(static_cast<pid_t>(child));
  }
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

namespace {

// What the keeper needs of `containment`, before the pipes are made.
KeeperPlan plan_for(const Containment& containment, const char* program, char* const* argv,
                    char* const* envp, const std::vector<int>& join) {
  KeeperPlan plan{};
  plan.program = program;
  plan.argv = argv;
  plan.envp = envp != nullptr ? envp : environ;
  plan.parent = ::getpid();
  plan.isolate = containment.isolate;
  plan.network = containment.network;
  plan.uid = ::geteuid();
  plan.gid = ::getegid();
  plan.join = join.data();
  plan.join_count = static_cast<int>(join.size());
  if (containment.user) {
    plan.set_user = true;
    plan.run_uid = containment.user->uid;
    plan.run_gid = containment.user->gid;
    if (containment.processes > 0) {
      plan.set_nproc = true;
      const auto most = static_cast<rlim_t>(containment.processes);
      plan.nproc = {most, most};
    }
  }
  if (containment.data_limit_bytes > 0) {
    plan.set_data = true;
    plan.data = {containment.data_limit_bytes, containment.data_limit_bytes};
  }
  if (containment.file_size_bytes > 0) {
    plan.set_fsize = true;
    plan.fsize = {containment.file_size_bytes, containment.file_size_bytes};
  }
  if (containment.box != nullptr && containment.isolate && containment.user) {
    plan.box = containment.box->steps().data();
    plan.box_steps = static_cast<int>(containment.box->steps().size());
    plan.box_work = containment.box->work().c_str();
  }
  if (containment.refuse_calls) {
    const auto filter = refused_calls_filter();
    if (!filter.empty()) {
      plan.filter = filter.data();
      plan.filter_length = static_cast<unsigned short>(filter.size());
    }
  }
  if (containment.cpu_limit.count() > 0) {
    plan.set_cpu = true;
    const auto seconds = static_cast<rlim_t>(containment.cpu_limit.count());
    plan.cpu = {seconds, seconds + 1};
  }
  return plan;
}

// Reads the start pipe until it closes (the program's exec) or brings a failure, within
// kSpawnPatience: the bytes read (0 at the exec, sizeof failure for a failure), or -1 when the
// keeper said nothing in time.
ssize_t read_start(int fd, StartFailure& failure) {
  const auto started_by = Clock::now() + kSpawnPatience;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(started_by - Clock::now());
    pollfd ready{fd, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&ready, 1, static_cast<int>(left.count())) == 0) return -1;
    const ssize_t n = ::read(fd, &failure, sizeof failure);
    if (n >= 0 || errno != EINTR) return n;
  }
}

// The error for what the keeper told through the start pipe; nothing for a refused process,
// which waiting may cure.
std::optional<SpawnError> start_error(const StartFailure& failure, const std::string& program,
                                      const Containment& containment) {
  const std::string why = std::strerror(failure.error);
  switch (failure.tag) {
    case 'x':
      // A user of the game's own at its process limit: the last game's processes are still
      // being torn down, or another run shares the users. Waiting cures it.
      if (failure.error == EAGAIN && containment.user) return std::nullopt;
      return SpawnError(SpawnError::Kind::program, "cannot run '" + program + "': " + why);
    case 'i':
      return SpawnError(SpawnError::Kind::isolation, "cannot make new namespaces: " + why);
    case 'c':
      return SpawnError(SpawnError::Kind::cgroup, "cannot join the game's cgroup: " + why);
    case 'b': {
      const BoxLayout* box = containment.box;
      std::string where = "moving into it";
      if (box != nullptr && failure.step >= 0 &&
          static_cast<std::size_t>(failure.step) < box->steps().size()) {
        const BoxStep& step = box->steps()[static_cast<std::size_t>(failure.step)];
        where = std::string("step ") + static_cast<char>(step.op) + " at '" + step.target + "'";
      }
      return SpawnError(SpawnError::Kind::box,
                        "cannot build the game's box (" + where + "): " + why);
    }
    case 's':
      return SpawnError(SpawnError::Kind::filter,
                        "cannot filter the player's system calls: " + why);
    case 'u':
      return SpawnError(SpawnError::Kind::user,
                        "cannot run '" + program + "' as user " +
                            std::to_string(containment.user ? containment.user->uid : 0) + ": " +
                            why);
    default:
      return std::nullopt;
  }
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const Containment& containment)
    : containment_(containment) {
  static const bool sigpipe_ignored = [] {
    ::signal(SIGPIPE, SIG_IGN);
    return true;
  }();
  (void)sigpipe_ignored;
  if (argv.empty()) throw SpawnError(SpawnError::Kind::program, "an empty command");

  // Everything the keeper and the program need is prepared before fork.
  const std::string program = resolve_program(argv[0]);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::vector<char*> environment;
  if (containment.environment) {
    for (const std::string& variable : *containment.environment)
      environment.push_back(const_cast<char*>(variable.c_str()));
    environment.push_back(nullptr);
  }
  std::vector<int> join;
  if (containment.cgroup != nullptr) join = containment.cgroup->join_descriptors();
  const KeeperPlan plan = plan_for(containment, program.c_str(), args.data(),
                                   containment.environment ? environment.data() : nullptr, join);

  // Out of descriptors or processes is the machine's state, not the program's fault: wait for
  // games to finish and try again, up to a limit no healthy machine reaches. The waits are
  // drawn at random, so that starts refused together do not all come back together.
  const auto give_up = Clock::now() + kSpawnPatience;
  auto pause = std::chrono::milliseconds(5);
  thread_local std::minstd_rand jitter(std::random_device{}());
  for (;;) {
    const auto refused = try_start(plan, argv.front());
    if (!refused) return;
    if (!transient(refused->error) || Clock::now() + pause > give_up) {
      throw SpawnError(SpawnError::Kind::resources,
                       std::string(refused->what) + ": " + std::strerror(refused->error));
    }
    std::this_thread::sleep_for(pause / 2 + pause * (jitter() % 1024) / 1024);
    pause = std::min(pause * 2, std::chrono::milliseconds(500));
  }
}

std::optional<ChildProcess::Refused> ChildProcess::try_start(KeeperPlan plan,
                                                             const std::string& name) {
  try {
    Pipe input, output, error, start, control, report;
    plan.stdin_read = input.read;
    plan.stdout_write = output.write;
    plan.stderr_write = error.write;
    plan.start_write = start.write;
    plan.control_read = control.read;
    plan.report_write = report.write;
    keeper_ = plan.isolate ? start_isolated(plan) : ::fork();
    if (keeper_ < 0) {
      const int refusal = errno;
      keeper_ = -1;
      if (plan.isolate && !transient(refusal)) {
        throw SpawnError(SpawnError::Kind::isolation,
                         std::string("cannot make new namespaces: ") + std::strerror(refusal));
      }
      return Refused{refusal, "fork"};
    }
    if (keeper_ == 0) keeper(plan);
    keeper_fd_ = static_cast<int>(::syscall(SYS_pidfd_open, keeper_, 0));
    // The keeper's ends are its own now: ours go, so that every pipe ends when it does.
    for (int* end :
         {&input.read, &output.write, &error.write, &start.write, &control.read, &report.write})
      close_fd(*end);
    std::swap(in_, input.write);
    std::swap(out_, output.read);
    std::swap(err_, error.read);
    std::swap(report_, report.read);
    std::swap(control_, control.write);
    // The start pipe closes at the program's exec, or brings why it failed. A keeper that says
    // neither in time is killed: nothing waits on it without a limit.
    StartFailure failure{};
    const ssize_t n = read_start(start.read, failure);
    if (n == 0) {
      // The program is below the keeper (which may be a namespace's init). Only the sampler of
      // /proc needs its number: a cgroup counts without it.
      if (containment_.cgroup == nullptr) {
        const std::vector<pid_t> below = children_of(keeper_);
        program_ = below.empty() ? -1 : below.front();
      }
      return std::nullopt;
    }
    kill();
    close_fd(in_);
    close_fd(out_);
    close_fd(err_);
    if (n < 0) {
      throw SpawnError(SpawnError::Kind::resources,
                       "the keeper did not start '" + name + "' within " +
                           std::to_string(kSpawnPatience.count()) + " s");
    }
    if (auto fatal = start_error(failure, name, containment_)) throw *fatal;
    // No process for the program: as if the fork had been refused, and ready to try again.
    keeper_ = -1;
    close_fd(keeper_fd_);
    reaped_ = false;
    status_.reset();
    left_behind_ = 0;
    return Refused{failure.error, failure.tag == 'x' ? "execve" : "fork"};
  } catch (const std::system_error& error) {
    return Refused{error.code().value(), "pipe2"};
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
  // In a cgroup the kernel's count, not the keeper's word: whatever is in the group now, the
  // program being reaped, was left behind.
  left_behind_ = containment_.cgroup != nullptr
                     ? static_cast<int>(containment_.cgroup->processes().size())
                     : report.left_behind;
  max_rss_kb_ = static_cast<std::uint64_t>(std::max<std::int64_t>(report.max_rss_kb, 0));
  disk_full_ = report.disk_full != 0;
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
      char buffer[4096];
      output_.append(drain(out_, buffer));
    } else if (fds[i].fd == err_) {
      char buffer[4096];
      keep_error(drain(err_, buffer));
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
    if (status_ && out_ >= 0) {
      // The program has ended: what it wrote is all in the pipe now. Whatever else holds the
      // pipe open was left behind, and is not the player.
      char buffer[4096];
      for (pollfd fd{out_, POLLIN, 0};
           out_ >= 0 && output_.size() <= max_bytes && ::poll(&fd, 1, 0) > 0; fd.fd = out_)
        output_.append(drain(out_, buffer));
      close_fd(out_);
      continue;
    }
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

bool ChildProcess::reap_keeper(Clock::time_point deadline) {
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(keeper_), &info, WEXITED | WNOHANG) == 0 &&
        info.si_pid == keeper_) {
      return true;
    }
    if (errno == ECHILD) return true;  // reaped already
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    if (keeper_fd_ >= 0) {
      pollfd fd{keeper_fd_, POLLIN, 0};
      ::poll(&fd, 1, static_cast<int>(std::min<long long>(left, 100)));
    } else {
      ::poll(nullptr, 0, 1);
    }
  }
}

void ChildProcess::kill() {
  if (keeper_ <= 0 || reaped_) return;
  // The kernel kills the group first: nothing the program started can outlast the keeper.
  if (containment_.cgroup != nullptr) containment_.cgroup->kill(kKillPatience);
  // The keeper kills the program and everything below it, then reports and ends.
  close_fd(control_);
  const auto patience = Clock::now() + kKillPatience;
  while (report_ >= 0 && Clock::now() < patience) {
    pollfd fd{report_, POLLIN, 0};
    if (::poll(&fd, 1, 50) > 0) take_report();
  }
  if (!reap_keeper(patience)) {
    // It did not end: it dies now, and its namespace, if any, with it.
    ::kill(keeper_, SIGKILL);
    reap_keeper(Clock::now() + kKillPatience);
  }
  if (!status_) status_ = ExitStatus{true, SIGKILL};
  close_fd(report_);
  close_fd(keeper_fd_);
  reaped_ = true;
}

Usage ChildProcess::usage(Look look) const {
  Usage usage;
  if (keeper_ <= 0 || reaped_) return usage;
  if (containment_.cgroup != nullptr) {
    // CPU time at every look; memory at a close look, and at a glance only every kMemoryLook
    // (the cgroup's cap holds between two looks).
    usage.cpu = containment_.cgroup->cpu();
    const auto now = Clock::now();
    if (look == Look::everything || now - memory_looked_ >= kMemoryLook) {
      const CgroupUsage counted = containment_.cgroup->usage();
      memory_seen_ = {counted.memory_kb, counted.oom_kills};
      memory_looked_ = now;
    }
    usage.memory_kb = memory_seen_.first;
    usage.oom_kills = memory_seen_.second;
    return usage;
  }
  // The root of the program's tree is the keeper (a namespace's init, or a subreaper). Its reaped
  // children's time holds the program's once it has ended, and every orphan's it reaped.
  const pid_t root = keeper_;
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
    // A process whose first thread has ended still runs while another thread does.
    if (!any_thread_runs(pid)) continue;
    usage.memory_kb += private_memory_kb(pid);
  }
  return usage;
}

std::optional<std::string> isolation_refused() {
  try {
    Containment containment;
    containment.isolate = true;
    ChildProcess probe({"/bin/sh", "-c", "exit 0"}, containment);
    probe.kill();
    return std::nullopt;
  } catch (const SpawnError& error) {
    return std::string("this system does not let the referee isolate a player: ") + error.what();
  }
}

void ChildProcess::keep_error(std::string_view bytes) {
  error_bytes_ += bytes.size();
  error_newlines_ += static_cast<std::uint64_t>(std::count(bytes.begin(), bytes.end(), '\n'));
  if (!bytes.empty()) error_ends_line_ = bytes.back() == '\n';
  const std::size_t head = std::min(bytes.size(), kMaxErrorBytes - error_.size());
  error_.append(bytes.substr(0, head));
  bytes.remove_prefix(head);
  if (bytes.empty()) return;
  // After the head, the last kErrorTailBytes: kept in a buffer twice as large, cut in halves.
  error_tail_.append(bytes);
  if (error_tail_.size() > 2 * kErrorTailBytes)
    error_tail_.erase(0, error_tail_.size() - kErrorTailBytes);
}

ErrorOutput ChildProcess::error_output_all() const {
  ErrorOutput all;
  all.head = error_;
  all.tail = error_tail_.size() > kErrorTailBytes
                 ? error_tail_.substr(error_tail_.size() - kErrorTailBytes)
                 : error_tail_;
  all.skipped = error_bytes_ - all.head.size() - all.tail.size();
  all.lines = error_newlines_ + (error_bytes_ > 0 && !error_ends_line_ ? 1 : 0);
  return all;
}

}  // namespace ioiwari
