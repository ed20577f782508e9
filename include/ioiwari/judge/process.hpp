// A program run on pipes and contained, for the referee and for end-to-end tests (POSIX and
// Linux: fork, exec, poll, prctl, namespaces, cgroups, /proc).
//
// Containment. The program is not started by us directly but by a keeper: a small process of
// ours between us and it, which no process of the program's may trace or open (it is not
// dumpable, and is of another user when the program is run as one). The keeper is a child
// subreaper (prctl PR_SET_CHILD_SUBREAPER), so every process the program starts stays below it
// whatever it does (setsid, setpgid, a double fork).
// - With a cgroup (cgroup.hpp), the program joins it before its exec: the kernel counts the CPU
//   time and memory of everything it ever starts, caps them, and kills it all at once; usage()
//   and left_behind() are the kernel's counts.
// - Without one, the keeper counts and kills through /proc, and usage() samples /proc: CPU time
//   of processes that nobody reaped into a parent's counts, and shared memory that is mapped by
//   no process, go uncounted.
// - With `isolate`, the keeper is the init of new PID, mount, network and IPC namespaces, with a
//   /proc of their own: the program has no network, sees only its own processes, cannot signal
//   its init, and the kernel kills everything in the namespace when the keeper ends.
// The keeper and the program die with us (PR_SET_PDEATHSIG). The program may gain no privilege
// (PR_SET_NO_NEW_PRIVS). Nothing here waits on a process without a time limit.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ioiwari/judge/box.hpp"
#include "ioiwari/judge/cgroup.hpp"

