// `ioiwari package`: a ready problem package of the IOI 2001 task, or of another ring, for a
// judge system (docs/judging.md): the problem package format (Kattis, DOMjudge) or a CMS task.
#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "ioiwari/cli/commands.hpp"
#include "ioiwari/cli/option_names.hpp"
#include "ioiwari/cli/ring_setup.hpp"
#include "ioiwari/core/game_loop.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/core/table_format.hpp"
#include "ioiwari/input/exit_code.hpp"
#include "ioiwari/input/game_file.hpp"
#include "ioiwari/judge/judge_system.hpp"
#include "package_sources.hpp"
#include "textio/quoted.hpp"
#include "textio/wrap.hpp"

namespace ioiwari::cli {

namespace {

namespace fs = std::filesystem;

// The wall-clock seconds a game may take the submission, as the package sets them: the
// example player needs a few milliseconds on the IOI ring.
constexpr int kTimeLimitSeconds = 2;
constexpr int kMemoryLimitMb = 1024;
// The example player's memo holds a byte for every board: rings with more boards than this are
// not packaged.
constexpr std::uint64_t kMostBoards = std::uint64_t{1} << 28;

// What a program of the package may be: run by anyone, changed by its owner (0755).
constexpr fs::perms kRunnable = fs::perms::owner_all | fs::perms::group_read |
                                fs::perms::group_exec | fs::perms::others_read |
                                fs::perms::others_exec;

// A failure to write the package: one line, naming the file.
class PackageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void write(const fs::path& path, std::string_view text, bool executable = false) {
  fs::create_directories(path.parent_path());
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) throw PackageError("cannot write " + textio::quoted(path.string()));
  if (executable) fs::permissions(path, kRunnable);
}

// This program's own file, copied to `path`, runnable.
void copy_self(const fs::path& path) {
  fs::create_directories(path.parent_path());
  std::error_code error;
  fs::copy_file("/proc/self/exe", path, fs::copy_options::overwrite_existing, error);
  if (error)
    throw PackageError("cannot copy ioiwari to " + textio::quoted(path.string()) + ": " +
                       error.message());
  fs::permissions(path, kRunnable);
}

// Whether this program is linked statically: no program interpreter among its ELF headers.
bool linked_statically() {
  std::ifstream self("/proc/self/exe", std::ios::binary);
  Elf64_Ehdr header{};
  if (!self.read(reinterpret_cast<char*>(&header), sizeof header)) return false;
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr program{};
    self.seekg(static_cast<std::streamoff>(header.e_phoff + i * header.e_phentsize));
    if (!self.read(reinterpret_cast<char*>(&program), sizeof program)) return false;
    if (program.p_type == PT_INTERP) return false;
  }
  return true;
}

// A source of the package's examples with the ring's numbers in place of the IOI's.
std::string for_ring(std::string_view source, Ring ring, bool greedy) {
  std::string text(source);
  const auto replace = [&](std::string_view from, const std::string& to) {
    const auto at = text.find(from);
    if (at == std::string::npos) return;
    text.replace(at, from.size(), to);
  };
  replace("constexpr int kPits = 7;", "constexpr int kPits = " + std::to_string(ring.pits) + ";");
  replace("constexpr int kCapacity = 5;",
          "constexpr int kCapacity = " + std::to_string(ring.capacity) + ";");
  if (greedy) replace("constexpr bool kGreedy = false;", "constexpr bool kGreedy = true;");
  return text;
}

struct Test {
  GameFile game;
  int value;  // for player 1, with perfect play
};

// The dialogue of the example player's game on `test`, as a problem package shows a sample:
// "<" what the judge writes, ">" what the player writes. The judge's side is the interactor's
// own (the game loop's StrategySide with the test's seed).
std::string interaction(const Test& test, const Table& table) {
  std::ostringstream lines;
  lines << '<' << test.game.start << '\n';
  class Perfect : public Side {
   public:
    Perfect(const Table& table, std::ostringstream& lines) : table_(table), lines_(lines) {}
    std::optional<Pit> move(const Match& game) override {
      const Pit pit = *table_.best_move(game.board());
      lines_ << '>' << pit.label() << '\n';
      return pit;
    }
    bool played(const Match&, Pit) override { return true; }

   private:
    const Table& table_;
    std::ostringstream& lines_;
  } player(table, lines);
  StrategySide judge(test.game.strategy, table, test.game.seed,
                     [&lines](Pit pit) { lines << '<' << pit.label() << '\n'; });
  Match game(test.game.start);
  play_out(game, player, judge);
  return lines.str();
}

