// The judge systems' programs (docs/judging.md): `interact`, the interactor of the problem
// package format (Kattis, DOMjudge); `manage`, the manager of a CMS Communication task; and
// `validate`, the package's input validator.
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>
#include <streambuf>

#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/ring_setup.hpp"
#include "ioiwari/input/exit_code.hpp"
#include "ioiwari/input/game_file.hpp"
#include "ioiwari/judge/judge_system.hpp"
#include "ioiwari/judge/referee.hpp"
#include "textio/number.hpp"
#include "textio/quoted.hpp"

namespace ioiwari::cli {

namespace {

// No game or answer file is this long: a longer one is no such file.
constexpr std::streamsize kMostFileBytes = 1 << 16;

// The whole of a small file, or nothing when it cannot be read or is too long.
std::optional<std::string> read_small(std::istream& in) {
  std::string text(static_cast<std::size_t>(kMostFileBytes) + 1, '\0');
  in.read(text.data(), kMostFileBytes + 1);
  if (in.bad() || in.gcount() > kMostFileBytes) return std::nullopt;
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}
std::optional<std::string> read_small(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  return read_small(file);
}

// Writes `text` to `path`, whole; false when it could not.
bool write_file(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  return static_cast<bool>(file);
}

// The table of the game's ring: --table's, or solved, with no progress line (a judge system
// reads our standard error).
const Table& table_for(RingSetup& setup, const GameFile& game) {
  return setup.table(game.start.total(), true);
}

// Reads the input side of a FIFO once a writer has come: poll() waits for the first writer of a
// FIFO opened without one, where read() would see an end of file at once.
class FifoInput : public std::streambuf {
 public:
  explicit FifoInput(int fd) : fd_(fd) {}
  ~FifoInput() override { ::close(fd_); }
  FifoInput(const FifoInput&) = delete;
  FifoInput& operator=(const FifoInput&) = delete;

 protected:
  int_type underflow() override {
    for (;;) {
      pollfd ready{fd_, POLLIN, 0};
      if (::poll(&ready, 1, -1) < 0) {
        if (errno == EINTR) continue;
        return traits_type::eof();
      }
      const ssize_t n = ::read(fd_, buffer_.data(), buffer_.size());
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) return traits_type::eof();
      setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
      return traits_type::to_int_type(buffer_[0]);
    }
  }

