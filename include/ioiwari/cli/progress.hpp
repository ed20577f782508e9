// One line of progress on standard error while a long command works: on a terminal, redrawn in
// place, cut to the terminal's width, and erased before the command's own output, so that what
// it prints reads the same with or without it; where standard error is a file or a pipe (a
// log), a whole line now and then.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace ioiwari {

struct Environment;

// Where a command's progress goes: redrawn in place on a terminal `columns` wide, written as a
// line now and then to a log, or nowhere (--quiet, --json).
struct ProgressOutput {
  enum class Kind { none, terminal, log };
  Kind kind = Kind::none;
  int columns = 80;

  // Standard error's: a terminal or a log; none when `quiet`.
  static ProgressOutput of(const Environment& environment, bool quiet);
};

// The seconds since `begin`, for the times a command reports.
inline double seconds_since(std::chrono::steady_clock::time_point begin) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  // Redraws come at most this often; the first comes with the first update.
  static constexpr std::chrono::milliseconds kRedraw{100};
  // A log is written a line this often: the first when the work has taken this long.
  static constexpr std::chrono::seconds kLogEvery{30};

  // Draws on `out` as `where` says, and nothing at all where it says none. `what` names the work
  // ("referee"), `unit` what is counted ("games"), `total` how many there are. Nothing is drawn
  // before `delay` has passed, so that work that ends sooner shows nothing. `now` tells the
  // time (tests give their own clock).
  Progress(std::ostream& out, ProgressOutput where, std::string what, std::string unit,
           std::size_t total, Clock::duration delay = {},
           std::function<Clock::time_point()> now = Clock::now);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `done` of the total are finished; `counts` says more about them ("12 won, 0 failed").
  // Redraws the line if the last redraw is kRedraw old, or if all are done; to a log, writes it
  // if the last line written (or the start) is kLogEvery old.
  void update(std::size_t done, std::string_view counts = {});

  // Erases the line (and draws no more until the next update).
  void clear();

  // The work now counted is another stage of the same wait (a solve's layers after its index),
  // named `what`: it is counted from 0 again, and the time left is estimated from its own pace.
  void next_stage(std::string what);

  // The line as update() draws it, without the control codes: "referee: 120/1428 games, 12
  // won, 0 failed, 0:04 elapsed, 0:44 left". The time left comes from `stage_elapsed`, the time
  // the stage has taken so far (all of `elapsed` when it is the first).
  std::string line(std::size_t done, std::string_view counts, Clock::duration elapsed,
                   std::optional<Clock::duration> stage_elapsed = {}) const;

 private:
  std::ostream& out_;
  ProgressOutput where_;
  std::string what_, unit_;
  std::size_t total_;
  std::function<Clock::time_point()> now_;
  Clock::duration delay_;
  Clock::time_point start_, stage_;
  Clock::time_point drawn_{};
  bool on_screen_ = false;
  bool logged_ = false;  // a line has been written to the log
};

// A duration as people read a clock: "0:04", "12:30", "1:02:03".
std::string clock_time(Progress::Clock::duration duration);
// The same, of a number of whole seconds.
std::string clock_time(long long seconds);

}  // namespace ioiwari
