// Judges a package that `ioiwari package` wrote the way its judge system would, and checks that
// every example submission gets the verdict its folder names.
//
//   judge_harness icpc|cms PACKAGE WORK [--time-limit S] [--open-output-first]
//
// icpc: as the problem package format runs an interactive problem. Every .in is first given to
//   the input validator (input_validators/ioiwari/run < IN, which must exit 42). Then, for each
//   test in order (data/sample, then data/secret), the output validator runs as
//   `run IN ANS FEEDBACK_DIR/` with its standard output piped to the submission's standard
//   input and the submission's output to its input. The verdict of a test: TLE when the
//   submission is still running at the time limit (wall clock), else RTE when it exited non-zero
//   or by a signal (but SIGPIPE after the validator had ended), else AC for 42, WA for 43, and a
//   judge error for anything else. A submission's verdict is its first test's that is not AC
//   (on_reject: break), and its score the sum of score.txt. (Kattis' problemtools gives a
//   validator that ends first with 43 its WA even when the submission then crashes or times
//   out; which of two programs that end together ends first is a race on a loaded machine, so
//   this harness judges by how the submission ended, which no order changes.)
// cms: as CMS runs a Communication task with one user process. For each test the manager is
//   copied into a folder of its own and run there as ./manager U_TO_M M_TO_U, its standard
//   input the test's input file, its standard output and error kept; the user's program opens
//   M_TO_U as its standard input and then U_TO_M as its standard output (both the other way
//   round with --open-output-first), as the sandbox does. A user that fails (time limit, non-zero
//   exit, a signal) scores 0 whatever the manager says; else the outcome is the first line of
//   the manager's output, and AC is 1.0. Its verdict is the first test's that is not AC.
//
// Expected: accepted/ AC on every test; wrong_answer/ WA; time_limit_exceeded/ TLE;
// run_time_error/ RTE. Prints a line per submission; exits 0 when each got its verdict, 1 when
// one did not, 2 for a bad command line or a package it cannot read.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Ended {
  bool timed_out = false;
  bool signaled = false;
  int number = 0;  // the exit status, or the signal
  Clock::time_point at;
  bool failed() const { return timed_out || signaled || number != 0; }
};

[[noreturn]] void exec_or_die(const std::string& program, std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  ::execv(program.c_str(), argv.data());
  ::_exit(127);
}

// Waits for `pids` until `deadline` (each its own), killing what outlives it.
std::vector<Ended> wait_all(const std::vector<pid_t>& pids,
                            const std::vector<Clock::time_point>& deadlines) {
  std::vector<Ended> ended(pids.size());
  std::vector<bool> done(pids.size(), false);
  for (std::size_t left = pids.size(); left > 0;) {
    bool progress = false;
    for (std::size_t i = 0; i < pids.size(); ++i) {
      if (done[i]) continue;
      int status = 0;
      const pid_t got = ::waitpid(pids[i], &status, WNOHANG);
      if (got == pids[i]) {
        ended[i].signaled = WIFSIGNALED(status);
        ended[i].number = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
        ended[i].at = Clock::now();
        done[i] = true;
        --left;
        progress = true;
      } else if (Clock::now() > deadlines[i]) {
        ::kill(pids[i], SIGKILL);
        ::waitpid(pids[i], &status, 0);
        ended[i].timed_out = true;
        ended[i].at = Clock::now();
        done[i] = true;
        --left;
        progress = true;
      }
    }
    if (!progress) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return ended;
}

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

struct Verdict {
  std::string code;  // AC, WA, TLE, RTE, JE
  double score = 0;
  std::string message;
};

struct Harness {
  fs::path package, work;
  std::chrono::milliseconds limit{5000};
  bool output_first = false;
};

// ---- icpc -------------------------------------------------------------------------------------

std::vector<fs::path> icpc_tests(const fs::path& package) {
  std::vector<fs::path> tests;
  for (const char* group : {"sample", "secret"}) {
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(package / "data" / group))
      if (entry.path().extension() == ".in") found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    tests.insert(tests.end(), found.begin(), found.end());
  }
  return tests;
}

