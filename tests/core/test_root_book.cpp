// The roots a user records by verifying a table (root_book.hpp): the list read only when no
// other user could have written it, written whole and at once, no record lost to another
// recorder; and a reader holding a ring's files to its recorded root as to a built-in one.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/root_book.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/core/tier_solver.hpp"
#include "sanitized.hpp"
#include "table_files.hpp"

using namespace ioiwari;
using ioiwari::test::rewrite;
using ioiwari::test::TempFolder;
namespace fs = std::filesystem;

namespace {

constexpr Ring kRing{6, 4};

Digest some_root(unsigned char seed) {
  Digest root{};
  root.fill(seed);
  return root;
}

void write_text(const std::string& path, const std::string& text, mode_t mode = 0600) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  REQUIRE(::chmod(path.c_str(), mode) == 0);
}

// Why reading the list at `path` was refused ("" when it was not).
std::string refusal(const std::string& path) {
  try {
    read_root_list(path);
    return "";
  } catch (const TableFileError& error) {
    CHECK(error.kind() == TableFileError::Kind::unreadable);
    CHECK(std::string(error.what()).find(path) != std::string::npos);
    return error.what();
  }
}

}  // namespace

TEST_CASE("a list of roots is recorded whole, in order, and read back", "[roots]") {
  TempFolder folder;
  const std::string list = folder.file("data/ioiwari/roots");
  CHECK(read_root_list(list).empty());  // neither the list nor its folders exist yet
  record_root(list, Ring{9, 2}, some_root(1));
  record_root(list, Ring{6, 4}, some_root(2));
  record_root(list, Ring{9, 2}, some_root(3));  // replaces the ring's line
  const std::vector<RecordedRoot> roots = read_root_list(list);
  REQUIRE(roots.size() == 2);
  CHECK(roots[0].ring == Ring{6, 4});
  CHECK(roots[0].root == some_root(2));
  CHECK(roots[1].ring == Ring{9, 2});
  CHECK(roots[1].root == some_root(3));
  // The folders made for it are private; the list is its user's alone; nothing else is left
  // but the lock that recorders share.
  struct stat status {};
  REQUIRE(::stat(folder.file("data/ioiwari").c_str(), &status) == 0);
  CHECK((status.st_mode & 0777) == 0700);
  REQUIRE(::stat(folder.file("data").c_str(), &status) == 0);
  CHECK((status.st_mode & 0777) == 0700);
  REQUIRE(::stat(list.c_str(), &status) == 0);
  CHECK((status.st_mode & 0777) == 0600);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder.file("data/ioiwari")))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"roots", "roots.lock"});
  std::ifstream in(list);
  std::string first;
  std::getline(in, first);
  CHECK(first.starts_with("# "));
}

TEST_CASE("recorders at once lose no record", "[roots][parallel]") {
  TempFolder folder;
  const std::string list = folder.file("roots");
  // Eight processes, each recording rings of its own, all running together.
  constexpr int kProcesses = 8, kEach = 6;
  std::vector<pid_t> children;
  int go[2];
  REQUIRE(::pipe(go) == 0);
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      ::close(go[1]);
      char byte;
      if (::read(go[0], &byte, 1) != 0) ::_exit(3);  // all start when the pipe closes
      try {
        for (int k = 0; k < kEach; ++k) {
          const int pits = 3 + (p * kEach + k) / 9, capacity = 1 + (p * kEach + k) % 9;
          record_root(list, Ring{pits, capacity}, some_root(static_cast<unsigned char>(p)));
        }
      } catch (...) {
        ::_exit(2);
      }
      ::_exit(0);
    }
    children.push_back(child);
  }
  ::close(go[0]);
  ::close(go[1]);
  for (const pid_t child : children) {
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  }
  const std::vector<RecordedRoot> roots = read_root_list(list);
  CHECK(roots.size() == kProcesses * kEach);
  for (const RecordedRoot& known : roots) {
    const int index = (known.ring.pits - 3) * 9 + known.ring.capacity - 1;
    CHECK(known.root == some_root(static_cast<unsigned char>(index / kEach)));
  }
}

