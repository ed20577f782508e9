// Judges a package that `ioiwari package` wrote the way its judge system does, and checks that
// every example submission gets the verdict its folder names.
//
//   judge_harness icpc|cms PACKAGE WORK [--time-limit S]
//
// Every rule below copies what a system's own code was found to do (docs/judging.md names the
// code); no rule is one that no system has. WORK must be a folder of the caller's that other
// users may enter: where the harness runs as root, it runs the programs a system runs as a user
// of its own as such a user.
//
// icpc, the problem package format as DOMjudge and problemtools read and judge it:
//   - problem.yaml: `validation` is one of the three values DOMjudge's import compares it with
//     (else the problem is not interactive there), and says interactive; `type` is pass-fail or
//     scoring, the two problemtools allows in the format's legacy version, and pass-fail, since
//     the interactor writes no score; no key outside those problemtools' legacy model takes.
//   - The statement: problem_statement/problem.{pdf,html,txt} for DOMjudge's import, and
//     problem_statement/problem.<language>.tex for problemtools.
//   - The tests: data/sample then data/secret, each in name order (DOMjudge's import; the ranks
//     it judges in); no two .in files alike (problemtools warns, and DOMjudge's import keys a
//     test by its content and name).
//   - Each validator folder as DOMjudge's import stores it: every file rewritten, executable only
//     when it is `build` or `run`; then `build` run in it, as problemtools' BuildRun and
//     DOMjudge's judgehost run it (the latter as a user that does not own the files, in a folder
//     it may write), which must leave an executable `run`. A folder without `build` is refused,
//     as problemtools refuses it (it detects no language in a shell script).
//   - Every .in through each input validator, which must exit 42 (problemtools).
//   - Each test: the output validator as `run IN ANS FEEDBACK_DIR/`, its standard output piped
//     to the submission's standard input and the submission's output to its input, the
//     submission's output closing the validator's input at once (DOMjudge's runpipe). The
//     verdict, in DOMjudge's determineVerdict order, which problemtools' _run_interactive
//     shares: a validator exit other than 42 or 43 is a judge error; a validator that exited
//     first with 43 is WA whatever the submission did; a submission still running at the time
//     limit (wall clock) is TLE; one that exited non-zero or by a signal is RTE; then 42 is AC
//     and 43 WA. A score.txt on a pass-fail problem is a judge error (problemtools'
//     _parse_validator_result). A submission's verdict is its first test's that is not AC.
// cms, a task as CMS's italy_yaml loader imports it and its Communication task type runs it:
//   - task.yaml: name, title, time_limit, memory_limit, n_input, total_value; public_testcases,
//     when given, a string (the loader takes its length); sol/ (the loader lists it), check/manager
//     (which makes the task Communication), statement/statement.pdf for primary_language; and
//     input/inputN.txt, output/outputN.txt for each N below n_input.
//   - Each test: a folder holding the manager and input.txt alone, the manager run there as
//     `./manager U_TO_M M_TO_U` with input.txt on its standard input (Communication.evaluate);
//     the user's program with the FIFO M_TO_U opened as its standard input and then U_TO_M as its
//     standard output (isolate's order). Each in a box of its own: a user of its own where the
//     harness is root, and one process at most (isolate's --processes=1, CMS's default, a
//     limit on the processes of the box's user).
//   - The outcome: 0 when the user's program failed (time limit, non-zero exit, signal),
//     whatever the manager says; a judge error when the manager failed; else the first line of
//     the manager's standard output. The score is Sum's: total_value / n_input times each
//     outcome. The verdict: AC for outcome 1; TLE and RTE for a user that timed out or failed;
//     else WA.
//
// Expected: accepted/ AC on every test; wrong_answer/ WA; time_limit_exceeded/ TLE;
// run_time_error/ RTE. Prints a line per submission; exits 0 when each got its verdict and the
// package holds every rule, 1 when not, 2 for a bad command line or a package it cannot read.
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
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
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// The users the harness runs a system's programs as, when it is root: isolate's first box user
// and the next for CMS's manager and user boxes, and one more for DOMjudge's run user.
constexpr uid_t kManagerUser = 60000;
constexpr uid_t kUserUser = 60001;
constexpr uid_t kBuildUser = 60002;

