// Reading table files: every value comes back, and no file, however crafted or changed while in
// use, makes a look-up give a value that is not the ring's: it is refused with one line instead.
#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
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

const Table& solved() {
  static const Table table(RingTable::solve(RingGeometry::of(kRing), {}));
  return table;
}

std::string one_line(const TableFileError& error, const std::string& path) {
  const std::string what = error.what();
  CHECK(what.find('\n') == std::string::npos);
  CHECK(what.find(path) != std::string::npos);
  return what;
}

// The kind of error loading `path` as a table of `ring` throws (or nothing when it loads).
std::optional<TableFileError::Kind> refusal(const std::string& path, Ring ring = kRing,
                                            const TableReading& reading = checked_reading()) {
  try {
    load_table(path, RingGeometry::of(ring), reading);
    return std::nullopt;
  } catch (const TableFileError& error) {
    INFO(one_line(error, path));
    return error.kind();
  }
}

// The kind of error using `path` throws: loading it, then every board's value, best move and
// analysis, each held to the true table's; nothing when every look-up answers.
std::optional<TableFileError::Kind> fault(const std::string& path,
                                          const TableReading& reading = checked_reading()) {
  try {
    const Table table(load_table(path, RingGeometry::of(kRing), reading));
    for (Board::Code code = 0; code < kRing.code_count(); ++code) {
      const Board board = Board::from_code(code, kRing);
      const int value = table.value(board);
      REQUIRE(value >= -kRing.max_beads());
      REQUIRE(value <= kRing.max_beads());
      table.best_move(board);
      table.analyze(board);
    }
    return std::nullopt;
  } catch (const TableFileError& error) {
    INFO(one_line(error, path));
    return error.kind();
  }
}

