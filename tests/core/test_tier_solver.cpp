// The solve past memory (tier_solver.hpp): the table file it writes is the solve in memory's,
// byte for byte, whatever its window (none: every move answered after its layer's pass; one
// layer; more), on one thread and on two, and it leaves no file behind.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/ring_geometry.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/core/tier_solver.hpp"
#include "table_files.hpp"

using namespace ioiwari;
using ioiwari::test::TempFolder;

namespace {

std::vector<unsigned char> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The table file of `ring` solved past memory with `window` layers and `threads` threads, in
// `folder`; the solve's counts.
TierCounts solve_past_memory(Ring ring, int window, int threads, const TempFolder& folder,
                             const std::string& name) {
  const auto geometry = RingGeometry::of(ring);
  TierOptions options;
  options.solve.threads = threads;
  options.window = window;
  TableOutput output(folder.file(name), *geometry, TableOutput::Room::later);
  TierSolve solve(geometry, options);
  solve.solve(folder.path().string());
  solve.write(output);
  return solve.counts();
}

}  // namespace

TEST_CASE("tier solver: its table file is the solve in memory's, for every window",
          "[ring-solver][tiers]") {
  TempFolder folder;
  // Every window on small rings; on the larger ones (7 pits of capacity 9: 1.4 million classes,
  // whose layers' deferred moves are sorted a few thousand at a time) two of them.
  for (const Ring ring : {Ring{3, 5}, Ring{5, 3}, Ring{6, 5}, Ring{8, 4}, Ring{7, 9}, Ring{9, 4}}) {
    const auto geometry = RingGeometry::of(ring);
    const std::string memory = folder.file("memory.table");
    save_table(*RingTable::solve(geometry, SolveOptions{}), memory);
    const std::vector<unsigned char> expected = bytes_of(memory);
    const bool small = geometry->classes() < 100'000;
    const std::vector<int> windows =
        small ? std::vector<int>{0, 1, 2, 5, ring.max_beads()} : std::vector<int>{0, 3};
    for (const int window : windows) {
      for (const int threads : {1, 2}) {
        if (!small && threads == 1) continue;
        INFO(ring.describe() << ", window " << window << ", " << threads << " threads");
        const TierCounts counts = solve_past_memory(ring, window, threads, folder, "tiers.table");
        const std::vector<unsigned char> written = bytes_of(folder.file("tiers.table"));
        const auto differ =
            std::mismatch(written.begin(), written.end(), expected.begin(), expected.end());
        INFO("the files differ from byte " << differ.first - written.begin() << " of "
                                           << written.size() << " and " << expected.size());
        CHECK((differ.first == written.end() && differ.second == expected.end()));
        CHECK(counts.window == window);
        // Without a window every move waits for its layer's pass; with every layer, none does.
        if (window == 0) CHECK(counts.deferred == counts.moves);
        if (window == ring.max_beads()) CHECK(counts.deferred == 0);
        if (window > 0 && window < ring.max_beads()) CHECK(counts.deferred < counts.moves);
        // Without the memory to sort a layer's deferred moves at once, they are sorted and
        // answered a few thousand at a time.
        if (ring == Ring{7, 9} && window == 0) CHECK(counts.sweeps > counts.deferred_layers);
        // The layers' folder is gone: only the two tables are left.
        CHECK(folder.entries() == 2);
      }
    }
  }
}

TEST_CASE("tier solver: the window is the widest the memory takes", "[ring-solver][tiers]") {
  const Ring ring{10, 5};
  const auto geometry = RingGeometry::of(ring);
  const LayerIndex index(ring);
  const LayerCounts& classes = geometry->layer_classes();
  // Wider windows take more memory; a window of every layer, the whole ring by layer.
  std::uint64_t last = 0;
  for (int window = 0; window <= ring.max_beads(); ++window) {
    const std::uint64_t bytes = tier_bytes(index, classes, window, 2);
    CHECK(bytes >= last);
    last = bytes;
    CHECK(widest_window(index, classes, bytes, 2) >= window);
    if (bytes > tier_bytes(index, classes, window - 1 < 0 ? 0 : window - 1, 2))
      CHECK(widest_window(index, classes, bytes - 1, 2) == window - 1);
  }
  std::uint64_t all = 0;
  for (int beads = 0; beads <= ring.max_beads(); ++beads)
    all += layer_bytes(index, classes, beads);
  CHECK(last > all);
  CHECK(widest_window(index, classes, 1000, 2) == -1);
  // However small the ring, the merge that writes its table stages a writer's bytes for direct
  // I/O: the memory counts them.
  const Ring tiny{3, 1};
  const auto small = RingGeometry::of(tiny);
  CHECK(tier_bytes(LayerIndex(tiny), small->layer_classes(), 0, 2) > TableOutput::kStageBytes);
}

TEST_CASE("tier solver: a folder it cannot write is one error, and nothing is left",
          "[ring-solver][tiers]") {
  TempFolder folder;
  const auto geometry = RingGeometry::of(Ring{6, 5});
  TierOptions options;
  options.window = 1;
  TierSolve solve(geometry, options);
  CHECK_THROWS_AS(solve.solve(folder.file("missing")), TableFileError);
  CHECK(folder.entries() == 0);
}
