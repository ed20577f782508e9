// The keeper: the process between the referee and a program it runs (process.hpp), which makes
// sure that nothing the program starts outlives it. It runs in a child forked from a process
// that may have other threads, so from the fork on it calls only async-signal-safe functions
// (system calls) on memory prepared before the fork, and writes nothing to the heap. Private to
// the judge.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace ioiwari::keeping {

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

// Starts the program as `plan` says, keeps it, and reports; it never returns.
[[noreturn]] void keeper(const KeeperPlan& plan);

// Reading /proc without allocating, for the keeper and for the referee's samples.

// "/proc/1234/task/1234/children" and the like: `a`, `number`, `b`, then `second` and `c` when
// given, into `out`.
void proc_path(char* out, std::size_t size, const char* a, long number, const char* b,
               long second = -1, const char* c = nullptr);
// Reads up to size-1 bytes of the file at `path` into `buffer`, NUL-terminated; the bytes read,
// or -1.
long read_file(const char* path, char* buffer, std::size_t size);
// Appends the children of every thread of process `pid` to pids[count..max).
void append_children(pid_t pid, pid_t* pids, std::size_t& count, std::size_t max);

// The most processes the keeper looks at in one round.
inline constexpr std::size_t kMostProcesses = 4096;

}  // namespace ioiwari::keeping
