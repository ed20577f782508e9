// Format 5's parts (table_compressed.hpp): the code of the values, each page decoded to what was
// coded and no other bytes decoded at all, and the index's lines found again from their first
// ranks equal to the solved table's.
#include <sys/stat.h>

#include <array>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/ring_geometry.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/table.hpp"
#include "ioiwari/core/table_compressed.hpp"
#include "ioiwari/core/table_file.hpp"
#include "sanitized.hpp"
#include "table_files.hpp"

using namespace ioiwari;
using namespace ioiwari::test;
namespace fs = std::filesystem;

namespace {

std::uint64_t kraft(const ValueCode::Lengths& lengths) {
  std::uint64_t sum = 0;
  for (const std::uint8_t length : lengths)
    if (length > 0) sum += std::uint64_t{1} << (kMostCodeBits - length);
  return sum;
}

std::array<std::uint64_t, 256> counts_of(const std::vector<std::int8_t>& values) {
  std::array<std::uint64_t, 256> counts{};
  for (const std::int8_t v : values)
    ++counts[static_cast<std::uint8_t>(v)];
  return counts;
}

// The bytes of the disk that the file at `path` takes.
std::uint64_t disk_bytes(const std::string& path) {
  struct stat status {};
  REQUIRE(::stat(path.c_str(), &status) == 0);
  return static_cast<std::uint64_t>(status.st_blocks) * 512;
}

}  // namespace

TEST_CASE("value code: Huffman's lengths, ties broken as the format says, at most 12 bits",
          "[tables][compressed]") {
  std::array<std::uint64_t, 256> counts{};
  // 0 (3 times), 1 (1), 255 (-1: 1), 2 (1): merged 1+2 (the earlier bytes first), then 255 with
  // that (weight 1 and 2), then 0 with the rest.
  counts[0] = 3;
  counts[1] = 1;
  counts[2] = 1;
  counts[255] = 1;
  const ValueCode::Lengths lengths = ValueCode::lengths_for(counts);
  CHECK(lengths[0] == 1);
  CHECK(lengths[255] == 2);
  CHECK(lengths[1] == 3);
  CHECK(lengths[2] == 3);
  CHECK(kraft(lengths) == 4096);
  // One value alone: a code of one bit.
  std::array<std::uint64_t, 256> one{};
  one[7] = 1000;
  CHECK(ValueCode::lengths_for(one)[7] == 1);
  // Counts like Fibonacci's make Huffman's codes as long as there are values: halved until none
  // is over 12 bits, and still a whole code.
  std::array<std::uint64_t, 256> steep{};
  std::uint64_t a = 1, b = 1;
  for (int v = 0; v < 40; ++v) {
    steep[static_cast<std::size_t>(v)] = a;
    const std::uint64_t c = a + b;
    a = b;
    b = c;
  }
  const ValueCode::Lengths limited = ValueCode::lengths_for(steep);
  int longest = 0;
  for (const std::uint8_t length : limited)
    longest = std::max<int>(longest, length);
  CHECK(longest == kMostCodeBits);
  CHECK(kraft(limited) == 4096);
  for (int v = 0; v < 40; ++v)
    CHECK(limited[static_cast<std::size_t>(v)] > 0);
}

TEST_CASE("value counts: every value of runs of any length, ends included",
          "[tables][compressed]") {
  std::mt19937_64 random(5);
  for (std::size_t length = 0; length < 40; ++length) {
    std::vector<std::int8_t> values(length);
    for (std::int8_t& value : values)
      value = static_cast<std::int8_t>(random() % 7 - 3 - 124 * (random() % 9 == 0));
    ValueCounts counts{};
    counts[3] = 1;  // added to, not made anew
    add_value_counts(values, counts);
    --counts[3];
    CHECK(counts == counts_of(values));
  }
}

TEST_CASE("value code: lengths that are no code are refused", "[tables][compressed]") {
  ValueCode::Lengths lengths{};
  lengths[3] = 13;
  CHECK_FALSE(ValueCode::of(lengths).has_value());
  lengths[3] = 1;
  lengths[4] = 1;
  CHECK(ValueCode::of(lengths).has_value());
  lengths[5] = 2;  // three codes where two fill the room
  CHECK_FALSE(ValueCode::of(lengths).has_value());
}

