#include "ioiwari/cli/progress.hpp"

#include "ioiwari/cli/environment.hpp"

#include <algorithm>
#include <ostream>
#include <utility>

namespace ioiwari {

namespace {

// Back to the start of the line, and erase it to its end.
constexpr std::string_view kEraseLine = "\r\x1b[K";

}  // namespace

ProgressOutput ProgressOutput::of(const Environment& environment, bool quiet) {
  if (quiet) return {};
  if (!environment.error_is_terminal) return {ProgressOutput::Kind::log, environment.columns};
  return {ProgressOutput::Kind::terminal, environment.columns};
}

std::string clock_time(Progress::Clock::duration duration) {
  return clock_time(
      static_cast<long long>(std::chrono::duration_cast<std::chrono::seconds>(duration).count()));
}

std::string clock_time(long long seconds) {
  const auto two = [](long long n) {  // appended: GCC 12 warns falsely on "0" + std::string
    std::string digits = std::to_string(n);
    if (n < 10) digits.insert(digits.begin(), '0');
    return digits;
  };
  if (seconds >= 3600) {
    return std::to_string(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":" + two(seconds % 60);
  }
  return std::to_string(seconds / 60) + ":" + two(seconds % 60);
}

Progress::Progress(std::ostream& out, ProgressOutput where, std::string what, std::string unit,
                   std::size_t total, Clock::duration delay, std::function<Clock::time_point()> now)
    : out_(out),
      where_(where),
      what_(std::move(what)),
      unit_(std::move(unit)),
      total_(total),
      now_(std::move(now)),
      delay_(delay),
      start_(now_()),
      stage_(start_) {}

Progress::~Progress() {
  clear();
}

std::string Progress::line(std::size_t done, std::string_view counts, Clock::duration elapsed,
                           std::optional<Clock::duration> stage_elapsed) const {
  std::string text =
      what_ + ": " + std::to_string(done) + "/" + std::to_string(total_) + " " + unit_;
  if (!counts.empty()) text.append(", ").append(counts);
  text += ", " + clock_time(elapsed) + " elapsed";
  if (done > 0 && done < total_) {
    // In seconds, as a double: the nanoseconds elapsed times the billions of classes still to do
    // of a large ring overflow a 64-bit integer. A wait of over a million hours reads as one.
    const double seconds = std::chrono::duration<double>(stage_elapsed.value_or(elapsed)).count() *
                           static_cast<double>(total_ - done) / static_cast<double>(done);
    text += ", " + clock_time(static_cast<long long>(std::min(seconds, 3600e6))) + " left";
  }
  return text;
}

void Progress::update(std::size_t done, std::string_view counts) {
  if (where_.kind == ProgressOutput::Kind::none) return;
  const Clock::time_point now = now_();
  if (where_.kind == ProgressOutput::Kind::log) {
    // A whole line, as a log keeps it: no control codes, no cut.
    if (now - (logged_ ? drawn_ : start_) < kLogEvery) return;
    out_ << line(done, counts, now - start_, now - stage_) << '\n' << std::flush;
    drawn_ = now;
    logged_ = true;
    return;
  }
  if (now - start_ < delay_) return;
  if (on_screen_ && now - drawn_ < kRedraw && done < total_) return;
  // Cut to one column less than the terminal's: a line as wide as the terminal wraps on some,
  // and the erase that redraws it then leaves the first part on the screen.
  std::string text = line(done, counts, now - start_, now - stage_);
  const auto room = static_cast<std::size_t>(std::max(where_.columns - 1, 1));
  if (text.size() > room) text.resize(room);
  out_ << kEraseLine << text << std::flush;
  drawn_ = now;
  on_screen_ = true;
}

void Progress::next_stage(std::string what) {
  what_ = std::move(what);
  stage_ = now_();
}

void Progress::clear() {
  if (!on_screen_) return;
  out_ << kEraseLine << std::flush;
  on_screen_ = false;
}

}  // namespace ioiwari