// ---- The statement, in our words. -------------------------------------------------------------

struct Statement {
  std::string title;
  std::vector<std::pair<std::string, std::vector<std::string>>> sections;  // heading, paragraphs
};

Statement statement(Ring ring, const StartRule& rule, std::size_t tests) {
  const std::string pits = std::to_string(ring.pits);
  const std::string full = std::to_string(ring.capacity);
  Statement text;
  text.title = ring == Ring::ioi() ? "Ioiwari" : "Ioiwari on " + pits + " pits";
  text.sections.push_back(
      {"The game",
       {"Ioiwari is a mancala game for two players. " + pits + " pits, labelled 1 to " + pits +
            " clockwise, lie on a ring; a pit holds at most " + full +
            " beads. Each player has a bank, empty at the start. Both players play from any pit. "
            "Player 1 moves first, then the players alternate.",
        "To move, a player takes all the beads of a pit that is not empty into the hand and walks "
        "the ring clockwise from the next pit. At each pit: while the hand holds two or more "
        "beads, a pit holding " +
            full +
            " beads gives one bead to the mover's bank and the hand keeps its beads; any other "
            "pit gets one bead from the hand. The last bead of the hand, if the pit it reaches "
            "holds 1 to " +
            std::to_string(ring.capacity - 1) +
            " beads, goes to the mover's bank with all of that pit's beads; if the pit is empty "
            "or holds " +
            full +
            ", the last bead goes to the opponent's bank. The pit the move began at is not "
            "skipped.",
        "The game ends when a move has emptied every pit. The player with more beads in the bank "
        "wins; equal banks are a tie."}});
  text.sections.push_back(
      {"Interaction",
       {"Your program is player 1. It first reads the start: " + pits +
            " integers, the beads of pits 1 to " + pits + " (each pit holds " +
            std::to_string(rule.min_beads) + " to " + std::to_string(rule.max_beads) + ", " +
            std::to_string(rule.beads) +
            " in all). Then, on its turn, it writes the label of the pit it plays on a line of its "
            "own and flushes its output; on the judge's turn it reads the label of the pit the "
            "judge played. When the board is empty the game is over: your program must write "
            "nothing more and exit at once.",
        "Writing anything that is not the label of a pit holding beads, or ending before the "
        "game does, is a wrong answer."}});
  text.sections.push_back(
      {"Scoring",
       {"There are " + std::to_string(tests) +
        " games, each from a start that player 1 can win however the judge plays. A game won "
        "scores 4 points and a tie 2, as the IOI 2001 scored it; a game lost, or a fault, "
        "scores nothing and is rejected. The judge may play well or badly; it always plays "
        "legal moves."}});
  return text;
}

std::string latex_escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '&' || c == '%' || c == '$' || c == '#' || c == '_' || c == '{' || c == '}') {
      out += '\\';
    }
    out += c;
  }
  return out;
}

std::string as_latex(const Statement& text) {
  std::string out = "\\problemname{" + latex_escaped(text.title) + "}\n";
  for (const auto& [heading, paragraphs] : text.sections) {
    out += "\n\\section*{" + latex_escaped(heading) + "}\n";
    for (const std::string& paragraph : paragraphs)
      out += "\n" + latex_escaped(paragraph) + "\n";
  }
  return out;
}

