// Table files: written atomically, mapped back whole, and never able to hurt their reader: a file
// that is not a table, damaged, crafted, or changed while in use is refused with one line.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/table.hpp"
#include "ioiwari/core/table_file.hpp"
#include "table_files.hpp"

using namespace ioiwari;
using namespace ioiwari::test;
namespace fs = std::filesystem;

namespace {

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

// The kind of error using `path` throws: loading it, then every board's value, its best move
// and its analysis; nothing when every look-up succeeds.
std::optional<TableFileError::Kind> fault(const std::string& path, Ring ring = kRing) {
  try {
    const Table table(load_table(path, ring));
    for (Board::Code code = 0; code < ring.code_count(); ++code) {
      const Board board = Board::from_code(code, ring);
      table.value(board);
      table.best_move(board);
      table.analyze(board);
    }
    return std::nullopt;
  } catch (const TableFileError& error) {
    INFO(error.what());
    CHECK(std::string(error.what()).find('\n') == std::string::npos);
    CHECK(std::string(error.what()).find(path) != std::string::npos);
    return error.kind();
  }
}

std::optional<TableFileError::Kind> verified(const std::string& path) {
  try {
    verify_table(path);
    return std::nullopt;
  } catch (const TableFileError& error) {
    INFO(error.what());
    return error.kind();
  }
}

void change_byte(const std::string& path, std::uint64_t offset, unsigned char mask = 0x10) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekg(static_cast<std::streamoff>(offset));
  const char old = static_cast<char>(file.get());
  file.seekp(static_cast<std::streamoff>(offset));
  file.put(static_cast<char>(old ^ static_cast<char>(mask)));
}

}  // namespace

TEST_CASE("a table file round-trips: every value of the ring comes back", "[table-file]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  save_table(solved(), path);
  CHECK(fs::file_size(path) == table_layout(kRing).file_bytes);
  const auto loaded = load_table(path, kRing);
  CHECK(loaded->ring() == kRing);
  CHECK(loaded->classes() == solved().classes());
  CHECK(loaded->checksum() == solved().checksum());
  for (Board::Code code = 0; code < kRing.code_count(); ++code) {
    const Board board = Board::from_code(code, kRing);
    REQUIRE(loaded->value(board) == solved().value(board));
  }
  loaded->verify();
  CHECK(verify_table(path).classes == solved().classes());
  CHECK(folder.entries() == 1);  // no temporary file left behind
}

TEST_CASE("the layout puts every part on a block boundary and covers the file with checksums",
          "[table-file]") {
  for (const Ring ring : {kRing, Ring{3, 1}, Ring{12, 5}, Ring{14, 9}, Ring{16, 7}}) {
    INFO(ring.describe());
    const TableLayout layout = table_layout(ring);
    const TableSize size = table_size(ring);
    constexpr std::uint64_t block = TableLayout::kBlockBytes;
    CHECK(layout.lines_offset == block);
    CHECK(size.index_bytes == 64 * size.lines);
    CHECK(layout.values_offset % block == 0);
    CHECK(layout.values_offset >= layout.lines_offset + size.index_bytes);
    CHECK(layout.sums_offset % block == 0);
    CHECK(layout.sums_offset >= layout.values_offset + size.values_bytes);
    CHECK(layout.blocks * block == layout.sums_offset - block);
    CHECK(layout.file_bytes == layout.sums_offset + 8 * layout.blocks);
  }
}

TEST_CASE("a flipped byte anywhere in a table file is refused, at once or when it is read",
          "[table-file]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  const TableLayout layout = table_layout(kRing);
  const TableSize size = table_size(kRing);
  struct Place {
    const char* what;
    std::uint64_t offset;
  };
  const std::vector<Place> places = {
      {"the magic", 0},
      {"the header's checksum", 16},
      {"the version", 24},
      {"the pits", 32},
      {"the classes", 40},
      {"the header's padding", 200},
      {"the header block's last byte", TableLayout::kBlockBytes - 1},
      {"a line's first rank", layout.lines_offset + 64 * 3 + 1},
      {"a line's counts", layout.lines_offset + 64 * 3 + 9},
      {"a line's bits", layout.lines_offset + 64 * 3 + 17},
      {"the padding after the index", layout.lines_offset + size.index_bytes},
      {"the first value", layout.values_offset},
      {"the last value", layout.values_offset + size.values_bytes - 1},
      {"a block checksum", layout.sums_offset + 3},
      {"the last byte", layout.file_bytes - 1},
  };
  for (const Place& place : places) {
    INFO(place.what << ", byte " << place.offset);
    save_table(solved(), path);
    change_byte(path, place.offset);
    const auto found = fault(path);
    REQUIRE(found);
    // The magic makes it no table; anything else is damage, never a table of other rules.
    if (place.offset < 16) {
      CHECK(*found == TableFileError::Kind::not_a_table);
    } else {
      CHECK(*found == TableFileError::Kind::checksum);
    }
    CHECK(verified(path));
  }
}

