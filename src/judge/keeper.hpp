// The keeper: the process between the referee and a program it runs (process.hpp), which makes
// sure that nothing the program starts outlives it. It runs in a child forked from a process
// that may have other threads, so from the fork on it calls only async-signal-safe functions
// (system calls) on memory prepared before the fork, and writes nothing to the heap. Private to
// the judge.
#pragma once

#include <linux/filter.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include "ioiwari/judge/box.hpp"

namespace ioiwari::keeping {

// What the keeper tells through the start pipe when the program could not be started: a tag and
// an errno. The pipe closes without a word when the program's exec succeeds.
struct StartFailure {
  // 'x' exec failed, 'i' no namespaces, 'r' no process, 'c' no cgroup, 'u' no user, 'b' the box
  // (`step` says which of its steps), 's' the filter of system calls
  char tag;
  int error;
  int step;
};

// What the keeper reports through its report pipe, once: when the program has ended and been
// reaped (in a cgroup, where the referee counts what is left), or when everything below the
// keeper has ended (without one).
struct KeeperReport {
  std::int32_t signaled;
  std::int32_t number;       // the program's exit status or signal
  std::int32_t left_behind;  // without a cgroup: processes still running when the program exited
  std::int64_t max_rss_kb;   // the program's peak resident set, as the kernel counted it
  std::int32_t disk_full;    // in a box: its disk had no room left when the program ended
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
  bool isolate;         // new PID, mount, network and IPC namespaces, and a /proc of their own
  int network;          // a network namespace to join instead of a new one, or -1
  bool user_namespace;  // with isolate: started in a user namespace of its own too
  uid_t uid;            // ours, for a user namespace's map
  gid_t gid;
  const int* join;  // cgroup.procs of the game's group, one a hierarchy: "0" joins it
  int join_count;   // 0: no cgroup; the keeper counts and kills through /proc
  bool set_user;    // run the program as run_uid:run_gid, with no supplementary groups
  uid_t run_uid;
  gid_t run_gid;
  bool set_data, set_cpu, set_nproc, set_fsize;
  rlimit data, cpu, nproc, fsize;
  // With isolate, as root: the game's own file system, built in order before the program
  // starts, which then runs in `box_work` (box.hpp). No steps: the host's, with its own /proc.
  const BoxStep* box;
  int box_steps;
  const char* box_work;
  const sock_filter* filter;  // the calls the program may not make (refused_calls.hpp); null: all
  unsigned short filter_length;
};

// Starts the program as `plan` says, keeps it, and reports; it never returns. With
// `plan.isolate` it must have been started by start_isolated().
[[noreturn]] void keeper(const KeeperPlan& plan);

// Starts a child as the init of new PID, mount, IPC and (unless plan.network is given) network
// namespaces, as fork() does otherwise: its pid to the parent, 0 to the child, -1 with errno.
// Where the caller may not make them alone, it tries again within a new user namespace, and
// sets plan.user_namespace for the child.
pid_t start_isolated(KeeperPlan& plan);

// Reading /proc without allocating, for the keeper and for the referee's samples.

// "/proc/1234/task/1234/children" and the like: `a`, `number`, `b`, then `second` and `c` when
// given, into `out`.
void proc_path(char* out, std::size_t size, const char* a, long number, const char* b,
               long second = -1, const char* c = nullptr);
// Reads up to size-1 bytes of the file at `path` into `buffer`, NUL-terminated; the bytes read,
// or -1.
long read_file(const char* path, char* buffer, std::size_t size);
// Appends the children of every thread of process `pid` to pids[count..max), reading each
// children file into `text`, which should hold kChildrenFileBytes.
void append_children(pid_t pid, pid_t* pids, std::size_t& count, std::size_t max, char* text,
                     std::size_t text_size);
// Whether any thread of process `pid` still runs: false for a zombie, or a process gone. A
// process whose first thread has ended while another runs is running.
bool any_thread_runs(pid_t pid);

// The most processes the keeper looks at in one round.
inline constexpr std::size_t kMostProcesses = 32768;
// A children file lists every child however many: room to read it whole (8 bytes a child).
inline constexpr std::size_t kChildrenFileBytes = kMostProcesses * 8;

}  // namespace ioiwari::keeping
