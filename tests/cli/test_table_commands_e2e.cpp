// verify and convert end to end, through the built binary: a sparse table of terabytes, a table
// read once through a block's memory, and convert's copies in both formats and under every
// memory limit.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/input/exit_code.hpp"
#include "run_program.hpp"
#include "sanitized.hpp"
#include "table_files.hpp"
#include "text_support.hpp"

using namespace ioiwari;
using namespace ioiwari::test;
namespace fs = std::filesystem;

namespace {

ioiwari::test::Run ioiwari_run(std::vector<std::string> args, const std::string& input = "") {
  args.insert(args.begin(), IOIWARI_BINARY);
  return ioiwari::test::run_program(args, input);
}

// Whether two files hold the same bytes.
bool same_bytes(const std::string& a, const std::string& b) {
  return file_bytes(a) == file_bytes(b);
}

}  // namespace

namespace {

// The attacker: a sparse file of `ring`'s size whose header, top hashes and root are all
// consistent, the rest of it holes (zeros). A reader that believed its sizes would reserve
// memory for a table of terabytes before it found that its first block fails its hash.
bool write_sparse_table(const std::string& path, Ring ring) {
  const auto geometry = RingGeometry::of(ring);
  const TableLayout& layout = geometry->layout();
  // Each page of block hashes is zeros: its top hash is the hash of zeros, of the last page's
  // shorter length for the last.
  const std::vector<unsigned char> zeros(TableLayout::kPageBytes, 0);
  const Digest full = sha256(zeros);
  const std::uint64_t last_bytes =
      TableLayout::kHashBytes * layout.blocks - TableLayout::kPageBytes * (layout.hash_pages - 1);
  const Digest last = sha256({zeros.data(), static_cast<std::size_t>(last_bytes)});
  std::vector<unsigned char> top;
  top.reserve(static_cast<std::size_t>(TableLayout::kHashBytes * layout.hash_pages));
  for (std::uint64_t page = 0; page < layout.hash_pages; ++page) {
    const Digest& digest = page + 1 == layout.hash_pages ? last : full;
    top.insert(top.end(), digest.begin(), digest.end());
  }
  const std::vector<unsigned char> header = TableHeader::of(*geometry, table_root(top)).block();
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return false;
  const bool written =
      ::ftruncate(fd, static_cast<off_t>(layout.file_bytes)) == 0 &&
      ::pwrite(fd, header.data(), header.size(), 0) == static_cast<ssize_t>(header.size()) &&
      ::pwrite(fd, top.data(), top.size(), static_cast<off_t>(layout.top_hashes_offset)) ==
          static_cast<ssize_t>(top.size());
  ::close(fd);
  return written;
}

}  // namespace