Verdict icpc_run(const Harness& h, const fs::path& binary, const fs::path& in, int number) {
  const fs::path feedback = h.work / ("feedback-" + std::to_string(number));
  fs::remove_all(feedback);
  fs::create_directories(feedback);
  int to_submission[2], to_validator[2];
  if (::pipe(to_submission) != 0 || ::pipe(to_validator) != 0) std::exit(2);
  const fs::path answer = fs::path(in).replace_extension(".ans");
  const std::string run = (h.package / "output_validators" / "ioiwari" / "run").string();
  const pid_t validator = ::fork();
  if (validator == 0) {
    ::dup2(to_validator[0], 0);
    ::dup2(to_submission[1], 1);
    for (int fd : {to_submission[0], to_submission[1], to_validator[0], to_validator[1]})
      ::close(fd);
    exec_or_die(run, {run, in.string(), answer.string(), feedback.string() + "/"});
  }
  const pid_t submission = ::fork();
  if (submission == 0) {
    ::dup2(to_submission[0], 0);
    ::dup2(to_validator[1], 1);
    for (int fd : {to_submission[0], to_submission[1], to_validator[0], to_validator[1]})
      ::close(fd);
    exec_or_die(binary.string(), {binary.string()});
  }
  for (int fd : {to_submission[0], to_submission[1], to_validator[0], to_validator[1]})
    ::close(fd);
  const auto start = Clock::now();
  // The validator's own limit is far beyond the submission's: it is waited for once the
  // submission has ended (a validator that outlives it is a judge error).
  const std::vector<Ended> ended =
      wait_all({submission, validator}, {start + h.limit, start + 6 * h.limit});
  const Ended& player = ended[0];
  const Ended& judge = ended[1];
  Verdict verdict;
  verdict.message = first_line(read_file(feedback / "teammessage.txt"));
  if (player.timed_out) {
    verdict.code = "TLE";
  } else if (player.failed() &&
             !(player.signaled && player.number == SIGPIPE && judge.at <= player.at)) {
    verdict.code = "RTE";
  } else if (!judge.timed_out && !judge.signaled && judge.number == 42) {
    verdict.code = "AC";
    verdict.score = std::atof(read_file(feedback / "score.txt").c_str());
  } else if (!judge.timed_out && !judge.signaled && judge.number == 43) {
    verdict.code = "WA";
  } else {
    verdict.code = "JE";
    verdict.message = "the validator ended with " + std::to_string(judge.number) + ": " +
                      first_line(read_file(feedback / "judgemessage.txt"));
  }
  return verdict;
}

bool icpc_inputs_valid(const Harness& h, const std::vector<fs::path>& tests) {
  const std::string run = (h.package / "input_validators" / "ioiwari" / "run").string();
  for (const fs::path& in : tests) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int fd = ::open(in.c_str(), O_RDONLY);
      ::dup2(fd, 0);
      exec_or_die(run, {run});
    }
    const Ended ended = wait_all({pid}, {Clock::now() + 6 * h.limit}).front();
    if (ended.failed() && !(ended.number == 42 && !ended.signaled)) {
      if (ended.number != 42 || ended.signaled || ended.timed_out) {
        std::cout << "icpc: the input validator refuses " << in << " (" << ended.number << ")\n";
        return false;
      }
    }
  }
  return true;
}

// ---- cms --------------------------------------------------------------------------------------

