#include "ioiwari/judge/cgroup.hpp"

#include "files.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <thread>

namespace ioiwari {

namespace {

using files::read_text;
using files::write_text;

using namespace std::chrono_literals;

std::string why(int error) {
  return std::strerror(error);
}

std::vector<pid_t> numbers_in(const std::string& text) {
  std::vector<pid_t> numbers;
  std::istringstream in(text);
  long number = 0;
  while (in >> number)
    numbers.push_back(static_cast<pid_t>(number));
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  return numbers;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator))
    parts.push_back(part);
  return parts;
}

// Where the hierarchies are mounted, and where this process is in them.
struct Mount {
  std::string type;                  // "cgroup" or "cgroup2"
  std::string root;                  // the mount's root within its hierarchy
  std::string point;                 // where it is mounted
  std::vector<std::string> options;  // the super block's options: v1's controllers among them
};

std::vector<Mount> cgroup_mounts() {
  std::vector<Mount> mounts;
  const auto text = read_text("/proc/self/mountinfo");
  if (!text) return mounts;
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line)) {
    // id parent major:minor root point options [optional...] - type source super-options
    std::istringstream fields(line);
    std::string id, parent, device, root, point, options;
    fields >> id >> parent >> device >> root >> point >> options;
    std::string field;
    while (fields >> field && field != "-") {
    }
    std::string type, source, super;
    fields >> type >> source >> super;
    if (type != "cgroup" && type != "cgroup2") continue;
    mounts.push_back({type, root, point, split(super, ',')});
  }
  return mounts;
}

// This process's place in each hierarchy: /proc/self/cgroup's lines, "id:controllers:path".
struct Place {
  std::vector<std::string> controllers;  // empty for v2's line
  std::string path;
};

std::vector<Place> own_places() {
  std::vector<Place> places;
  const auto text = read_text("/proc/self/cgroup");
  if (!text) return places;
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line)) {
    const auto first = line.find(':');
    const auto second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    std::vector<std::string> controllers;
    for (const std::string& name : split(line.substr(first + 1, second - first - 1), ','))
      if (!name.empty()) controllers.push_back(name);
    places.push_back({controllers, line.substr(second + 1)});
  }
  return places;
}

bool has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// The folder of `path` (a place in a hierarchy) under the mount of that hierarchy.
std::string folder_of(const Mount& mount, std::string path) {
  if (mount.root != "/" && path.starts_with(mount.root)) path = path.substr(mount.root.size());
  if (path.empty() || path == "/") return mount.point;
  return mount.point + path;
}

constexpr std::string_view kRunPrefix = "ioiwari-referee-";

// v1's controllers, in the order Cgroup keeps their folders.
constexpr const char* kV1Controllers[] = {"memory", "cpuacct", "pids", "freezer"};
enum V1 { memory_folder, cpuacct_folder, pids_folder, freezer_folder };

// The folders of the referee's own group: v2's, when it has the memory and pids controllers,
// else v1's four.
struct Own {
  CgroupVersion version;
  std::vector<std::string> folders;
};

Own own_group() {
  const std::vector<Mount> mounts = cgroup_mounts();
  const std::vector<Place> places = own_places();
  if (mounts.empty()) throw CgroupError("no cgroup file system is mounted");
  std::string v2_problem;
  for (const Mount& mount : mounts) {
    if (mount.type != "cgroup2") continue;
    for (const Place& place : places) {
      if (!place.controllers.empty()) continue;
      const std::string folder = folder_of(mount, place.path);
      const auto controllers = read_text(folder + "/cgroup.controllers");
      const auto names = split(controllers.value_or(""), ' ');
      std::vector<std::string> words;
      for (std::string name : names) {
        while (!name.empty() && (name.back() == '\n' || name.back() == ' '))
          name.pop_back();
        if (!name.empty()) words.push_back(name);
      }
      if (has(words, "memory") && has(words, "pids")) return {CgroupVersion::v2, {folder}};
      v2_problem = "cgroup v2 at " + folder + " has no memory and pids controllers";
    }
  }
  std::vector<std::string> folders;
  for (const char* controller : kV1Controllers) {
    std::string found;
    for (const Mount& mount : mounts) {
      if (mount.type != "cgroup" || !has(mount.options, controller)) continue;
      for (const Place& place : places) {
        if (has(place.controllers, controller)) found = folder_of(mount, place.path);
      }
    }
    if (found.empty()) {
      throw CgroupError((v2_problem.empty() ? std::string() : v2_problem + ", and ") +
                        "no cgroup v1 hierarchy has the " + controller + " controller");
    }
    folders.push_back(found);
  }
  return {CgroupVersion::v1, folders};
}

