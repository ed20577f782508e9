// Table files that anyone may have crafted: the input rewrites bytes of a sound table of a small
// ring (its header's fields, its index's lines, its values), and mostly recomputes its hashes as
// an attacker would. Held to the ring's true root, no value read differs from the true table's:
// the table is refused instead. Trusted, as
// --trust-table trusts a ring with no known root, loading it and asking every board's value,
// best move and analysis must answer within the ring's range, or refuse the table with one line
// naming it: never read outside the table (AddressSanitizer watches), never crash.
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "../support/table_seal.hpp"
#include "fuzz_invariant.hpp"
#include "ioiwari/core/table.hpp"
#include "ioiwari/core/table_file.hpp"

using namespace ioiwari;

namespace {

const Ring kRing{4, 3};

// The folders of this target's runs: TMPDIR/ioiwari-fuzz-table-PID (TMPDIR is /tmp unless set).
// libFuzzer ends a run with _exit, past the atexit() that removes a run's own: ctest gives each
// run a TMPDIR of its own and removes it, and a run by hand first removes the folders of runs
// whose process is gone.
constexpr char kFolderPrefix[] = "ioiwari-fuzz-table-";

std::string temporary_folder() {
  const char* set = std::getenv("TMPDIR");
  return set != nullptr && *set != '\0' ? set : "/tmp";
}

void remove_dead_folders() {
  DIR* tmp = ::opendir(temporary_folder().c_str());
  if (tmp == nullptr) return;
  while (const dirent* entry = ::readdir(tmp)) {
    const std::string name = entry->d_name;
    if (!name.starts_with(kFolderPrefix)) continue;
    const std::string digits = name.substr(sizeof kFolderPrefix - 1);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto pid = static_cast<pid_t>(std::stol(digits));
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;
    const std::string folder = temporary_folder() + "/" + name;
    ::unlink((folder + "/crafted.table").c_str());
    ::rmdir(folder.c_str());
  }
  ::closedir(tmp);
}

// A folder of this process's own, and a sound table's bytes.
struct Sound {
  std::string folder, path;
  std::vector<unsigned char> bytes;
  std::shared_ptr<const RingTable> truth;
  Sound() {
    remove_dead_folders();
    folder = temporary_folder() + "/" + kFolderPrefix + std::to_string(::getpid());
    ::mkdir(folder.c_str(), 0700);
    path = folder + "/crafted.table";
    truth = RingTable::solve(RingGeometry::of(kRing), {});
    save_table(*truth, path);
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
    std::atexit([] {
      ::unlink(sound().path.c_str());
      ::rmdir(sound().folder.c_str());
    });
  }
  static const Sound& sound();
};

const Sound& Sound::sound() {
  static const Sound made;
  return made;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Sound& sound = Sound::sound();
  const RingGeometry parts(kRing);
  const TableLayout& layout = parts.layout();
  std::vector<unsigned char> bytes = sound.bytes;
  // Each three bytes: which part, where in it, and the new byte.
  const std::uint64_t regions[3][2] = {{0, TableHeader::kFieldBytes},
                                       {layout.lines_offset, parts.index_bytes()},
                                       {layout.values_offset, parts.values_bytes()}};
  for (std::size_t i = 0; i + 3 <= size; i += 3) {
    const auto& region = regions[data[i] % 3];
    bytes[region[0] + data[i + 1] % region[1]] = data[i + 2];
  }
  // A length of 3k+1 leaves the hashes as they were: the damage then shows as damage.
  if (size % 3 != 1) test::reseal(bytes);
  {
    std::ofstream out(sound.path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  TableReading reading;
  reading.roots = RootBook::built_in();
  reading.cache_bytes = 1 << 20;
  const bool same = bytes == sound.bytes;
  try {
    // Held to the root: every value read is the true table's, or the table is refused (at once
    // when its hashes were recomputed; when a changed page is read when they were not).
    const Table table(load_table(sound.path, RingGeometry::of(kRing), reading));
    for (Board::Code code = 0; code < kRing.code_count(); ++code) {
      const Board board = Board::from_code(code, kRing);
      FUZZ_CHECK(table.value(board) == sound.truth->value(board));
    }
  } catch (const TableFileError& error) {
    FUZZ_CHECK(!same);
    FUZZ_CHECK(std::string(error.what()).find(sound.path) != std::string::npos);
  }
  reading.roots = RootBook::none();
  reading.trust_unknown_root = true;
  try {
    const Table table(load_table(sound.path, RingGeometry::of(kRing), reading));
    for (Board::Code code = 0; code < kRing.code_count(); ++code) {
      const Board board = Board::from_code(code, kRing);
      const int value = table.value(board);
      FUZZ_CHECK(value >= -kRing.max_beads() && value <= kRing.max_beads());
      const auto best = table.best_move(board);
      FUZZ_CHECK(best.has_value() == !board.empty());
      for (const PitValue& move : table.analyze(board))
        FUZZ_CHECK(move.value <= value);
    }
  } catch (const TableFileError& error) {
    const std::string what = error.what();
    FUZZ_CHECK(what.find('\n') == std::string::npos);
    FUZZ_CHECK(what.find(sound.path) != std::string::npos);
  }
  try {
    // Whatever it is told of roots, verify passes only the true table, byte for byte.
    VerifyOptions options;
    options.roots = RootBook::none();
    verify_table(sound.path, options);
    FUZZ_CHECK(same);
  } catch (const TableFileError&) {
  }
  return 0;
}