TEST_CASE("value code: pages decode to what was coded, and nothing else decodes",
          "[tables][compressed][hostile]") {
  std::mt19937 random(7);
  for (int round = 0; round < 200; ++round) {
    // Values of a few kinds, skewed as a table's are.
    const int kinds = 1 + static_cast<int>(random() % 30);
    std::vector<std::int8_t> values(1 + random() % kCodedPageClasses);
    for (std::int8_t& v : values) {
      const int k = static_cast<int>(random() % static_cast<unsigned>(kinds));
      v = static_cast<std::int8_t>(k * k % kinds - kinds / 2);
      // A quarter of the rounds halve each value's share: codes of 1 bit to the longest, 12.
      if (round % 4 == 0) v = static_cast<std::int8_t>(std::countr_zero(random() | 1u << 20));
    }
    const auto code = ValueCode::of(ValueCode::lengths_for(counts_of(values)));
    REQUIRE(code.has_value());
    std::vector<unsigned char> bytes;
    code->encode(values, bytes);
    CHECK(bytes.size() <= kMostPageCodeBytes);
    std::vector<std::int8_t> back(values.size());
    REQUIRE(code->decode(bytes, back));
    CHECK(back == values);
    // A byte more or less, or a padding bit set, is refused.
    std::vector<unsigned char> longer = bytes;
    longer.push_back(0);
    CHECK_FALSE(code->decode(longer, back));
    if (!bytes.empty()) {
      CHECK_FALSE(code->decode(std::span(bytes).first(bytes.size() - 1), back));
      const std::size_t used = [&] {
        std::size_t bits = 0;
        for (const std::int8_t v : values)
          bits += code->lengths()[static_cast<std::uint8_t>(v)];
        return bits;
      }();
      if (used % 8 != 0) {
        std::vector<unsigned char> padded = bytes;
        padded.back() |= 1;
        CHECK_FALSE(code->decode(padded, back));
      }
    }
  }
  // A code of one value leaves the strings that start with 1 unused: they are refused.
  ValueCode::Lengths one{};
  one[0] = 1;
  const auto single = ValueCode::of(one);
  REQUIRE(single.has_value());
  std::vector<std::int8_t> out(8);
  const std::vector<unsigned char> zeros = {0};
  CHECK(single->decode(zeros, out));
  const std::vector<unsigned char> ones = {0x80};
  CHECK_FALSE(single->decode(ones, out));
  // No values: no bytes.
  CHECK(single->decode({}, std::span<std::int8_t>()));
  CHECK_FALSE(single->decode(zeros, std::span<std::int8_t>()));
}

TEST_CASE("the index's lines found again from their first ranks are the solved table's",
          "[tables][compressed]") {
  for (const Ring ring :
       {Ring{3, 1}, Ring{5, 3}, Ring{7, 5}, Ring{8, 4}, Ring{9, 5}, Ring{11, 2}}) {
    INFO(ring.describe());
    const auto geometry = RingGeometry::of(ring);
    const auto table = RingTable::solve(geometry, SolveOptions{});
    const std::span<const std::uint64_t> lines = table->lines();
    const std::uint64_t count = geometry->lines();
    std::vector<std::uint64_t> made(kIndexPageLines * kLineWords);
    for (std::uint64_t first = 0; first < count; first += kIndexPageLines) {
      const std::uint64_t after = make_index_lines(geometry->index(), first, kIndexPageLines,
                                                   lines[kLineWords * first], made.data());
      const std::uint64_t real = std::min(kIndexPageLines, count - first);
      CHECK(std::equal(made.begin(), made.begin() + static_cast<long>(real * kLineWords),
                       lines.begin() + static_cast<long>(first * kLineWords)));
      // Past the last line, zeros.
      CHECK(std::all_of(made.begin() + static_cast<long>(real * kLineWords), made.end(),
                        [](std::uint64_t w) { return w == 0; }));
      CHECK(after ==
            (first + real < count ? lines[kLineWords * (first + real)] : table->classes()));
    }
  }
}

namespace {

// The table of `ring` in format 5 at `path`, from memory; its root.
Digest write_compressed(const RingTable& table, const std::string& path) {
  TableOutput output(path, table.geometry(), TableFormat::compressed);
  output.commit(table);
  return output.root();
}

// Whether every board of `boards` has its true value read from `path` (nothing when the file is
// refused with one TableFileError: a look-up never answers a wrong value).
enum class Use { true_values, refused, wrong_value };
Use use(const std::string& path, const Table& truth, const std::vector<Board>& boards,
        const TableReading& reading) {
  try {
    const Table table(load_table(path, RingGeometry::of(truth.classes()->ring()), reading));
    for (const Board& board : boards) {
      if (table.value(board) != truth.value(board)) return Use::wrong_value;
    }
    return Use::true_values;
  } catch (const TableFileError& error) {
    const std::string what = error.what();
    CHECK(what.find('\n') == std::string::npos);
    return Use::refused;
  }
}

bool verifies(const std::string& path) {
  try {
    VerifyOptions options;
    options.roots = RootBook::built_in();
    verify_table(path, options);
    return true;
  } catch (const TableFileError& error) {
    const std::string what = error.what();
    CHECK(what.find('\n') == std::string::npos);
    return false;
  }
}

std::vector<Board> all_boards(Ring ring) {
  std::vector<Board> boards;
  for (Board::Code code = 0; code < ring.code_count(); ++code)
    boards.push_back(Board::from_code(code, ring));
  return boards;
}

}  // namespace

