// A game's own file system: what the player sees of the machine when the referee is root and
// isolates it (docs/referee.md, "A box for every game"). Computed once for a run, from the
// player's command line and the referee's working folder, and handed to every game's keeper,
// which builds it afresh in the game's mount namespace before the player starts:
// - a root of its own (a small tmpfs, read-only once built), with the system folders (/usr,
//   /bin, /sbin, /lib*, /etc) bound read-only and the links among them as the host has them;
// - /proc of the game's PID namespace, where no process of another user is visible
//   (hidepid=2): the keeper, and through it the referee's command line, is out of sight;
// - /dev with null, zero, full, random and urandom only, and the /proc links fd, stdin,
//   stdout and stderr;
// - one tmpfs of `disk_bytes` for all the game may write, seen at /tmp, /var/tmp, /dev/shm and
//   at its working folder, which has the path of the referee's working folder (so that the
//   player's relative names still name its files) and holds nothing of it;
// - the player's program and every file named on its command line, bound read-only at the
//   path they have outside, whatever the folders on the way allow (isolate brings a program
//   into its box the same way), and each folder given with `--dir`.
// Nothing else of the machine is there. The game's tmpfs is its memory: it is charged to the
// game's cgroup, and it is gone when the game's last process ends.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ioiwari {

// One step of building a box, run by the keeper in order. The keeper may not allocate: every
// path is prepared here, as text owned by the layout.
struct BoxStep {
  enum Op : char {
    folder = 'd',     // mkdir `target` with `mode` (an existing one is fine)
    bind = 'b',       // bind `source` (a path outside) read-only at the folder `target`
    bind_file = 'f',  // the same for a file: `target` is made as an empty file first
    link = 'l',       // a symbolic link at `target` to `source`
    root = 'R',       // the box's root: a tmpfs at `target` with the options `source`
    tmpfs = 't',      // a tmpfs at `target` with the options `source`, without devices
    proc = 'p',       // a proc at `target` with the options `source`
    node = 'n',       // a character device at `target` with `mode` and `device`
    writable = 'w',   // bind `source` (a folder of the game's tmpfs) read-write at `target`
    own = 'o',        // `target` owned by the player's user and group, with `mode`
    detach = 'u',     // unmount `target` (its binds keep what they show), then remove it
    read_only = 'r',  // the mount at `target` made read-only
  };
  Op op;
  const char* source;
  const char* target;
  unsigned mode;
  dev_t device;
};

// Why a box cannot be laid out for this player.
class BoxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class BoxLayout {
 public:
  // The layout for `program` (the resolved path of the player's program) and its arguments,
  // run from `work` (the referee's working folder, absolute), with `dirs` bound read-only too.
  // Throws BoxError for a `--dir` that is no folder, or for too many files to bring.
  BoxLayout(const std::string& program, const std::vector<std::string>& arguments,
            const std::string& work, const std::vector<std::string>& dirs,
            std::uint64_t disk_bytes);
  BoxLayout(const BoxLayout&) = delete;
  BoxLayout& operator=(const BoxLayout&) = delete;

  // Where the keeper mounts the box's root before it moves into it: a folder of its own mount
  // namespace. It opens every source of a bind first (a bind's source must be in its own mount
  // namespace), so that a source under this folder is still found.
  static constexpr const char* kStaging = "/tmp";
  // The most binds a box has: the system folders, the program, its files and --dir.
  static constexpr int kMostBinds = 64;

  const std::vector<BoxStep>& steps() const { return steps_; }
  // The player's working folder, as the player sees it.
  const std::string& work() const { return work_; }
  // The files of the player's command line it brings in, as the player sees them.
  const std::vector<std::string>& brought() const { return brought_; }
  std::uint64_t disk_bytes() const { return disk_bytes_; }

 private:
  // The path inside the staging root of `path` (absolute, as the player sees it).
  const char* staged(const std::string& path);
  const char* text(std::string value);  // kept for the keeper, which may not allocate
  void folders_to(const std::string& path, unsigned mode);
  void bring(const std::string& path, bool folder);

  std::vector<BoxStep> steps_;
  std::vector<std::unique_ptr<std::string>> texts_;  // stable addresses
  int binds_ = 0;
  std::vector<std::string> made_;    // folders made so far, as the player sees them
  std::vector<std::string> system_;  // the folders bound from the system
  std::vector<std::string> brought_;
  std::string work_;
  std::uint64_t disk_bytes_;
};

// Whether `path` (absolute, as seen outside) is seen in a box as it is outside: under one of
// the system folders bound into every box.
bool seen_in_every_box(const std::string& path);

}  // namespace ioiwari
