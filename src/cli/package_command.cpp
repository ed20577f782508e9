// `ioiwari package`: a ready problem package of the IOI 2001 task, or of another ring, for a
// judge system (docs/judging.md): the problem package format (Kattis, DOMjudge) or a CMS task.
// Every file, key and mode it writes is one that the systems' own code was read for; the
// document names, for each, what in which system decided it.
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
#include "ioiwari/core/ring_geometry.hpp"
#include "ioiwari/core/sha256.hpp"
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

// The seconds of CPU time a game may take the submission, as the package sets them: the
// example player needs a few milliseconds on the IOI ring.
constexpr int kTimeLimitSeconds = 2;
constexpr int kMemoryLimitMb = 1024;
// The example player's memo holds a byte for every board: rings with more boards than this are
// not packaged.
constexpr std::uint64_t kMostBoards = std::uint64_t{1} << 28;
// A judge's manager (CMS) solves the ring at each test while the submission's clock runs, on one
// thread, and the example player solves it too: rings of more rotation classes than this are not
// packaged, so that both stay well within the time limit. Measured on a 2-core machine
// (docs/judging.md): the largest ring within it, 12 pits of capacity 3 (1,398,500 classes), is
// solved in 0.26 s; 11 pits of capacity 4 (4.4 million) took 0.67 s and the example player 0.65 s;
// 12 pits of capacity 4 took 3.3 to 3.9 s and 6.95 s, past the limit.
constexpr std::uint64_t kMostClasses = 1'500'000;
// A game file's seed is 0 to 2^63 - 1 (docs/judging.md): the seeds of a package's games count on
// from --seed and wrap within that range.
constexpr std::uint64_t kSeedMask = (std::uint64_t{1} << 63) - 1;

// What a program of the package may be: run by anyone, changed by its owner (0755).
constexpr fs::perms kRunnable = fs::perms::owner_all | fs::perms::group_read |
                                fs::perms::group_exec | fs::perms::others_read |
                                fs::perms::others_exec;

enum class Format { icpc, cms };

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

// ---- The example submissions. -----------------------------------------------------------------

// `text` with its one `from` replaced by `to`. The sources are this program's own, so a `from`
// that is not there is a fault of this file, not of the user's.
std::string replaced(std::string text, std::string_view from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos)
    throw std::logic_error("package: an example source lacks " + std::string(from));
  return text.replace(at, from.size(), to);
}

std::string with_pits(std::string_view source, Ring ring) {
  return replaced(std::string(source), "constexpr int kPits = 7;",
                  "constexpr int kPits = " + std::to_string(ring.pits) + ";");
}

// The player of package/player.cpp for `ring`, with one of its switches set.
enum class Player { perfect, greedy, crash_at_end, stall_at_end };
std::string player_source(Ring ring, Player player) {
  std::string text =
      replaced(with_pits(package_sources::kPlayer, ring), "constexpr int kCapacity = 5;",
               "constexpr int kCapacity = " + std::to_string(ring.capacity) + ";");
  if (player == Player::greedy)
    text = replaced(text, "constexpr bool kGreedy = false;", "constexpr bool kGreedy = true;");
  if (player == Player::crash_at_end)
    text =
        replaced(text, "constexpr bool kCrashAtEnd = false;", "constexpr bool kCrashAtEnd = true;");
  if (player == Player::stall_at_end)
    text =
        replaced(text, "constexpr bool kStallAtEnd = false;", "constexpr bool kStallAtEnd = true;");
  return text;
}

// The example submissions, each in the folder of the verdict it must get: the folder names are
// the problem package format's, which DOMjudge also reads as expected results.
void write_submissions(const fs::path& folder, Ring ring) {
  write(folder / "accepted" / "perfect.cpp", player_source(ring, Player::perfect));
  write(folder / "wrong_answer" / "greedy.cpp", player_source(ring, Player::greedy));
  write(folder / "wrong_answer" / "bad_move.cpp", with_pits(package_sources::kBadMove, ring));
  write(folder / "time_limit_exceeded" / "stall.cpp", player_source(ring, Player::stall_at_end));
  write(folder / "run_time_error" / "crash.cpp", player_source(ring, Player::crash_at_end));
}

// ---- The games. -------------------------------------------------------------------------------

struct Test {
  GameFile game;
  int value;  // for player 1, with perfect play
};