TEST_CASE("a table in format 5 reads back every value, with format 4's root, and verifies",
          "[tables][compressed]") {
  TempFolder folder;
  for (const Ring ring : {Ring{3, 1}, Ring{5, 3}, Ring{6, 4}, Ring{8, 4}, Ring{9, 5}}) {
    INFO(ring.describe());
    const auto geometry = RingGeometry::of(ring);
    const auto solved = RingTable::solve(geometry, SolveOptions{});
    const Table truth(solved);
    const std::string plain = folder.file("plain.table"), compressed = folder.file("five.table");
    const Digest root = save_table(*solved, plain);
    CHECK(write_compressed(*solved, compressed) == root);
    if (ring.pits >= 9) CHECK(fs::file_size(compressed) * 3 < fs::file_size(plain));
    CHECK(verifies(compressed));
    std::vector<Board> boards = all_boards(ring.pits <= 8 ? ring : Ring{3, 1});
    if (ring.pits > 8) {
      std::mt19937_64 random(3);
      boards.clear();
      for (int k = 0; k < 20000; ++k)
        boards.push_back(Board::from_code(random() % ring.code_count(), ring));
    }
    CHECK(use(compressed, truth, boards, checked_reading()) == Use::true_values);
    // Written in steps (as a solve past memory, a distributed one and convert write it), in
    // pieces of any size: the same bytes, and never format 4's bytes on the disk on the way.
    {
      TableOutput output(folder.file("steps.table"), *geometry, TableFormat::compressed,
                         TableOutput::Room::later);
      ValueCounts counts{};
      add_value_counts(solved->values(), counts);
      output.set_value_counts(counts);
      output.reserve();
      std::vector<unsigned char> bytes(solved->lines().size_bytes() + solved->values().size());
      std::memcpy(bytes.data(), solved->lines().data(), solved->lines().size_bytes());
      std::memcpy(bytes.data() + solved->lines().size_bytes(), solved->values().data(),
                  solved->values().size());
      std::mt19937_64 random(ring.pits);
      for (std::size_t at = 0; at < bytes.size();) {
        const std::size_t piece = std::min<std::size_t>(bytes.size() - at, 1 + random() % 9000);
        output.append(std::span(bytes).subspan(at, piece));
        at += piece;
      }
      const std::uint64_t disk = disk_bytes(output.temporary());
      INFO("the temporary file takes " << disk << " bytes; format 4's file "
                                       << geometry->layout().file_bytes);
      CHECK(disk <= output.bytes_in_steps() + 4096);
      if (ring.pits >= 8) CHECK(disk * 2 < geometry->layout().file_bytes);
      output.commit(solved->classes());
      CHECK(output.root() == root);
    }
    CHECK(file_bytes(folder.file("steps.table")) == file_bytes(compressed));
    CHECK(folder.entries() == 3);  // no temporary file is left
  }
}

TEST_CASE("format 5 in steps is coded only with its own values' counts, or not written",
          "[tables][compressed]") {
  TempFolder folder;
  const auto geometry = RingGeometry::of(Ring{6, 4});
  const auto solved = RingTable::solve(geometry, SolveOptions{});
  ValueCounts counts{};
  add_value_counts(solved->values(), counts);
  const auto lines = std::span(reinterpret_cast<const unsigned char*>(solved->lines().data()),
                               solved->lines().size_bytes());
  const auto values = std::span(reinterpret_cast<const unsigned char*>(solved->values().data()),
                                solved->values().size());
  const std::string path = folder.file("five.table");
  // Counts of another number of classes are refused as they are given.
  {
    TableOutput output(path, *geometry, TableFormat::compressed);
    ValueCounts fewer = counts;
    --fewer[static_cast<std::uint8_t>(solved->values()[0])];
    CHECK_THROWS_AS(output.set_value_counts(fewer), std::logic_error);
    CHECK_THROWS_AS(output.append(lines), std::logic_error);  // no counts: no parts
  }
  // As many classes, other values: the commit is refused, and nothing is left.
  {
    TableOutput output(path, *geometry, TableFormat::compressed);
    ValueCounts other = counts;
    const auto first = static_cast<std::uint8_t>(solved->values()[0]);
    --other[first];
    ++other[static_cast<std::uint8_t>(first + 1)];
    output.set_value_counts(other);
    CHECK_THROWS_AS(output.set_value_counts(counts), std::logic_error);  // once
    output.append(lines);
    output.append(values);
    CHECK_THROWS_AS(output.commit(solved->classes()), std::logic_error);
  }
  CHECK(folder.entries() == 0);
  // Format 4 has no code.
  TableOutput plain(path, *geometry, TableFormat::plain);
  CHECK_THROWS_AS(plain.set_value_counts(counts), std::logic_error);
}