bool failed_rules = false;
void rule_broken(const std::string& what) {
  std::cout << "rule broken: " << what << '\n';
  failed_rules = true;
}

struct Ended {
  bool timed_out = false;
  bool signaled = false;
  int number = 0;  // the exit status, or the signal
  Clock::time_point at;
  bool failed() const { return timed_out || signaled || number != 0; }
};

// Becomes `uid`, where the harness is root.
void become(uid_t uid) {
  if (::geteuid() != 0) return;
  if (::setgroups(0, nullptr) != 0 || ::setgid(uid) != 0 || ::setuid(uid) != 0) ::_exit(126);
}

// Limits this process's user to one process, as isolate's --processes=1 does: no thread or
// child can be made. Set after the user is taken, since a limit already exceeded when a user is
// taken fails the exec that follows.
void one_process() {
  const rlimit limit{1, 1};
  if (::setrlimit(RLIMIT_NPROC, &limit) != 0) ::_exit(126);
}

[[noreturn]] void exec_or_die(const std::string& program, std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  ::execv(program.c_str(), argv.data());
  ::_exit(127);
}

// Waits for `pids` until `deadline` (each its own), killing what outlives it; records when each
// was seen to end, so that which ended first is known as a judge system's supervisor knows it.
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

// Runs `program` with `args` in `folder` as `uid` (when root), its standard input from `in`
// (or none); true when it exited 0.
bool run_in(const fs::path& folder, const std::string& program, std::vector<std::string> args,
            std::optional<uid_t> uid, const std::string& in = "/dev/null") {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(folder.c_str()) != 0) ::_exit(127);
    const int fd = ::open(in.c_str(), O_RDONLY);
    if (fd < 0) ::_exit(127);
    ::dup2(fd, 0);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    if (uid) become(*uid);
    exec_or_die(program, std::move(args));
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
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

// The top-level `key: value` lines of a YAML file, and the keys of nested blocks under their
// parent's name; enough for the few lines a package's files hold.
std::map<std::string, std::string> yaml_keys(const fs::path& path) {
  std::map<std::string, std::string> keys;
  std::istringstream text(read_file(path));
  for (std::string line; std::getline(text, line);) {
    if (line.empty() || line[0] == '#' || line[0] == ' ') continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    keys[line.substr(0, colon)] = value;
  }
  return keys;
}

struct Verdict {
  std::string code;  // AC, WA, TLE, RTE, JE
  double outcome = 0;
  std::string message;
};

struct Harness {
  fs::path package, work;
  std::chrono::milliseconds limit{5000};
  std::optional<uid_t> build_user;  // when root
};

// ---- icpc -------------------------------------------------------------------------------------

void check_problem_yaml(const fs::path& package) {
  const auto keys = yaml_keys(package / "problem.yaml");
  // DOMjudge's ImportProblemService::parseYaml: anything else leaves the validation "default".
  const std::set<std::string> validations = {"custom", "custom interactive", "custom multi-pass"};
  const auto validation = keys.find("validation");
  if (validation == keys.end() || !validations.contains(validation->second)) {
    rule_broken(
        "problem.yaml: DOMjudge reads `validation` as one of \"custom\", \"custom "
        "interactive\", \"custom multi-pass\"");
  } else if (validation->second != "custom interactive") {
    rule_broken("problem.yaml: the problem is not interactive on DOMjudge");
  }
  // problemtools' legacy model: type is pass-fail or scoring; no other key.
  const auto type = keys.find("type");
  if (type != keys.end() && type->second != "pass-fail" && type->second != "scoring")
    rule_broken("problem.yaml: problemtools takes `type` pass-fail or scoring in this version");
  if (type != keys.end() && type->second != "pass-fail")
    rule_broken("problem.yaml: the interactor writes no score, so the problem is pass-fail");
  const std::set<std::string> legacy = {"problem_format_version",
                                        "type",
                                        "name",
                                        "uuid",
                                        "author",
                                        "source",
                                        "source_url",
                                        "license",
                                        "rights_owner",
                                        "limits",
                                        "validation",
                                        "validator_flags",
                                        "grading",
                                        "keywords"};
  for (const auto& [key, value] : keys)
    if (!legacy.contains(key)) rule_broken("problem.yaml: problemtools forbids the key " + key);
}

