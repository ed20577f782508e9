// Format 5 as docs/table-format.md ("Version 5") defines it, read by a writer and a reader of
// this file's own that share no code with ioiwari's (SHA-256 aside): from a ring's file of
// version 4 alone, the writer makes the file of version 5 byte for byte as `solve` does, so
// every rule the document states is held to the code: the halving of the counts repeated until
// no length is over 12, Huffman's order on (weight, name), the canonical codes, the last page
// coding only its own values, the first ranks, the directory and the header's fields; and the
// document's worked example. A code that is incomplete, or no code, passes the opening and is
// refused where a page is decoded, as the document says.
#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/sha256.hpp"
#include "ioiwari/core/table.hpp"
#include "ioiwari/core/table_compressed.hpp"
#include "ioiwari/core/table_file.hpp"
#include "table_files.hpp"

using namespace ioiwari;
using namespace ioiwari::test;

namespace {

using Bytes = std::vector<unsigned char>;
constexpr std::uint64_t kB = 65536;

std::uint64_t get64(const Bytes& bytes, std::uint64_t at) {
  std::uint64_t value;
  std::memcpy(&value, bytes.data() + at, 8);
  return value;
}
void put64(Bytes& bytes, std::uint64_t at, std::uint64_t value) {
  std::memcpy(bytes.data() + at, &value, 8);
}
void put32(Bytes& bytes, std::uint64_t at, std::uint32_t value) {
  std::memcpy(bytes.data() + at, &value, 4);
}

// "The lengths": Huffman's algorithm on the counts, the nodes ordered by (weight, name), the
// bytes named by themselves and the node made at step s named 256 + s; while a length is over
// 12, every count above 0 halved (rounded up) and the lengths found again. `rounds` is how many
// times the counts were halved.
std::array<int, 256> document_lengths(std::array<std::uint64_t, 256> counts, int& rounds) {
  rounds = 0;
  for (;;) {
    struct Node {
      std::uint64_t weight;
      int name;
      std::vector<int> bytes;  // the value bytes under it
    };
    std::vector<Node> nodes;
    for (int b = 0; b < 256; ++b)
      if (counts[static_cast<std::size_t>(b)] > 0)
        nodes.push_back({counts[static_cast<std::size_t>(b)], b, {b}});
    std::array<int, 256> lengths{};
    if (nodes.size() == 1) {
      lengths[static_cast<std::size_t>(nodes[0].name)] = 1;
      return lengths;
    }
    for (int step = 0; nodes.size() > 1; ++step) {
      // The two least in the order on (weight, name), the least first.
      const auto least = [&] {
        std::size_t at = 0;
        for (std::size_t k = 1; k < nodes.size(); ++k) {
          if (std::pair(nodes[k].weight, nodes[k].name) <
              std::pair(nodes[at].weight, nodes[at].name))
            at = k;
        }
        Node node = std::move(nodes[at]);
        nodes.erase(nodes.begin() + static_cast<long>(at));
        return node;
      };
      Node first = least();
      Node second = least();
      Node merged{first.weight + second.weight, 256 + step, first.bytes};
      merged.bytes.insert(merged.bytes.end(), second.bytes.begin(), second.bytes.end());
      for (const int b : merged.bytes)
        ++lengths[static_cast<std::size_t>(b)];
      nodes.push_back(std::move(merged));
    }
    if (*std::max_element(lengths.begin(), lengths.end()) <= 12) return lengths;
    ++rounds;
    for (std::uint64_t& c : counts)
      c = (c + 1) / 2;
  }
}

struct Written {
  Bytes file;
  int rounds = 0;
  std::array<int, 256> lengths{};
};

// The file of version 5 of the table whose file of version 4 is `plain`, made as the document
// says, from that file alone.
Written document_five(const Bytes& plain) {
  const std::uint64_t K = get64(plain, 72), M = get64(plain, 88);
  const std::uint64_t L = get64(plain, 104) / 64, V = get64(plain, 112), H = get64(plain, 128);
  const std::uint64_t Q = (M + 127) / 128;
  const std::uint64_t I = (L + 63) / 64, J = (K + 4095) / 4096;
  Written out;
  std::array<std::uint64_t, 256> counts{};
  for (std::uint64_t r = 0; r < K; ++r)
    ++counts[plain[V + r]];
  out.lengths = document_lengths(counts, out.rounds);
  // "The codes".
  std::array<std::uint32_t, 256> codes{};
  std::uint32_t next = 0;
  for (int length = 1; length <= 12; ++length) {
    for (int b = 0; b < 256; ++b) {
      if (out.lengths[static_cast<std::size_t>(b)] == length)
        codes[static_cast<std::size_t>(b)] = next++;
    }
    next *= 2;
  }
  // "A page": its own values' codes, from the most significant bit, the last byte filled.
  Bytes coded;
  std::vector<std::uint64_t> directory;
  for (std::uint64_t j = 0; j < J; ++j) {
    directory.push_back(coded.size());
    const std::uint64_t n = std::min<std::uint64_t>(4096, K - 4096 * j);
    int used = 8;  // bits used of the last byte
    for (std::uint64_t r = 4096 * j; r < 4096 * j + n; ++r) {
      const int length = out.lengths[plain[V + r]];
      for (int bit = length - 1; bit >= 0; --bit) {
        if (used == 8) {
          coded.push_back(0);
          used = 0;
        }
        coded.back() = static_cast<unsigned char>(coded.back() |
                                                  ((codes[plain[V + r]] >> bit & 1) << (7 - used)));
        ++used;
      }
    }
  }
  directory.push_back(coded.size());
  const std::uint64_t X = coded.size();
  const std::uint64_t F = kB, D = F + 8 * I, X0 = D + 8 * (J + 1), H5 = X0 + X;
  const std::uint64_t G5 = H5 + 512 * M, T5 = G5 + 32 * M;
  // The header: the plain file's, with these fields changed and added.
  Bytes& file = out.file;
  file.assign(plain.begin(), plain.begin() + static_cast<long>(kB));
  put32(file, 24, 5);
  put64(file, 128, H5);
  put64(file, 136, G5);
  put64(file, 192, T5);
  put64(file, 144, T5 + 32 * Q);
  put64(file, 200, F);
  put64(file, 208, 8 * I);
  put64(file, 216, D);
  put64(file, 224, 8 * (J + 1));
  put64(file, 232, X0);
  put64(file, 240, X);
  for (int b = 0; b < 256; ++b)
    file[248 + static_cast<std::size_t>(b)] =
        static_cast<unsigned char>(out.lengths[static_cast<std::size_t>(b)]);
  std::fill_n(file.begin() + 32, 32, 0);
  const Digest header_hash = sha256(file);
  std::copy(header_hash.begin(), header_hash.end(), file.begin() + 32);
  // The first ranks: word 0 of lines 0, 64, 128, ...
  for (std::uint64_t i = 0; i < I; ++i) {
    file.resize(file.size() + 8);
    put64(file, file.size() - 8, get64(plain, kB + 64 * 64 * i));
  }
  for (const std::uint64_t entry : directory) {
    file.resize(file.size() + 8);
    put64(file, file.size() - 8, entry);
  }
  file.insert(file.end(), coded.begin(), coded.end());
  // The three levels of hashes: the plain file's, byte for byte.
  file.insert(file.end(), plain.begin() + static_cast<long>(H), plain.end());
  REQUIRE(file.size() == T5 + 32 * Q);
  return out;
}

struct Files {
  Bytes plain, five;
};

Files solved_files(const TempFolder& folder, Ring ring) {
  const auto table = RingTable::solve(RingGeometry::of(ring), SolveOptions{});
  save_table(*table, folder.file("plain"));
  TableOutput output(folder.file("five"), table->geometry(), TableFormat::compressed);
  output.commit(*table);
  return {file_bytes(folder.file("plain")), file_bytes(folder.file("five"))};
}

}  // namespace

