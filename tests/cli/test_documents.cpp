// The documents scripts read, pinned whole: analyze and starts (text and JSON) against golden
// files in tests/golden/, and bench with its timings set aside. A renamed key, a new field, a
// changed number or a moved space fails here. Regenerate a golden file only for a change that
// means to alter the document, and say so in docs/json.md.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/bench/bench.hpp"
#include "ioiwari/cli/cli.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/table_file.hpp"
#include "json_schema.hpp"
#include "text_support.hpp"

using namespace ioiwari;

namespace {

std::string golden(const std::string& name) {
  std::ifstream file(std::string(IOIWARI_GOLDEN_DIR) + "/" + name, std::ios::binary);
  REQUIRE(file);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// What `ioiwari ARGS` writes on standard output; it must succeed and write nothing else.
std::string output_of(std::vector<std::string_view> args) {
  std::istringstream in;
  std::ostringstream out, err;
  REQUIRE(run_cli(args, in, out, err) == 0);
  CHECK(err.str().empty());
  return out.str();
}

}  // namespace

TEST_CASE("analyze's documents are pinned, as text and as JSON", "[documents]") {
  CHECK(output_of({"analyze", "4", "3", "2", "4", "2", "3", "2"}) == golden("analyze-4324232.txt"));
  CHECK(output_of({"analyze", "--json", "4", "3", "2", "4", "2", "3", "2"}) ==
        golden("analyze-4324232.json"));
  CHECK(output_of({"analyze", "--json", "0"}) == golden("analyze-empty.json"));
}

TEST_CASE("starts' documents are pinned, as text and as JSON", "[documents]") {
  CHECK(output_of({"starts"}) == golden("starts.txt"));
  CHECK(output_of({"starts", "--json"}) == golden("starts.json"));
  CHECK(output_of({"starts", "--classes"}) == golden("starts-classes.txt"));
  CHECK(output_of({"starts", "--classes", "--json"}) == golden("starts-classes.json"));
}

TEST_CASE("the census of a ring with ties is pinned: 7 pits of capacity 4", "[documents][rings]") {
  // 329 starts won by player 1, 28 tied, none lost: a tie counted as a win (or as a loss) would
  // change the counts and the golden files both.
  const std::string text = output_of({"starts", "--pits", "7", "--capacity", "4"});
  CHECK(text.find("with perfect play player 1 wins 329, ties 28 and loses 0;") !=
        std::string::npos);
  CHECK(text == golden("starts-7-4.txt"));
  const std::string json = output_of({"starts", "--pits", "7", "--capacity", "4", "--json"});
  CHECK(json.find("\"first_player_wins\": 329, \"first_player_ties\": 28, "
                  "\"first_player_losses\": 0") != std::string::npos);
  CHECK(json == golden("starts-7-4.json"));
}

TEST_CASE("bench's JSON document is pinned but for its timings", "[documents]") {
  std::ostringstream json;
  write_bench(json, run_bench(2, true, Ring::ioi(), {}), true);
  // Every timing and rate is a number that varies: set them to 0.
  const auto timeless = [](std::string text) {
    for (const char* key :
         {"\"median_ms\": ", "\"fastest_ms\": ", "\"slowest_ms\": ", "\"boards_per_second\": ",
          "\"positions_per_second\": ", "\"table_positions_per_second\": "})
      text = ioiwari::test::replace_after(std::move(text), key, ",}", "0");
    return text;
  };
  CHECK(timeless(json.str()) ==
        "{\"runs\": 2, \"median_ms\": 0, \"fastest_ms\": 0, \"slowest_ms\": 0, "
        "\"boards\": 279936, \"boards_per_second\": 0, \"positions\": 39996, "
        "\"checksum\": \"9f37a35940ea18a5\", \"negamax\": {\"median_ms\": 0, "
        "\"positions\": 279936, \"positions_per_second\": 0, \"table_positions_per_second\": 0, "
        "\"agrees\": true}}\n");
  std::ostringstream plain;
  write_bench(plain, run_bench(1, false, Ring::ioi(), {}), true);
  CHECK(timeless(plain.str()) ==
        "{\"runs\": 1, \"median_ms\": 0, \"fastest_ms\": 0, \"slowest_ms\": 0, "
        "\"boards\": 279936, \"boards_per_second\": 0, \"positions\": 39996, "
        "\"checksum\": \"9f37a35940ea18a5\"}\n");
}

TEST_CASE("docs/json.md lists every key of analyze, starts and bench, and no other",
          "[documents]") {
  test::check_documented("analyze", {golden("analyze-4324232.json"), golden("analyze-empty.json")});
  test::check_documented(
      "starts", {golden("starts.json"), golden("starts-classes.json"), golden("starts-7-4.json")});
  // Every variant of bench's document: the IOI ring with its game as a process, --negamax, and
  // a named ring.
  BenchResult ioi = run_bench(1, true, Ring::ioi(), {});
  ioi.process = ProcessBench{};
  BenchResult other = run_bench(1, false, Ring{5, 3}, {});
  other.named = true;
  std::ostringstream first, second;
  write_bench(first, ioi, true);
  write_bench(second, other, true);
  test::check_documented("bench", {first.str(), second.str()});
}

TEST_CASE("the table format's worked example is what the writer writes",
          "[documents][table-file]") {
  // docs/table-format.md gives a reader a table to test itself against: every figure of it
  // here, read from the document, against the writer's file of the same ring.
  std::ifstream document(std::string(IOIWARI_SOURCE_DIR) + "/docs/table-format.md");
  REQUIRE(document);
  std::ostringstream whole;
  whole << document.rdbuf();
  std::string text = whole.str();
  const auto at = text.find("Worked example, for a reader to test itself against:");
  REQUIRE(at != std::string::npos);
  text = text.substr(at, text.find("\n\n", at) - at);
  std::replace(text.begin(), text.end(), '\n', ' ');
  // "`X` = 1,234": the figure after X, commas dropped.
  const auto figure = [&](const std::string& name) -> std::uint64_t {
    const std::string key = "`" + name + "` = ";
    const auto found = text.find(key);
    REQUIRE(found != std::string::npos);
    std::string digits;
    for (std::size_t i = found + key.size();
         i < text.size() && (std::isdigit(text[i]) || text[i] == ','); ++i)
      if (text[i] != ',') digits += text[i];
    REQUIRE(!digits.empty());
    return std::stoull(digits);
  };
  CHECK(text.find("the table of 5 pits of capacity 5") != std::string::npos);
  const Ring ring{5, 5};
  const auto geometry = RingGeometry::of(ring);
  const TableLayout& layout = geometry->layout();
  CHECK(figure("K") == layout.classes);
  CHECK(figure("L") == geometry->lines());
  CHECK(figure("V") == layout.values_offset);
  CHECK(figure("M") == layout.blocks);
  CHECK(figure("H") == layout.page_hashes_offset);
  CHECK(figure("G") == layout.block_hashes_offset);
  CHECK(figure("T") == layout.top_hashes_offset);
  CHECK(figure("Q") == layout.hash_pages);
  const auto bytes_at = text.find(" a file of ");
  REQUIRE(bytes_at != std::string::npos);
  CHECK(std::stoull(std::regex_replace(text.substr(bytes_at + 11, 12), std::regex("[^0-9]"), "")) ==
        layout.file_bytes);
  // The writer's file: its first line's word 1 and its root.
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("ioiwari-worked-" + std::to_string(::getpid()) + ".table"))
                               .string();
  const Digest root = save_table(*RingTable::solve(geometry, {}), path);
  std::ifstream file(path, std::ios::binary);
  file.seekg(static_cast<std::streamoff>(layout.lines_offset + 8));
  std::uint64_t word1 = 0;
  file.read(reinterpret_cast<char*>(&word1), 8);
  std::filesystem::remove(path);
  std::ostringstream word;
  word << "word 1 of its first line is `0x" << std::hex << word1 << "`";
  CHECK(text.find(word.str()) != std::string::npos);
  CHECK(text.find("`" + hex(root) + "`") != std::string::npos);
  CHECK(root == *known_root(ring));