// A PDF of plain text, as CMS shows a statement: Helvetica, lines wrapped, pages of A4.
std::string as_pdf(const Statement& text) {
  std::vector<std::pair<int, std::string>> lines;  // font size, text
  lines.push_back({18, text.title});
  for (const auto& [heading, paragraphs] : text.sections) {
    lines.push_back({11, ""});
    lines.push_back({14, heading});
    for (const std::string& paragraph : paragraphs) {
      lines.push_back({11, ""});
      std::istringstream wrapped(textio::wrap(paragraph, 90));
      for (std::string line; std::getline(wrapped, line);)
        lines.push_back({11, line});
    }
  }
  // Pages of 50 lines, each a content stream.
  constexpr std::size_t kLinesPerPage = 50;
  std::vector<std::string> pages;
  for (std::size_t first = 0; first < lines.size(); first += kLinesPerPage) {
    std::string stream = "BT\n72 770 Td\n";
    for (std::size_t i = first; i < std::min(lines.size(), first + kLinesPerPage); ++i) {
      std::string escaped;
      for (char c : lines[i].second) {
        if (c == '(' || c == ')' || c == '\\') escaped += '\\';
        escaped += c;
      }
      stream += "/F1 " + std::to_string(lines[i].first) + " Tf\n0 -" +
                std::to_string(lines[i].first + 3) + " Td\n(" + escaped + ") Tj\n";
    }
    pages.push_back(stream + "ET\n");
  }
  // Objects: 1 catalog, 2 pages, 3 font, then each page and its content.
  std::vector<std::string> objects = {"<< /Type /Catalog /Pages 2 0 R >>", "",
                                      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"};
  std::string kids;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    const std::size_t page = objects.size() + 1;
    kids += std::to_string(page) + " 0 R ";
    objects.push_back(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font "
        "<< /F1 3 0 R >> >> /Contents " +
        std::to_string(page + 1) + " 0 R >>");
    objects.push_back("<< /Length " + std::to_string(pages[i].size()) + " >>\nstream\n" + pages[i] +
                      "endstream");
  }
  objects[1] =
      "<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(pages.size()) + " >>";
  std::string pdf = "%PDF-1.4\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const std::size_t xref = pdf.size();
  pdf += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (std::size_t offset : offsets) {
    std::ostringstream entry;
    entry << std::setw(10) << std::setfill('0') << offset << " 00000 n \n";
    pdf += entry.str();
  }
  pdf += "trailer\n<< /Size " + std::to_string(objects.size() + 1) +
         " /Root 1 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return pdf;
}

// ---- The two formats. -------------------------------------------------------------------------

// The example submissions, by the verdict each must get.
void write_submissions(const fs::path& folder, Ring ring) {
  write(folder / "accepted" / "perfect.cpp", for_ring(package_sources::kPlayer, ring, false));
  write(folder / "wrong_answer" / "greedy.cpp", for_ring(package_sources::kPlayer, ring, true));
  write(folder / "wrong_answer" / "bad_move.cpp", for_ring(package_sources::kBadMove, ring, false));
  write(folder / "time_limit_exceeded" / "stall.cpp",
        for_ring(package_sources::kStall, ring, false));
  write(folder / "run_time_error" / "crash.cpp", for_ring(package_sources::kCrash, ring, false));
}

// A three-digit (or wider) number: the order a judge system runs the tests in.
std::string numbered(std::size_t i, std::size_t count) {
  const std::size_t width = std::max<std::size_t>(3, std::to_string(count).size());
  std::ostringstream name;
  name << std::setw(static_cast<int>(width)) << std::setfill('0') << i;
  return name.str();
}

// The interactor's run script: for a ring other than the IOI's, with the table the package
// wrote beside it, so that no game waits for a solve.
std::string interact_run(bool with_table, bool trusted) {
  return std::string(
             "#!/bin/sh\n# The interactor: INPUT ANSWER FEEDBACK_DIR, the submission on its "
             "standard input and output.\nhere=$(dirname \"$0\")\nexec \"$here/ioiwari\" "
             "interact ") +
         (with_table ? "--table \"$here/ring.table\" " : "") + (trusted ? "--trust-table " : "") +
         "\"$@\"\n";
}
constexpr std::string_view kCheckRun =
    "#!/bin/sh\n# The input validator: a game file on standard input; 42 when it is one.\n"
    "exec \"$(dirname \"$0\")/ioiwari\" validate \"$@\"\n";

void write_icpc(const fs::path& root, RingSetup& setup, const std::vector<Test>& tests,
                const Table& table) {
  const Ring ring = setup.ring();
  const StartRule& rule = setup.start_rule();
  const Statement text = statement(ring, rule, tests.size());
  write(root / "problem.yaml",
        "name: " + text.title +
            "\nsource: IOI 2001, Tampere\nlicense: unknown\ntype: scoring\nvalidation: custom "
            "interactive score\nlimits:\n  memory: " +
            std::to_string(kMemoryLimitMb) + "\n");
  write(root / ".timelimit", std::to_string(kTimeLimitSeconds) + "\n");  // DOMjudge's
  write(root / "problem_statement" / "problem.en.tex", as_latex(text));
  // The first test is also the sample, which a problem package shows as its dialogue.
  const fs::path sample = root / "data" / "sample" / "001";
  write(sample.string() + ".in", write_game_file(tests.front().game));
  write(sample.string() + ".ans", write_answer(tests.front().value));
  write(sample.string() + ".interaction", interaction(tests.front(), table));
  for (std::size_t i = 0; i < tests.size(); ++i) {
    const fs::path base = root / "data" / "secret" / numbered(i + 1, tests.size());
    write(base.string() + ".in", write_game_file(tests[i].game));
    write(base.string() + ".ans", write_answer(tests[i].value));
  }
  const fs::path checker = root / "input_validators" / "ioiwari";
  copy_self(checker / "ioiwari");
  write(checker / "run", kCheckRun, true);
  const fs::path interactor = root / "output_validators" / "ioiwari";
  copy_self(interactor / "ioiwari");
  const bool with_table = table.classes() != nullptr;
  if (with_table) {
    TableOutput output((interactor / "ring.table").string(), *setup.geometry());
    output.commit(*table.classes());
  }
  write(interactor / "run", interact_run(with_table, with_table && !known_root(ring)), true);
  write_submissions(root / "submissions", ring);
}