TEST_CASE("a flipped byte anywhere in a format-5 file is refused, never read as a value",
          "[tables][compressed][hostile]") {
  TempFolder folder;
  const Ring ring{6, 4};
  const auto solved = RingTable::solve(RingGeometry::of(ring), SolveOptions{});
  const Table truth(solved);
  const std::string good = folder.file("good.table"), bad = folder.file("bad.table");
  write_compressed(*solved, good);
  const std::vector<unsigned char> bytes = file_bytes(good);
  const std::vector<Board> boards = all_boards(ring);
  // Every byte of the header's fields and of every part after the header block; some of the
  // header's padding.
  std::vector<std::size_t> places;
  for (std::size_t at = 0; at < 504; ++at)
    places.push_back(at);
  for (std::size_t at = 504; at < TableLayout::kBlockBytes; at += 997)
    places.push_back(at);
  for (std::size_t at = TableLayout::kBlockBytes; at < bytes.size(); ++at)
    places.push_back(at);
  // Each place's lowest and highest bit; under the sanitizers, where this test took 37 s, one of
  // the two, in turn.
  int refused_at_use = 0, flips = 0;
  for (const std::size_t at : places) {
    for (const int bit : {0x01, 0x80}) {
      if (test::kSanitized && (bit == 0x01) != (at % 2 == 0)) continue;
      ++flips;
      std::vector<unsigned char> changed = bytes;
      changed[at] = static_cast<unsigned char>(changed[at] ^ bit);
      write_bytes(bad, changed);
      INFO("byte " << at << " ^ " << bit);
      CHECK_FALSE(verifies(bad));
      const Use used = use(bad, truth, boards, checked_reading());
      CHECK(used != Use::wrong_value);
      if (used == Use::refused) ++refused_at_use;
    }
  }
  // Most flips are found by a look-up too (the rest lie in parts no look-up reads: the last
  // directory entry, the code of a value no class has).
  CHECK(refused_at_use > flips / 2);
}

TEST_CASE("a format-5 lie with every hash made again is refused by the ring's true root",
          "[tables][compressed][hostile]") {
  TempFolder folder;
  const Ring ring{8, 4};
  const auto geometry = RingGeometry::of(ring);
  const auto solved = RingTable::solve(geometry, SolveOptions{});
  std::vector<std::int8_t> values(solved->values().begin(), solved->values().end());
  values[1234] = static_cast<std::int8_t>(values[1234] + 2);
  const auto lie = RingTable::in_memory(geometry, solved->lines(), values, nullptr, nullptr);
  const std::string path = folder.file("lie.table");
  write_compressed(*lie, path);
  try {
    load_table(path, geometry, checked_reading());
    FAIL("the lie was read");
  } catch (const TableFileError& error) {
    CHECK(error.kind() == TableFileError::Kind::wrong_root);
  }
  CHECK_FALSE(verifies(path));
}