// The dialogue of the example player's game on `test`: what the judge writes (`judge` first)
// and what the player writes (`player`), a line each, in turn. The judge's side is the
// interactor's own (the game loop's StrategySide with the test's seed).
std::vector<std::pair<bool, std::string>> dialogue(const Test& test, const Table& table) {
  std::vector<std::pair<bool, std::string>> lines;  // (the judge's, text)
  std::ostringstream start;
  start << test.game.start;
  lines.emplace_back(true, start.str());
  class Perfect : public Side {
   public:
    Perfect(const Table& table, std::vector<std::pair<bool, std::string>>& lines)
        : table_(table), lines_(lines) {}
    std::optional<Pit> move(const Match& game) override {
      const Pit pit = *table_.best_move(game.board());
      lines_.emplace_back(false, std::to_string(pit.label()));
      return pit;
    }
    bool played(const Match&, Pit) override { return true; }

   private:
    const Table& table_;
    std::vector<std::pair<bool, std::string>>& lines_;
  } player(table, lines);
  StrategySide judge(test.game.strategy, table, test.game.seed,
                     [&lines](Pit pit) { lines.emplace_back(true, std::to_string(pit.label())); });
  Match game(test.game.start);
  play_out(game, player, judge);
  return lines;
}

// The dialogue as the problem package format keeps a sample interaction: "<" before what the
// submission reads, ">" before what it writes (problemtools' statement templates).
std::string interaction_file(const std::vector<std::pair<bool, std::string>>& lines) {
  std::string text;
  for (const auto& [judge, line] : lines)
    text += (judge ? "<" : ">") + line + "\n";
  return text;
}

// ---- The statement, in our words. -------------------------------------------------------------

struct Section {
  std::string heading;
  std::vector<std::string> paragraphs;
  std::vector<std::string> verbatim;  // lines set as they are, after the paragraphs
};

struct Statement {
  std::string title;
  std::vector<Section> sections;
};

std::string count_text(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The statement of a package of `games` games in `format`, with the dialogue of `example` when
// the system shows no sample of its own (every one but the problem package's LaTeX, whose
// system sets the sample interaction below the text).
Statement statement(Ring ring, const StartRule& rule, Format format, std::size_t games,
                    const std::vector<std::pair<bool, std::string>>* example) {
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
        "wins; equal banks are a tie."},
       {}});
  text.sections.push_back(
      {"Interaction",
       {"Your program is player 1; the judge is player 2. Your program first reads the start: " +
        pits + " integers, the beads of pits 1 to " + pits + " (each pit holds " +
        std::to_string(rule.min_beads) + " to " + std::to_string(rule.max_beads) + ", " +
        std::to_string(rule.beads) +
        " in all). Then, on its turn, it writes the label of the pit it plays on a line of its "
        "own and flushes its output; on the judge's turn it reads the label of the pit the "
        "judge played. When the board is empty the game is over: your program must write "
        "nothing more and exit at once, with status 0."},
       {}});
  const std::string faults =
      "writing anything that is not the label of a pit holding beads, or anything after the end "
      "of a game";
  const std::string judge_plays = "The judge may play well or badly; it always plays legal moves.";
  if (format == Format::icpc) {
    text.sections.push_back(
        {"Scoring",
         {"Your program plays " + count_text(games, "game", "games") +
              ", the example among them, each from a start that player 1 can win however the "
              "judge plays. It is accepted when it wins every one of them. A tie or a loss is a "
              "wrong answer, and so is " +
              faults + ". A program that runs past the time limit of " +
              std::to_string(kTimeLimitSeconds) +
              " seconds of CPU time a game, or ends with an error, gets that verdict.",
          "The IOI 2001 gave 4 points for a game won and 2 for a tie; here every game must be "
          "won. " +
              judge_plays},
         {}});
  } else {
    text.sections.push_back(
        {"Scoring",
         {"There are " + count_text(games, "game", "games") +
          ", each from a start that player 1 can win however the judge plays, and each worth "
          "100/" +
          std::to_string(games) +
          " points: all of them for a game won, half for a tie, and none for a loss or a "
          "fault: " +
          faults + ", running past the time limit of " + std::to_string(kTimeLimitSeconds) +
          " seconds of CPU time a game, or ending with an error. This is the IOI 2001's "
          "scoring: 4 points for a game won, 2 for a tie. " +
          judge_plays},
         {}});
  }
  if (example != nullptr) {
    Section shown{"Example",
                  {"The first game, as your program sees it: the lines the judge writes, and the "
                   "lines a program that plays perfectly writes."},
                  {}};
    for (const auto& [judge, line] : *example)
      shown.verbatim.push_back((judge ? "judge:   " : "program: ") + line);
    text.sections.push_back(shown);
  }
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