void write_cms(const fs::path& root, Ring ring, const StartRule& rule,
               const std::vector<Test>& tests) {
  const Statement text = statement(ring, rule, tests.size());
  write(root / "task.yaml",
        "name: ioiwari\ntitle: " + text.title +
            "\ntime_limit: " + std::to_string(kTimeLimitSeconds) + ".0\nmemory_limit: " +
            std::to_string(kMemoryLimitMb) + "\nn_input: " + std::to_string(tests.size()) +
            "\npublic_testcases: 0\ntotal_value: 100\ninfile: \"\"\noutfile: \"\"\n"
            "primary_language: en\n");
  write(root / "statement" / "statement.pdf", as_pdf(text));
  for (std::size_t i = 0; i < tests.size(); ++i) {
    write(root / "input" / ("input" + std::to_string(i) + ".txt"), write_game_file(tests[i].game));
    write(root / "output" / ("output" + std::to_string(i) + ".txt"), write_answer(tests[i].value));
  }
  // CMS runs its manager as ./manager FROM_USER TO_USER: ioiwari under that name is `manage`.
  copy_self(root / "check" / "manager");
  write_submissions(root / "solutions", ring);
}

}  // namespace

int run_package(Invocation& call) {
  const Parsed& parsed = call.parsed;
  RingSetup setup(call);
  const Ring ring = setup.ring();
  if (ring.code_count() > kMostBoards) {
    throw UsageError(ring_options(ring) + ": the example player keeps a byte for each of the " +
                     std::to_string(ring.code_count()) +
                     " boards; a package is made for rings of " + "at most " +
                     std::to_string(kMostBoards) + " boards");
  }
  const std::uint64_t seed = static_cast<std::uint64_t>(*parsed.number(opt::seed));
  const std::vector<Strategy> strategies = strategies_of(*parsed.list(opt::strategy));
  const std::vector<Board> starts = setup.chosen_starts(*parsed.text(opt::starts), seed);
  const fs::path out = *parsed.text(opt::out);
  std::error_code error;
  if (fs::symlink_status(out, error).type() != fs::file_type::not_found) {
    call.complain("--out " + textio::quoted(out.string()) +
                  " exists; the package goes in a new folder");
    return to_int(ExitCode::usage);
  }
  const Table& table = setup.table(kMaxRingBeads, parsed.given(opt::quiet));
  std::vector<Test> tests;
  std::size_t lost = 0;
  for (const Board& start : starts) {
    const int value = table.value(start);
    if (value <= 0) {
      ++lost;
      continue;
    }
    for (Strategy strategy : strategies)
      tests.push_back({GameFile{ring, start, strategy, seed + tests.size()}, value});
  }
  if (tests.empty()) {
    call.complain("player 1 can win none of the " + std::to_string(starts.size()) +
                  " starts chosen: no test to make");
    return to_int(ExitCode::usage);
  }
  // Made in a folder beside --out and renamed onto it at the end: no half-made package.
  const fs::path building = out.string() + ".making-" + std::to_string(::getpid());
  try {
    const std::string format = *parsed.text(opt::format);
    if (format == "icpc") {
      write_icpc(building, setup, tests, table);
    } else {
      write_cms(building, ring, setup.start_rule(), tests);
    }
    fs::rename(building, out);
  } catch (const std::exception& failure) {
    fs::remove_all(building, error);
    call.complain(failure.what());
    return to_int(ExitCode::failure);
  }
  if (lost > 0) {
    call.complain(std::to_string(lost) + " of the starts chosen are not wins for player 1 and " +
                  "are left out");
  }
  if (!linked_statically()) {
    call.complain(
        "this ioiwari is linked dynamically: the package's copy of it needs its "
        "libraries where the judge runs it (the release preset builds it static)");
  }
  call.out << "wrote " << out.string() << ": " << tests.size() << " games, "
           << *parsed.text(opt::format) << " format\n";
  return written(call, to_int(ExitCode::ok));
}

}  // namespace ioiwari::cli
