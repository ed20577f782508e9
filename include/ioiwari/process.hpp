// A child process on pipes, for referees and end-to-end tests (POSIX: fork, exec, poll).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ioiwari {

using Clock = std::chrono::steady_clock;

// How a process ended: its exit status, or the signal that killed it.
struct ExitStatus {
  bool signaled = false;
  int number = 0;  // the exit status, or the signal number
  bool success() const { return !signaled && number == 0; }
};

// A program started with pipes on its standard input, output and error, as the leader of a
// process group of its own, so that it and anything it started can be killed together.
// Destroying the object kills that group and reaps the child: nothing is left running.
//
// Creating one sets SIGPIPE to be ignored in this process (a child that closes its input
// must not kill us); the child gets the default disposition back.
class ChildProcess {
 public:
  // Starts argv[0] (searched in PATH when it has no '/') with the arguments argv[1..].
  // Throws std::system_error when the program cannot be found or the pipes, the fork or the
  // exec fail. Safe to call from several threads at once.
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes all of `data` to the child's standard input. False when the child has closed it.
  bool write(std::string_view data);
  // Closes the child's standard input: it then reads end of file.
  void close_input();
  // Stops reading the child's standard output: its next write there fails with EPIPE.
  void close_output();

  enum class Read {
    line,     // `line` holds the next line, without its '\n'
    end,      // standard output was closed and everything in it has been read
    timeout,  // no whole line before the deadline
    too_long  // more than max_bytes without a '\n'
  };
  // Reads the next line of the child's standard output. A last line without '\n' counts as a
  // line once the output has closed. Standard error is collected meanwhile (error_output()).
  Read read_line(std::string& line, Clock::time_point deadline, std::size_t max_bytes);

  // Waits until the child has exited, at most until `deadline`; its output is drained
  // meanwhile. Nothing when it still runs at the deadline.
  std::optional<ExitStatus> wait_until(Clock::time_point deadline);

  // Kills the child's process group with SIGKILL and reaps the child (once; safe to repeat).
  void kill();

  // What the child wrote on standard error so far, up to kMaxErrorBytes.
  const std::string& error_output() const { return error_; }
  static constexpr std::size_t kMaxErrorBytes = 64 * 1024;

 private:
  // Waits for output until `deadline` and appends what comes; false at the deadline.
  bool pump(Clock::time_point deadline);
  std::optional<ExitStatus> exit_status();

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;  // our ends of the pipes; -1 once closed
  std::string output_;                 // read from standard output, not yet returned
  std::string error_;
  std::optional<ExitStatus> status_;
  bool reaped_ = false;
};

}  // namespace ioiwari