TEST_CASE(
    "a format-5 file whose coded bytes are not the one coding of its table is refused by "
    "verify",
    "[tables][compressed][hostile]") {
  TempFolder folder;
  const Ring ring{8, 4};
  const auto geometry = RingGeometry::of(ring);
  const auto solved = RingTable::solve(geometry, SolveOptions{});
  const Table truth(solved);
  const std::string good = folder.file("good.table"), bad = folder.file("bad.table");
  const Digest root = write_compressed(*solved, good);
  const std::vector<unsigned char> bytes = file_bytes(good);
  const TableHeader header = TableHeader::parse(std::span(bytes).first(TableLayout::kBlockBytes));
  const CompressedLayout c = CompressedLayout::of(geometry->layout(), header.coded_bytes);
  const auto rebuild = [&](std::uint64_t coded_bytes, const ValueCode::Lengths& lengths,
                           const std::vector<std::uint64_t>& directory,
                           const std::vector<unsigned char>& coded) {
    std::vector<unsigned char> out =
        TableHeader::compressed(*geometry, root, coded_bytes, lengths).block();
    out.insert(out.end(), bytes.begin() + static_cast<long>(c.first_ranks_offset),
               bytes.begin() + static_cast<long>(c.directory_offset));
    const auto* entries = reinterpret_cast<const unsigned char*>(directory.data());
    out.insert(out.end(), entries, entries + directory.size() * 8);
    out.insert(out.end(), coded.begin(), coded.end());
    out.insert(out.end(), bytes.begin() + static_cast<long>(c.page_hashes_offset), bytes.end());
    return out;
  };
  std::vector<std::uint64_t> directory(c.value_pages + 1);
  std::memcpy(directory.data(), bytes.data() + c.directory_offset, directory.size() * 8);
  const std::vector<unsigned char> coded(bytes.begin() + static_cast<long>(c.coded_offset),
                                         bytes.begin() + static_cast<long>(c.page_hashes_offset));
  // The file made again as it is: the same bytes (the test's own rebuilding is right).
  CHECK(rebuild(header.coded_bytes, header.code_lengths, directory, coded) == bytes);
  // A byte no page owns, before the first: every page still decodes.
  {
    std::vector<std::uint64_t> shifted = directory;
    for (std::uint64_t& entry : shifted)
      ++entry;
    std::vector<unsigned char> longer = {0};
    longer.insert(longer.end(), coded.begin(), coded.end());
    write_bytes(bad, rebuild(header.coded_bytes + 1, header.code_lengths, shifted, longer));
    std::mt19937_64 random(5);
    std::vector<Board> some;
    for (int k = 0; k < 5000; ++k)
      some.push_back(Board::from_code(random() % ring.code_count(), ring));
    CHECK(use(bad, truth, some, checked_reading()) == Use::true_values);
    CHECK_FALSE(verifies(bad));
  }
  // One byte after the last page, which no directory entry places: the directory ends before
  // the coded values do. Every page still decodes.
  {
    std::vector<unsigned char> longer = coded;
    longer.push_back(0);
    write_bytes(bad, rebuild(header.coded_bytes + 1, header.code_lengths, directory, longer));
    CHECK(use(bad, truth, all_boards(ring), checked_reading()) == Use::true_values);
    CHECK_FALSE(verifies(bad));
  }
  // Another code than the counts give (two values' lengths swapped), every page coded with it.
  {
    ValueCode::Lengths lengths = header.code_lengths;
    std::size_t a = 256, b = 256;
    for (std::size_t v = 0; v < 256; ++v) {
      if (lengths[v] == 0) continue;
      if (a == 256) {
        a = v;
      } else if (lengths[v] != lengths[a]) {
        b = v;
        break;
      }
    }
    REQUIRE(b < 256);
    std::swap(lengths[a], lengths[b]);
    const auto other = ValueCode::of(lengths);
    REQUIRE(other.has_value());
    std::vector<std::uint64_t> entries;
    std::vector<unsigned char> recoded;
    const auto values = solved->values();
    for (std::uint64_t first = 0; first < values.size(); first += kCodedPageClasses) {
      entries.push_back(recoded.size());
      other->encode(
          values.subspan(first, std::min<std::uint64_t>(kCodedPageClasses, values.size() - first)),
          recoded);
    }
    entries.push_back(recoded.size());
    write_bytes(bad, rebuild(recoded.size(), lengths, entries, recoded));
    CHECK(use(bad, truth, all_boards(ring), checked_reading()) == Use::true_values);
    CHECK_FALSE(verifies(bad));
  }
}

TEST_CASE("every ring's format-5 file of up to 100,000 classes verifies as the one coding",
          "[tables][compressed]") {
  // verify counts every value to find the code its counts give: a count that misses a value
  // gives another code on some ring (3 pits of capacity 5, for one).
  TempFolder folder;
  int rings = 0;
  for (int pits = kMinPits; pits <= kMaxPits; ++pits) {
    for (int capacity = kMinCapacity; capacity <= kMaxCapacity; ++capacity) {
      const Ring ring{pits, capacity};
      if (!ring.playable() || RingGeometry(ring).classes() > 100'000) continue;
      INFO(ring.describe());
      const auto solved = RingTable::solve(RingGeometry::of(ring), SolveOptions{});
      write_compressed(*solved, folder.file("five.table"));
      CHECK(verifies(folder.file("five.table")));
      ++rings;
    }
  }
  CHECK(rings > 30);
}
