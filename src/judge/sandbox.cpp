#include "ioiwari/judge/sandbox.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "files.hpp"

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

std::string octal(unsigned mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%o", mode & 07777);
  return text;
}

// The folder of the users' locks, made where missing, and held to be the referee's user's
// alone: a folder that others may write would let them take users, or free them.
int open_lock_folder(const std::string& path) {
  std::error_code ignored;
  std::filesystem::create_directories(path, ignored);
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    throw SandboxError("cannot open the users' locks folder '" + path +
                       "': " + std::strerror(errno));
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0 || status.st_uid != ::geteuid() || (status.st_mode & 022) != 0) {
    ::close(fd);
    throw SandboxError("the users' locks folder '" + path + "' is not root's alone (owner " +
                       std::to_string(status.st_uid) + ", mode " + octal(status.st_mode) + ")");
  }
  return fd;
}

// The processes of which `uid` is one of the users (real, effective, saved, file system).
std::vector<pid_t> processes_of(uid_t uid) {
  std::vector<pid_t> found;
  std::error_code error;
  for (std::filesystem::directory_iterator entry("/proc", error), end; !error && entry != end;
       entry.increment(error)) {
    const std::string name = entry->path().filename();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto status = files::read_text("/proc/" + name + "/status");
    if (!status) continue;
    const auto at = status->find("\nUid:");
    if (at == std::string::npos) continue;
    std::istringstream ids(status->substr(at + 5, status->find('\n', at + 1) - at - 5));
    for (long id; ids >> id;) {
      if (static_cast<uid_t>(id) == uid) {
        found.push_back(static_cast<pid_t>(std::stol(name)));
        break;
      }
    }
  }
  return found;
}

// Kills whatever still runs as `uid` (a run before this one that died, a player that got out),
// and waits until nothing does: a user is handed to a game only when nothing of its last game
// is left. False when something is still there after a few seconds.
bool nothing_left_of(uid_t uid) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (;;) {
    const std::vector<pid_t> left = processes_of(uid);
    if (left.empty()) return true;
    if (std::chrono::steady_clock::now() > give_up) return false;
    for (pid_t pid : left)
      ::kill(pid, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// Why a user that is neither the owner nor in the group of any part of `path` could not read
// it (a folder on the way that others may not enter, or the file itself, which others may not
// read), or nothing when it could, or when `path` names nothing.
std::optional<std::string> unreadable_by_others(const std::string& path, bool boxed,
                                                bool execute = false) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return std::nullopt;
  char* real = ::realpath(path.c_str(), nullptr);
  if (real == nullptr) return std::nullopt;
  const std::string full(real);
  std::free(real);
  // A box brings the file in whatever the folders on the way allow.
  for (std::size_t at = full.find('/', 1); !boxed && at != std::string::npos;
       at = full.find('/', at + 1)) {
    const std::string folder = full.substr(0, at);
    struct stat part {};
    if (::stat(folder.c_str(), &part) == 0 && (part.st_mode & S_IXOTH) == 0) {
      return "its folder '" + folder + "' is mode " + octal(part.st_mode) +
             ", which they may not enter";
    }
  }
  if (S_ISDIR(status.st_mode)) {
    if ((status.st_mode & S_IXOTH) == 0)
      return "it is mode " + octal(status.st_mode) + ", which they may not enter";
    return std::nullopt;
  }
  // A program needs only to be executable (a script's interpreter reads it, and fails then).
  if ((status.st_mode & (execute ? S_IXOTH : S_IROTH)) == 0) {
    return "it is mode " + octal(status.st_mode) + ", which they may not " +
           (execute ? "execute" : "read");
  }
  return std::nullopt;
}

}  // namespace