void check_statements(const fs::path& package) {
  const fs::path folder = package / "problem_statement";
  bool domjudge = false, problemtools = false;
  for (const char* type : {"pdf", "html", "txt"})
    domjudge = domjudge || fs::exists(folder / (std::string("problem.") + type));
  if (fs::is_directory(folder)) {
    for (const auto& entry : fs::directory_iterator(folder)) {
      const std::string name = entry.path().filename().string();
      problemtools = problemtools || (name.starts_with("problem.") && name.ends_with(".tex"));
    }
  }
  if (!domjudge) rule_broken("no problem_statement/problem.{pdf,html,txt} for DOMjudge");
  if (!problemtools) rule_broken("no problem_statement/problem.<language>.tex for problemtools");
}

std::vector<fs::path> icpc_tests(const fs::path& package) {
  std::vector<fs::path> tests;
  for (const char* group : {"sample", "secret"}) {
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(package / "data" / group))
      if (entry.path().extension() == ".in") found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    tests.insert(tests.end(), found.begin(), found.end());
  }
  std::map<std::string, fs::path> seen;
  for (const fs::path& in : tests) {
    const auto [at, fresh] = seen.emplace(read_file(in), in);
    if (!fresh) rule_broken(in.string() + " is the same as " + at->second.string());
  }
  return tests;
}

// The validator folder `name` of `kind` as the systems prepare it, or nothing when they cannot.
std::optional<fs::path> prepared_validator(const Harness& h, const std::string& kind) {
  const fs::path from = h.package / kind / "ioiwari";
  const fs::path to = h.work / "validators" / kind;
  fs::remove_all(to);
  fs::create_directories(to);
  for (const auto& entry : fs::directory_iterator(from)) {
    const std::string name = entry.path().filename().string();
    std::ofstream(to / name, std::ios::binary) << read_file(entry.path());
    fs::permissions(to / name,
                    (name == "build" || name == "run") ? fs::perms(0755) : fs::perms(0644));
  }
  if (!fs::exists(to / "build")) {
    rule_broken(kind + "/ioiwari has no build, so problemtools finds no program in it");
    return std::nullopt;
  }
  fs::permissions(to, fs::perms::all);  // DOMjudge's build_executable script: chmod a+rwx
  if (!run_in(to, "./build", {"./build"}, h.build_user)) {
    rule_broken(kind + "/ioiwari: build failed (run as a user that does not own its files)");
    return std::nullopt;
  }
  if (::access((to / "run").c_str(), X_OK) != 0) {
    rule_broken(kind + "/ioiwari: build left no executable run");
    return std::nullopt;
  }
  return to;
}

