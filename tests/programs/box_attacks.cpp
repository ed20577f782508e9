// The attacks of a player on the state around it (files, keys, sockets, the environment, the
// judge's files, the kernel, the disk), for faulty_player: each tells on standard error what it
// got, and the test reads it. Modes that end the player say so; the others let it play on.
#include "box_attacks.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

extern char** environ;

namespace {

// The name of an error, as the test compares it.
std::string error_name(int error) {
  switch (error) {
    case 0:
      return "ok";
    case ENOENT:
      return "ENOENT";
    case EACCES:
      return "EACCES";
    case EPERM:
      return "EPERM";
    case ENOSYS:
      return "ENOSYS";
    case ENOSPC:
      return "ENOSPC";
    case EROFS:
      return "EROFS";
    case ECONNREFUSED:
      return "ECONNREFUSED";
    case EFBIG:
      return "EFBIG";
    default:
      return "errno " + std::to_string(error);
  }
}

void tell(const std::string& what) {
  std::cerr << what << '\n' << std::flush;
}

// What a read of `path` gets: "ok N bytes", or the error.
std::string read_of(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return error_name(errno);
  char buffer[4096];
  long total = 0;
  for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;)
    total += got;
  ::close(fd);
  return "ok " + std::to_string(total) + " bytes";
}

// Writes `text` to a new file at `path`: "ok", or the error.
std::string write_of(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return error_name(errno);
  const bool done = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const int error = errno;
  ::close(fd);
  return done ? "ok" : error_name(error);
}

long key_call(long number, long a, long b, long c, long d, long e) {
  return ::syscall(number, a, b, c, d, e);
}

// A connection to the unix socket at `path` ("@name": an abstract one): "connected", or the
// error.
std::string connect_to(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return error_name(errno);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const bool abstract = path.starts_with('@');
  std::memcpy(address.sun_path + (abstract ? 1 : 0), path.c_str() + (abstract ? 1 : 0),
              std::min(path.size(), sizeof address.sun_path - 2));
  const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + path.size());
  const bool connected = ::connect(fd, reinterpret_cast<const sockaddr*>(&address), length) == 0;
  const int error = errno;
  ::close(fd);
  return connected ? "connected" : error_name(error);
}

// The entries of folder `path`, but . and ..
int entries_of(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return -1;
  int count = 0;
  while (const dirent* entry = ::readdir(dir)) {
    if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) ++count;
  }
  ::closedir(dir);
  return count;
}