TEST_CASE("a writer of format 5 written from the document makes solve's files byte for byte",
          "[table-format][compressed]") {
  TempFolder folder;
  // The rings: one value page or many, the last page full or not, and codes needing no halving,
  // two rounds of it (7 pits of capacity 5) and eight (10 pits of capacity 4), as the document
  // says.
  struct Case {
    Ring ring;
    int rounds;
  };
  for (const Case& c :
       {Case{Ring{3, 1}, 0}, Case{Ring{4, 9}, -1}, Case{Ring{5, 5}, -1}, Case{Ring{6, 4}, -1},
        Case{Ring{7, 5}, 2}, Case{Ring{9, 3}, -1}, Case{Ring{10, 4}, 8}}) {
    INFO(c.ring.describe());
    const Files files = solved_files(folder, c.ring);
    const Written written = document_five(files.plain);
    if (c.rounds >= 0) CHECK(written.rounds == c.rounds);
    REQUIRE(written.file.size() == files.five.size());
    CHECK(written.file == files.five);
    // The document's own writer, not a reading of solve's bytes: its lengths were found from
    // the counts by the algorithm above.
    CHECK(std::equal(written.lengths.begin(), written.lengths.end(), files.five.begin() + 248));
  }
}

TEST_CASE("the code's lengths are the document's for counts of every shape",
          "[table-format][compressed]") {
  // Counts like Fibonacci's give codes as long as there are values, so they take every number
  // of halving rounds; random counts, ties of every kind.
  std::set<int> rounds_seen;
  std::mt19937_64 random(11);
  for (int round = 0; round < 400; ++round) {
    std::array<std::uint64_t, 256> counts{};
    const int kinds = 1 + static_cast<int>(random() % 60);
    std::vector<int> bytes(256);
    std::iota(bytes.begin(), bytes.end(), 0);
    std::shuffle(bytes.begin(), bytes.end(), random);
    std::uint64_t a = 1 + random() % 3, b = a + random() % 2;
    for (int k = 0; k < kinds; ++k) {
      const auto byte = static_cast<std::size_t>(bytes[static_cast<std::size_t>(k)]);
      if (round % 2 == 0) {
        counts[byte] = a;  // steep
        const std::uint64_t c = a + b;
        a = b;
        b = c;
      } else {
        counts[byte] = 1 + random() % (1 + random() % 50);  // flat, with many ties
      }
    }
    int rounds = 0;
    const std::array<int, 256> expected = document_lengths(counts, rounds);
    rounds_seen.insert(rounds);
    const ValueCode::Lengths lengths = ValueCode::lengths_for(counts);
    INFO("round " << round << ", " << kinds << " values, " << rounds << " halvings");
    CHECK(std::equal(expected.begin(), expected.end(), lengths.begin()));
  }
  for (int rounds = 0; rounds <= 5; ++rounds)
    CHECK(rounds_seen.count(rounds) == 1);
}