std::optional<TableFileError::Kind> verified(const std::string& path,
                                             const RootBook& roots = RootBook::built_in()) {
  try {
    VerifyOptions options;
    options.roots = roots;
    verify_table(path, options);
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

// The byte of the file that holds the value of `board`'s class.
std::uint64_t value_offset(const Board& board) {
  return RingGeometry(kRing).layout().values_offset + raw(solved().classes()->class_of(board));
}

}  // namespace

TEST_CASE("a table file round-trips: every value of the ring comes back", "[table-file]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  const Digest root = save_table(*solved().classes(), path);
  CHECK(root == *known_root(kRing));
  CHECK(fs::file_size(path) == RingGeometry(kRing).layout().file_bytes);
  for (const TableReading& reading : {checked_reading(), trusting_reading()}) {
    const auto loaded = load_table(path, RingGeometry::of(kRing), reading);
    CHECK(loaded->ring() == kRing);
    CHECK(loaded->classes() == solved().classes()->classes());
    CHECK(Table(loaded).checksum() == solved().checksum());
    for (Board::Code code = 0; code < kRing.code_count(); ++code) {
      const Board board = Board::from_code(code, kRing);
      REQUIRE(loaded->value(board) == solved().value(board));
    }
  }
  const TableCheck check = verify_table(path, {});
  CHECK(check.classes == solved().classes()->classes());
  CHECK(check.root == root);
  CHECK(check.source == RootBook::Source::built_in);
  VerifyOptions unknown;
  unknown.roots = RootBook::none();
  const TableCheck solved_check = verify_table(path, unknown);
  CHECK(solved_check.source == RootBook::Source::none);  // solved, and found the same
  CHECK(solved_check.root == root);
  CHECK(folder.entries() == 1);  // no temporary file left behind
}

TEST_CASE("a flipped byte anywhere in a table file is refused, at once or when it is read",
          "[table-file]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  const TableLayout layout = RingGeometry(kRing).layout();
  using Kind = TableFileError::Kind;
  struct Place {
    const char* what;
    std::uint64_t offset;
    Kind kind;
  };
  const std::vector<Place> places = {
      {"the magic", 0, Kind::not_a_table},
      {"the reserved word", 16, Kind::checksum},
      {"the zeros after the page size", 157, Kind::checksum},
      {"the version", 24, Kind::not_a_table},
      {"the header's hash", 40, Kind::checksum},
      {"the pits", 64, Kind::checksum},
      {"the classes", 72, Kind::checksum},
      {"the root", 170, Kind::checksum},
      {"the header's padding", 200, Kind::checksum},
      {"the header block's last byte", TableLayout::kBlockBytes - 1, Kind::checksum},
      {"a line's first rank", layout.lines_offset + 64 * 3 + 1, Kind::checksum},
      {"a line's counts", layout.lines_offset + 64 * 3 + 9, Kind::checksum},
      {"a line's bits", layout.lines_offset + 64 * 3 + 17, Kind::checksum},
      {"the padding after the index", layout.lines_offset + layout.lines_bytes, Kind::checksum},
      {"the first value", layout.values_offset, Kind::checksum},
      {"the last value", layout.values_offset + layout.values_bytes - 1, Kind::checksum},
      {"the padding after the values", layout.values_offset + layout.values_bytes, Kind::checksum},
      {"a page's hash", layout.page_hashes_offset + 3, Kind::checksum},
      {"a page's hash in the last block", layout.block_hashes_offset - 1, Kind::checksum},
      {"a block's hash", layout.block_hashes_offset + 3, Kind::checksum},
      {"a top hash", layout.top_hashes_offset + 3, Kind::checksum},
      {"the last byte", layout.file_bytes - 1, Kind::checksum},
  };
  for (const Place& place : places) {
    INFO(place.what << ", byte " << place.offset);
    save_table(*solved().classes(), path);
    change_byte(path, place.offset);
    CHECK(fault(path) == place.kind);
    CHECK(fault(path, trusting_reading()) == place.kind);
    CHECK(verified(path) == place.kind);
  }
}

TEST_CASE("a file of an older format version is refused with one line: solve the ring again",
          "[table-file]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  for (const std::uint32_t version : {1u, 2u, 3u}) {
    INFO("version " << version);
    save_table(*solved().classes(), path);
    rewrite(path, [&](std::vector<unsigned char>& bytes) {
      std::memcpy(bytes.data() + 24, &version, 4);
    });
    try {
      load_table(path, RingGeometry::of(kRing), checked_reading());
      FAIL("an old version loaded");
    } catch (const TableFileError& error) {
      CHECK(error.kind() == TableFileError::Kind::old_version);
      CHECK(one_line(error, path)
                .ends_with(
                    "has format version " + std::to_string(version) +
                    ", an older one; this ioiwari reads versions 4 and 5: solve the ring again"));
    }
  }
  // A version to come, and one in the other byte order, are no tables this ioiwari reads.
  save_table(*solved().classes(), path);
  change_byte(path, 24, 0x02);  // 4 -> 6
  CHECK(refusal(path) == TableFileError::Kind::not_a_table);
}

TEST_CASE("a damaged header is reported as damage, not as other rules", "[table-file]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  save_table(*solved().classes(), path);
  change_byte(path, 64, 0x0c);  // pits 6 -> 10
  CHECK(refusal(path) == TableFileError::Kind::checksum);
  CHECK(refusal(path, Ring{10, 4}) == TableFileError::Kind::checksum);
  // Bytes the format says are zero, set and the header's hash recomputed: damage all the same.
  for (const std::size_t offset : {std::size_t{16}, std::size_t{157}, std::size_t{300}}) {
    INFO("byte " << offset);
    save_table(*solved().classes(), path);
    rewrite(path, [&](std::vector<unsigned char>& bytes) { bytes[offset] = 1; });
    CHECK(refusal(path) == TableFileError::Kind::damaged);
    CHECK(verified(path, RootBook::none()) == TableFileError::Kind::damaged);
  }
}

