#include "run_program.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace ioiwari::test {

namespace {

// A file in the temporary folder, removed when this goes.
class TempFile {
 public:
  TempFile() {
    const char* folder = std::getenv("TMPDIR");
    path_ = std::string(folder && *folder ? folder : "/tmp") + "/ioiwari-test-XXXXXX";
    fd_ = ::mkstemp(path_.data());
    if (fd_ < 0) throw std::runtime_error("cannot make a temporary file");
  }
  ~TempFile() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  int fd() const { return fd_; }
  std::string text() const {
    std::ifstream in(path_, std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();
    return all.str();
  }
  void write(const std::string& data) const {
    std::ofstream out(path_, std::ios::binary);
    out << data;
  }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace

Run run_program(const std::vector<std::string>& argv, const std::string& input,
                const RunOptions& options) {
  const bool close_output = options.close_output;
  TempFile in, out, err;
  in.write(input);
  int closed[2] = {-1, -1};
  if (close_output) {
    if (::pipe(closed) != 0) throw std::runtime_error("pipe failed");
    // The read end goes before the fork: from its first write on, the program has no reader.
    ::close(closed[0]);
  }
  std::vector<char*> args;
  for (const std::string& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::signal(SIGPIPE, SIG_DFL);
    ::lseek(in.fd(), 0, SEEK_SET);
    ::dup2(in.fd(), 0);
    ::dup2(close_output ? closed[1] : out.fd(), 1);
    ::dup2(err.fd(), 2);
    if (close_output) ::close(closed[1]);
    if (options.prepare) options.prepare();
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  if (close_output) ::close(closed[1]);
  Run run;
  int status = 0;
  rusage usage{};
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(options.limit_seconds);
  while (::wait4(pid, &status, WNOHANG, &usage) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::wait4(pid, &status, 0, &usage);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  run.peak_kb = usage.ru_maxrss;
  run.signaled = WIFSIGNALED(status);
  run.status = run.signaled ? WTERMSIG(status) : WEXITSTATUS(status);
  run.out = out.text();
  run.err = err.text();
  return run;
}

}  // namespace ioiwari::test
