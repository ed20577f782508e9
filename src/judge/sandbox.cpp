#include "ioiwari/judge/sandbox.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>

namespace ioiwari {

namespace {

// A new, empty network namespace, held by a descriptor; -1 when none can be made. A thread
// moves into it alone, and leaves it by ending.
int new_network() {
  int fd = -1;
  std::thread maker([&fd] {
    if (::unshare(CLONE_NEWNET) == 0) fd = ::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  });
  maker.join();
  return fd;
}

// Why a user that is neither the owner nor in the group of any part of `path` could not read
// it (a folder on the way that others may not enter, or the file itself, which others may not
// read), or nothing when it could, or when `path` names nothing.
std::optional<std::string> unreadable_by_others(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return std::nullopt;
  char* real = ::realpath(path.c_str(), nullptr);
  if (real == nullptr) return std::nullopt;
  const std::string full(real);
  std::free(real);
  const auto mode = [](const struct stat& of) {
    char text[8];
    std::snprintf(text, sizeof text, "%o", static_cast<unsigned>(of.st_mode & 07777));
    return std::string(text);
  };
  for (std::size_t at = full.find('/', 1); at != std::string::npos; at = full.find('/', at + 1)) {
    const std::string folder = full.substr(0, at);
    struct stat part {};
    if (::stat(folder.c_str(), &part) == 0 && (part.st_mode & S_IXOTH) == 0) {
      return "its folder '" + folder + "' is mode " + mode(part) + ", which they may not enter";
    }
  }
  const bool readable =
      S_ISDIR(status.st_mode) ? (status.st_mode & S_IXOTH) != 0 : (status.st_mode & S_IROTH) != 0;
  if (!readable) return "it is mode " + mode(status) + ", which they may not read";
  return std::nullopt;
}

}  // namespace

Sandbox::Sandbox(const std::vector<std::string>& player, const SandboxRequest& request)
    : request_(request) {
  const bool root = ::geteuid() == 0;
  if (request.users && !root) {
    throw SandboxError("--user: only root can run players as other users");
  }
  if (root) {
    users_ = request.users.value_or(kDefaultUsers);
    // The games run as users of their own, who read the player's files as "others" do: a file
    // it is given that they cannot read fails every game, which is said once now.
    for (std::size_t i = 1; i < player.size(); ++i) {
      if (const auto why = unreadable_by_others(player[i])) {
        notes_.push_back("the games' users (" + std::to_string(users_->uid) +
                         " and up) cannot read '" + player[i] +
                         "', which the player is given: " + *why);
      }
    }
  } else {
    // A player of our own user may not trace us or open our descriptors (/proc/PID/fd).
    ::prctl(PR_SET_DUMPABLE, 0);
  }
  if (request.cgroups) {
    try {
      run_ = CgroupRun::make();
    } catch (const CgroupError& error) {
      notes_.push_back(std::string("no cgroups (") + error.what() +
                       "): the keeper counts through /proc instead, which misses the CPU time "
                       "of processes nobody waited for and memory no process maps");
    }
  }
  groups_.resize(static_cast<std::size_t>(std::max(1, request.slots)));
  groups_made_.resize(groups_.size());
  isolated_ = request.isolation != Isolation::off;
  if (isolated_ && root) {
    for (int slot = 0; slot < request.slots; ++slot)
      networks_.push_back(new_network());
  }
  // The player, and the containment, are tried once before any game: what cannot run is refused
  // now, with one line, not judged hundreds of times.
  for (;;) {
    try {
      Box trial = make_box(0, true);
      ChildProcess child(player, trial.containment);
      child.kill();
      return;
    } catch (const SpawnError& error) {
      if (error.kind() != SpawnError::Kind::isolation ||
          request.isolation != Isolation::where_allowed || !isolated_) {
        throw;
      }
      isolated_ = false;
      notes_.push_back(std::string("not isolated (") + error.what() +
                       "): players share the network, the process numbers and /proc");
    }
  }
}

Sandbox::~Sandbox() {
  for (int fd : networks_)
    if (fd >= 0) ::close(fd);
}

std::string Sandbox::describe() const {
  std::string text = run_ != nullptr
                         ? (run_->version() == CgroupVersion::v2 ? "cgroup v2" : "cgroup v1")
                         : "no cgroups";
  if (users_) text += ", users " + std::to_string(users_->uid) + "+";
  text += isolated_ ? ", isolated" : ", not isolated";
  return text;
}

Sandbox::Box Sandbox::box(int slot) const {
  return make_box(slot, false);
}

Sandbox::Box Sandbox::make_box(int slot, bool trial) const {
  Box box;
  if (run_ != nullptr) {
    CgroupLimits limits;
    limits.memory_bytes = request_.memory_cap_bytes;
    limits.tasks = request_.processes;
    try {
      const auto index = static_cast<std::size_t>(slot);
      if (trial || index >= groups_.size()) {
        box.owned = run_->game(trial ? "trial" : "extra-" + std::to_string(slot), limits);
        box.containment.cgroup = box.owned.get();
      } else {
        std::unique_ptr<Cgroup>& group = groups_[index];
        if (group != nullptr && !group->reusable()) group.reset();  // killed and removed
        if (group == nullptr) {
          group = run_->game(
              "slot-" + std::to_string(slot) + "-" + std::to_string(groups_made_[index]++), limits);
        }
        group->begin();
        box.containment.cgroup = group.get();
      }
    } catch (const CgroupError& error) {
      throw SpawnError(SpawnError::Kind::cgroup, error.what());
    }
  }
  box.containment.isolate = isolated_;
  if (isolated_ && static_cast<std::size_t>(slot) < networks_.size()) {
    box.containment.network = networks_[static_cast<std::size_t>(slot)];
  }
  box.containment.data_limit_bytes = request_.data_limit_bytes;
  box.containment.cpu_limit = request_.cpu_backstop;
  if (users_) {
    box.containment.user =
        RunAs{users_->uid + static_cast<uid_t>(slot), users_->gid + static_cast<gid_t>(slot)};
    // Without a cgroup the user's process limit is the kernel's cap: the user is the game's.
    if (run_ == nullptr) box.containment.processes = request_.processes;
  }
  return box;
}

}  // namespace ioiwari