Verdict icpc_run(const Harness& h, const fs::path& validator, const fs::path& binary,
                 const fs::path& in, int number) {
  const fs::path feedback = h.work / ("feedback-" + std::to_string(number));
  fs::remove_all(feedback);
  fs::create_directories(feedback);
  int to_submission[2], to_validator[2];
  if (::pipe(to_submission) != 0 || ::pipe(to_validator) != 0) std::exit(2);
  const fs::path answer = fs::path(in).replace_extension(".ans");
  const std::string run = (validator / "run").string();
  const pid_t judge_pid = ::fork();
  if (judge_pid == 0) {
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
  // The validator's own limit is far beyond the submission's (DOMjudge runs it unlimited in
  // time, problemtools at its validation time limit).
  const std::vector<Ended> ended =
      wait_all({submission, judge_pid}, {start + h.limit, start + 6 * h.limit});
  const Ended& player = ended[0];
  const Ended& judge = ended[1];
  Verdict verdict;
  verdict.message = first_line(read_file(feedback / "teammessage.txt"));
  const bool judge_exited = !judge.timed_out && !judge.signaled;
  if (!judge_exited || (judge.number != 42 && judge.number != 43)) {
    verdict.code = "JE";
    verdict.message = "the validator ended with " + std::to_string(judge.number) + ": " +
                      first_line(read_file(feedback / "judgemessage.txt"));
  } else if (judge.number == 43 && judge.at < player.at) {
    verdict.code = "WA";
  } else if (player.timed_out) {
    verdict.code = "TLE";
  } else if (player.failed()) {
    verdict.code = "RTE";
  } else if (fs::exists(feedback / "score.txt")) {
    verdict.code = "JE";
    verdict.message = "the validator wrote score.txt on a pass-fail problem";
  } else {
    verdict.code = judge.number == 42 ? "AC" : "WA";
    verdict.outcome = judge.number == 42 ? 1 : 0;
  }
  return verdict;
}

bool icpc_inputs_valid(const Harness& h, const fs::path& validator,
                       const std::vector<fs::path>& tests) {
  const std::string run = (validator / "run").string();
  for (const fs::path& in : tests) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int fd = ::open(in.c_str(), O_RDONLY);
      ::dup2(fd, 0);
      exec_or_die(run, {run});
    }
    const Ended ended = wait_all({pid}, {Clock::now() + 6 * h.limit}).front();
    if (ended.timed_out || ended.signaled || ended.number != 42) {
      std::cout << "icpc: the input validator refuses " << in << " (" << ended.number << ")\n";
      return false;
    }
  }
  return true;
}

// ---- cms --------------------------------------------------------------------------------------

std::optional<std::vector<fs::path>> cms_tests(const fs::path& package) {
  const auto keys = yaml_keys(package / "task.yaml");
  for (const char* key : {"name", "title", "time_limit", "memory_limit", "n_input"})
    if (!keys.contains(key)) rule_broken(std::string("task.yaml has no ") + key);
  if (keys.contains("public_testcases")) {
    const std::string value = keys.at("public_testcases");
    const bool is_string = value == "all" || value.starts_with('"') ||
                           value.find_first_not_of("0123456789") != std::string::npos;
    if (!is_string) rule_broken("task.yaml: CMS takes public_testcases as a string, not " + value);
  }
  if (!fs::is_directory(package / "sol")) rule_broken("no sol/, which CMS's loader lists");
  if (!fs::exists(package / "check" / "manager"))
    rule_broken("no check/manager: not Communication");
  if (!fs::exists(package / "statement" / "statement.pdf"))
    rule_broken("no statement/statement.pdf");
  if (!keys.contains("n_input") || !fs::is_directory(package / "sol")) return std::nullopt;
  std::vector<fs::path> tests;
  const int count = std::atoi(keys.at("n_input").c_str());
  for (int i = 0; i < count; ++i) {
    const fs::path in = package / "input" / ("input" + std::to_string(i) + ".txt");
    if (!fs::exists(in) ||
        !fs::exists(package / "output" / ("output" + std::to_string(i) + ".txt")))
      rule_broken("test " + std::to_string(i) + " lacks its input or output file");
    tests.push_back(in);
  }
  return tests;
}

