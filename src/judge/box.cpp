#include "ioiwari/judge/box.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>

namespace ioiwari {

namespace {

// The system folders every box shows read-only, as isolate's default rules do (its /etc too:
// the loader's cache, and the configuration of the interpreters and runtimes that live in
// /usr). A folder missing here is left out; a symbolic link (/bin on a merged /usr) is made
// again as the same link.
constexpr std::array<std::string_view, 8> kSystemFolders = {"/usr",   "/bin",   "/sbin",   "/lib",
                                                            "/lib32", "/lib64", "/libx32", "/etc"};

// The devices a box has: those a program may open without harm.
constexpr std::array<const char*, 5> kDevices = {"null", "zero", "full", "random", "urandom"};

// The root's own size: folders, links and devices only.
constexpr const char* kRootOptions = "size=1m,nr_inodes=4096,mode=755";
// The folder of the root where the game's tmpfs is made before its parts are bound in place;
// it is gone before the player starts.
constexpr const char* kDiskFolder = "/.disk";

std::string absolute(const std::string& path, const std::string& work) {
  const std::filesystem::path full =
      path.starts_with('/') ? std::filesystem::path(path) : std::filesystem::path(work) / path;
  std::string text = full.lexically_normal().string();
  while (text.size() > 1 && text.ends_with('/'))
    text.pop_back();
  return text;
}

bool under(const std::string& path, std::string_view folder) {
  return path == folder ||
         (path.starts_with(folder) && path.size() > folder.size() && path[folder.size()] == '/');
}

bool regular_file(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode);
}

}  // namespace

bool seen_in_every_box(const std::string& path) {
  return std::any_of(kSystemFolders.begin(), kSystemFolders.end(),
                     [&](std::string_view folder) { return under(path, folder); });
}

const char* BoxLayout::text(std::string value) {
  texts_.push_back(std::make_unique<std::string>(std::move(value)));
  return texts_.back()->c_str();
}

const char* BoxLayout::staged(const std::string& path) {
  return text(std::string(kStaging) + (path == "/" ? "" : path));
}

// Every folder from the root down to `path`, each made once.
void BoxLayout::folders_to(const std::string& path, unsigned mode) {
  if (path == "/" || path.empty()) return;
  if (std::find(made_.begin(), made_.end(), path) != made_.end()) return;
  folders_to(std::filesystem::path(path).parent_path().string(), mode);
  made_.push_back(path);
  if (seen_in_every_box(path)) return;  // there already, read-only
  steps_.push_back({BoxStep::folder, nullptr, staged(path), mode, 0});
}

// `path` (absolute), bound read-only at the same path in the box.
void BoxLayout::bring(const std::string& path, bool folder) {
  if (seen_in_every_box(path)) return;
  if (std::find(brought_.begin(), brought_.end(), path) != brought_.end()) return;
  if (++binds_ > kMostBinds) {
    throw BoxError("more than " + std::to_string(kMostBinds) +
                   " files and folders to bring into the games' box");
  }
  folders_to(std::filesystem::path(path).parent_path().string(), 0755);
  if (folder) {
    folders_to(path, 0755);
    made_.push_back(path);
  }
  steps_.push_back({folder ? BoxStep::bind : BoxStep::bind_file, text(path), staged(path), 0, 0});
  brought_.push_back(path);
}