bool attack(std::string_view mode, const std::vector<std::string>& args, const std::string& mark) {
  if (mode == "whoami") {
    tell("uid " + std::to_string(::getuid()));
    return true;
  }
  if (mode == "carry") {
    // What an earlier game left, then leave the same for the next: files in each place a
    // player may write, and a key in its user's keyring.
    const std::vector<std::string> places = {"/tmp/", "/var/tmp/", "/dev/shm/", "./"};
    for (const std::string& place : places) {
      const std::string path = place + "carry-" + mark;
      tell("carry: found " + path + ": " + read_of(path));
      tell("carry: left " + path + ": " + write_of(path, "a table computed once"));
    }
    const std::string key = "carry-" + mark;
    const long found =
        key_call(SYS_keyctl, 10 /* KEYCTL_SEARCH */, -4 /* @u */, reinterpret_cast<long>("user"),
                 reinterpret_cast<long>(key.c_str()), 0);
    tell("carry: found key: " + (found >= 0 ? std::string("ok") : error_name(errno)));
    const long added =
        key_call(SYS_add_key, reinterpret_cast<long>("user"), reinterpret_cast<long>(key.c_str()),
                 reinterpret_cast<long>("x"), 1, -4 /* @u */);
    tell("carry: left key: " + (added >= 0 ? std::string("ok") : error_name(errno)));
    return true;
  }
  if (mode == "socket") {
    for (const std::string& path : args)
      tell("socket " + path + ": " + connect_to(path));
    return true;
  }
  if (mode == "environment") {
    for (char** variable = environ; *variable != nullptr; ++variable)
      tell(std::string("env ") + *variable);
    char here[4096];
    const std::string cwd = ::getcwd(here, sizeof here) != nullptr ? here : error_name(errno);
    tell("cwd " + cwd + ": " + std::to_string(entries_of(".")) + " entries");
    return true;
  }
  if (mode == "peek") {
    // "at:PATH" names a path without naming a file to the referee, which would bring it in.
    // The judge's command line through its keeper's /proc, every file it names, and the files
    // the test names.
    const std::string keeper = read_of("/proc/1/cmdline");
    tell("peek /proc/1/cmdline: " + keeper);
    if (keeper.starts_with("ok")) {
      std::string line;
      const int fd = ::open("/proc/1/cmdline", O_RDONLY | O_CLOEXEC);
      char buffer[4096];
      for (ssize_t got; fd >= 0 && (got = ::read(fd, buffer, sizeof buffer)) > 0;)
        line.append(buffer, static_cast<std::size_t>(got));
      if (fd >= 0) ::close(fd);
      for (std::size_t at = 0; at < line.size();) {
        const std::string word = line.substr(at, line.find('\0', at) - at);
        struct stat status {};
        if (::stat(word.c_str(), &status) == 0 && S_ISREG(status.st_mode))
          tell("peek judge's " + word + ": " + read_of(word));
        at += word.size() + 1;
      }
    }
    for (const std::string& named : args)
      tell("peek " + named + ": " + read_of(named.starts_with("at:") ? named.substr(3) : named));
    tell("peek /proc: " + std::to_string(entries_of("/proc")) + " entries");
    return true;
  }
  if (mode == "kernel") {
    // The calls isolate leaves out: each must fail here, and the game go on.
    long params[30] = {};
    const long ring = ::syscall(425 /* io_uring_setup */, 4, params);
    tell("kernel io_uring_setup: " + (ring >= 0 ? std::string("ok") : error_name(errno)));
    const long session = key_call(SYS_keyctl, 1 /* KEYCTL_JOIN_SESSION_KEYRING */, 0, 0, 0, 0);
    tell("kernel keyctl: " + (session >= 0 ? std::string("ok") : error_name(errno)));
    const long shared = ::syscall(SYS_unshare, 0x10000000 /* CLONE_NEWUSER */);
    tell("kernel unshare: " + (shared == 0 ? std::string("ok") : error_name(errno)));
    const long bpf = ::syscall(SYS_bpf, 0, nullptr, 0);
    tell("kernel bpf: " + (bpf >= 0 ? std::string("ok") : error_name(errno)));
    return true;
  }
  if (mode == "write-file" && !args.empty()) {
    // One file of args[0] MB in its working folder, in 1 MB writes; it dies of SIGXFSZ past
    // the file size limit, or gives up at the first error.
    const int fd = ::open(("fill-" + mark).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const std::string chunk(1 << 20, 'x');
    for (long i = 0; fd >= 0 && i < std::stol(args[0]); ++i) {
      if (::write(fd, chunk.data(), chunk.size()) != static_cast<ssize_t>(chunk.size())) {
        tell("write-file: " + error_name(errno));
        ::_exit(1);
      }
    }
    tell("write-file: ok");
    return true;
  }
  if (mode == "fallocate" && !args.empty()) {
    // Room for args[0] MB at once, as the disk attack did, then a win.
    const int fd = ::open(("fill-" + mark).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const int error =
        fd < 0 ? errno : ::posix_fallocate(fd, 0, static_cast<off_t>(std::stol(args[0])) << 20);
    tell("fallocate: " + error_name(error));
    return true;
  }
  return false;
}

}  // namespace

bool box_attack(std::string_view mode, std::vector<std::string> args, const std::string& mark) {
  // "--then-exit" among the arguments: leave after the attack, before the game is over, so
  // that the referee shows what it told.
  const bool then_exit = std::erase(args, std::string("--then-exit")) > 0;
  const bool attacked = attack(mode, args, mark);
  if (attacked && then_exit) ::_exit(1);
  return attacked;
}