bool process_exists(pid_t pid) {
  return ::kill(pid, 0) == 0 || errno == EPERM;
}

// Removes a folder, waiting a little for tasks that are still leaving it.
void remove_folder(const std::string& folder) {
  for (int attempt = 0; attempt < 200; ++attempt) {
    if (::rmdir(folder.c_str()) == 0 || errno == ENOENT) return;
    if (errno != EBUSY) return;
    std::this_thread::sleep_for(5ms);
  }
}

std::atomic<int> runs_made{0};

}  // namespace

std::optional<std::uint64_t> keyed_value(const std::string& text, const std::string& key) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.size() > key.size() && line.starts_with(key) && line[key.size()] == ' ') {
      try {
        return std::stoull(line.substr(key.size() + 1));
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
  }
  return std::nullopt;
}

// ---- A game's group. ---------------------------------------------------------------------------

Cgroup::Cgroup(CgroupVersion version, std::vector<std::string> folders)
    : version_(version), folders_(std::move(folders)) {}

Cgroup::~Cgroup() {
  kill(5000ms);
  for (int fd : join_)
    ::close(fd);
  for (const std::string& folder : folders_)
    remove_folder(folder);
}

CgroupUsage Cgroup::usage() const {
  CgroupUsage usage = counted();
  usage.cpu -= base_.cpu;
  usage.oom_kills -= base_.oom_kills;
  return usage;
}

std::chrono::nanoseconds Cgroup::cpu() const {
  return counted_cpu() - base_.cpu;
}

std::chrono::nanoseconds Cgroup::counted_cpu() const {
  if (version_ == CgroupVersion::v2) {
    const auto stat = read_text(folders_.front() + "/cpu.stat");
    return std::chrono::microseconds(keyed_value(stat.value_or(""), "usage_usec").value_or(0));
  }
  if (const auto ns = read_text(folders_[cpuacct_folder] + "/cpuacct.usage")) {
    try {
      return std::chrono::nanoseconds(std::stoll(*ns));
    } catch (const std::exception&) {
    }
  }
  return std::chrono::nanoseconds(0);
}

void Cgroup::begin() {
  base_ = counted();
}

bool Cgroup::reusable() const {
  return processes().empty() && counted().memory_kb == 0;
}

CgroupUsage Cgroup::counted() const {
  CgroupUsage usage;
  if (version_ == CgroupVersion::v2) {
    const std::string& folder = folders_.front();
    usage.cpu = counted_cpu();
    if (const auto stat = read_text(folder + "/memory.stat")) {
      usage.memory_kb =
          (keyed_value(*stat, "anon").value_or(0) + keyed_value(*stat, "shmem").value_or(0)) / 1024;
    }
    if (const auto events = read_text(folder + "/memory.events")) {
      usage.oom_kills = keyed_value(*events, "oom_kill").value_or(0);
    }
    return usage;
  }
  usage.cpu = counted_cpu();
  if (const auto stat = read_text(folders_[memory_folder] + "/memory.stat")) {
    usage.memory_kb = (keyed_value(*stat, "total_rss").value_or(0) +
                       keyed_value(*stat, "total_shmem").value_or(0)) /
                      1024;
  }
  if (const auto control = read_text(folders_[memory_folder] + "/memory.oom_control")) {
    usage.oom_kills = keyed_value(*control, "oom_kill").value_or(0);
  }
  return usage;
}

