// The referee's reports for people and for programs: the summary and the JSON object.
#include "ioiwari/judge/report.hpp"

#include <algorithm>
#include <cstdint>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "textio/number.hpp"
#include "textio/quoted.hpp"
#include "textio/wrap.hpp"

namespace ioiwari {

namespace {

std::string moves_text(const std::vector<Pit>& moves) {
  std::string text;
  for (Pit pit : moves) {
    if (!text.empty()) text += ' ';
    text += std::to_string(pit.label());
  }
  return text;
}

std::string board_text(const Board& board) {
  std::ostringstream out;
  out << board;
  return out.str();
}

double millis(std::chrono::nanoseconds time) {
  return std::chrono::duration<double, std::milli>(time).count();
}

// The UTF-8 sequence that starts `text`: its length and code point, or length 0 where the first
// byte starts none (a lone or broken byte, an overlong form, a surrogate, past U+10FFFF).
struct Utf8 {
  std::size_t length = 0;
  std::uint32_t code = 0;
};
Utf8 utf8_at(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  const std::size_t length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (lead >= 0x80 && length == 1) return {};
  if (lead > 0xf4 || text.size() < length) return {};
  std::uint32_t code = length == 1 ? lead : lead & (0x7fu >> length);
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xc0) != 0x80) return {};
    code = code << 6 | (byte(i) & 0x3fu);
  }
  constexpr std::uint32_t kLeast[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kLeast[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return {};
  return {length, code};
}

// A JSON string of `text`: UTF-8 text as it is, the quote and the backslash escaped, control
// characters (C0, DEL and C1) as \u00XX, and each byte that is no UTF-8 as U+FFFD, as readers of
// text show it (docs/json.md).
std::string json_string(std::string_view text) {
  std::string json = "\"";
  for (std::size_t i = 0; i < text.size();) {
    const Utf8 next = utf8_at(text.substr(i));
    if (next.length == 0) {
      json += "\\ufffd";
      ++i;
      continue;
    }
    if (next.code == '"' || next.code == '\\') {
      json += '\\';
      json += text[i];
    } else if (next.code < 0x20 || (next.code >= 0x7f && next.code < 0xa0)) {
      constexpr char kHex[] = "0123456789abcdef";
      json += "\\u00";
      json += kHex[next.code >> 4];
      json += kHex[next.code & 0xf];
    } else {
      json.append(text.substr(i, next.length));
    }
    i += next.length;
  }
  return json + "\"";
}

// The lines of what a player wrote on standard error that a contestant needs for a game it did
// not win: the first kErrorLines (where it began: a traceback's header) and the last kErrorLines
// (why it ended: a traceback's last line, a sanitizer's summary), each of at most
// kErrorLineBytes bytes (the player chooses their bytes: the text shows them escaped), and how
// many lines there were in all.
constexpr std::size_t kErrorLines = 3, kErrorLineBytes = 200;
struct ErrorLines {
  std::vector<std::string> first, last;
  std::uint64_t total = 0;
  std::uint64_t between() const { return total - first.size() - last.size(); }
};

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    lines.emplace_back(text.substr(0, std::min(end, text.size())));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

ErrorLines error_lines(const GameReport& report) {
  ErrorLines lines;
  lines.total = report.player_error_lines;
  std::vector<std::string> head, tail;
  if (report.player_errors_skipped == 0) {
    head = lines_of(report.player_errors + report.player_errors_tail);
  } else {
    head = lines_of(report.player_errors);
    // The tail begins within a line: its first line is a part.
    std::string_view rest = report.player_errors_tail;
    const auto end = rest.find('\n');
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    tail = lines_of(rest);
  }
  const auto cut = [](const std::string& line) { return line.substr(0, kErrorLineBytes + 1); };
  for (std::size_t i = 0; i < head.size() && i < kErrorLines; ++i)
    lines.first.push_back(cut(head[i]));
  if (tail.empty() && head.size() > kErrorLines) {
    tail.assign(head.begin() + static_cast<std::ptrdiff_t>(kErrorLines), head.end());
  }
  const std::size_t from = tail.size() > kErrorLines ? tail.size() - kErrorLines : 0;
  for (std::size_t i = from; i < tail.size(); ++i)
    lines.last.push_back(cut(tail[i]));
  lines.total = std::max<std::uint64_t>(lines.total, lines.first.size() + lines.last.size());
  return lines;
}

struct Totals {
  std::array<int, kVerdictCount> counts{};
  int points = 0;
  const GameReport* slowest = nullptr;      // wall-clock time of one move
  const GameReport* slowest_cpu = nullptr;  // CPU time of one move
  const GameReport* most_memory = nullptr;
};

Totals totals(const std::vector<GameReport>& reports) {
  Totals totals;
  for (const GameReport& report : reports) {
    ++totals.counts[static_cast<int>(report.verdict)];
    totals.points += points(report.verdict);
    if (totals.slowest == nullptr || report.slowest_move > totals.slowest->slowest_move) {
      totals.slowest = &report;
    }
    if (totals.slowest_cpu == nullptr ||
        report.slowest_move_cpu > totals.slowest_cpu->slowest_move_cpu) {
      totals.slowest_cpu = &report;
    }
    if (totals.most_memory == nullptr ||
        report.peak_memory_kb > totals.most_memory->peak_memory_kb) {
      totals.most_memory = &report;
    }
  }
  return totals;
}

bool all_won(const Totals& sum, const std::vector<GameReport>& reports) {
  return sum.counts[static_cast<int>(Verdict::win)] == static_cast<int>(reports.size());
}

}  // namespace