Verdict cms_run(const Harness& h, const fs::path& binary, const fs::path& in, int number) {
  const fs::path box = h.work / ("manager-" + std::to_string(number));
  fs::remove_all(box);
  fs::create_directories(box);
  // CMS copies the manager into the box; a link is the same file at less cost.
  std::error_code linked;
  fs::create_hard_link(h.package / "check" / "manager", box / "manager", linked);
  if (linked) fs::copy_file(h.package / "check" / "manager", box / "manager");
  fs::permissions(box / "manager", fs::perms(0755));
  fs::copy_file(in, box / "input.txt");
  fs::permissions(box / "input.txt", fs::perms(0644));
  fs::permissions(box, fs::perms::all);  // the manager's box user writes its output there
  const fs::path fifos = h.work / ("fifo-" + std::to_string(number));
  fs::remove_all(fifos);
  fs::create_directories(fifos);
  fs::permissions(fifos, fs::perms(0755));
  const std::string u_to_m = (fifos / "u0_to_m").string(), m_to_u = (fifos / "m_to_u0").string();
  if (::mkfifo(u_to_m.c_str(), 0666) != 0 || ::mkfifo(m_to_u.c_str(), 0666) != 0) std::exit(2);
  ::chmod(u_to_m.c_str(), 0666);
  ::chmod(m_to_u.c_str(), 0666);
  const pid_t manager = ::fork();
  if (manager == 0) {
    if (::chdir(box.c_str()) != 0) ::_exit(127);
    const int input = ::open("input.txt", O_RDONLY);
    const int out = ::open("stdout.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open("stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(input, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    become(kManagerUser);
    one_process();
    exec_or_die("./manager", {"./manager", u_to_m, m_to_u});
  }
  const pid_t user = ::fork();
  if (user == 0) {
    become(kUserUser);
    // isolate.c opens the standard input first, then the standard output, in the box.
    const int in_fd = ::open(m_to_u.c_str(), O_RDONLY);
    const int out_fd = ::open(u_to_m.c_str(), O_WRONLY);
    if (in_fd < 0 || out_fd < 0) ::_exit(127);
    ::dup2(in_fd, 0);
    ::dup2(out_fd, 1);
    one_process();
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
  const std::string outcome = first_line(read_file(box / "stdout.txt"));
  if (judge.failed() || outcome.empty()) {
    verdict.code = "JE";
    verdict.message = "the manager failed: " + verdict.message;
    return verdict;
  }
  verdict.outcome = std::atof(outcome.c_str());
  verdict.code = verdict.outcome == 1.0 ? "AC" : "WA";
  return verdict;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() < 3 || (args[0] != "icpc" && args[0] != "cms")) {
    std::cerr << "usage: judge_harness icpc|cms PACKAGE WORK [--time-limit S]\n";
    return 2;
  }
  const bool icpc = args[0] == "icpc";
  // Absolute: the manager runs in a folder of its own.
  Harness h{fs::absolute(args[1]), fs::absolute(args[2]), std::chrono::milliseconds(5000), {}};
  if (::geteuid() == 0) h.build_user = kBuildUser;
  for (std::size_t i = 3; i < args.size(); ++i) {
    if (args[i] == "--time-limit" && i + 1 < args.size()) {
      h.limit = std::chrono::milliseconds(std::atoi(args[++i].c_str()) * 1000);
    } else {
      std::cerr << "judge_harness: unknown argument " << args[i] << '\n';
      return 2;
    }
  }
  fs::create_directories(h.work);
  std::vector<fs::path> tests;
  std::optional<fs::path> validator;
  if (icpc) {
    check_problem_yaml(h.package);
    check_statements(h.package);
    tests = icpc_tests(h.package);
    const auto input = prepared_validator(h, "input_validators");
    validator = prepared_validator(h, "output_validators");
    if (!input || !validator) return 1;
    if (!icpc_inputs_valid(h, *input, tests)) return 1;
  } else {
    const auto found = cms_tests(h.package);
    if (!found) return 1;
    tests = *found;
  }
  if (tests.empty()) {
    std::cerr << "judge_harness: no tests in " << h.package << '\n';
    return 2;
  }
  const std::map<std::string, std::string> expected = {{"accepted", "AC"},
                                                       {"wrong_answer", "WA"},
                                                       {"time_limit_exceeded", "TLE"},
                                                       {"run_time_error", "RTE"}};
  const fs::path submissions = h.package / (icpc ? "submissions" : "sol");
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
      double outcomes = 0;
      std::size_t run = 0;
      for (const fs::path& in : tests) {
        ++run;
        last =
            icpc ? icpc_run(h, *validator, binary, in, ++number) : cms_run(h, binary, in, ++number);
        outcomes += last.outcome;
        if (last.code != "AC") break;
      }
      const bool as_expected = last.code == wanted;
      all_as_expected = all_as_expected && as_expected;
      std::cout << args[0] << " " << folder << "/" << source.filename().string() << ": "
                << last.code << " after " << run << " of " << tests.size() << " tests";
      if (!icpc) std::cout << ", outcomes " << outcomes;
      std::cout << (last.message.empty() ? "" : " (" + last.message + ")")
                << (as_expected ? "" : "  -- expected " + wanted) << '\n';
    }
  }
  return all_as_expected && !failed_rules ? 0 : 1;
}