 private:
  int fd_;
  std::array<char, 4096> buffer_{};
};

// Writes to a descriptor; a failed write (the reader has gone) fails the stream.
class FdOutput : public std::streambuf {
 public:
  explicit FdOutput(int fd) : fd_(fd) { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  ~FdOutput() override {
    sync();
    ::close(fd_);
  }
  FdOutput(const FdOutput&) = delete;
  FdOutput& operator=(const FdOutput&) = delete;

 protected:
  int_type overflow(int_type c) override {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override {
    const char* at = pbase();
    while (at < pptr()) {
      const ssize_t n = ::write(fd_, at, static_cast<std::size_t>(pptr() - at));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        setp(buffer_.data(), buffer_.data() + buffer_.size());
        return -1;
      }
      at += n;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return 0;
  }

 private:
  int fd_;
  std::array<char, 4096> buffer_{};
};

}  // namespace

int run_interact(Invocation& call) {
  const std::vector<std::string>& operands = call.parsed.operands();
  if (operands.size() != 3) {
    throw UsageError("needs INPUT ANSWER FEEDBACK_DIR, as a judge system runs its validator, not " +
                     std::to_string(operands.size()) + " operands");
  }
  const std::string& input = operands[0];
  const std::string& answer = operands[1];
  std::string feedback = operands[2];
  if (!feedback.ends_with('/')) feedback += '/';
  // Each failure of the test data or of the system is ours: a judge error, never a verdict.
  const auto judge_error = [&](const std::string& what) {
    call.complain(what);
    write_file(feedback + "judgemessage.txt", "judge error: " + what + "\n");
    return to_int(ExitCode::failure);
  };
  const auto text = read_small(input);
  if (!text) return judge_error("cannot read the game file " + textio::quoted(input));
  const auto answer_text = read_small(answer);
  if (!answer_text) return judge_error("cannot read the answer file " + textio::quoted(answer));
  GameFile game;
  try {
    game = read_game_file(*text);
  } catch (const GameFileError& error) {
    return judge_error(input + ": " + error.what());
  }
  int value = 0;
  try {
    value = read_answer(*answer_text);
  } catch (const GameFileError& error) {
    return judge_error(answer + ": " + error.what());
  }
  RingSetup setup(call, game.ring);
  const Table& table = table_for(setup, game);
  if (table.value(game.start) != value) {
    return judge_error(answer + ": it says 'value " + textio::signed_number(value) +
                       "', but the start's value with perfect play is " +
                       textio::signed_number(table.value(game.start)));
  }
  const SystemGame judged = judge_system_game(call.in, call.out, table, game);
  // No score.txt: the problem is pass-fail, and problemtools judges a score file of a problem
  // without custom scoring a judge error (docs/judging.md).
  if (!write_file(feedback + "judgemessage.txt", judged.judge_message) ||
      !write_file(feedback + "teammessage.txt", judged.team_message)) {
    call.complain("cannot write the feedback files in " + textio::quoted(feedback));
    return to_int(ExitCode::failure);
  }
  return static_cast<int>(judged.won() ? PackageExit::accepted : PackageExit::wrong_answer);
}

int run_manage(Invocation& call) {
  const std::vector<std::string>& operands = call.parsed.operands();
  if (operands.size() != 2) {
    throw UsageError("needs FROM_USER TO_USER, the two FIFOs CMS gives its manager, not " +
                     std::to_string(operands.size()) + " operands");
  }
  const auto text = read_small(call.in);
  if (!text) {
    call.complain("cannot read the game file on standard input");
    return to_int(ExitCode::failure);
  }
  GameFile game;
  try {
    game = read_game_file(*text);
  } catch (const GameFileError& error) {
    call.complain("standard input: " + std::string(error.what()));
    return to_int(ExitCode::failure);
  }
  RingSetup setup(call, game.ring);
  const Table& table = table_for(setup, game);
  // The user's end of either FIFO may be opened first: ours of its output is opened at once,
  // without waiting for a writer, so that opening its input cannot wait on the user forever.
  const int from_user = ::open(operands[0].c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (from_user < 0) {
    call.complain("cannot open " + textio::quoted(operands[0]) + ": " + std::strerror(errno));
    return to_int(ExitCode::failure);
  }
  FifoInput input_buffer(from_user);
  const int to_user = ::open(operands[1].c_str(), O_WRONLY | O_CLOEXEC);
  if (to_user < 0) {
    call.complain("cannot open " + textio::quoted(operands[1]) + ": " + std::strerror(errno));
    return to_int(ExitCode::failure);
  }
  ::fcntl(from_user, F_SETFL, ::fcntl(from_user, F_GETFL) & ~O_NONBLOCK);
  FdOutput output_buffer(to_user);
  std::istream in(&input_buffer);
  std::ostream out(&output_buffer);
  const SystemGame judged = judge_system_game(in, out, table, game);
  // The outcome on standard output, the contestant's message on standard error: one line each.
  std::ostringstream outcome;
  outcome.precision(2);
  outcome << std::fixed << judged.outcome() << '\n';
  call.out << outcome.str();
  call.err << judged.team_message;
  return written(call, to_int(ExitCode::ok));
}

int run_validate(Invocation& call) {
  const auto text = read_small(call.in);
  if (!text) {
    call.complain("standard input is no game file: unreadable, or longer than " +
                  std::to_string(kMostFileBytes) + " bytes");
    return static_cast<int>(PackageExit::wrong_answer);
  }
  try {
    read_game_file(*text);
  } catch (const GameFileError& error) {
    call.complain("standard input: " + std::string(error.what()));
    return static_cast<int>(PackageExit::wrong_answer);
  }
  return static_cast<int>(PackageExit::accepted);
}

}  // namespace ioiwari::cli