TEST_CASE("a truncated table file is refused", "[table-file]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  const std::uint64_t size = RingGeometry(kRing).layout().file_bytes;
  for (std::uint64_t keep : {size - 1, size / 2, std::uint64_t{TableLayout::kBlockBytes},
                             std::uint64_t{100}, std::uint64_t{10}}) {
    save_table(*solved().classes(), path);
    fs::resize_file(path, keep);
    INFO("kept " << keep << " bytes");
    CHECK(refusal(path) == TableFileError::Kind::truncated);
  }
  // Bytes after the table make it something else.
  save_table(*solved().classes(), path);
  fs::resize_file(path, size + 1);
  CHECK(refusal(path) == TableFileError::Kind::not_a_table);
}

TEST_CASE("a table of other rules is refused for this ring", "[table-file]") {
  TempFolder folder;
  const std::string path = folder.file("six.table");
  save_table(*solved().classes(), path);
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
}

TEST_CASE("a FIFO, a device, a socket or a directory is refused without being opened",
          "[table-file][hostile]") {
  TempFolder folder;
  const std::string fifo = folder.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::vector<std::string> places = {fifo, make_socket(folder, "socket"), folder.file("dir")};
  fs::create_directory(folder.file("dir"));
  // A device node of our own (the null device's numbers), where we may make one.
  const std::string device = folder.file("device");
  if (::mknod(device.c_str(), S_IFCHR | 0600, makedev(1, 3)) == 0) {
    places.push_back(device);
  } else {
    WARN("no device node test: mknod is not allowed here");
  }
  for (const std::string& place : places) {
    INFO(place);
    // The kernel reports every open of the node: there must be none. (A FIFO opened without
    // O_NONBLOCK would wait for a writer forever; a device's open may do anything.)
    const int watch = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    REQUIRE(watch >= 0);
    REQUIRE(::inotify_add_watch(watch, place.c_str(), IN_OPEN) >= 0);
    CHECK(refusal(place) == TableFileError::Kind::unreadable);
    CHECK(verified(place) == TableFileError::Kind::unreadable);
    alignas(inotify_event) char events[4096];
    const ssize_t got = ::read(watch, events, sizeof events);
    const bool opened = got > 0 &&
                        (reinterpret_cast<const inotify_event*>(events)->mask & IN_OPEN) != 0 &&
                        reinterpret_cast<const inotify_event*>(events)->len == 0;
    CHECK_FALSE(opened);
    ::close(watch);
  }
}

namespace {

// Lies told by a table whose hashes are all recomputed, as the finder of the first version's
// weakness told them: each passes every check one move deep.
struct Lie {
  const char* what;
  std::function<void(std::vector<unsigned char>&)> tell;
  // What verify, solving the ring, finds: a table other than the true one, or damage (padding
  // the format says is zero, which it finds before it solves).
  TableFileError::Kind verified = TableFileError::Kind::wrong_root;
};

// A start's value raised by 2, and the class after one of its moves set to match, so that the
// start's value is still the best of its moves'.
void raise_start(std::vector<unsigned char>& bytes, const Board& start) {
  const Table& table = solved();
  const int value = table.value(start);
  for (Pit pit : start.pits()) {
    if (!start.is_legal(pit)) continue;
    const MoveResult move = play(start, pit);
    const int after = move.net() - (value + 2);
    if (after < -kRing.max_beads() || after > kRing.max_beads()) continue;
    bytes[value_offset(start)] = static_cast<unsigned char>(value + 2);
    bytes[value_offset(move.after)] = static_cast<unsigned char>(after);
    return;
  }
  FAIL("no move to tell the lie through");
}

std::vector<Lie> lies() {
  const std::vector<Board> all = starts(kRing, StartRule::defaults_for(kRing));
  const Board start = all.front();
  const std::vector<PitValue> moves = solved().analyze(start);
  return {
      {"one byte: the class after the best move",
       [=](std::vector<unsigned char>& bytes) {
         bytes[value_offset(play(start, moves.front().pit).after)] ^= 2;
       }},
      {"one byte: the class after the worst move",
       [=](std::vector<unsigned char>& bytes) {
         bytes[value_offset(play(start, moves.back().pit).after)] ^= 2;
       }},
      {"two bytes, consistent one move deep",
       [=](std::vector<unsigned char>& bytes) { raise_start(bytes, start); }},
      {"a chain: every start raised the same way",
       [=](std::vector<unsigned char>& bytes) {
         for (const Board& each : all)
           raise_start(bytes, each);
       }},
      {"non-zero padding after the values",
       [](std::vector<unsigned char>& bytes) {
         const TableLayout layout = RingGeometry(kRing).layout();
         bytes[layout.values_offset + layout.values_bytes + 5] = 1;
       },
       TableFileError::Kind::damaged},
      {"non-zero padding after the index",
       [](std::vector<unsigned char>& bytes) {
         const TableLayout layout = RingGeometry(kRing).layout();
         bytes[layout.values_offset - 1] = 0x80;
       },
       TableFileError::Kind::damaged},
  };
}

}  // namespace