TEST_CASE("format 5's worked example is what solve writes", "[table-format][compressed]") {
  TempFolder folder;
  const Files files = solved_files(folder, Ring{5, 5});
  const Bytes& five = files.five;
  CHECK(get64(five, 200) == 65536);  // F
  CHECK(get64(five, 208) == 8);      // I = 1
  CHECK(get64(five, 216) == 65544);  // D
  CHECK(get64(five, 224) == 16);     // J = 1
  CHECK(get64(five, 232) == 65560);  // X0
  CHECK(get64(five, 240) == 724);    // X
  CHECK(get64(five, 128) == 66284);  // H5
  CHECK(get64(five, 136) == 67308);  // G5
  CHECK(get64(five, 192) == 67372);  // T5
  CHECK(get64(five, 144) == 67404);  // the file's bytes
  CHECK(five.size() == 67404);
  for (int v = 2; v <= 6; ++v)
    CHECK(five[248 + static_cast<std::size_t>(v)] == 3);
  for (const int v : {0, 1, 7, 8})
    CHECK(five[248 + static_cast<std::size_t>(v)] == 4);
  const Bytes first(five.begin() + 65560, five.begin() + 65568);
  CHECK(first == Bytes{0xae, 0xd7, 0x9f, 0xbc, 0x1d, 0x04, 0x11, 0xe7});
  // Its root is the plain file's.
  CHECK(std::equal(five.begin() + 160, five.begin() + 192, files.plain.begin() + 160));
}

TEST_CASE("no code, or an incomplete one, passes the opening and is refused as a page is decoded",
          "[table-format][compressed][hostile]") {
  TempFolder folder;
  const Ring ring{5, 5};
  const Files files = solved_files(folder, ring);
  const auto geometry = RingGeometry::of(ring);
  const auto with_lengths = [&](const std::array<int, 256>& lengths) {
    Bytes file = files.five;
    for (int b = 0; b < 256; ++b)
      file[248 + static_cast<std::size_t>(b)] =
          static_cast<unsigned char>(lengths[static_cast<std::size_t>(b)]);
    std::fill_n(file.begin() + 32, 32, 0);
    const Digest hash = sha256(Bytes(file.begin(), file.begin() + static_cast<long>(kB)));
    std::copy(hash.begin(), hash.end(), file.begin() + 32);
    write_bytes(folder.file("crafted"), file);
  };
  std::array<int, 256> incomplete{};
  for (int v = 0; v <= 8; ++v)
    incomplete[static_cast<std::size_t>(v)] = 4;  // room for 16 codes of 4 bits; 9 used
  for (const std::array<int, 256>& lengths : {std::array<int, 256>{}, incomplete}) {
    with_lengths(lengths);
    std::shared_ptr<const RingTable> opened;
    REQUIRE_NOTHROW(opened = load_table(folder.file("crafted"), geometry, checked_reading()));
    const Table read(opened);
    try {
      const int value = read.value(Board::from_code(1, ring));
      FAIL("a value was read through a code the page is not coded in: " << value);
    } catch (const TableFileError& error) {
      CHECK(error.kind() == TableFileError::Kind::damaged);
      CHECK(std::string(error.what()).find("crafted") != std::string::npos);
    }
  }
}
