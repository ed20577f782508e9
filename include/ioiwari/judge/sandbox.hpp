// How a referee run contains its players, decided once before the first game and said once
// (docs/referee.md): a cgroup for each game where the kernel lets the referee make one, a user
// of its own for each concurrent game where the referee is root (held under a lock that every
// run on the machine honours), new namespaces where the kernel allows them, and, when both,
// a file system of the game's own (box.hpp); a cleared environment, a file-size limit and the
// refused system calls in every mode.
#pragma once

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ioiwari/judge/cgroup.hpp"
#include "ioiwari/judge/process.hpp"

namespace ioiwari {

enum class Isolation {
  off,            // --no-isolate
  where_allowed,  // the default: isolated where the kernel allows it, said once where it does not
  required,       // --isolate: refused where the kernel does not allow it
};

// The players' users: the range uid .. uid + kMostSlots - 1 (groups the same from gid), of which
// a run holds one for each game slot, each under a lock in kUserLocks that every run honours:
// two runs at once never give two live games one user.
struct UserRange {
  uid_t uid;
  gid_t gid;
};
inline constexpr UserRange kDefaultUsers{61000, 61000};
inline constexpr int kMostSlots = 256;  // --jobs at most: the users 61000 to 61255
inline constexpr const char* kUserLocks = "/run/ioiwari/users";

// The environment every player gets, and nothing else of the referee's (besides HOME, its
// working folder in a box, and what --env passes).
inline constexpr const char* kPlayerEnvironment[] = {"PATH=/usr/local/bin:/usr/bin:/bin",
                                                     "LIBC_FATAL_STDERR_=1"};

// What a run asks for; what it gets is the Sandbox's.
struct SandboxRequest {
  bool cgroups = true;                             // --no-cgroups: the keeper's /proc counts
  Isolation isolation = Isolation::where_allowed;  //
  std::optional<UserRange> users;                  // root only; kDefaultUsers when not given
  int processes = 64;                              // tasks at once: processes and threads
  std::uint64_t memory_cap_bytes = 0;              // the kernel's cap on a game's group (0: none)
  std::uint64_t data_limit_bytes = 0;              // RLIMIT_DATA of each process (0: none)
  std::chrono::seconds cpu_backstop{0};            // RLIMIT_CPU of each process (0: none)
  std::uint64_t file_size_bytes = 0;               // RLIMIT_FSIZE of each process (0: none)
  std::uint64_t disk_bytes = 0;                    // a box's tmpfs: all a game may write
  std::vector<std::string> environment;            // "NAME=VALUE" passed beyond the short list
  std::vector<std::string> dirs;                   // folders bound read-only into each box
  std::string user_locks = kUserLocks;             // where runs hold their users
  int slots = 1;                                   // games at once (--jobs)
};

// Why a run cannot contain its players as asked; `busy` when other runs hold every user.
class SandboxError : public std::runtime_error {
 public:
  explicit SandboxError(const std::string& what, bool busy = false)
      : std::runtime_error(what), busy_(busy) {}
  bool busy() const { return busy_; }

 private:
  bool busy_;
};

class Sandbox {
 public:
  // Makes the run's cgroup folder, takes its users, lays out its box, and tries `player` once
  // as the games will run it: without the isolation the kernel refuses (said in notes()),
  // unless it is required. Fewer slots than asked when other runs hold the rest of the users
  // (said in notes()). Throws SpawnError when the player cannot be run or isolation is required
  // and refused, and SandboxError when users are asked for without root, when other runs hold
  // every user (busy()), or when the box cannot be laid out.
  Sandbox(const std::vector<std::string>& player, const SandboxRequest& request);
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  // What the run could not have, and what it does instead: one line each, for people.
  const std::vector<std::string>& notes() const { return notes_; }
  // "cgroup v1, users 61000+, isolated": how the players are contained.
  std::string describe() const;

  bool cgroups() const { return run_ != nullptr; }
  std::optional<CgroupVersion> cgroup_version() const {
    return run_ != nullptr ? std::optional(run_->version()) : std::nullopt;
  }
  bool isolated() const { return isolated_; }
  std::optional<UserRange> users() const { return users_; }
  // The games at once it can hold: the slots asked for, or fewer (notes()).
  int slots() const { return slots_; }
  // The user of each slot, held for the run; empty when not root.
  const std::vector<uid_t>& slot_users() const { return slot_users_; }
  bool boxed() const { return box_ != nullptr; }
  // The environment each player gets.
  const std::vector<std::string>& environment() const { return environment_; }

  // One game's containment, played in `slot` (0 .. slots-1). Its cgroup, if any, is the slot's:
  // empty, its counts begun anew. A slot's games follow one another, and a group is handed to
  // the next game only when nothing of the last is left in it, not even memory (a file in a
  // tmpfs): else the next game gets a new one. Not thread-safe for one slot.
  struct Box {
    std::unique_ptr<Cgroup> owned;  // a group of its own, outside the slots
    Containment containment;
  };
  Box box(int slot) const;

 private:
  Box make_box(int slot, bool trial) const;
  void take_users(int wanted);
  SandboxRequest request_;
  int slots_ = 1;
  std::vector<uid_t> slot_users_;
  // A descriptor held by the sandbox, closed with it however it ends (a constructor that
  // throws too).
  struct Close {
    void operator()(const int* fd) const;
  };
  using Held = std::unique_ptr<const int, Close>;
  std::vector<Held> user_locks_;  // one locked file a slot's user
  std::unique_ptr<BoxLayout> box_;
  bool filtered_ = true;  // the refused calls (refused_calls.hpp), unless the kernel cannot
  std::vector<std::string> environment_;
  std::unique_ptr<CgroupRun> run_;
  bool isolated_ = false;
  std::optional<UserRange> users_;
  std::vector<std::string> notes_;
  // Each slot's network namespace, made once and empty (its loopback down), where root may:
  // joining one costs a game far less than making one. Its games follow one another, and
  // nothing of one is left when the next starts. -1 where each game makes its own.
  std::vector<Held> networks_;
  mutable std::vector<std::unique_ptr<Cgroup>> groups_;  // each slot's
  mutable std::vector<int> groups_made_;                 // each slot's, for their names
};

}  // namespace ioiwari