Verdict cms_run(const Harness& h, const fs::path& binary, const fs::path& in, int number) {
  const fs::path box = h.work / ("manager-" + std::to_string(number));
  fs::remove_all(box);
  fs::create_directories(box);
  // CMS copies the manager into the box; a link is the same file at less cost.
  std::error_code linked;
  fs::create_hard_link(h.package / "check" / "manager", box / "manager", linked);
  if (linked) fs::copy_file(h.package / "check" / "manager", box / "manager");
  const fs::path fifos = h.work / ("fifo-" + std::to_string(number));
  fs::remove_all(fifos);
  fs::create_directories(fifos);
  const std::string u_to_m = (fifos / "u0_to_m").string(), m_to_u = (fifos / "m_to_u0").string();
  if (::mkfifo(u_to_m.c_str(), 0666) != 0 || ::mkfifo(m_to_u.c_str(), 0666) != 0) std::exit(2);
  const pid_t manager = ::fork();
  if (manager == 0) {
    if (::chdir(box.c_str()) != 0) ::_exit(127);
    const int input = ::open(in.c_str(), O_RDONLY);
    const int out = ::open("stdout.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open("stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(input, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    exec_or_die("./manager", {"./manager", u_to_m, m_to_u});
  }
  const bool output_first = h.output_first;
  const pid_t user = ::fork();
  if (user == 0) {
    if (output_first) {
      ::dup2(::open(u_to_m.c_str(), O_WRONLY), 1);
      ::dup2(::open(m_to_u.c_str(), O_RDONLY), 0);
    } else {
      ::dup2(::open(m_to_u.c_str(), O_RDONLY), 0);
      ::dup2(::open(u_to_m.c_str(), O_WRONLY), 1);
    }
    exec_or_die(binary.string(), {binary.string()});
  }
  const auto start = Clock::now();
  const std::vector<Ended> ended =
      wait_all({user, manager}, {start + h.limit, start + 6 * h.limit});
  const Ended& player = ended[0];
  const Ended& judge = ended[1];
  Verdict verdict;
  verdict.message = first_line(read_file(box / "stderr.txt"));
  if (player.failed()) {
    verdict.code = player.timed_out ? "TLE" : "RTE";
    return verdict;
  }
  if (judge.failed()) {
    verdict.code = "JE";
    return verdict;
  }
  const std::string outcome = first_line(read_file(box / "stdout.txt"));
  verdict.score = std::atof(outcome.c_str());
  verdict.code = outcome.empty() ? "JE" : verdict.score == 1.0 ? "AC" : "WA";
  return verdict;
}

std::vector<fs::path> cms_tests(const fs::path& package) {
  std::vector<fs::path> tests;
  for (int i = 0; fs::exists(package / "input" / ("input" + std::to_string(i) + ".txt")); ++i)
    tests.push_back(package / "input" / ("input" + std::to_string(i) + ".txt"));
  return tests;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() < 3 || (args[0] != "icpc" && args[0] != "cms")) {
    std::cerr << "usage: judge_harness icpc|cms PACKAGE WORK [--time-limit S] "
                 "[--open-output-first]\n";
    return 2;
  }
  const bool icpc = args[0] == "icpc";
  // Absolute: the manager runs in a folder of its own.
  Harness h{fs::absolute(args[1]), fs::absolute(args[2])};
  for (std::size_t i = 3; i < args.size(); ++i) {
    if (args[i] == "--time-limit" && i + 1 < args.size()) {
      h.limit = std::chrono::milliseconds(std::atoi(args[++i].c_str()) * 1000);
    } else if (args[i] == "--open-output-first") {
      h.output_first = true;
    } else {
      std::cerr << "judge_harness: unknown argument " << args[i] << '\n';
      return 2;
    }
  }
  fs::create_directories(h.work);
  const std::vector<fs::path> tests = icpc ? icpc_tests(h.package) : cms_tests(h.package);
  if (tests.empty()) {
    std::cerr << "judge_harness: no tests in " << h.package << '\n';
    return 2;
  }
  if (icpc && !icpc_inputs_valid(h, tests)) return 1;
  const std::map<std::string, std::string> expected = {{"accepted", "AC"},
                                                       {"wrong_answer", "WA"},
                                                       {"time_limit_exceeded", "TLE"},
                                                       {"run_time_error", "RTE"}};
  const fs::path submissions = h.package / (icpc ? "submissions" : "solutions");
  bool all_as_expected = true;
  int number = 0;
  for (const auto& [folder, wanted] : expected) {
    std::vector<fs::path> sources;
    for (const auto& entry : fs::directory_iterator(submissions / folder))
      sources.push_back(entry.path());
    std::sort(sources.begin(), sources.end());
    for (const fs::path& source : sources) {
      // Compiled once for a source of the same text: the formats of one ring share them.
      const fs::path binary = h.work / (folder + "-" + source.stem().string());
      const fs::path compiled = binary.string() + ".cpp";
      const std::string compile =
          "c++ -std=c++20 -O2 -o '" + binary.string() + "' '" + source.string() + "'";
      const bool fresh =
          fs::exists(binary) && fs::exists(compiled) && read_file(compiled) == read_file(source);
      if (!fresh) fs::copy_file(source, compiled, fs::copy_options::overwrite_existing);
      if (!fresh && std::system(compile.c_str()) != 0) {
        std::cout << folder << "/" << source.filename().string() << ": does not compile\n";
        all_as_expected = false;
        continue;
      }
      Verdict last{"AC", 0, ""};
      double score = 0;
      std::size_t run = 0;
      for (const fs::path& in : tests) {
        ++run;
        last = icpc ? icpc_run(h, binary, in, ++number) : cms_run(h, binary, in, ++number);
        score += last.score;
        if (last.code != "AC") break;
      }
      const bool as_expected = last.code == wanted;
      all_as_expected = all_as_expected && as_expected;
      std::cout << args[0] << " " << folder << "/" << source.filename().string() << ": "
                << last.code << " after " << run << " of " << tests.size() << " tests, score "
                << score << (last.message.empty() ? "" : " (" + last.message + ")")
                << (as_expected ? "" : "  -- expected " + wanted) << '\n';
    }
  }
  return all_as_expected ? 0 : 1;
}