Sandbox::Sandbox(const std::vector<std::string>& player, const SandboxRequest& request)
    : request_(request) {
  const bool root = ::geteuid() == 0;
  if (request.users && !root) {
    throw SandboxError("--user: only root can run players as other users");
  }
  slots_ = std::max(1, request.slots);
  if (root) {
    users_ = request.users.value_or(kDefaultUsers);
    take_users(slots_);
    slots_ = static_cast<int>(slot_users_.size());
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
  groups_.resize(static_cast<std::size_t>(slots_));
  groups_made_.resize(groups_.size());
  isolated_ = request.isolation != Isolation::off;
  if (isolated_ && root) {
    for (int slot = 0; slot < slots_; ++slot)
      networks_.push_back(Held(new int(new_network())));
    // A file system of each game's own. Its working folder has the path of ours.
    std::error_code error;
    const std::string work = std::filesystem::current_path(error).string();
    try {
      box_ = std::make_unique<BoxLayout>(
          player.empty() ? std::string() : resolve_program(player.front()),
          std::vector<std::string>(player.begin() + (player.empty() ? 0 : 1), player.end()),
          error ? std::string("/") : work, request.dirs, request.disk_bytes);
    } catch (const BoxError& failure) {
      throw SandboxError(failure.what());
    }
  }
  if (root) {
    // The program itself: a player its users cannot run is refused now, with why and what to
    // do, not with the kernel's "Permission denied".
    if (!player.empty()) {
      const std::string program = resolve_program(player.front());
      if (const auto why = unreadable_by_others(program, box_ != nullptr, true)) {
        throw SpawnError(SpawnError::Kind::program,
                         "the games' users (" + std::to_string(users_->uid) +
                             " and up) cannot run '" + player.front() + "': " + *why +
                             (box_ != nullptr ? " (chmod o+rx it)"
                                              : " (chmod o+rx it and o+x its folders, or let "
                                                "the games have a box: no --no-isolate)"));
      }
    }
    // The games run as users of their own, who read the player's files as "others" do: a file
    // it is given that they cannot read fails every game, which is said once now. In a box the
    // folders on the way do not matter, the file's own mode does.
    for (std::size_t i = 1; i < player.size(); ++i) {
      if (const auto why = unreadable_by_others(player[i], box_ != nullptr)) {
        notes_.push_back("the games' users (" + std::to_string(users_->uid) +
                         " and up) cannot read '" + player[i] +
                         "', which the player is given: " + *why);
      }
    }
  }
  environment_.assign(std::begin(kPlayerEnvironment), std::end(kPlayerEnvironment));
  if (box_ != nullptr) environment_.push_back("HOME=" + box_->work());
  for (const std::string& variable : request.environment) {
    const std::string name = variable.substr(0, variable.find('='));
    std::erase_if(environment_,
                  [&](const std::string& was) { return was.starts_with(name + "="); });
    environment_.push_back(variable);
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
      // What the kernel does not allow is done without where allowed, and said once; --isolate
      // refuses to run without it.
      if (request.isolation != Isolation::where_allowed) throw;
      if (error.kind() == SpawnError::Kind::filter && filtered_) {
        filtered_ = false;
        notes_.push_back(std::string("no call refused (") + error.what() +
                         "): players may use io_uring, the kernel's keyrings and new namespaces");
        continue;
      }
      if (error.kind() == SpawnError::Kind::box && box_ != nullptr) {
        box_.reset();
        std::erase_if(environment_, [](const std::string& v) { return v.starts_with("HOME="); });
        notes_.push_back(std::string("no box (") + error.what() +
                         "): players share the machine's files, /tmp among them");
        continue;
      }
      if (error.kind() != SpawnError::Kind::isolation || !isolated_) throw;
      isolated_ = false;
      box_.reset();
      std::erase_if(environment_, [](const std::string& v) { return v.starts_with("HOME="); });
      notes_.push_back(std::string("not isolated (") + error.what() +
                       "): players share the network, the process numbers and /proc");
    }
  }
}

Sandbox::~Sandbox() = default;

void Sandbox::Close::operator()(const int* fd) const {
  if (*fd >= 0) ::close(*fd);
  delete fd;
}

void Sandbox::take_users(int wanted) {
  const int folder = open_lock_folder(request_.user_locks);
  for (int k = 0; k < kMostSlots && static_cast<int>(slot_users_.size()) < wanted; ++k) {
    const uid_t uid = users_->uid + static_cast<uid_t>(k);
    const int fd = ::openat(folder, std::to_string(uid).c_str(),
                            O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) continue;
    // Held by another run: the lock is the file's, and ends with the run that holds it.
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0 || !nothing_left_of(uid)) {
      ::close(fd);
      continue;
    }
    slot_users_.push_back(uid);
    user_locks_.push_back(Held(new int(fd)));
  }
  ::close(folder);
  const std::string range = std::to_string(users_->uid) + " to " +
                            std::to_string(users_->uid + static_cast<uid_t>(kMostSlots - 1));
  if (slot_users_.empty()) {
    throw SandboxError("other referee runs hold every user of " + range + " (their locks are in " +
                           request_.user_locks + "); try again when one ends, or use --user",
                       true);
  }
  if (static_cast<int>(slot_users_.size()) < wanted) {
    notes_.push_back("--jobs " + std::to_string(wanted) + ": other referee runs hold all but " +
                     std::to_string(slot_users_.size()) + " of the users " + range + ", so " +
                     std::to_string(slot_users_.size()) + " games run at once");
  }
}

std::string Sandbox::describe() const {
  std::string text = run_ != nullptr
                         ? (run_->version() == CgroupVersion::v2 ? "cgroup v2" : "cgroup v1")
                         : "no cgroups";
  if (users_) text += ", users " + std::to_string(users_->uid) + "+";
  text += isolated_ ? ", isolated" : ", not isolated";
  if (box_ != nullptr) text += ", a box for each game";
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
    box.containment.network = *networks_[static_cast<std::size_t>(slot)];
  }
  box.containment.data_limit_bytes = request_.data_limit_bytes;
  box.containment.cpu_limit = request_.cpu_backstop;
  box.containment.file_size_bytes = request_.file_size_bytes;
  box.containment.environment = environment_;
  box.containment.refuse_calls = filtered_;
  box.containment.box = box_.get();
  if (users_) {
    const uid_t uid = slot_users_.at(static_cast<std::size_t>(slot));
    box.containment.user = RunAs{uid, users_->gid + static_cast<gid_t>(uid - users_->uid)};
    // Without a cgroup the user's process limit is the kernel's cap: the user is the game's.
    if (run_ == nullptr) box.containment.processes = request_.processes;
  }
  return box;
}

}  // namespace ioiwari