TEST_CASE("no lie in a table with recomputed hashes is believed: its root is not the ring's",
          "[table-file][hostile]") {
  TempFolder folder;
  const std::string path = folder.file("lying.table");
  for (const Lie& lie : lies()) {
    INFO(lie.what);
    save_table(*solved().classes(), path);
    rewrite(path, lie.tell);
    // Every hash in the file matches: a command that knows the ring's root refuses it at once.
    CHECK(refusal(path) == TableFileError::Kind::wrong_root);
    CHECK(verified(path) == TableFileError::Kind::wrong_root);
    // Without the root, only `verify` tells the lie from the truth, by solving the ring: the
    // reason a ring with no known root is read only when the user says so.
    CHECK(verified(path, RootBook::none()) == lie.verified);
    CHECK(refusal(path, kRing, [] {
            TableReading reading = trusting_reading();
            reading.trust_unknown_root = false;
            return reading;
          }()) == TableFileError::Kind::unknown_root);
  }
}

TEST_CASE("a crafted table whose hashes are recomputed cannot crash a reader that trusts it",
          "[table-file][hostile]") {
  TempFolder folder;
  const std::string path = folder.file("crafted.table");
  const TableLayout layout = RingGeometry(kRing).layout();
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
      {"values zeroed", fill(layout.values_offset, layout.values_bytes, 0)},
      {"values 0x7f", fill(layout.values_offset, layout.values_bytes, 0x7f)},
      {"values random",
       [&](std::vector<unsigned char>& bytes) {
         for (std::uint64_t i = 0; i < layout.values_bytes; ++i)
           bytes[layout.values_offset + i] = static_cast<unsigned char>(random.below(256));
       }},
      {"one value off by one",
       [&](std::vector<unsigned char>& bytes) {
         bytes[layout.values_offset + layout.values_bytes / 2] += 1;
       }},
      {"index zeroed", fill(layout.lines_offset, layout.lines_bytes, 0)},
      {"index all ones", fill(layout.lines_offset, layout.lines_bytes, 0xff)},
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
    save_table(*solved().classes(), path);
    rewrite(path, craft.change);
    CHECK(refusal(path) == TableFileError::Kind::wrong_root);
    // Trusted, every look-up either answers within the ring or refuses the table: it never
    // reads outside the table, and never uses a value beyond the ring.
    CHECK(fault(path, trusting_reading()) == TableFileError::Kind::damaged);
    CHECK(verified(path, RootBook::none()) == TableFileError::Kind::wrong_root);
  }
}