void write_summary(std::ostream& out, const RefereeRun& run, int show_failures, int columns) {
  const std::vector<GameReport>& reports = run.reports;
  const RefereePlan& plan = run.plan;
  const Totals sum = totals(reports);
  const RefereeLimits& limits = plan.limits;
  const auto width = static_cast<std::size_t>(std::max(columns, 40));
  // A line of the summary, wrapped at spaces to the width, its continuation indented.
  const auto say = [&](const std::string& text, std::size_t indent = 2) {
    out << textio::wrap(text, width, indent) << '\n';
  };
  const std::size_t planned = plan.starts.size() * plan.strategies.size();
  std::string games = textio::counted(reports.size(), "game", "games");
  if (!run.stopped_by.empty()) {
    games = std::to_string(reports.size()) + " of " + std::to_string(planned) +
            " games judged before " + run.stopped_by + " stopped the run";
  }
  say("ioiwari referee: " + games + " (" + textio::counted(plan.starts.size(), "start", "starts") +
      " x " + textio::counted(plan.strategies.size(), "strategy", "strategies") + "), " +
      textio::counted(static_cast<unsigned long long>(plan.jobs), "job", "jobs"));
  say("limits: CPU time " + std::to_string(limits.per_move.count()) + " ms a move, " +
      std::to_string(limits.per_game.count()) + " ms a game, " +
      std::to_string(limits.after_end.count()) + " ms to exit after it; wall-clock time " +
      std::to_string(limits.wall_factor) + " times as long; " + std::to_string(limits.memory_mb) +
      " MB of memory" + (limits.data_limit ? "" : " (no data limit)") + "; " +
      std::to_string(limits.processes) + " processes");
  say("contained: " + run.sandbox.describe() + "; files of " + std::to_string(limits.file_size_mb) +
      " MB at most" +
      (run.sandbox.boxed() ? "; " + std::to_string(limits.disk_mb) + " MB of disk a game" : ""));
  for (int v = 0; v < kVerdictCount; ++v) {
    out << "  " << std::left << std::setw(22) << name(static_cast<Verdict>(v)) << std::right
        << std::setw(6) << sum.counts[v] << '\n';
  }
  out << "points: " << sum.points << " of " << kPointsForWin * reports.size() << '\n';
  const auto game = [](const GameReport& report) {
    std::ostringstream text;
    text << "start " << report.start << ", " << name(report.strategy);
    return text.str();
  };
  const auto ms = [](std::chrono::nanoseconds time) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(1) << millis(time);
    return text.str();
  };
  if (sum.slowest != nullptr) {
    say("slowest move: " + ms(sum.slowest->slowest_move) + " ms of wall-clock time (" +
        game(*sum.slowest) + "); " + ms(sum.slowest_cpu->slowest_move_cpu) + " ms of CPU time (" +
        game(*sum.slowest_cpu) + ")");
    std::ostringstream memory;
    memory << std::fixed << std::setprecision(1)
           << static_cast<double>(sum.most_memory->peak_memory_kb) / 1024;
    say("most memory: " + memory.str() + " MB (" + game(*sum.most_memory) + ")");
  }
  int shown = 0;
  // A line of standard error, cut to fit the width after its label (escapes take room too).
  constexpr std::string_view kLabel = "  its standard error: ";
  const auto fitted = [&](const std::string& line) {
    std::size_t bytes = kErrorLineBytes;
    std::string text = textio::quoted(line, bytes);
    while (kLabel.size() + textio::width_of(text) > width && bytes > 10)
      text = textio::quoted(line, --bytes);
    return text;
  };
  for (const GameReport& report : reports) {
    if (report.verdict == Verdict::win) continue;
    if (shown++ == show_failures) {
      out << "...\n";
      break;
    }
    std::ostringstream line;
    line << "not won: start " << report.start << ", " << name(report.strategy) << ", seed "
         << report.seed << ": " << name(report.verdict);
    if (!report.detail.empty()) line << " (" << report.detail << ")";
    line << "; banks " << report.bank1 << " " << report.bank2 << "; moves "
         << (report.moves.empty() ? "none" : moves_text(report.moves));
    say(line.str(), 4);
    const ErrorLines errors = error_lines(report);
    for (const std::string& text : errors.first)
      out << kLabel << fitted(text) << '\n';
    if (errors.between() > 0) {
      out << kLabel << "... "
          << textio::counted(static_cast<unsigned long long>(errors.between()), "line", "lines")
          << " more ...\n";
    }
    for (const std::string& text : errors.last)
      out << kLabel << fitted(text) << '\n';
  }
  if (!run.stopped_by.empty()) {
    say("stopped by " + run.stopped_by + ": " + std::to_string(planned - reports.size()) +
        " of the games planned were not judged");
  } else {
    out << (all_won(sum, reports) ? "every game won\n" : "not every game won\n");
  }
}