BoxLayout::BoxLayout(const std::string& program, const std::vector<std::string>& arguments,
                     const std::string& work, const std::vector<std::string>& dirs,
                     std::uint64_t disk_bytes)
    : disk_bytes_(disk_bytes) {
  steps_.push_back({BoxStep::root, kRootOptions, kStaging, 0, 0});
  made_.push_back("/");
  for (std::string_view name : kSystemFolders) {
    const std::string path(name);
    struct stat status {};
    if (::lstat(path.c_str(), &status) != 0) continue;
    if (S_ISLNK(status.st_mode)) {
      char target[4096];
      const ssize_t length = ::readlink(path.c_str(), target, sizeof target - 1);
      if (length <= 0) continue;
      steps_.push_back({BoxStep::link, text(std::string(target, static_cast<std::size_t>(length))),
                        staged(path), 0, 0});
      made_.push_back(path);
      continue;
    }
    if (!S_ISDIR(status.st_mode)) continue;
    ++binds_;
    steps_.push_back({BoxStep::folder, nullptr, staged(path), 0755, 0});
    steps_.push_back({BoxStep::bind, text(path), staged(path), 0, 0});
    made_.push_back(path);
  }

  // Its processes, of its own user only: the keeper, root, is out of sight.
  steps_.push_back({BoxStep::folder, nullptr, staged("/proc"), 0555, 0});
  steps_.push_back({BoxStep::proc, "hidepid=2", staged("/proc"), 0, 0});
  made_.push_back("/proc");

  steps_.push_back({BoxStep::folder, nullptr, staged("/dev"), 0755, 0});
  made_.push_back("/dev");
  for (const char* device : kDevices) {
    const std::string outside = std::string("/dev/") + device;
    struct stat status {};
    if (::stat(outside.c_str(), &status) != 0 || !S_ISCHR(status.st_mode)) continue;
    steps_.push_back({BoxStep::node, nullptr, staged(outside), 0666, status.st_rdev});
  }
  steps_.push_back({BoxStep::link, "/proc/self/fd", staged("/dev/fd"), 0, 0});
  steps_.push_back({BoxStep::link, "/proc/self/fd/0", staged("/dev/stdin"), 0, 0});
  steps_.push_back({BoxStep::link, "/proc/self/fd/1", staged("/dev/stdout"), 0, 0});
  steps_.push_back({BoxStep::link, "/proc/self/fd/2", staged("/dev/stderr"), 0, 0});

  // All it may write, in one tmpfs of the game's: its size is the game's disk, its pages the
  // game's memory.
  folders_to(kDiskFolder, 0755);
  const std::uint64_t inodes = std::max<std::uint64_t>(1024, disk_bytes / 4096);
  steps_.push_back({BoxStep::tmpfs,
                    text("size=" + std::to_string(disk_bytes) +
                         ",nr_inodes=" + std::to_string(inodes) + ",mode=755"),
                    staged(kDiskFolder), 0, 0});
  const std::string disk(kDiskFolder);
  for (const char* part : {"/tmp", "/var-tmp", "/shm", "/work"}) {
    const bool shared = std::strcmp(part, "/work") != 0;
    steps_.push_back({BoxStep::folder, nullptr, staged(disk + part), shared ? 01777u : 0755u, 0});
  }
  steps_.push_back({BoxStep::own, nullptr, staged(disk + "/work"), 0755, 0});
  const std::pair<const char*, const char*> shared[] = {
      {"/tmp", "/tmp"}, {"/var-tmp", "/var/tmp"}, {"/shm", "/dev/shm"}};
  for (const auto& [part, at] : shared) {
    folders_to(at, 0755);
    steps_.push_back({BoxStep::writable, staged(disk + part), staged(at), 0, 0});
  }
  // Its working folder has the path of the referee's, so that relative names keep their
  // meaning, and nothing of it.
  work_ = work == "/" || work.empty() ? "/box" : absolute(work, "/");
  folders_to(work_, 0755);
  steps_.push_back({BoxStep::writable, staged(disk + "/work"), staged(work_), 0, 0});

  // The player's program, and every file its command line names (as a word, or after "=").
  // A program that is no file is left out: its exec fails in the box as it would outside.
  if (regular_file(absolute(program, work))) bring(absolute(program, work), false);
  for (const std::string& argument : arguments) {
    std::string named = argument;
    if (argument.starts_with('-')) {
      const auto equals = argument.find('=');
      if (equals == std::string::npos) continue;
      named = argument.substr(equals + 1);
    }
    if (named.empty()) continue;
    const std::string path = absolute(named, work);
    if (regular_file(path)) bring(path, false);
  }
  for (const std::string& dir : dirs) {
    const std::string path = absolute(dir, work);
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0 || !S_ISDIR(status.st_mode)) {
      throw BoxError("--dir '" + dir + "' is not a folder");
    }
    bring(path, true);
  }
  steps_.push_back({BoxStep::detach, nullptr, staged(kDiskFolder), 0, 0});
  steps_.push_back({BoxStep::read_only, nullptr, kStaging, 0, 0});
}

}  // namespace ioiwari
