// Writing table files: atomically, only to a regular file, never leaving a temporary file behind
// that a signal could have removed, and never removing a live writer's.
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "catch.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/table_file.hpp"
#include "table_files.hpp"

using namespace ioiwari;
using namespace ioiwari::test;
namespace fs = std::filesystem;

namespace {

const Ring kRing{6, 4};

// The geometry of kRing, which the files written here must outlive.
const RingGeometry& geometry() {
  static const RingGeometry shape(kRing);
  return shape;
}

const RingTable& solved() {
  static const auto table = RingTable::solve(RingGeometry::of(kRing), {});
  return *table;
}

bool loads(const std::string& path) {
  try {
    load_table(path, RingGeometry::of(kRing), checked_reading());
    return true;
  } catch (const TableFileError& error) {
    INFO(error.what());
    return false;
  }
}

}  // namespace

TEST_CASE("an interrupted write leaves no file that looks whole, and the old one intact",
          "[table-file]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  // What a write puts on disk: the header block, the two parts and the hashes (the padding
  // between the parts was reserved as zeros).
  const TableLayout layout = RingGeometry(kRing).layout();
  const std::uint64_t written =
      TableLayout::kBlockBytes + layout.lines_bytes + layout.values_bytes +
      (TableLayout::kGroupBytes + TableLayout::kHashBytes) * layout.blocks;
  for (std::uint64_t after :
       {std::uint64_t{1}, std::uint64_t{TableLayout::kBlockBytes}, written - 1}) {
    INFO("interrupted after " << after << " bytes");
    CHECK_THROWS_AS(save_table(solved(), path, after), TableFileError);
    CHECK_FALSE(fs::exists(path));
    CHECK(folder.entries() == 0);
  }
  // Over an existing table: it stays as it was.
  save_table(solved(), path);
  const auto before = fs::file_size(path);
  CHECK_THROWS_AS(save_table(solved(), path, 5000), TableFileError);
  CHECK(fs::file_size(path) == before);
  CHECK(loads(path));
  CHECK(folder.entries() == 1);
}

