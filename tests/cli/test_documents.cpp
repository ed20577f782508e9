// The documents scripts read, pinned whole: analyze and starts (text and JSON) against golden
// files in tests/golden/, and bench with its timings set aside. A renamed key, a new field, a
// changed number or a moved space fails here. Regenerate a golden file only for a change that
// means to alter the document, and say so in docs/json.md.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/bench/bench.hpp"
#include "ioiwari/cli/cli.hpp"
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