namespace ioiwari {

namespace keeping {
struct KeeperPlan;
}

using Clock = std::chrono::steady_clock;

// How a process ended: its exit status, or the signal that killed it.
struct ExitStatus {
  bool signaled = false;
  int number = 0;  // the exit status, or the signal number
  bool success() const { return !signaled && number == 0; }
};

// What a program and every process it started use: the cgroup's counts, or sampled from /proc.
struct Usage {
  std::chrono::nanoseconds cpu{0};  // CPU time, user and system, of the living and the ended
  std::uint64_t memory_kb = 0;      // anonymous and shared memory, not backed by a file, summed
  std::uint64_t oom_kills = 0;      // processes the kernel killed at the cgroup's memory cap
};

// A user and group to run a program as (the caller must be root).
struct RunAs {
  uid_t uid;
  gid_t gid;
};

struct Containment {
  bool isolate = false;  // new PID, mount, network and IPC namespaces
  int network = -1;      // with `isolate`, a network namespace to join instead of a new one
  std::uint64_t data_limit_bytes = 0;  // RLIMIT_DATA of the program (0: as it was)
  std::chrono::seconds cpu_limit{0};   // RLIMIT_CPU of the program, a backstop (0: as it was)
  Cgroup* cgroup = nullptr;            // the group the program runs in, empty, owned by the caller
  std::optional<RunAs> user;           // run the program as this user, with no other groups
  int processes = 0;                   // with `user`: its RLIMIT_NPROC (0: as it was)
  // With `isolate` and `user`: the file system the program sees (box.hpp), built afresh for it.
  const BoxLayout* box = nullptr;
  // The program's whole environment, "NAME=VALUE" each; nothing: ours.
  std::optional<std::vector<std::string>> environment;
  std::uint64_t file_size_bytes = 0;  // RLIMIT_FSIZE of the program (0: as it was)
  bool refuse_calls = false;          // the calls a player may not make fail (refused_calls.hpp)
};

// Why a program could not be started.
class SpawnError : public std::runtime_error {
 public:
  enum class Kind {
    program,    // the program cannot be run: missing, not executable, not a program
    resources,  // the system refused a pipe or a process, even after waiting
    isolation,  // new namespaces are not allowed here
    cgroup,     // the program could not join its cgroup
    user,       // the program could not be made to run as its user
    box,        // its box could not be built
    filter,     // its calls could not be filtered (a kernel without seccomp filters)
  };
  SpawnError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// A program started with pipes on its standard input, output and error, contained as above.
// Destroying the object kills the program and everything it started, and reaps them: nothing is
// left running.
//
// Creating one sets SIGPIPE to be ignored in this process (a child that closes its input must
// not kill us); the program gets the default disposition back, and every other signal too.
// What a program wrote on standard error, as kept: its first bytes, its last bytes, how many
// between them were not kept, and how many lines there were in all (a last line without '\n'
// counts).
struct ErrorOutput {
  std::string head, tail;
  std::uint64_t skipped = 0;
  std::uint64_t lines = 0;
};

class ChildProcess {
 public:
  // Starts argv[0] (searched in PATH when it has no '/') with the arguments argv[1..]. When the
  // system is out of pipes or processes, it waits and tries again for a while before it gives
  // up. Throws SpawnError. Safe to call from several threads at once.
  explicit ChildProcess(const std::vector<std::string>& argv, const Containment& containment = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes all of `data` to the program's standard input. False when it has closed it.
  bool write(std::string_view data);
  // Closes the program's standard input: it then reads end of file.
  void close_input();
  // Stops reading the program's standard output: its next write there fails with EPIPE.
  void close_output();

  enum class Read {
    line,     // `line` holds the next line, without its '\n'
    end,      // standard output was closed and everything in it has been read
    timeout,  // no whole line before the deadline
    too_long  // more than max_bytes without a '\n'
  };
  // Reads the next line of the program's standard output. A last line without '\n' counts as a
  // line once the output has closed, or once the program has ended (what it left running may
  // hold the pipe open; it is not the program). Standard error is collected meanwhile
  // (error_output()).
  Read read_line(std::string& line, Clock::time_point deadline, std::size_t max_bytes);

  // Waits until the program has exited, at most until `deadline`; its output is drained
  // meanwhile. Nothing when it still runs at the deadline.
  std::optional<ExitStatus> wait_until(Clock::time_point deadline);

  // Kills the program and everything it started, and reaps them (once; safe to repeat).
  void kill();

  // How many processes the program left running when it exited (killed since), as its cgroup
  // or the keeper counted them; 0 while it runs.
  int left_behind() const { return left_behind_; }
  // The program's peak resident set in kB, mapped files included, as the kernel counted it when
  // it ended; 0 while it runs.
  std::uint64_t max_rss_kb() const { return max_rss_kb_; }
  // In a box: whether its disk had no room left when the program ended.
  bool disk_full() const { return disk_full_; }
  // How the program ended, once it has (killed by kill() or not); nothing while it runs.
  const std::optional<ExitStatus>& exit_status() const { return status_; }

  // How closely usage() looks: in a cgroup, memory costs the kernel more to tell than CPU time.
  enum class Look {
    everything,  // CPU time and memory, now
    glance,      // CPU time now; memory as last read, unless that was kMemoryLook ago or more
  };
  static constexpr std::chrono::milliseconds kMemoryLook{5};
  // What the program and its processes use now (their CPU time goes on counting after they end,
  // until the keeper has reaped them all); `processes` is counted without a cgroup only.
  Usage usage(Look look) const;

  // What the program wrote on standard error so far, up to kMaxErrorBytes.
  const std::string& error_output() const { return error_; }
  static constexpr std::size_t kMaxErrorBytes = 64 * 1024;
  // All of it as kept: the first kMaxErrorBytes and the last kErrorTailBytes after them (where
  // a traceback or a sanitizer says why), and the number of lines in all.
  ErrorOutput error_output_all() const;
  static constexpr std::size_t kErrorTailBytes = 4 * 1024;

  // The most file descriptors one ChildProcess holds in this process while it starts (its
  // cgroup's are the caller's).
  static constexpr int kDescriptorsStarting = 13;

  // How long kill() waits for the keeper at each step before it forces the next.
  static constexpr std::chrono::seconds kKillPatience{2};

 private:
  // A start refused by the system (out of pipes or processes), which waiting may cure.
  struct Refused {
    int error;
    const char* what;  // "fork", "execve" or "pipe2"
  };
  // One try at starting the keeper and the program (`name` for messages): nothing when they
  // run. Throws SpawnError for what waiting cannot cure.
  std::optional<Refused> try_start(keeping::KeeperPlan plan, const std::string& name);

  // Waits for output or the keeper's report until `deadline` and takes what comes; false at the
  // deadline.
  bool pump(Clock::time_point deadline);
  void take_report();
  // Waits for the keeper to end until `deadline` and reaps it; false when it still runs.
  bool reap_keeper(Clock::time_point deadline);

  Containment containment_;
  mutable Clock::time_point memory_looked_{};  // the cgroup's memory, last read
  mutable std::pair<std::uint64_t, std::uint64_t> memory_seen_{0, 0};  // kB, OOM kills
  pid_t keeper_ = -1;
  int keeper_fd_ = -1;  // a pidfd of the keeper: polled, never waited on without a limit
  pid_t program_ = -1;  // as this process sees it; -1 when it ended before we looked
  int in_ = -1, out_ = -1, err_ = -1;  // our ends of the program's pipes; -1 once closed
  int report_ = -1;                    // the keeper's reports
  int control_ = -1;                   // closing it tells the keeper to kill everything
  std::string output_;                 // read from standard output, not yet returned
  std::string error_;                  // the first kMaxErrorBytes of standard error
  std::string error_tail_;             // the last of what came after them (up to twice)
  std::uint64_t error_bytes_ = 0, error_newlines_ = 0;
  bool error_ends_line_ = true;
  void keep_error(std::string_view bytes);
  std::optional<ExitStatus> status_;
  int left_behind_ = 0;
  std::uint64_t max_rss_kb_ = 0;
  bool disk_full_ = false;
  bool reaped_ = false;
};

// The file a command's first word names: itself when it holds a '/', else the first executable
// of that name in PATH. Throws SpawnError (program) when there is none.
std::string resolve_program(const std::string& program);

// Whether this system lets a process make new PID, mount, network and IPC namespaces and mount
// a /proc in them; nothing when it does, else why not (one line).
std::optional<std::string> isolation_refused();

}  // namespace ioiwari