TEST_CASE("a file system that refuses direct I/O gets the same file, through the page cache",
          "[table-file]") {
  // The parts go with direct I/O where the file system takes it; ramfs does not. A child process
  // mounts one on a folder of this test's own, in a mount namespace of its own (the mount ends
  // with it), and writes the table there.
  TempFolder folder;
  const std::string on_disk = folder.file("disk.table");
  save_table(solved(), on_disk);
  const fs::path ram = folder.path() / "ram";
  fs::create_directory(ram);
  enum : int { kSame = 0, kDiffers = 1, kFailed = 2, kNoMount = 3, kTakesDirect = 4 };
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    if (::unshare(CLONE_NEWNS) != 0 ||
        ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("ramfs", ram.c_str(), "ramfs", 0, nullptr) != 0) {
      ::_exit(kNoMount);
    }
    const std::string probe = (ram / "probe").string();
    ::close(::open(probe.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
    const int direct = ::open(probe.c_str(), O_WRONLY | O_DIRECT | O_CLOEXEC);
    if (direct >= 0) ::_exit(kTakesDirect);
    try {
      const std::string in_ram = (ram / "ram.table").string();
      save_table(solved(), in_ram);
      std::ifstream a(on_disk, std::ios::binary), b(in_ram, std::ios::binary);
      const bool same =
          std::equal(std::istreambuf_iterator<char>(a), {}, std::istreambuf_iterator<char>(b), {});
      ::_exit(same ? kSame : kDiffers);
    } catch (...) {
      ::_exit(kFailed);
    }
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  if (WEXITSTATUS(status) == kNoMount) {
    WARN("cannot mount ramfs in a mount namespace here (it needs root): not tested");
    return;
  }
  if (WEXITSTATUS(status) == kTakesDirect) {
    WARN("this kernel's ramfs takes direct I/O: the page cache's way is not tested");
    return;
  }
  CHECK(WEXITSTATUS(status) == kSame);
  CHECK(fs::is_empty(ram));  // the mount went with the child: nothing was left in the folder
}

TEST_CASE("a table is written only to a regular file, checked before any work",
          "[table-file][hostile]") {
  TempFolder folder;
  const auto refused = [](const std::string& path) {
    try {
      TableOutput output(path, geometry(), TableFormat::plain);
      return false;
    } catch (const TableFileError& error) {
      INFO(error.what());
      CHECK(error.kind() == TableFileError::Kind::unwritable);
      CHECK(std::string(error.what()).find('\n') == std::string::npos);
      return true;
    }
  };
  const std::string fifo = folder.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(refused(fifo));
  CHECK(fs::is_fifo(fifo));  // still a FIFO
  const std::string socket = make_socket(folder, "socket");
  CHECK(refused(socket));
  CHECK(fs::is_socket(socket));
  fs::create_directory(folder.file("dir"));
  CHECK(refused(folder.file("dir")));
  CHECK(refused(folder.file("dir") + "/"));
  CHECK(refused(folder.file("no/such/folder/table")));
  const std::string device = folder.file("null");
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
    CHECK(refused(device));
    CHECK(fs::is_character_file(device));  // the node stays a device
  } else {
    WARN("no device node test: mknod is not allowed here");
  }
  // A link to a FIFO is no better.
  fs::create_symlink(fifo, folder.file("to-fifo"));
  CHECK(refused(folder.file("to-fifo")));
  // Nothing was left behind by any refusal: only the entries made above.
  CHECK(folder.entries() == (fs::exists(device) ? 5u : 4u));
}

TEST_CASE("a symbolic link is followed: the table goes where it leads, and the link stays",
          "[table-file]") {
  TempFolder folder;
  fs::create_directory(folder.file("store"));
  const std::string target = folder.file("store/six.table");
  const std::string link = folder.file("six.table");
  // A link to a file that does not exist yet: the file is made where the link leads.
  fs::create_symlink("store/six.table", link);
  save_table(solved(), link);
  CHECK(fs::is_symlink(link));
  CHECK(fs::is_regular_file(fs::symlink_status(target)));
  CHECK(loads(link));
  // Over an existing file through the link: replaced where it is; the link still leads there.
  save_table(solved(), link);
  CHECK(fs::is_symlink(link));
  CHECK(fs::read_symlink(link) == "store/six.table");
  CHECK(std::distance(fs::directory_iterator(folder.file("store")), {}) == 1);
}

TEST_CASE("a later write of a table removes the temporary files of writes that died",
          "[table-file]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  // What a killed solve leaves: a full-size temporary file nobody holds.
  const std::string dead = path + ".tmp-999999-0";
  std::ofstream(dead) << std::string(1000, 'x');
  // One a live writer holds: locked, so it stays.
  const std::string live = path + ".tmp-999998-0";
  std::ofstream(live) << "y";
  const int held = ::open(live.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(held >= 0);
  REQUIRE(::flock(held, LOCK_EX) == 0);
  // Not a temporary of this target: never touched.
  const std::string other = path + ".tmp-notes";
  std::ofstream(other) << "z";
  const std::string other_target = folder.file("seven.table.tmp-999997-0");
  std::ofstream(other_target) << "w";
  save_table(solved(), path);
  CHECK_FALSE(fs::exists(dead));
  CHECK(fs::exists(live));
  CHECK(fs::exists(other));
  CHECK(fs::exists(other_target));
  ::close(held);
}

TEST_CASE(
    "a live writer's temporary file is locked: a second writer of the same target leaves "
    "it",
    "[table-file][hostile]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  TableOutput first(path, geometry(), TableFormat::plain);
  REQUIRE(fs::exists(first.temporary()));
  {
    TableOutput second(path, geometry(), TableFormat::plain);
    CHECK(fs::exists(first.temporary()));  // not taken for a dead writer's
    CHECK(fs::exists(second.temporary()));
    second.commit(solved());
  }
  CHECK(fs::exists(first.temporary()));
  first.commit(solved());
  CHECK(loads(path));
  CHECK(folder.entries() == 1);
}

TEST_CASE(
    "a writer removes its temporary file on SIGINT, SIGTERM and SIGHUP, but leaves an "
    "ignored signal ignored",
    "[table-file]") {
  struct sigaction before[3]{};
  const int signals[] = {SIGINT, SIGTERM, SIGHUP};
  for (int i = 0; i < 3; ++i)
    ::sigaction(signals[i], nullptr, &before[i]);
  // As under nohup: SIGHUP ignored. The others as they were.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGHUP, &ignore, nullptr);
  const auto handler = [](int signal) {
    struct sigaction now {};
    ::sigaction(signal, nullptr, &now);
    return now.sa_handler;
  };
  const auto sigint_before = handler(SIGINT);
  {
    TempFolder folder;
    TableOutput output(folder.file("six.table"), geometry(), TableFormat::plain);
    CHECK(handler(SIGHUP) == SIG_IGN);
    CHECK(handler(SIGINT) != sigint_before);
    CHECK(handler(SIGTERM) != SIG_DFL);
    CHECK(handler(SIGTERM) != SIG_IGN);
    {
      TableOutput another(folder.file("seven.table"), geometry(), TableFormat::plain);
      CHECK(handler(SIGHUP) == SIG_IGN);
    }
    CHECK(handler(SIGTERM) != SIG_DFL);  // still one writer
  }
  // The last writer gone: the dispositions are what they were.
  CHECK(handler(SIGHUP) == SIG_IGN);
  CHECK(handler(SIGINT) == sigint_before);
  for (int i = 0; i < 3; ++i)
    ::sigaction(signals[i], &before[i], nullptr);
}
