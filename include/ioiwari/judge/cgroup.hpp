// The kernel's own accounting of a game: a control group for each game, made below the
// referee's own control group (Linux cgroup v2, or v1 with its memory, cpuacct, pids and freezer
// controllers). The kernel counts every process that ever ran in the group, however it ended
// and whoever reaped it; it caps the group's memory and tasks; and it kills the whole group at
// once. How the referee uses it is in docs/referee.md.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ioiwari {

enum class CgroupVersion { v1, v2 };

// Why no control group could be made or used (one line).
class CgroupError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the kernel caps in a game's group.
struct CgroupLimits {
  std::uint64_t memory_bytes = 0;  // every page charged to the group, files' included (0: none)
  int tasks = 0;                   // processes and threads at once (0: none)
};

// What the kernel has counted in a game's group.
struct CgroupUsage {
  std::chrono::nanoseconds cpu{0};  // user and system time of every task ever in the group
  std::uint64_t memory_kb = 0;      // anonymous and shared memory (shmem, memfd, tmpfs) now
  std::uint64_t oom_kills = 0;      // tasks the kernel killed at the memory cap
};

class Cgroup;

// The folder of one referee run below the referee's own control group, in each hierarchy it
// uses. Destroying it kills whatever is left in its games and removes the folders.
class CgroupRun {
 public:
  // Makes the folder. Throws CgroupError saying why it cannot: no cgroup file system, a missing
  // controller, no permission. Folders left by runs whose referee has died are emptied and
  // removed first.
  static std::unique_ptr<CgroupRun> make();
  ~CgroupRun();
  CgroupRun(const CgroupRun&) = delete;
  CgroupRun& operator=(const CgroupRun&) = delete;

  CgroupVersion version() const { return version_; }
  // "cgroup v1 below /sys/fs/cgroup/memory/..." : for people.
  std::string describe() const;

  // A new group for one game, named `name` (unique in the run), with `limits`. Throws
  // CgroupError.
  std::unique_ptr<Cgroup> game(const std::string& name, const CgroupLimits& limits) const;

 private:
  CgroupRun(CgroupVersion version, std::vector<std::string> folders)
      : version_(version), folders_(std::move(folders)) {}
  CgroupVersion version_;
  std::vector<std::string> folders_;  // v2: one; v1: one a hierarchy (memory, cpuacct, ...)
};

// One game's group. Destroying it kills every process left in it and removes it.
class Cgroup {
 public:
  ~Cgroup();
  Cgroup(const Cgroup&) = delete;
  Cgroup& operator=(const Cgroup&) = delete;

  // Descriptors open for writing on each hierarchy's cgroup.procs: a process that writes "0"
  // to each of them joins the group, and so does everything it starts from then on. They are
  // close-on-exec.
  const std::vector<int>& join_descriptors() const { return join_; }

  // The most join descriptors a group holds: one for each of v1's four hierarchies.
  static constexpr int kMostDescriptors = 4;

  // What the kernel counted since begin(), memory as it is now.
  CgroupUsage usage() const;
  // The CPU time alone, since begin(): cheaper to read than all of usage().
  std::chrono::nanoseconds cpu() const;
  // Begins the counts anew, for the next game in the group.
  void begin();
  // Whether the group can serve another game: nothing runs in it, and it holds no memory.
  bool reusable() const;
  // The processes (thread groups) in the group now, numbered as this process sees them; a
  // process whose first thread has ended while others run is one of them, a zombie is not.
  std::vector<pid_t> processes() const;
  // Kills every process in the group and waits until none is left, at most `patience`. False
  // when some were still there at the end.
  bool kill(std::chrono::milliseconds patience);

 private:
  friend class CgroupRun;
  Cgroup(CgroupVersion version, std::vector<std::string> folders);
  CgroupVersion version_;
  std::vector<std::string> folders_;  // v1: memory, cpuacct, pids, freezer (in that order)
  std::vector<int> join_;
  CgroupUsage base_;            // the counts at begin()
  CgroupUsage counted() const;  // the counts since the group was made
  std::chrono::nanoseconds counted_cpu() const;
};

// Reads the value of `key` in a "key value" file's text (memory.stat, cpu.stat,
// memory.events); nothing when the key is not there. Exposed for the tests.
std::optional<std::uint64_t> keyed_value(const std::string& text, const std::string& key);

}  // namespace ioiwari