std::vector<pid_t> Cgroup::processes() const {
  const std::string& folder =
      version_ == CgroupVersion::v2 ? folders_.front() : folders_[freezer_folder];
  return numbers_in(read_text(folder + "/cgroup.procs").value_or(""));
}

bool Cgroup::kill(std::chrono::milliseconds patience) {
  const auto deadline = std::chrono::steady_clock::now() + patience;
  const auto empty_by = [&](std::chrono::steady_clock::time_point by) {
    for (auto pause = 50us;; pause = std::min(pause * 2, std::chrono::microseconds(5ms))) {
      if (processes().empty()) return true;
      if (std::chrono::steady_clock::now() >= by) return false;
      std::this_thread::sleep_for(pause);
    }
  };
  if (processes().empty()) return true;
  const std::string& folder = folders_.front();
  if (version_ == CgroupVersion::v2 && write_text(folder + "/cgroup.kill", "1") == 0) {
    return empty_by(deadline);
  }
  // Freeze, kill each, thaw: nothing can fork between the list and the kill.
  const std::string freezer = version_ == CgroupVersion::v2
                                  ? folder + "/cgroup.freeze"
                                  : folders_[freezer_folder] + "/freezer.state";
  const std::string frozen = version_ == CgroupVersion::v2 ? "1" : "FROZEN";
  const std::string thawed = version_ == CgroupVersion::v2 ? "0" : "THAWED";
  for (;;) {
    write_text(freezer, frozen);
    if (version_ == CgroupVersion::v1) {
      for (auto pause = 50us; std::chrono::steady_clock::now() < deadline;
           pause = std::min(pause * 2, std::chrono::microseconds(5ms))) {
        if (read_text(freezer).value_or("").starts_with("FROZEN")) break;
        std::this_thread::sleep_for(pause);
      }
    }
    for (pid_t pid : processes())
      ::kill(pid, SIGKILL);
    write_text(freezer, thawed);
    const auto now = std::chrono::steady_clock::now();
    if (empty_by(std::min(deadline, now + 200ms))) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
  }
}

// ---- The run's folder. -------------------------------------------------------------------------

std::unique_ptr<CgroupRun> CgroupRun::make() {
  const Own own = own_group();
  // Runs whose referee died (SIGKILL, a crash) left their folders: what runs in them is killed,
  // and they go. A folder whose referee lives, or whose number now names another process, stays.
  const std::size_t listed = own.version == CgroupVersion::v2 ? 0 : freezer_folder;
  std::error_code listing;
  for (std::filesystem::directory_iterator entry(own.folders[listed], listing), end;
       !listing && entry != end; entry.increment(listing)) {
    const std::string run = entry->path().filename();
    if (!run.starts_with(kRunPrefix) || !entry->is_directory()) continue;
    const pid_t pid = static_cast<pid_t>(std::atol(run.substr(kRunPrefix.size()).c_str()));
    if (pid <= 0 || process_exists(pid)) continue;
    std::error_code inner;
    for (std::filesystem::directory_iterator game(entry->path(), inner), stop;
         !inner && game != stop; game.increment(inner)) {
      if (!game->is_directory()) continue;
      std::vector<std::string> folders;
      for (const std::string& parent : own.folders)
        folders.push_back(parent + "/" + run + "/" + game->path().filename().string());
      Cgroup stale(own.version, folders);  // kills what is in it, and removes it
    }
    for (const std::string& parent : own.folders)
      remove_folder(parent + "/" + run);
  }
  const std::string name =
      std::string(kRunPrefix) + std::to_string(::getpid()) + "-" + std::to_string(runs_made++);
  std::vector<std::string> folders;
  const auto undo = [&] {
    for (const std::string& folder : folders)
      ::rmdir(folder.c_str());
  };
  if (own.version == CgroupVersion::v2) {
    const std::string& parent = own.folders.front();
    const std::string control = parent + "/cgroup.subtree_control";
    const std::string enabled = read_text(control).value_or("");
    if (enabled.find("memory") == std::string::npos || enabled.find("pids") == std::string::npos) {
      if (const int error = write_text(control, "+memory +pids")) {
        throw CgroupError("cannot enable the memory and pids controllers in " + control + ": " +
                          why(error) +
                          " (a group with processes of its own cannot; give the referee a group "
                          "of its own, delegated)");
      }
    }
    const std::string folder = parent + "/" + name;
    if (::mkdir(folder.c_str(), 0755) != 0) {
      throw CgroupError("cannot make " + folder + ": " + why(errno));
    }
    folders.push_back(folder);
    if (const int error = write_text(folder + "/cgroup.subtree_control", "+memory +pids")) {
      undo();
      throw CgroupError("cannot enable the memory and pids controllers in " + folder + ": " +
                        why(error));
    }
    return std::unique_ptr<CgroupRun>(new CgroupRun(CgroupVersion::v2, folders));
  }
  for (const std::string& parent : own.folders) {
    const std::string folder = parent + "/" + name;
    if (std::find(folders.begin(), folders.end(), folder) == folders.end() &&
        ::mkdir(folder.c_str(), 0755) != 0) {
      const int error = errno;
      undo();
      throw CgroupError("cannot make " + folder + ": " + why(error));
    }
    folders.push_back(folder);
  }
  return std::unique_ptr<CgroupRun>(new CgroupRun(CgroupVersion::v1, folders));
}