TEST_CASE(
    "a sparse table of terabytes with a consistent header and root is refused with one "
    "line, whatever the memory",
    "[e2e][tables][hostile]") {
  TempFolder folder;
  const std::string path = folder.file("huge.table");
  const Ring ring{14, 9};  // 7.1 trillion classes: a file of 9.4 TB
  if (!write_sparse_table(path, ring)) {
    WARN("no test of a sparse table: this file system refuses a file of 9.4 TB");
    return;
  }
  REQUIRE(fs::file_size(path) > 9'000'000'000'000);
  const std::vector<std::string> ring_args = {"--pits", "14", "--capacity", "9"};
  const auto with_huge = [&](std::vector<std::string> args) {
    args.insert(args.begin() + (args.front().starts_with('-') ? 0 : 1), ring_args.begin(),
                ring_args.end());
    args.insert(args.end(), {"--table", path, "--trust-table"});
    return args;
  };
  const std::string board = "1 2 0 3 1 1 0 0 2 1 0 0 1 1";
  std::vector<std::vector<std::string>> commands = {
      {"verify", path},
      {"convert", path, "--out", folder.file("copy.table")},
      with_huge({"analyze"}),
      with_huge({"--start-beads", "4"}),
  };
  commands[2].insert(commands[2].end(),
                     {"1", "2", "0", "3", "1", "1", "0", "0", "2", "1", "0", "0", "1", "1"});
  // Without a limit, and under an address space of 2 GB, as a referee or `prlimit` gives it
  // (the sanitizers reserve terabytes of address space, so their build runs it unlimited).
  // Under 80 MB, what its hashes alone would take (48 bytes a page of block hashes: 53.8 MB)
  // is more than half: refused before anything is reserved for it.
  constexpr std::uint64_t kSmall = std::uint64_t{80} << 20;
  std::vector<std::uint64_t> limits = {0};
  if (!kSanitized) limits.insert(limits.end(), {std::uint64_t{2} << 30, kSmall});
  for (const std::uint64_t limit : limits) {
    for (const auto& command : commands) {
      INFO(command.front() << ", address space " << limit);
      RunOptions options;
      options.prepare = [limit] {
        if (limit == 0) return;
        const rlimit as{limit, limit};
        ::setrlimit(RLIMIT_AS, &as);
      };
      std::vector<std::string> argv = command;
      argv.insert(argv.begin(), IOIWARI_BINARY);
      const auto run = run_program(argv, "1 0 0 0 0 0 0 0 0 0 0 0 0 3\n", options);
      INFO(run.err);
      CHECK_FALSE(run.signaled);
      CHECK(run.status == to_int(ExitCode::bad_table));
      CHECK(run.err.find("internal error") == std::string::npos);
      // One line: the refusal, after the line that says the table is used unchecked.
      // (Under the small limit the refusal comes first.)
      const bool trusted = command.front() != "verify" && command.front() != "convert";
      CHECK(std::count(run.err.begin(), run.err.end(), '\n') ==
            (trusted && limit != kSmall ? 2 : 1));
      // convert takes no --trust-table: a ring whose true root is not known is no table to copy.
      CHECK(run.err.find(limit == kSmall ? "whose hashes alone would take"
                         : command.front() == "convert"
                             ? "whose true root is not known"
                             : "' is damaged: the page hashes of block ") != std::string::npos);
      CHECK(run.err.find("'" + path + "'") != std::string::npos);
      CHECK(run.peak_kb < 200 * 1024);
    }
  }
}

TEST_CASE("verify reads a table once through a block's memory, not into memory", "[e2e][tables]") {
  TempFolder folder;
  const std::string plain = folder.file("ring-4.table"), compressed = folder.file("ring.table");
#ifndef IOIWARI_SANITIZED
  const std::string pits = "11";  // a file of 51 MB; format 5's, 12 MB
#else
  const std::string pits = "10";  // the peak is not held to anything here: a smaller ring will do
#endif
  REQUIRE(ioiwari_run({"solve", "--pits", pits, "--format", "4", "--out", plain}).status == 0);
  REQUIRE(ioiwari_run({"solve", "--pits", pits, "--out", compressed}).status == 0);
  const std::uint64_t bytes = fs::file_size(plain);
#ifndef IOIWARI_SANITIZED
  CHECK(bytes > (std::uint64_t{40} << 20));
#endif
  CHECK(fs::file_size(compressed) < bytes / 3);
  for (const std::string& path : {plain, compressed}) {
    const auto verified = ioiwari_run({"verify", path});
    INFO(path << ": " << verified.err);
    CHECK(verified.status == 0);
    CHECK(test::unwrapped(verified.out)
              .find(": the ring's true root, which ioiwari has built in\n") != std::string::npos);
#ifndef IOIWARI_SANITIZED  // a sanitized program's peak is mostly the sanitizers' own memory
    CHECK(static_cast<std::uint64_t>(verified.peak_kb) * 1024 < bytes / 4);
#endif
  }
}