TEST_CASE(
    "a table rewritten through a shared mapping while in use changes no value a reader "
    "gives",
    "[table-file][hostile]") {
  // The attack: map the file writable and shared, and change it under a reader that already
  // holds it. The page cache changes at once; the file's size and times need not move.
  const Ring ring{9, 4};  // several blocks, so that some are read only after the change
  const Table truth(RingTable::solve(RingGeometry::of(ring), {}));
  TempFolder folder;
  const std::string path = folder.file("nine.table");
  save_table(*truth.classes(), path);
  const TableLayout layout = RingGeometry(ring).layout();
  REQUIRE(layout.blocks >= 4);
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(fd >= 0);
  void* mapped = ::mmap(nullptr, static_cast<std::size_t>(layout.file_bytes),
                        PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  REQUIRE(mapped != MAP_FAILED);
  auto* const bytes = static_cast<unsigned char*>(mapped);
  // Every page dirtied before the reader opens the file, as the attacker did.
  for (std::uint64_t at = 0; at < layout.file_bytes; at += 4096)
    bytes[at] = bytes[at];

  const Table table(load_table(path, RingGeometry::of(ring), checked_reading()));
  const Board early = Board::from_code(1, ring);
  CHECK(table.value(early) == truth.value(early));
  // Then every value and every index word rewritten in place.
  for (std::uint64_t i = 0; i < layout.values_bytes; ++i)
    bytes[layout.values_offset + i] ^= 0x02;
  for (std::uint64_t i = 16; i < layout.lines_bytes; i += 64)
    bytes[layout.lines_offset + i] ^= 0x01;
  std::uint64_t answered = 0, refused = 0;
  for (Board::Code code = 0; code < ring.code_count(); code += 101) {
    const Board board = Board::from_code(code, ring);
    try {
      const int value = table.value(board);
      REQUIRE(value == truth.value(board));
      ++answered;
    } catch (const TableFileError& error) {
      INFO(error.what());
      CHECK((error.kind() == TableFileError::Kind::checksum ||
             error.kind() == TableFileError::Kind::changed));
      ++refused;
    }
  }
  // What was read before the change still answers, from the reader's own checked copy.
  CHECK(table.value(early) == truth.value(early));
  CHECK(answered > 0);
  CHECK(refused > 0);
  ::munmap(mapped, static_cast<std::size_t>(layout.file_bytes));
  ::close(fd);
}

TEST_CASE("a table cut short while in use answers from what it checked, or refuses",
          "[table-file][hostile]") {
  const Ring ring{9, 4};
  const Table truth(RingTable::solve(RingGeometry::of(ring), {}));
  TempFolder folder;
  const std::string path = folder.file("nine.table");
  save_table(*truth.classes(), path);
  const Table table(load_table(path, RingGeometry::of(ring), checked_reading()));
  const Board early = Board::from_code(1, ring);
  CHECK(table.value(early) == truth.value(early));
  fs::resize_file(path, 2 * TableLayout::kBlockBytes);
  bool cut_short = false;
  for (Board::Code code = 0; code < ring.code_count() && !cut_short; code += 11) {
    const Board board = Board::from_code(code, ring);
    try {
      const int value = table.value(board);
      REQUIRE(value == truth.value(board));
    } catch (const TableFileError& error) {
      CHECK(error.kind() == TableFileError::Kind::changed);
      CHECK(one_line(error, path).ends_with("changed while in use: it was cut short"));
      cut_short = true;
    }
  }
  CHECK(cut_short);
  CHECK(table.value(early) == truth.value(early));
}

TEST_CASE(
    "a table read through a cache smaller than itself gives every value, from many threads "
    "at once",
    "[table-file]") {
  const Ring ring{10, 4};
  const Table truth(RingTable::solve(RingGeometry::of(ring), {}));
  TempFolder folder;
  const std::string path = folder.file("ten.table");
  save_table(*truth.classes(), path);
  REQUIRE(RingGeometry(ring).layout().blocks > 16);
  TableReading reading = checked_reading();
  reading.cache_bytes = 4 * TableLayout::kBlockBytes;  // one set: every few look-ups evict
  const Table table(load_table(path, RingGeometry::of(ring), reading));
  std::vector<std::thread> threads;
  std::atomic<std::uint64_t> wrong{0}, looked{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Random random(static_cast<std::uint64_t>(t) + 1);
      for (int i = 0; i < 20'000; ++i) {
        const Board board =
            Board::from_code(static_cast<Board::Code>(random.next() % ring.code_count()), ring);
        if (table.value(board) != truth.value(board)) ++wrong;
        ++looked;
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  CHECK(looked == 80'000);
  CHECK(wrong == 0);
}
