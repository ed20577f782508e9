#include "ioiwari/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <system_error>

namespace ioiwari {

namespace {

[[noreturn]] void throw_errno(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("pipe2");
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() {
    close_fd(read);
    close_fd(write);
  }
};

// Reads what is available on `fd` into `into` (keeping at most `cap` bytes of it); closes
// `fd` at end of file or on error.
void drain(int& fd, std::string& into, std::size_t cap) {
  char buffer[4096];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n > 0) {
    const auto got = static_cast<std::size_t>(n);
    into.append(buffer, std::min(got, cap - std::min(cap, into.size())));
  } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
    close_fd(fd);
  }
}

// The file argv[0] names: itself when it holds a '/', else the first executable of that name
// in PATH. Done before fork, since execvp may allocate and a child of a threaded process must
// not.
std::string resolve(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const auto colon = dirs.find(':');
    const std::string_view dir = dirs.substr(0, colon);
    std::string candidate(dir.empty() ? std::string_view(".") : dir);
    candidate += '/';
    candidate += program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) break;
    dirs.remove_prefix(colon + 1);
  }
  throw std::system_error(ENOENT, std::generic_category(), "cannot find '" + program + "'");
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  static const bool sigpipe_ignored = [] {
    ::signal(SIGPIPE, SIG_IGN);
    return true;
  }();
  (void)sigpipe_ignored;
  if (argv.empty()) throw std::system_error(EINVAL, std::generic_category(), "empty command");

  // Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
  const std::string program = resolve(argv[0]);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  Pipe input, output, error, report;

  pid_ = ::fork();
  if (pid_ < 0) throw_errno("fork");
  if (pid_ == 0) {
    ::setpgid(0, 0);
    ::signal(SIGPIPE, SIG_DFL);
    if (::dup2(input.read, STDIN_FILENO) < 0 || ::dup2(output.write, STDOUT_FILENO) < 0 ||
        ::dup2(error.write, STDERR_FILENO) < 0) {
      ::_exit(127);
    }
    ::execv(program.c_str(), args.data());
    const int failure = errno;
    [[maybe_unused]] auto ignored = ::write(report.write, &failure, sizeof failure);
    ::_exit(127);
  }
  ::setpgid(pid_, pid_);  // also here, so the group exists before we ever signal it
  close_fd(report.write);
  int failure = 0;
  ssize_t n;
  do {
    n = ::read(report.read, &failure, sizeof failure);
  } while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof failure)) {
    ::waitpid(pid_, nullptr, 0);
    reaped_ = true;
    throw std::system_error(failure, std::generic_category(), "cannot run '" + argv[0] + "'");
  }
  std::swap(in_, input.write);
  std::swap(out_, output.read);
  std::swap(err_, error.read);
}

ChildProcess::~ChildProcess() {
  kill();
  close_fd(in_);
  close_fd(out_);
  close_fd(err_);
}

bool ChildProcess::write(std::string_view data) {
  while (!data.empty() && in_ >= 0) {
    const ssize_t n = ::write(in_, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      close_fd(in_);  // EPIPE: the child closed its input or exited
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return data.empty();
}

void ChildProcess::close_input() {
  close_fd(in_);
}

void ChildProcess::close_output() {
  close_fd(out_);
  output_.clear();
}

bool ChildProcess::pump(Clock::time_point deadline) {
  pollfd fds[2];
  nfds_t count = 0;
  if (out_ >= 0) fds[count++] = {out_, POLLIN, 0};
  if (err_ >= 0) fds[count++] = {err_, POLLIN, 0};
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (left <= 0) return false;
  if (count == 0) {
    // Nothing to read: wait a little for the exit instead of spinning.
    ::poll(nullptr, 0, static_cast<int>(std::min<long long>(left, 5)));
    return true;
  }
  const int ready = ::poll(fds, count, static_cast<int>(std::min<long long>(left, 1000)));
  if (ready < 0 && errno != EINTR) throw_errno("poll");
  for (nfds_t i = 0; i < count && ready > 0; ++i) {
    if (fds[i].revents == 0) continue;
    if (fds[i].fd == out_) {
      drain(out_, output_, SIZE_MAX);
    } else {
      drain(err_, error_, kMaxErrorBytes);
    }
  }
  return true;
}

ChildProcess::Read ChildProcess::read_line(std::string& line, Clock::time_point deadline,
                                           std::size_t max_bytes) {
  while (true) {
    const auto newline = output_.find('\n');
    if (newline != std::string::npos && newline <= max_bytes) {
      line.assign(output_, 0, newline);
      output_.erase(0, newline + 1);
      return Read::line;
    }
    if (output_.size() > max_bytes) return Read::too_long;
    if (out_ < 0) {
      if (output_.empty()) return Read::end;
      line = std::move(output_);
      output_.clear();
      return Read::line;
    }
    if (!pump(deadline)) return Read::timeout;
  }
}

std::optional<ExitStatus> ChildProcess::exit_status() {
  if (status_ || reaped_) return status_;
  // WNOWAIT leaves the child a zombie, so its process id (and group) cannot be reused
  // before kill() has signalled the whole group.
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
      info.si_pid == 0) {
    return std::nullopt;
  }
  status_ = info.si_code == CLD_EXITED ? ExitStatus{false, info.si_status}
                                       : ExitStatus{true, info.si_status};
  return status_;
}

std::optional<ExitStatus> ChildProcess::wait_until(Clock::time_point deadline) {
  while (true) {
    if (auto status = exit_status()) return status;
    if (!pump(deadline)) return exit_status();
  }
}

void ChildProcess::kill() {
  if (pid_ <= 0 || reaped_) return;
  ::kill(-pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  if (!status_) {
    status_ = WIFSIGNALED(status) ? ExitStatus{true, WTERMSIG(status)}
                                  : ExitStatus{false, WEXITSTATUS(status)};
  }
  reaped_ = true;
}

}  // namespace ioiwari