TEST_CASE("convert writes a table again in the other format, to solve's own bytes and root",
          "[e2e][tables]") {
  TempFolder folder;
  const std::string plain = folder.file("nine-4.table"), compressed = folder.file("nine.table");
  REQUIRE(ioiwari_run({"solve", "--pits", "9", "--format", "4", "--out", plain}).status == 0);
  REQUIRE(ioiwari_run({"solve", "--pits", "9", "--out", compressed}).status == 0);
  const auto to5 = ioiwari_run({"convert", plain, "--out", folder.file("five.table")});
  INFO(to5.err);
  REQUIRE(to5.status == 0);
  CHECK(test::unwrapped(to5.out).starts_with("converted the table of 9 pits, capacity 5 from '" +
                                             plain + "' (format 4, 1.7 MB) to '" +
                                             folder.file("five.table") + "' (format 5, "));
  CHECK(test::unwrapped(to5.out).find(
            ", root 77586703fc2f4fd6928965e335e483a9cfa131c2e7cdaf7625e5b4597bf3197d\n") !=
        std::string::npos);
  CHECK(same_bytes(folder.file("five.table"), compressed));
  const auto to4 =
      ioiwari_run({"convert", "--format", "4", compressed, "--out", folder.file("four.table")});
  REQUIRE(to4.status == 0);
  CHECK(same_bytes(folder.file("four.table"), plain));
  // Without --format, the other format than the file's: format 5 becomes 4, as 4 became 5.
  const auto back = ioiwari_run({"convert", compressed, "--out", folder.file("back.table")});
  REQUIRE(back.status == 0);
  CHECK(test::unwrapped(back.out).find("' (format 5, ") != std::string::npos);
  CHECK(test::unwrapped(back.out).find("' (format 4, 1.7 MB) in ") != std::string::npos);
  CHECK(same_bytes(folder.file("back.table"), plain));
  fs::remove(folder.file("back.table"));
  // A file that is not its ring's true table is no table to convert: nothing is written.
  {
    std::fstream file(compressed, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(fs::file_size(compressed) - 40));
    file.put('\x5a');
  }
  const auto refused = ioiwari_run({"convert", compressed, "--out", folder.file("bad.table")});
  CHECK(refused.status == to_int(ExitCode::bad_table));
  CHECK(refused.out.empty());
  CHECK(refused.err.starts_with("ioiwari: convert: table '" + compressed + "' "));
  CHECK(std::count(refused.err.begin(), refused.err.end(), '\n') == 1);
  CHECK_FALSE(fs::exists(folder.file("bad.table")));
  CHECK(folder.entries() == 4);  // no temporary file is left
}

TEST_CASE("convert under every memory limit copies the table or refuses it in one line",
          "[e2e][tables][hostile]") {
  if (kSanitized) return;  // the sanitizers reserve terabytes of address space
  // From a limit under which the program cannot even start up to one that copies: each run
  // either writes the copy, of the file's root, or refuses with status 7 and one line about
  // memory, leaving no file; never an internal error or a signal.
  TempFolder folder;
  const std::string plain = folder.file("ten-4.table"), copy = folder.file("copy.table");
  REQUIRE(ioiwari_run({"solve", "--pits", "10", "--format", "4", "--out", plain}).status == 0);
  int copied = 0, refused = 0;
  for (std::uint64_t limit = std::uint64_t{4} << 20; limit <= (std::uint64_t{32} << 20);
       limit += std::uint64_t{512} << 10) {
    INFO("address space " << limit);
    RunOptions options;
    options.prepare = [limit] {
      const rlimit as{limit, limit};
      ::setrlimit(RLIMIT_AS, &as);
    };
    const auto run = run_program({IOIWARI_BINARY, "convert", plain, "--out", copy}, "", options);
    INFO(run.err);
    if (run.status == 127 &&
        run.err.find(": error while loading shared libraries: ") != std::string::npos)
      continue;  // the dynamic loader, before any of ours
    // A statically linked program larger than the limit (the release's ioiwari is 5.7 MB of
    // code and data) is not loaded at all: the kernel, past the point where exec can return an
    // error, kills it with SIGSEGV (fs/exec.c, bprm_execve()). A program that does nothing,
    // --version, dies the same way under the same limit.
    if (run.signaled && run.status == SIGSEGV) {
      const auto bare = run_program({IOIWARI_BINARY, "--version"}, "", options);
      if (bare.signaled && bare.status == SIGSEGV) continue;
    }
    CHECK_FALSE(run.signaled);
    if (run.status == 0) {
      ++copied;
      INFO(run.out);
      CHECK(test::unwrapped(run.out).starts_with(
          "converted the table of 10 pits, capacity 5 from '"));
      CHECK(fs::exists(copy));
      fs::remove(copy);
    } else {
      ++refused;
      CHECK(run.status == to_int(ExitCode::bad_table));
      CHECK(run.out.empty());
      CHECK(run.err.find("memory") != std::string::npos);
      CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
      CHECK(run.err.find("internal error") == std::string::npos);
      CHECK_FALSE(fs::exists(copy));
    }
    CHECK(folder.entries() == 1);  // no temporary file is left
  }
  CHECK(copied > 0);
  CHECK(refused > 0);
}