TEST_CASE("a damaged header is reported as damage, not as other rules", "[table-file]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  save_table(solved(), path);
  change_byte(path, 32, 0x0c);  // pits 6 -> 10
  CHECK(refusal(path) == TableFileError::Kind::checksum);
  CHECK(refusal(path, Ring{10, 4}) == TableFileError::Kind::checksum);
}

TEST_CASE("a truncated table file is refused", "[table-file]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  const std::uint64_t size = table_layout(kRing).file_bytes;
  for (std::uint64_t keep : {size - 1, size / 2, std::uint64_t{TableLayout::kBlockBytes},
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
  TempFolder folder;
  const std::string path = folder.file("six.table");
  save_table(solved(), path);
  CHECK(refusal(path, Ring{6, 5}) == TableFileError::Kind::other_rules);
  CHECK(refusal(path, Ring{7, 4}) == TableFileError::Kind::other_rules);
  CHECK_FALSE(refusal(path, kRing));
}

TEST_CASE("what is not a table is refused as such", "[table-file]") {
  TempFolder folder;
  const std::string text = folder.file("notes.txt");
  std::ofstream(text) << "4 3 2 4 2 3 2\n";
  CHECK(refusal(text) == TableFileError::Kind::not_a_table);
  const std::string empty = folder.file("empty");
  std::ofstream{empty};
  CHECK(refusal(empty) == TableFileError::Kind::not_a_table);
  CHECK(refusal(folder.file("missing")) == TableFileError::Kind::unreadable);
  CHECK(refusal(folder.file("")) == TableFileError::Kind::unreadable);  // a folder
  // A version-1 table: the magic, then another version.
  save_table(solved(), folder.file("old"));
  change_byte(folder.file("old"), 24, 0x03);  // 2 -> 1
  reseal(folder.file("old"));
  CHECK(refusal(folder.file("old")) == TableFileError::Kind::not_a_table);
}

TEST_CASE("a FIFO, a device, a socket or a directory is refused at once, without waiting",
          "[table-file][hostile]") {
  TempFolder folder;
  // A FIFO with no writer would make open() wait forever: it must not be opened at all.
  const std::string fifo = folder.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(refusal(fifo) == TableFileError::Kind::unreadable);
  const std::string socket = make_socket(folder, "socket");
  CHECK(refusal(socket) == TableFileError::Kind::unreadable);
  CHECK(refusal(folder.file("")) == TableFileError::Kind::unreadable);
  // A device node of our own (the null device's numbers), where we may make one.
  const std::string device = folder.file("device");
  if (::mknod(device.c_str(), S_IFCHR | 0600, makedev(1, 3)) == 0) {
    CHECK(refusal(device) == TableFileError::Kind::unreadable);
  } else {
    WARN("no device node test: mknod is not allowed here");
  }
}

TEST_CASE("a crafted table whose checksums are recomputed cannot crash its reader",
          "[table-file][hostile]") {
  TempFolder folder;
  const std::string path = folder.file("crafted.table");
  const TableLayout layout = table_layout(kRing);
  const TableSize size = table_size(kRing);
  struct Craft {
    const char* what;
    std::function<void(std::vector<unsigned char>&)> change;
  };
  Random random(5);
  const auto fill = [](std::uint64_t from, std::uint64_t count, unsigned char byte) {
    return [=](std::vector<unsigned char>& bytes) {
      std::fill_n(bytes.begin() + static_cast<std::ptrdiff_t>(from), count, byte);
    };
  };
  const std::vector<Craft> crafts = {
      {"values zeroed", fill(layout.values_offset, size.values_bytes, 0)},
      {"values 0x7f", fill(layout.values_offset, size.values_bytes, 0x7f)},
      {"values random",
       [&](std::vector<unsigned char>& bytes) {
         for (std::uint64_t i = 0; i < size.values_bytes; ++i)
           bytes[layout.values_offset + i] = static_cast<unsigned char>(random.below(256));
       }},
      {"one value off by one",
       [&](std::vector<unsigned char>& bytes) {
         bytes[layout.values_offset + size.values_bytes / 2] += 1;
       }},
      {"index zeroed", fill(layout.lines_offset, size.index_bytes, 0)},
      {"index all ones", fill(layout.lines_offset, size.index_bytes, 0xff)},
      {"one bit of the index cleared",
       [&](std::vector<unsigned char>& bytes) {
         for (std::uint64_t i = layout.lines_offset + 16;; ++i) {
           if (i % 64 >= 16 && bytes[i] != 0) {
             bytes[i] = static_cast<unsigned char>(bytes[i] & (bytes[i] - 1));
             return;
           }
         }
       }},
      {"one bit of the index set",
       [&](std::vector<unsigned char>& bytes) {
         for (std::uint64_t i = layout.lines_offset + 16;; ++i) {
           if (i % 64 >= 16 && bytes[i] != 0xff) {
             bytes[i] = static_cast<unsigned char>(bytes[i] | (bytes[i] + 1));
             return;
           }
         }
       }},
      {"a line's first rank raised",
       [&](std::vector<unsigned char>& bytes) { bytes[layout.lines_offset + 64 * 3] += 1; }},
      {"a line's counts changed",
       [&](std::vector<unsigned char>& bytes) { bytes[layout.lines_offset + 64 * 3 + 8] ^= 1; }},
      {"a count beyond the line's 45 bits",
       [&](std::vector<unsigned char>& bytes) {
         bytes[layout.lines_offset + 64 * 3 + 15] |= 0x80;
       }},
  };
  for (const Craft& craft : crafts) {
    INFO(craft.what);
    save_table(solved(), path);
    rewrite(path, craft.change);
    // Every look-up either answers as the table says or refuses it: it never reads outside the
    // file, and never uses a value beyond the ring.
    const auto found = fault(path);
    REQUIRE(found);
    CHECK(*found == TableFileError::Kind::damaged);
    CHECK(verified(path) == TableFileError::Kind::damaged);
  }
}

TEST_CASE("a table changed while in use is noticed before anything more is read from it",
          "[table-file][hostile]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  save_table(solved(), path);
  const Table table(load_table(path, kRing));
  const Board board = *Board::from_counts(std::vector{2, 1, 0, 3, 1, 4}, kRing);
  const int before = table.value(board);
  table.check_unchanged();
  // The same bytes written again: the file's times move, its contents do not.
  rewrite(path, [](std::vector<unsigned char>&) {});
  table.check_unchanged();
  CHECK(table.value(board) == before);
  // A value rewritten in place, its checksums recomputed: the blocks read so far no longer match.
  const TableLayout layout = table_layout(kRing);
  rewrite(path, [&](std::vector<unsigned char>& bytes) {
    const std::uint64_t values = table_size(kRing).values_bytes;
    for (std::uint64_t i = 0; i < values; ++i)
      bytes[layout.values_offset + i] ^= 1;
  });
  try {
    table.check_unchanged();
    FAIL("a change went unnoticed");
  } catch (const TableFileError& error) {
    CHECK(error.kind() == TableFileError::Kind::changed);
    CHECK(std::string(error.what()).find("changed while in use") != std::string::npos);
  }
  // Cut short: its size tells.
  save_table(solved(), path);
  const Table fresh(load_table(path, kRing));
  fresh.value(board);
  fs::resize_file(path, TableLayout::kBlockBytes);
  CHECK_THROWS_AS(fresh.check_unchanged(), TableFileError);
}

TEST_CASE("an interrupted write leaves no file that looks whole, and the old one intact",
          "[table-file]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  // What a write puts on disk: the header block, the three parts and the checksums (the
  // padding between the parts was reserved as zeros).
  const TableLayout layout = table_layout(kRing);
  const std::uint64_t written =
      TableLayout::kBlockBytes + table_size(kRing).table_bytes() + 8 * layout.blocks;
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
  CHECK_FALSE(refusal(path));
  CHECK(folder.entries() == 1);
}

TEST_CASE("a table is written only to a regular file, checked before any work",
          "[table-file][hostile]") {
  TempFolder folder;
  const auto refused = [](const std::string& path) {
    try {
      TableOutput output(path, kRing);
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
  CHECK_FALSE(refusal(link));
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
