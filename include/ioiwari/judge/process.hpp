// A program run on pipes and contained, for the referee and for end-to-end tests (POSIX and
// Linux: fork, exec, poll, prctl, namespaces, /proc).
//
// Containment. The program is not started by us directly but by a keeper: a small process of
// ours between us and it. The keeper is a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so
// every process the program starts stays below it whatever it does (setsid, setpgid, a double
// fork): when its parent dies, it is handed to the keeper, not to init. When the program ends,
// the keeper counts what it left behind and kills all of it; when we ask, it kills the program
// and everything below it. With `isolate`, the keeper is the init of new PID, network and IPC
// namespaces: the program has no network, sees only its own processes, and the kernel kills
// everything in the namespace when the keeper ends. The keeper and the program die with us
// (PR_SET_PDEATHSIG). The program's memory is capped with RLIMIT_DATA, which counts what it
// allocates (heap, anonymous and private writable mappings) but not the files it maps.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
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

// What a program and every process it started use, sampled from /proc.
struct Usage {
  std::chrono::nanoseconds cpu{0};  // CPU time, user and system, of the living and the ended
  std::uint64_t memory_kb = 0;      // resident memory not backed by a file, summed
  int processes = 0;                // processes still running, the program included
};

struct Containment {
  bool isolate = false;                // new PID, network and IPC namespaces
  std::uint64_t data_limit_bytes = 0;  // RLIMIT_DATA of the program (0: as it was)
  std::chrono::seconds cpu_limit{0};   // RLIMIT_CPU of the program, a backstop (0: as it was)
};

// Why a program could not be started.
class SpawnError : public std::runtime_error {
 public:
  enum class Kind {
    program,    // the program cannot be run: missing, not executable, not a program
    resources,  // the system refused a pipe or a process, even after waiting
    isolation,  // new namespaces are not allowed here
  };
  SpawnError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// A program started with pipes on its standard input, output and error, contained as above.
// Destroying the object kills the program and everything it started, and reaps them: nothing is
// left running.
//
// Creating one sets SIGPIPE to be ignored in this process (a child that closes its input must
// not kill us); the program gets the default disposition back, and every other signal too.
class ChildProcess {
 public:
  // Starts argv[0] (searched in PATH when it has no '/') with the arguments argv[1..]. When the
  // system is out of pipes or processes, it waits and tries again for a while before it gives
  // up. Throws SpawnError. Safe to call from several threads at once.
  explicit ChildProcess(const std::vector<std::string>& argv, const Containment& containment = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes all of `data` to the program's standard input. False when it has closed it.
  bool write(std::string_view data);
  // Closes the program's standard input: it then reads end of file.
  void close_input();
  // Stops reading the program's standard output: its next write there fails with EPIPE.
  void close_output();

  enum class Read {
    line,     // `line` holds the next line, without its '\n'
    end,      // standard output was closed and everything in it has been read
    timeout,  // no whole line before the deadline
    too_long  // more than max_bytes without a '\n'
  };
  // Reads the next line of the program's standard output. A last line without '\n' counts as a
  // line once the output has closed. Standard error is collected meanwhile (error_output()).
  Read read_line(std::string& line, Clock::time_point deadline, std::size_t max_bytes);

  // Waits until the program has exited, at most until `deadline`; its output is drained
  // meanwhile. Nothing when it still runs at the deadline.
  std::optional<ExitStatus> wait_until(Clock::time_point deadline);

  // Kills the program and everything it started, and reaps them (once; safe to repeat).
  void kill();

  // How many processes the program left running when it exited (killed since); 0 while it runs.
  int left_behind() const { return left_behind_; }
  // The program's peak resident set in kB, mapped files included, as the kernel counted it when
  // it ended; 0 while it runs.
  std::uint64_t max_rss_kb() const { return max_rss_kb_; }

  // What the program and its processes use now (their CPU time goes on counting after they end,
  // until the keeper has reaped them all).
  Usage usage() const;

  // What the program wrote on standard error so far, up to kMaxErrorBytes.
  const std::string& error_output() const { return error_; }
  static constexpr std::size_t kMaxErrorBytes = 64 * 1024;

  // The number of file descriptors one running ChildProcess holds in this process, and the most
  // it holds while it starts.
  static constexpr int kDescriptors = 5;
  static constexpr int kDescriptorsStarting = 12;

 private:
  // Waits for output or the keeper's report until `deadline` and takes what comes; false at the
  // deadline.
  bool pump(Clock::time_point deadline);
  void take_report();
  std::optional<ExitStatus> exit_status() const { return status_; }

  pid_t keeper_ = -1;
  pid_t root_ = -1;     // the keeper, or the namespace's init: the top of the program's tree
  pid_t program_ = -1;  // as this process sees it; -1 when it ended before we looked
  int in_ = -1, out_ = -1, err_ = -1;  // our ends of the program's pipes; -1 once closed
  int report_ = -1;                    // the keeper's reports
  int control_ = -1;                   // closing it tells the keeper to kill everything
  std::string output_;                 // read from standard output, not yet returned
  std::string error_;
  std::optional<ExitStatus> status_;
  int left_behind_ = 0;
  std::uint64_t max_rss_kb_ = 0;
  bool reaped_ = false;
};

// Whether this system lets a process make new PID, network and IPC namespaces; nothing when it
// does, else why not (one line).
std::optional<std::string> isolation_refused();

}  // namespace ioiwari