TEST_CASE("a list another user could have written is not trusted", "[roots][hostile]") {
  TempFolder folder;
  const std::string line = "6 4 " + hex(some_root(7)) + "\n";
  fs::create_directory(folder.file("home"));
  REQUIRE(::chmod(folder.file("home").c_str(), 0700) == 0);
  const std::string list = folder.file("home/roots");
  write_text(list, line);
  REQUIRE(read_root_list(list).size() == 1);
  // Writable by the group, or by anyone.
  for (const mode_t mode : {mode_t{0620}, mode_t{0602}, mode_t{0666}}) {
    INFO(std::oct << mode);
    write_text(list, line, mode);
    CHECK(refusal(list).find("other users may write it") != std::string::npos);
  }
  write_text(list, line, 0600);
  // Its folder writable by others: the list could be replaced.
  REQUIRE(::chmod(folder.file("home").c_str(), 0777) == 0);
  CHECK(refusal(list).find("other users may write its folder") != std::string::npos);
  REQUIRE(::chmod(folder.file("home").c_str(), 01777) == 0);  // even sticky, as /tmp is
  CHECK(refusal(list).find("other users may write its folder") != std::string::npos);
  REQUIRE(::chmod(folder.file("home").c_str(), 0700) == 0);
  // A link, wherever it leads: the list must be the file itself.
  const std::string elsewhere = folder.file("home/elsewhere");
  write_text(elsewhere, line);
  fs::remove(list);
  fs::create_symlink(elsewhere, list);
  CHECK(refusal(list).find("is a symbolic link") != std::string::npos);
  fs::remove(list);
  // Not a regular file.
  REQUIRE(::mkfifo(list.c_str(), 0600) == 0);
  CHECK(refusal(list).find("is a FIFO") != std::string::npos);
  fs::remove(list);
  // Another user's file, in our folder (only root can give a file away).
  if (::geteuid() == 0) {
    write_text(list, line);
    REQUIRE(::chown(list.c_str(), 65534, 65534) == 0);
    CHECK(refusal(list).find("belongs to user 65534") != std::string::npos);
    fs::remove(list);
  }
  // Recording into a list that is not trusted records nothing.
  write_text(list, line, 0666);
  CHECK_THROWS_AS(record_root(list, Ring{9, 2}, some_root(1)), TableFileError);
  REQUIRE(::chmod(list.c_str(), 0600) == 0);
  CHECK(read_root_list(list).size() == 1);
  // The refused record let its lock go: another recorder takes it at once.
  const int lock = ::open((list + ".lock").c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(lock >= 0);
  CHECK(::flock(lock, LOCK_EX | LOCK_NB) == 0);
  ::close(lock);
}

TEST_CASE("a list with a line that is not a root is refused, naming the line", "[roots][hostile]") {
  TempFolder folder;
  const std::string list = folder.file("roots");
  const std::string good = "6 4 " + hex(some_root(7));
  for (const std::string& bad :
       {std::string("6 4"), "6  4 " + hex(some_root(7)), "6 4 " + hex(some_root(7)) + " x",
        "17 4 " + hex(some_root(7)), "16 9 " + hex(some_root(7)),
        "6 4 " + hex(some_root(7)).substr(1), "6 4 " + hex(some_root(7)).substr(1) + "G",
        "-6 4 " + hex(some_root(7)), "6 04x " + hex(some_root(7)), "06 4 " + hex(some_root(7)),
        "6 04 " + hex(some_root(7)), "+6 4 " + hex(some_root(7)), good + "\r", " " + good,
        good + " ", std::string("   "), std::string("\t"),
        "6 4 " + hex(some_root(7)).substr(1) + "A", good + "\n" + good}) {
    INFO(bad);
    // One bad line refuses the whole list, good lines before and after it included.
    write_text(list, "# a comment\n\n5 5 " + hex(some_root(8)) + "\n" + bad + "\n");
    const std::string why = refusal(list);
    // Named by its number: line 4 (line 5 where the bad line is a second root after a good one).
    CHECK(why.find(bad.find('\n') == std::string::npos
                       ? "has a bad line 4: "
                       : "has a bad line 5: ") != std::string::npos);
  }
  // Rings of two-digit pits, the largest ring of all among them.
  write_text(list, "10 4 " + hex(some_root(1)) + "\n16 7 " + hex(some_root(2)) + "\n");
  REQUIRE(refusal(list).empty());
  CHECK(read_root_list(list).size() == 2);
  CHECK(read_root_list(list)[1].ring == Ring{16, 7});
  write_text(list, "# a comment\n\n" + good + "\n");
  CHECK(refusal(list).empty());
  // The last line needs no line feed.
  write_text(list, "# a comment\n" + good);
  REQUIRE(read_root_list(list).size() == 1);
  CHECK(read_root_list(list)[0].root == some_root(7));
  // At most 65,536 bytes: the longest list of every ring is a tenth of that.
  std::string longest = good + "\n#";
  longest.resize(65535, '#');
  write_text(list, longest + "\n");
  CHECK(refusal(list).empty());
  write_text(list, longest + "#\n");
  CHECK(refusal(list).find("is too long to be a list") != std::string::npos);
}

TEST_CASE("the list is read and written through the folder that was checked", "[roots][hostile]") {
  TempFolder folder;
  // The data home itself may be anyone's to write: what is checked is the list's own folder,
  // and the list is read through it alone.
  fs::create_directory(folder.file("shared"));
  REQUIRE(::chmod(folder.file("shared").c_str(), 0777) == 0);
  const std::string list = folder.file("shared/ioiwari/roots");
  record_root(list, Ring{6, 4}, some_root(1));
  REQUIRE(read_root_list(list).size() == 1);

  // Another user swaps the folder after the check: the list read is still the checked one's.
  // (The other folder here is this user's, so that a check by path would pass on it too.)
  const std::optional<RootList> opened = RootList::open(list);
  REQUIRE(opened);
  fs::rename(folder.file("shared/ioiwari"), folder.file("shared/ioiwari.checked"));
  fs::create_directory(folder.file("shared/ioiwari"));
  REQUIRE(::chmod(folder.file("shared/ioiwari").c_str(), 0700) == 0);
  write_text(list, "6 4 " + hex(some_root(9)) + "\n");
  std::vector<RecordedRoot> roots = opened->read();
  REQUIRE(roots.size() == 1);
  CHECK(roots[0].root == some_root(1));
  // And a record goes to the folder checked, not to the one put in its place.
  opened->record(Ring{9, 2}, some_root(2));
  CHECK(read_root_list(folder.file("shared/ioiwari.checked/roots")).size() == 2);
  roots = read_root_list(list);
  REQUIRE(roots.size() == 1);
  CHECK(roots[0].root == some_root(9));

  // The folder may be reached through a symbolic link: the folder it leads to is checked.
  fs::create_directory_symlink(folder.file("shared/ioiwari.checked"), folder.file("linked"));
  CHECK(read_root_list(folder.file("linked/roots")).size() == 2);
  REQUIRE(::chmod(folder.file("shared/ioiwari.checked").c_str(), 0770) == 0);
  CHECK(refusal(folder.file("linked/roots")).find("other users may write its folder") !=
        std::string::npos);
  // A list whose folder is no folder.
  write_text(folder.file("plain"), "");
  CHECK(refusal(folder.file("plain/roots")).find("is in no folder") != std::string::npos);
}

TEST_CASE("a recorded root holds a ring's files to it, as a built-in root does",
          "[roots][table-file][hostile]") {
  TempFolder folder;
  const std::string list = folder.file("roots");
  const auto geometry = RingGeometry::of(kRing);
  const std::string path = folder.file("table");
  const Digest root = save_table(*RingTable::solve(geometry, {}), path);
  TableReading reading = ioiwari::test::checked_reading();
  reading.roots = RootBook::none().with_list(list);
  // Not recorded: refused without trust.
  try {
    load_table(path, geometry, reading);
    FAIL("read a table of a ring with no known root");
  } catch (const TableFileError& error) {
    CHECK(error.kind() == TableFileError::Kind::unknown_root);
  }
  // verify solves it and finds it true; once its root is recorded, it is read without trust,
  // and so is a copy of it.
  VerifyOptions options;
  options.roots = reading.roots;
  const TableCheck check = verify_table(path, options);
  CHECK(check.source == RootBook::Source::none);
  CHECK(check.root == root);
  record_root(list, kRing, check.root);
  CHECK(verify_table(path, options).source == RootBook::Source::recorded);
  CHECK(load_table(path, geometry, reading)->classes() == geometry->classes());
  fs::copy_file(path, folder.file("copy"));
  CHECK(load_table(folder.file("copy"), geometry, reading)->classes() == geometry->classes());
  // A lie with every hash recomputed: refused by the recorded root, even when trust is given.
  rewrite(folder.file("copy"), [&](std::vector<unsigned char>& bytes) {
    bytes[geometry->layout().values_offset + 100] ^= 2;
  });
  for (const bool trust : {false, true}) {
    reading.trust_unknown_root = trust;
    try {
      load_table(folder.file("copy"), geometry, reading);
      FAIL("read a lie");
    } catch (const TableFileError& error) {
      CHECK(error.kind() == TableFileError::Kind::wrong_root);
      CHECK(std::string(error.what()).find("(recorded in '" + list + "')") != std::string::npos);
    }
  }
  // And verify, knowing the root now, refuses it at once.
  try {
    verify_table(folder.file("copy"), options);
    FAIL("verified a lie");
  } catch (const TableFileError& error) {
    CHECK(error.kind() == TableFileError::Kind::wrong_root);
  }
  // Without the record, verify solves the ring and names the class that lies.
  VerifyOptions unrecorded;
  unrecorded.roots = RootBook::none();
  try {
    verify_table(folder.file("copy"), unrecorded);
    FAIL("verified a lie");
  } catch (const TableFileError& error) {
    CHECK(error.kind() == TableFileError::Kind::wrong_root);
    CHECK(std::string(error.what()).find("the class of rank 100 has the value ") !=
          std::string::npos);
  }
}

TEST_CASE("verify solves a ring past memory when its solve would not fit, and finds the same",
          "[roots][table-file]") {
  if (test::kSanitized) {
    // Three solves of 10 pits; the solve past memory runs under the sanitizers in the tier
    // solver's tests, and the unsanitized suite runs this one.
    WARN("not under the sanitizers: the tier solver's tests run its solve there");
    return;
  }
  TempFolder folder;
  const Ring ring{10, 5};  // 12 MB to solve in memory, 5 MB past it
  const auto geometry = RingGeometry::of(ring);
  const std::string path = folder.file("table");
  const Digest root = save_table(*RingTable::solve(geometry, {}), path);
  VerifyOptions options;
  options.roots = RootBook::none();
  options.work = folder.path().string();
  // Between what the solve in memory takes and the least a solve past memory takes.
  const std::uint64_t in_memory = solve_bytes(*geometry, 1, 0, kSolveBatch);
  TierOptions probe;
  probe.memory = in_memory;
  const std::uint64_t least = TierSolve(geometry, probe).least_memory_bytes();
  REQUIRE(least < in_memory);
  options.memory = (least + in_memory) / 2;
  const TableCheck check = verify_table(path, options);
  CHECK(check.solved_past_memory);
  CHECK(check.root == root);
  CHECK(folder.entries() == 1);  // the solve's layers and table are gone
  rewrite(path, [&](std::vector<unsigned char>& bytes) {
    bytes[geometry->layout().values_offset + 5000] ^= 4;
  });
  try {
    verify_table(path, options);
    FAIL("verified a lie");
  } catch (const TableFileError& error) {
    CHECK(error.kind() == TableFileError::Kind::wrong_root);
    CHECK(std::string(error.what()).find("the class of rank 5000 has the value ") !=
          std::string::npos);
  }
  CHECK(folder.entries() == 1);
}
