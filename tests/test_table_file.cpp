// Table files: written atomically, mapped back whole, and refused when they are anything else.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "catch.hpp"
#include "ioiwari/ring_table.hpp"
#include "ioiwari/table_file.hpp"

using namespace ioiwari;
namespace fs = std::filesystem;

namespace {

// A folder of its own for one test, removed afterwards.
class Folder {
 public:
  Folder() {
    path_ = fs::temp_directory_path() /
            ("ioiwari-tables-" + std::to_string(::getpid()) + "-" + std::to_string(count_++));
    fs::create_directories(path_);
  }
  ~Folder() { fs::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(path_), {}));
  }

 private:
  fs::path path_;
  static inline int count_ = 0;
};

const Ring kRing{6, 4};

const RingTable& solved() {
  static const auto table = RingTable::solve(kRing);
  return *table;
}

// The kind of error loading `path` as a table of `ring` throws (or nothing when it loads).
std::optional<TableFileError::Kind> refusal(const std::string& path, Ring ring = kRing) {
  try {
    load_table(path, ring);
    return std::nullopt;
  } catch (const TableFileError& error) {
    INFO(error.what());
    CHECK(std::string(error.what()).find('\n') == std::string::npos);  // one line
    CHECK(std::string(error.what()).find(path) != std::string::npos);  // names the file
    return error.kind();
  }
}

void change_byte(const std::string& path, std::uint64_t offset) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekg(static_cast<std::streamoff>(offset));
  const char old = static_cast<char>(file.get());
  file.seekp(static_cast<std::streamoff>(offset));
  file.put(static_cast<char>(old ^ 0x10));
}

}  // namespace

TEST_CASE("a table file round-trips: every value of the ring comes back", "[table-file]") {
  Folder folder;
  const std::string path = folder.file("six.table");
  save_table(solved(), path);
  CHECK(fs::file_size(path) == kTableHeaderBytes + table_size(kRing).table_bytes());
  const auto loaded = load_table(path, kRing);
  CHECK(loaded->ring() == kRing);
  CHECK(loaded->classes() == solved().classes());
  CHECK(loaded->checksum() == solved().checksum());
  for (Board::Code code = 0; code < kRing.code_count(); ++code) {
    const Board board = Board::from_code(code, kRing);
    REQUIRE(loaded->value(board) == solved().value(board));
  }
  CHECK(folder.entries() == 1);  // no temporary file left behind
}

TEST_CASE("a flipped byte anywhere in a table file is refused", "[table-file]") {
  Folder folder;
  const std::string path = folder.file("six.table");
  const std::uint64_t size = kTableHeaderBytes + table_size(kRing).table_bytes();
  // In the values, the index, the directory; then in the header's fields.
  for (std::uint64_t offset : {size - 1, std::uint64_t{kTableHeaderBytes},
                               kTableHeaderBytes + table_size(kRing).bitmap_bytes + 3}) {
    save_table(solved(), path);
    change_byte(path, offset);
    INFO("byte " << offset);
    CHECK(refusal(path) == TableFileError::Kind::checksum);
  }
  save_table(solved(), path);
  change_byte(path, 0);  // the magic
  CHECK(refusal(path) == TableFileError::Kind::not_a_table);
  save_table(solved(), path);
  change_byte(path, 16);  // the version
  CHECK(refusal(path) == TableFileError::Kind::not_a_table);
  save_table(solved(), path);
  change_byte(path, 64);  // the checksum itself
  CHECK(refusal(path) == TableFileError::Kind::checksum);
}

TEST_CASE("a truncated table file is refused", "[table-file]") {
  Folder folder;
  const std::string path = folder.file("six.table");
  const std::uint64_t size = kTableHeaderBytes + table_size(kRing).table_bytes();
  for (std::uint64_t keep : {size - 1, size / 2, std::uint64_t{kTableHeaderBytes},
                             std::uint64_t{100}, std::uint64_t{10}}) {
    save_table(solved(), path);
    fs::resize_file(path, keep);
    INFO("kept " << keep << " bytes");
    CHECK(refusal(path) == TableFileError::Kind::truncated);
  }
  // Bytes after the table make it something else.
  save_table(solved(), path);
  fs::resize_file(path, size + 1);
  CHECK(refusal(path) == TableFileError::Kind::not_a_table);
}

TEST_CASE("a table of other rules is refused for this ring", "[table-file]") {
  Folder folder;
  const std::string path = folder.file("six.table");
  save_table(solved(), path);
  CHECK(refusal(path, Ring{6, 5}) == TableFileError::Kind::other_rules);
  CHECK(refusal(path, Ring{7, 4}) == TableFileError::Kind::other_rules);
  CHECK_FALSE(refusal(path, kRing));
}

TEST_CASE("what is not a table is refused as such", "[table-file]") {
  Folder folder;
  const std::string text = folder.file("notes.txt");
  std::ofstream(text) << "4 3 2 4 2 3 2\n";
  CHECK(refusal(text) == TableFileError::Kind::not_a_table);
  const std::string empty = folder.file("empty");
  std::ofstream{empty};
  CHECK(refusal(empty) == TableFileError::Kind::not_a_table);
  CHECK(refusal(folder.file("missing")) == TableFileError::Kind::unreadable);
  CHECK(refusal(folder.file("")) == TableFileError::Kind::unreadable);  // a folder
}

TEST_CASE("an interrupted write leaves no file that looks whole, and the old one intact",
          "[table-file]") {
  Folder folder;
  const std::string path = folder.file("six.table");
  const std::uint64_t size = kTableHeaderBytes + table_size(kRing).table_bytes();
  for (std::uint64_t after : {std::uint64_t{1}, std::uint64_t{kTableHeaderBytes}, size - 1}) {
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
  CHECK_FALSE(refusal(path));
  CHECK(folder.entries() == 1);
  // A folder that cannot be written to.
  CHECK_THROWS_AS(save_table(solved(), folder.file("no/such/folder/table")), TableFileError);
}