// The statement as problemtools compiles it: \problemname and sections, in its problemset class.
std::string as_latex(const Statement& text) {
  std::string out = "\\problemname{" + latex_escaped(text.title) + "}\n";
  for (const Section& section : text.sections) {
    out += "\n\\section*{" + latex_escaped(section.heading) + "}\n";
    for (const std::string& paragraph : section.paragraphs)
      out += "\n" + latex_escaped(paragraph) + "\n";
    if (!section.verbatim.empty()) {
      out += "\n\\begin{verbatim}\n";
      for (const std::string& line : section.verbatim)
        out += line + "\n";
      out += "\\end{verbatim}\n";
    }
  }
  return out;
}

// A PDF of plain text, as CMS and DOMjudge show a statement: Helvetica, lines wrapped, pages of
// A4, and the verbatim lines in Courier.
std::string as_pdf(const Statement& text) {
  struct Line {
    int font;  // 1 Helvetica, 2 Courier
    int size;
    std::string text;
  };
  std::vector<Line> lines;
  lines.push_back({1, 18, text.title});
  for (const Section& section : text.sections) {
    lines.push_back({1, 11, ""});
    lines.push_back({1, 14, section.heading});
    for (const std::string& paragraph : section.paragraphs) {
      lines.push_back({1, 11, ""});
      std::istringstream wrapped(textio::wrap(paragraph, 90));
      for (std::string line; std::getline(wrapped, line);)
        lines.push_back({1, 11, line});
    }
    if (!section.verbatim.empty()) lines.push_back({1, 11, ""});
    for (const std::string& line : section.verbatim)
      lines.push_back({2, 10, line});
  }
  // Pages of 50 lines, each a content stream.
  constexpr std::size_t kLinesPerPage = 50;
  std::vector<std::string> pages;
  for (std::size_t first = 0; first < lines.size(); first += kLinesPerPage) {
    std::string stream = "BT\n72 770 Td\n";
    for (std::size_t i = first; i < std::min(lines.size(), first + kLinesPerPage); ++i) {
      std::string escaped;
      for (char c : lines[i].text) {
        if (c == '(' || c == ')' || c == '\\') escaped += '\\';
        escaped += c;
      }
      stream += "/F" + std::to_string(lines[i].font) + " " + std::to_string(lines[i].size) +
                " Tf\n0 -" + std::to_string(lines[i].size + 3) + " Td\n(" + escaped + ") Tj\n";
    }
    pages.push_back(stream + "ET\n");
  }
  // Objects: 1 catalog, 2 pages, 3 and 4 the fonts, then each page and its content.
  std::vector<std::string> objects = {"<< /Type /Catalog /Pages 2 0 R >>", "",
                                      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
                                      "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>"};
  std::string kids;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    const std::size_t page = objects.size() + 1;
    kids += std::to_string(page) + " 0 R ";
    objects.push_back(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font "
        "<< /F1 3 0 R /F2 4 0 R >> >> /Contents " +
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

// ---- The problem package format (`--format icpc`). --------------------------------------------

// A three-digit (or wider) number: the order a judge system runs the tests in.
std::string numbered(std::size_t i, std::size_t count) {
  const std::size_t width = std::max<std::size_t>(3, std::to_string(count).size());
  std::ostringstream name;
  name << std::setw(static_cast<int>(width)) << std::setfill('0') << i;
  return name.str();
}

// The problem's UUID, which the format asks for (problemtools warns without one): the same for
// every package of one ring and start rule, so that a package made again is the same problem.
// The first 16 bytes of a SHA-256 of them, with the version and variant bits of a UUID made by
// a name-based hash of one's own choosing (version 8).
std::string problem_uuid(Ring ring, const StartRule& rule) {
  const std::string name = "ioiwari task: " + ring_options(ring) + ", starts of " + rule.describe();
  Digest digest = sha256({reinterpret_cast<const unsigned char*>(name.data()), name.size()});
  digest[6] = static_cast<unsigned char>((digest[6] & 0x0F) | 0x80);
  digest[8] = static_cast<unsigned char>((digest[8] & 0x3F) | 0x80);
  const std::string digits = hex(digest).substr(0, 32);
  return digits.substr(0, 8) + "-" + digits.substr(8, 4) + "-" + digits.substr(12, 4) + "-" +
         digits.substr(16, 4) + "-" + digits.substr(20, 12);
}

// A validator's `build`, which DOMjudge's judgehost and problemtools run before `run`.
// DOMjudge's import keeps the execute bit of `build` and `run` alone, and its judgehost runs
// `build` as a user that does not own the files, in a folder it may write: so the copy of ioiwari
// is made runnable by copying it, not by changing its mode (which only its owner may).
constexpr std::string_view kValidatorBuild =
    "#!/bin/sh\n"
    "# Run by the judge system in this folder before `run`: the copy of ioiwari may have lost its\n"
    "# execute bit on import, and this user may not own it, so it is copied and the copy made\n"
    "# runnable.\n"
    "set -e\n"
    "cp ioiwari ioiwari.run\n"
    "chmod 755 ioiwari.run\n";

// The interactor's run script: for a ring other than the IOI's, with the table the package
// wrote beside it, so that no game waits for a solve.
std::string interact_run(bool with_table, bool trusted) {
  return std::string(
             "#!/bin/sh\n# The interactor: INPUT ANSWER FEEDBACK_DIR, the submission on its "
             "standard input and output.\nhere=$(dirname \"$0\")\nexec \"$here/ioiwari.run\" "
             "interact ") +
         (with_table ? "--table \"$here/ring.table\" " : "") + (trusted ? "--trust-table " : "") +
         "\"$@\"\n";
}
constexpr std::string_view kCheckRun =
    "#!/bin/sh\n# The input validator: a game file on standard input; 42 when it is one.\n"
    "exec \"$(dirname \"$0\")/ioiwari.run\" validate \"$@\"\n";

void write_icpc(const fs::path& root, RingSetup& setup, const Test& sample,
                const std::vector<Test>& tests, const Table& table) {
  const Ring ring = setup.ring();
  const StartRule& rule = setup.start_rule();
  const auto example = dialogue(sample, table);
  const std::size_t games = tests.size() + 1;
  // problem.yaml in the format's legacy version, which both systems read: `validation` is one
  // of the values DOMjudge compares it with, and `type` one problemtools allows there.
  write(root / "problem.yaml",
        "name: " + statement(ring, rule, Format::icpc, games, nullptr).title +
            "\nuuid: " + problem_uuid(ring, rule) +
            "\nsource: IOI 2001, Tampere\nlicense: unknown\ntype: pass-fail\nvalidation: custom "
            "interactive\nlimits:\n  memory: " +
            std::to_string(kMemoryLimitMb) + "\n");
  write(root / ".timelimit", std::to_string(kTimeLimitSeconds) + "\n");  // DOMjudge's
  // problemtools compiles the LaTeX and shows the sample interaction below it; DOMjudge shows
  // a PDF, which carries the example itself.
  write(root / "problem_statement" / "problem.en.tex",
        as_latex(statement(ring, rule, Format::icpc, games, nullptr)));
  write(root / "problem_statement" / "problem.pdf",
        as_pdf(statement(ring, rule, Format::icpc, games, &example)));
  // The sample is a game of its own, not a copy of a secret one: its seed is one no secret game
  // has, so no two test files are the same.
  const fs::path sample_base = root / "data" / "sample" / numbered(1, tests.size());
  write(sample_base.string() + ".in", write_game_file(sample.game));
  write(sample_base.string() + ".ans", write_answer(sample.value));
  write(sample_base.string() + ".interaction", interaction_file(example));
  for (std::size_t i = 0; i < tests.size(); ++i) {
    const fs::path base = root / "data" / "secret" / numbered(i + 1, tests.size());
    write(base.string() + ".in", write_game_file(tests[i].game));
    write(base.string() + ".ans", write_answer(tests[i].value));
  }
  const fs::path checker = root / "input_validators" / "ioiwari";
  copy_self(checker / "ioiwari");
  write(checker / "build", kValidatorBuild, true);
  write(checker / "run", kCheckRun, true);
  const fs::path interactor = root / "output_validators" / "ioiwari";
  copy_self(interactor / "ioiwari");
  const bool with_table = table.classes() != nullptr;
  if (with_table) {
    // Format 4, as each judge system was tested with: a package's table is a few MB.
    TableOutput output((interactor / "ring.table").string(), *setup.geometry(), TableFormat::plain);
    output.commit(*table.classes());
  }
  write(interactor / "build", kValidatorBuild, true);
  write(interactor / "run", interact_run(with_table, with_table && !known_root(ring)), true);
  write_submissions(root / "submissions", ring);
}

// ---- CMS (`--format cms`). --------------------------------------------------------------------

// CMS's manager box holds the manager and the test's input alone, and lets it run one process:
// the manager solves the ring at each test, on the one thread it has (under a second on every
// ring a package is made for).
void write_cms(const fs::path& root, Ring ring, const StartRule& rule,
               const std::vector<Test>& tests, const Table& table) {
  const auto example = dialogue(tests.front(), table);
  const Statement text = statement(ring, rule, Format::cms, tests.size(), &example);
  // The keys and types of CMS's italy_yaml loader: strings where it takes strings
  // (public_testcases), the time in seconds and the memory in MiB.
  // The task's name is also the name of the file a contestant submits: one a ring.
  const std::string name = ring == Ring::ioi() ? "ioiwari"
                                               : "ioiwari_" + std::to_string(ring.pits) + "_" +
                                                     std::to_string(ring.capacity);
  write(root / "task.yaml", "name: " + name + "\ntitle: " + text.title +
                                "\ntime_limit: " + std::to_string(kTimeLimitSeconds) +
                                ".0\nmemory_limit: " + std::to_string(kMemoryLimitMb) +
                                "\nn_input: " + std::to_string(tests.size()) +
                                "\ntotal_value: 100\npublic_testcases: all\nfeedback_level: full\n"
                                "score_precision: 2\ntoken_mode: disabled\nprimary_language: en\n");
  write(root / "statement" / "statement.pdf", as_pdf(text));
  for (std::size_t i = 0; i < tests.size(); ++i) {
    write(root / "input" / ("input" + std::to_string(i) + ".txt"), write_game_file(tests[i].game));
    write(root / "output" / ("output" + std::to_string(i) + ".txt"), write_answer(tests[i].value));
  }
  // CMS runs its manager as ./manager FROM_USER TO_USER: ioiwari under that name is `manage`.
  copy_self(root / "check" / "manager");
  // The loader lists sol/ whether or not the task has a grader; the examples live there.
  write_submissions(root / "sol", ring);
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
  if (const std::uint64_t classes = RingGeometry(ring).classes(); classes > kMostClasses) {
    throw UsageError(ring_options(ring) +
                     ": the judge's manager and the example player solve its " +
                     std::to_string(classes) + " rotation classes at each test, too long for the " +
                     std::to_string(kTimeLimitSeconds) + " s time limit; a package is made for " +
                     "rings of at most " + std::to_string(kMostClasses) + " classes");
  }
  const std::uint64_t seed = static_cast<std::uint64_t>(*parsed.number(opt::seed));
  const std::vector<Strategy> strategies = strategies_of(*parsed.list(opt::strategy));
  const std::vector<Board> starts = setup.chosen_starts(*parsed.text(opt::starts), seed);
  const fs::path out = *parsed.text(opt::out);
  const Format format = *parsed.text(opt::format) == "icpc" ? Format::icpc : Format::cms;
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
      tests.push_back({GameFile{ring, start, strategy, (seed + tests.size()) & kSeedMask}, value});
  }
  if (tests.empty()) {
    call.complain("player 1 can win none of the " + std::to_string(starts.size()) +
                  " starts chosen: no test to make");
    return to_int(ExitCode::usage);
  }
  // The problem package's sample: the first test's start and strategy with the next seed.
  Test sample = tests.front();
  sample.game.seed = (seed + tests.size()) & kSeedMask;
  // Made in a folder beside --out and renamed onto it at the end: no half-made package.
  const fs::path building = out.string() + ".making-" + std::to_string(::getpid());
  try {
    if (format == Format::icpc) {
      write_icpc(building, setup, sample, tests, table);
    } else {
      write_cms(building, ring, setup.start_rule(), tests, table);
    }
    fs::rename(building, out);
  } catch (const std::exception& failure) {
    fs::remove_all(building, error);
    call.complain(failure.what());
    return to_int(ExitCode::failure);
  }
  if (lost > 0) {
    call.complain(lost == 1
                      ? std::string("1 of the starts chosen is no win for player 1 and is "
                                    "left out")
                      : std::to_string(lost) +
                            " of the starts chosen are not wins for player 1 and are left out");
  }
  if (!linked_statically()) {
    call.complain(
        "this ioiwari is linked dynamically: the package's copy of it needs its "
        "libraries where the judge runs it (the release preset builds it static)");
  }
  call.out << "wrote " << out.string() << ": "
           << (format == Format::icpc ? tests.size() + 1 : tests.size()) << " games, "
           << *parsed.text(opt::format) << " format\n";
  return written(call, to_int(ExitCode::ok));
}

}  // namespace ioiwari::cli