void write_json(std::ostream& out, const RefereeRun& run) {
  const std::vector<GameReport>& reports = run.reports;
  const RefereePlan& plan = run.plan;
  const Sandbox& sandbox = run.sandbox;
  const Totals sum = totals(reports);
  const RefereeLimits& limits = plan.limits;
  out << "{\"games\": " << reports.size()
      << ", \"planned_games\": " << plan.starts.size() * plan.strategies.size()
      << ", \"stopped_by\": "
      << (run.stopped_by.empty() ? std::string("null") : json_string(run.stopped_by))
      << ", \"starts\": " << plan.starts.size() << ", \"strategies\": [";
  for (std::size_t i = 0; i < plan.strategies.size(); ++i) {
    out << (i ? ", " : "") << json_string(name(plan.strategies[i]));
  }
  out << "], \"jobs\": " << plan.jobs
      << ", \"limits\": {\"move_cpu_ms\": " << limits.per_move.count()
      << ", \"game_cpu_ms\": " << limits.per_game.count()
      << ", \"exit_cpu_ms\": " << limits.after_end.count()
      << ", \"wall_factor\": " << limits.wall_factor << ", \"memory_mb\": " << limits.memory_mb
      << ", \"data_limit\": " << (limits.data_limit ? "true" : "false")
      << ", \"max_line_bytes\": " << limits.max_line_bytes
      << ", \"processes\": " << limits.processes << ", \"file_size_mb\": " << limits.file_size_mb
      << ", \"disk_mb\": " << limits.disk_mb << "}, \"containment\": {\"cgroups\": "
      << (sandbox.cgroups() ? (*sandbox.cgroup_version() == CgroupVersion::v2 ? "\"v2\"" : "\"v1\"")
                            : "null")
      << ", \"users\": "
      << (sandbox.users() ? std::to_string(sandbox.users()->uid) : std::string("null"))
      << ", \"isolated\": " << (sandbox.isolated() ? "true" : "false")
      << ", \"boxed\": " << (sandbox.boxed() ? "true" : "false") << "}, \"verdicts\": {";
  for (int v = 0; v < kVerdictCount; ++v) {
    out << (v ? ", " : "") << json_string(name(static_cast<Verdict>(v))) << ": " << sum.counts[v];
  }
  out << "}, \"points\": " << sum.points << ", \"max_points\": " << kPointsForWin * reports.size()
      << std::fixed << std::setprecision(3)
      << ", \"slowest_move_ms\": " << (sum.slowest ? millis(sum.slowest->slowest_move) : 0.0)
      << ", \"slowest_move_cpu_ms\": "
      << (sum.slowest_cpu ? millis(sum.slowest_cpu->slowest_move_cpu) : 0.0)
      << ", \"peak_memory_kb\": " << (sum.most_memory ? sum.most_memory->peak_memory_kb : 0)
      << ", \"not_won\": [";
  bool first = true;
  for (const GameReport& report : reports) {
    if (report.verdict == Verdict::win) continue;
    out << (first ? "" : ", ") << "{\"start\": " << json_string(board_text(report.start))
        << ", \"strategy\": " << json_string(name(report.strategy)) << ", \"seed\": " << report.seed
        << ", \"verdict\": " << json_string(name(report.verdict))
        << ", \"detail\": " << json_string(report.detail) << ", \"bank1\": " << report.bank1
        << ", \"bank2\": " << report.bank2 << ", \"moves\": [";
    for (std::size_t i = 0; i < report.moves.size(); ++i) {
      out << (i ? ", " : "") << report.moves[i].label();
    }
    const ErrorLines errors = error_lines(report);
    out << "], \"stderr\": [";
    for (std::size_t i = 0; i < errors.first.size(); ++i)
      out << (i ? ", " : "") << json_string(errors.first[i].substr(0, kErrorLineBytes));
    out << "], \"stderr_last\": [";
    for (std::size_t i = 0; i < errors.last.size(); ++i)
      out << (i ? ", " : "") << json_string(errors.last[i].substr(0, kErrorLineBytes));
    out << "], \"stderr_lines\": " << errors.total << "}";
    first = false;
  }
  out << "], \"reports\": [";
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const GameReport& report = reports[i];
    out << (i ? ", " : "") << "{\"start\": " << json_string(board_text(report.start))
        << ", \"strategy\": " << json_string(name(report.strategy)) << ", \"seed\": " << report.seed
        << ", \"verdict\": " << json_string(name(report.verdict)) << ", \"bank1\": " << report.bank1
        << ", \"bank2\": " << report.bank2 << ", \"cpu_ms\": " << millis(report.cpu)
        << ", \"wall_ms\": " << millis(report.wall)
        << ", \"peak_memory_kb\": " << report.peak_memory_kb
        << ", \"max_rss_kb\": " << report.max_rss_kb << "}";
  }
  out << "], \"all_won\": " << (all_won(sum, reports) ? "true" : "false") << "}\n";
}

}  // namespace ioiwari