  // Version 5's worked example: its figures against the writer's file of the ring.
  const auto v5 = whole.str().find("Worked example of version 5, for a reader to test itself");
  REQUIRE(v5 != std::string::npos);
  text = whole.str().substr(v5, whole.str().find("\n\n", v5) - v5);
  std::replace(text.begin(), text.end(), '\n', ' ');
  TableOutput output(path, *geometry, TableFormat::compressed);
  output.commit(*RingTable::solve(geometry, {}));
  CHECK(output.root() == root);
  std::ifstream compressed(path, std::ios::binary);
  const std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(compressed), {}};
  std::filesystem::remove(path);
  const TableHeader header = TableHeader::parse(std::span(bytes).first(TableLayout::kBlockBytes));
  const CompressedLayout c = CompressedLayout::of(layout, header.coded_bytes);
  CHECK(figure("I") == c.index_pages);
  CHECK(figure("J") == c.value_pages);
  CHECK(figure("F") == c.first_ranks_offset);
  CHECK(figure("D") == c.directory_offset);
  CHECK(figure("X₀") == c.coded_offset);
  CHECK(figure("X") == c.coded_bytes);
  CHECK(figure("H₅") == c.page_hashes_offset);
  CHECK(figure("G₅") == c.block_hashes_offset);
  CHECK(figure("T₅") == c.top_hashes_offset);
  const auto v5_bytes = text.find(" a file of ");
  REQUIRE(v5_bytes != std::string::npos);
  CHECK(std::stoull(std::regex_replace(text.substr(v5_bytes + 11, 12), std::regex("[^0-9]"), "")) ==
        bytes.size());
  CHECK(c.file_bytes == bytes.size());
  for (int v = 2; v <= 6; ++v)
    CHECK(header.code_lengths[static_cast<std::size_t>(v)] == 3);
  for (const int v : {0, 1, 7, 8})
    CHECK(header.code_lengths[static_cast<std::size_t>(v)] == 4);
  std::ostringstream first;
  for (std::size_t k = 0; k < 8; ++k)
    first << std::hex << std::setw(2) << std::setfill('0') << int{bytes[c.coded_offset + k]};
  CHECK(text.find("its first coded bytes are `" + first.str() + "`") != std::string::npos);
}
