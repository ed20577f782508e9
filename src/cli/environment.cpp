#include "ioiwari/cli/environment.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <iterator>
#include <streambuf>
#include <string>
#include <string_view>
#include <utility>

namespace ioiwari {

namespace {

volatile std::sig_atomic_t interrupt_count = 0;

extern "C" void on_interrupt(int) {
  interrupt_count = interrupt_count + 1;
}

// Standard input for `ioiwari play`. A Ctrl-C could land after the game checked for one and
// before it entered read(), which would then wait for a line that may never come. So SIGINT
// stays blocked here except inside pselect(), which unblocks it and waits for input in one
// step: a Ctrl-C that is pending or that comes ends the wait, and the stream reports its end.
class InterruptibleInput : public std::streambuf {
 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    sigset_t interrupt, before;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    ::pthread_sigmask(SIG_BLOCK, &interrupt, &before);
    bool ready = false;
    while (!ready && interrupt_count == 0) {
      fd_set readable;
      FD_ZERO(&readable);
      FD_SET(STDIN_FILENO, &readable);
      const int result = ::pselect(STDIN_FILENO + 1, &readable, nullptr, nullptr, nullptr, &before);
      if (result < 0 && errno != EINTR) break;
      ready = result > 0;
    }
    ssize_t bytes = 0;
    if (ready && interrupt_count == 0) {
      // Input is waiting, so this read returns at once; a Ctrl-C meanwhile stays pending.
      do {
        bytes = ::read(STDIN_FILENO, buffer_, sizeof buffer_);
      } while (bytes < 0 && errno == EINTR);
    }
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    if (bytes <= 0) return traits_type::eof();
    setg(buffer_, buffer_, buffer_ + bytes);
    return traits_type::to_int_type(*gptr());
  }

 private:
  char buffer_[4096];
};

// A stream that owns its buffer.
class InterruptibleStream : public std::istream {
 public:
  InterruptibleStream() : std::istream(&buffer_) {}

 private:
  InterruptibleInput buffer_;
};

}  // namespace

bool FileOutput::drain() {
  const char* at = pbase();
  while (at < pptr()) {
    const ssize_t written = ::write(fd_, at, static_cast<std::size_t>(pptr() - at));
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      error_ = written < 0 ? errno : EIO;
      setp(buffer_, buffer_ + sizeof buffer_);
      return false;
    }
    at += written;
  }
  setp(buffer_, buffer_ + sizeof buffer_);
  return true;
}

FileOutput::int_type FileOutput::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int FileOutput::sync() {
  return drain() ? 0 : -1;
}

namespace {

std::atomic<bool> stop_flag{false};
volatile std::sig_atomic_t stop_signal = 0;
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction stop_previous[std::size(kStopSignals)];

extern "C" void on_stop(int signal) {
  stop_signal = signal;
  stop_flag.store(true);
}

}  // namespace

StopOnSignals::StopOnSignals() {
  stop_flag.store(false);
  stop_signal = 0;
  struct sigaction action {};
  action.sa_handler = on_stop;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < std::size(kStopSignals); ++i)
    ::sigaction(kStopSignals[i], &action, &stop_previous[i]);
}

StopOnSignals::~StopOnSignals() {
  for (std::size_t i = 0; i < std::size(kStopSignals); ++i)
    ::sigaction(kStopSignals[i], &stop_previous[i], nullptr);
}

const std::atomic<bool>& StopOnSignals::flag() const {
  return stop_flag;
}

int StopOnSignals::signal() const {
  return stop_signal;
}

std::string StopOnSignals::signal_name() const {
  switch (stop_signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
  }
  return "a signal";
}

ProcessOutput::ProcessOutput()
    : buffer(STDOUT_FILENO), out(&buffer), environment(Environment::of_process()) {
  environment.output_error = [this] { return buffer.error(); };
}

Environment Environment::of_process() {
  Environment environment;
  environment.input_is_terminal = ::isatty(STDIN_FILENO) == 1;
  environment.output_is_terminal = ::isatty(STDOUT_FILENO) == 1;
  environment.error_is_terminal = ::isatty(STDERR_FILENO) == 1;
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  environment.no_color = (no_color != nullptr && no_color[0] != '\0') ||
                         (term != nullptr && std::string_view(term) == "dumb");
  for (const int fd : {STDOUT_FILENO, STDERR_FILENO}) {
    winsize size{};
    if (::isatty(fd) == 1 && ::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
      environment.columns = size.ws_col;
      break;
    }
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0) {
    environment.memory_bytes =
        static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
    // A process limited to less (prlimit, ulimit -v, the referee's data limit) may take less.
    for (const int resource : {RLIMIT_AS, RLIMIT_DATA}) {
      rlimit limit{};
      if (::getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        environment.memory_bytes =
            std::min<std::uint64_t>(environment.memory_bytes, limit.rlim_cur);
    }
  }
  // The XDG base directories' data home, where a user's own data lives.
  const char* data_home = std::getenv("XDG_DATA_HOME");
  const char* home = std::getenv("HOME");
  if (data_home != nullptr && data_home[0] == '/') {
    environment.roots_list = std::string(data_home) + "/ioiwari/roots";
  } else if (home != nullptr && home[0] == '/') {
    environment.roots_list = std::string(home) + "/.local/share/ioiwari/roots";
  }
  if (const char* locks = std::getenv("IOIWARI_USER_LOCKS"); locks != nullptr && locks[0] == '/')
    environment.user_locks = locks;
  // Linux names the running program's file here, whatever argv[0] or PATH say.
  std::string self(4096, '\0');
  const ssize_t length = ::readlink("/proc/self/exe", self.data(), self.size());
  if (length > 0 && static_cast<std::size_t>(length) < self.size()) {
    self.resize(static_cast<std::size_t>(length));
    environment.self_path = std::move(self);
  }
  environment.catch_interrupts = [] {
    // Without SA_RESTART a read blocked at the prompt returns with EINTR, so the game can
    // say goodbye instead of dying mid-line.
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    ::sigaction(SIGINT, &action, nullptr);
  };
  environment.interrupted = [] { return interrupt_count > 0; };
  environment.interruptible_input = std::make_shared<InterruptibleStream>();
  return environment;
}

}  // namespace ioiwari
