// What the command line needs to know about where it runs: which streams are terminals,
// whether colour is wanted, and Ctrl-C. main() reads it from the process; tests make it up.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <ostream>
#include <string>

namespace ioiwari {

struct Environment {
  bool input_is_terminal = false;
  bool output_is_terminal = false;
  bool error_is_terminal = false;
  bool no_color = false;  // NO_COLOR is set and not empty, or TERM is dumb
  // The width of the terminal that standard output (or else standard error) is, in columns:
  // where prose is wrapped. 80 when it is no terminal or cannot tell.
  int columns = 80;
  // The memory this process may take, in bytes: the machine's physical memory, or less where
  // a limit on the process's address space or data says so. Rings whose tables would not fit
  // are refused, and table files are read within it. 0 when unknown (then nothing is refused).
  std::uint64_t memory_bytes = 0;
  // The user's list of the roots of tables that `verify` found true (root_book.hpp):
  // $XDG_DATA_HOME/ioiwari/roots, or ~/.local/share/ioiwari/roots. Empty: none.
  std::string roots_list;
  // Whether the roots ioiwari has built in are used (tests of recorded roots leave them out, to
  // use rings that are small).
  bool built_in_roots = true;
  // Work that ends sooner than this draws no progress line (tests make it 0, so as not to
  // depend on how fast the machine is).
  std::chrono::milliseconds progress_delay{1000};
  // Where referee runs hold their players' users: IOIWARI_USER_LOCKS, or empty for the
  // referee's own (kUserLocks). Every run on a machine must use the same folder.
  std::string user_locks;
  // This program's own file, for `bench` to run itself as a child; empty when unknown (tests).
  std::string self_path;
  // Makes Ctrl-C end a read instead of the process (for `ioiwari play`).
  std::function<void()> catch_interrupts = [] {};
  // Whether Ctrl-C has been pressed since catch_interrupts().
  std::function<bool()> interrupted = [] { return false; };
  // Standard input as `play` reads it: once catch_interrupts() has run, Ctrl-C ends a read
  // whenever it is pressed, before the read has begun or during it (the stream then ends).
  // Null where the caller's stream is to be read as it is (tests).
  std::shared_ptr<std::istream> interruptible_input;
  // Why the last write to standard output failed (an errno), or 0: for the one line that says
  // so. The caller's stream tells no reason (tests).
  std::function<int()> output_error = [] { return 0; };

  // The environment of this process (POSIX: isatty, getenv, sigaction).
  static Environment of_process();
};

// Standard output as ioiwari writes it: buffered, and written with write(2), so that when a
// write fails the reason (errno) is kept for the message, which std::cout does not keep.
class FileOutput : public std::streambuf {
 public:
  explicit FileOutput(int fd) : fd_(fd) { setp(buffer_, buffer_ + sizeof buffer_); }
  ~FileOutput() override { sync(); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  bool drain();
  int fd_;
  int error_ = 0;
  char buffer_[1 << 16];
};

// What a program's main() hands its command: standard output through a FileOutput, so that a
// failed write is seen, and the process's environment, which reports that output's errors.
struct ProcessOutput {
  ProcessOutput();
  ProcessOutput(const ProcessOutput&) = delete;
  ProcessOutput& operator=(const ProcessOutput&) = delete;

  FileOutput buffer;
  std::ostream out;
  Environment environment;
};

// While one lives, SIGINT, SIGTERM and SIGHUP set a flag instead of ending the process, so that
// long work (the referee's games) can stop cleanly and leave nothing running; the handlers that
// were there before come back when it goes. One at a time.
class StopOnSignals {
 public:
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

  const std::atomic<bool>& flag() const;
  // The signal that came (its number), or 0.
  int signal() const;
  // Its name: "SIGINT".
  std::string signal_name() const;
};

}  // namespace ioiwari