CgroupRun::~CgroupRun() {
  std::vector<std::string> removed;
  for (const std::string& folder : folders_) {
    if (std::find(removed.begin(), removed.end(), folder) != removed.end()) continue;
    removed.push_back(folder);
    remove_folder(folder);
  }
}

std::string CgroupRun::describe() const {
  return std::string(version_ == CgroupVersion::v2 ? "cgroup v2" : "cgroup v1") + " below " +
         folders_.front();
}

std::unique_ptr<Cgroup> CgroupRun::game(const std::string& name, const CgroupLimits& limits) const {
  std::vector<std::string> folders;
  for (const std::string& run : folders_)
    folders.push_back(run + "/" + name);
  std::unique_ptr<Cgroup> group(new Cgroup(version_, {}));
  std::vector<std::string> made;
  for (const std::string& folder : folders) {
    if (std::find(made.begin(), made.end(), folder) != made.end()) continue;
    if (::mkdir(folder.c_str(), 0755) != 0) {
      const int error = errno;
      group->folders_ = made;
      throw CgroupError("cannot make " + folder + ": " + why(error));
    }
    made.push_back(folder);
  }
  group->folders_ = folders;
  const auto set = [&](const std::string& file, const std::string& value, bool required) {
    const int error = write_text(file, value);
    if (error != 0 && required) {
      throw CgroupError("cannot write " + value + " to " + file + ": " + why(error));
    }
  };
  const bool v2 = version_ == CgroupVersion::v2;
  const std::string& memory = v2 ? folders.front() : folders[memory_folder];
  const std::string& pids = v2 ? folders.front() : folders[pids_folder];
  if (limits.memory_bytes > 0) {
    const std::string bytes = std::to_string(limits.memory_bytes);
    set(memory + (v2 ? "/memory.max" : "/memory.limit_in_bytes"), bytes, true);
    // No swap: memory the group cannot hold is no memory (where swap accounting exists).
    if (v2) {
      set(memory + "/memory.swap.max", "0", false);
    } else {
      set(memory + "/memory.memsw.limit_in_bytes", bytes, false);
    }
  }
  if (limits.tasks > 0) set(pids + "/pids.max", std::to_string(limits.tasks), true);
  for (const std::string& folder : made) {
    const std::string procs = folder + "/cgroup.procs";
    const int fd = ::open(procs.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw CgroupError("cannot open " + procs + ": " + why(errno));
    group->join_.push_back(fd);
  }
  return group;
}

}  // namespace ioiwari
