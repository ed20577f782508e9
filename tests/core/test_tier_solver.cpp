// The solve past memory (tier_solver.hpp): the table file it writes is the solve in memory's,
// byte for byte, whatever its window (none: every move answered after its layer's pass; one
// layer; more), on one thread and on two, and it leaves no file behind.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/ring_geometry.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/core/tier_solver.hpp"
#include "sanitized.hpp"
#include "table_files.hpp"

using namespace ioiwari;
using ioiwari::test::file_bytes;
using ioiwari::test::TempFolder;
namespace fs = std::filesystem;

namespace {

// The table file of `ring` solved past memory with `window` layers and `threads` threads, in
// `folder`; the solve's counts.
TierCounts solve_past_memory(Ring ring, int window, int threads, const TempFolder& folder,
                             const std::string& name,
                             TierSolve::Merge merge = TierSolve::Merge::give_back) {
  const auto geometry = RingGeometry::of(ring);
  TierOptions options;
  options.solve.threads = threads;
  options.window = window;
  TableOutput output(folder.file(name), *geometry, TableFormat::plain, TableOutput::Room::later);
  TierSolve solve(geometry, options);
  solve.open(folder.path().string());
  solve.solve();
  solve.write(output, merge);
  return solve.counts();
}

// The bytes of the table file of `ring` in `format`, solved in memory, written in `folder` as
// memory.table (left there).
std::vector<unsigned char> solved_in_memory(Ring ring, const TempFolder& folder,
                                            TableFormat format = TableFormat::plain) {
  const auto geometry = RingGeometry::of(ring);
  TableOutput output(folder.file("memory.table"), *geometry, format);
  output.commit(*RingTable::solve(geometry, SolveOptions{}));
  return file_bytes(folder.file("memory.table"));
}

}  // namespace

TEST_CASE("tier solver: its table file is the solve in memory's, for every window",
          "[ring-solver][tiers]") {
  TempFolder folder;
  // Every window on small rings; on the larger ones (7 pits of capacity 9: 1.4 million classes,
  // whose layers' deferred moves are sorted a few thousand at a time) two of them. Under the
  // sanitizers, not the largest, and on 7 pits of capacity 9 only the window of none, whose
  // sorts come a few thousand at a time (the others are the small rings' there): this test was
  // the sanitized suite's slowest, 50 s.
  std::vector<Ring> rings = {Ring{3, 5}, Ring{5, 3}, Ring{6, 5}, Ring{8, 4}, Ring{7, 9}};
  if (!test::kSanitized) rings.push_back(Ring{9, 4});
  for (const Ring ring : rings) {
    const auto geometry = RingGeometry::of(ring);
    const std::vector<unsigned char> expected = solved_in_memory(ring, folder);
    const bool small = geometry->classes() < 100'000;
    const std::vector<int> windows = small ? std::vector<int>{0, 1, 2, 5, ring.max_beads()}
                                     : test::kSanitized ? std::vector<int>{0}
                                                        : std::vector<int>{0, 3};
    for (const int window : windows) {
      for (const int threads : {1, 2}) {
        if (!small && threads == 1) continue;
        INFO(ring.describe() << ", window " << window << ", " << threads << " threads");
        // Both merges, which differ only in when the layers' files go.
        const TierCounts counts = solve_past_memory(
            ring, window, threads, folder, "tiers.table",
            threads == 1 ? TierSolve::Merge::keep_layers : TierSolve::Merge::give_back);
        const std::vector<unsigned char> written = file_bytes(folder.file("tiers.table"));
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
  CHECK(tier_bytes(LayerIndex(tiny), small->layer_classes(), 0, 2) > TableOutput::kStepsBytes);
}

TEST_CASE("tier solver: a folder it cannot write is one error, and nothing is left",
          "[ring-solver][tiers]") {
  TempFolder folder;
  const auto geometry = RingGeometry::of(Ring{6, 5});
  TierOptions options;
  options.window = 1;
  TierSolve solve(geometry, options);
  CHECK_THROWS_AS(solve.open(folder.file("missing")), TableFileError);
  CHECK(folder.entries() == 0);
}

namespace {

// Thrown from a solve's progress report to stop it, as a failed write would.
struct Stopped {};

// A solve of `ring` past memory in `folder` with `window` layers, stopped (Stopped) as soon as
// it has finished the layers below `stop_at`, or run to the end when that is past its last
// layer; returns the layers it left finished. The table goes to `table` when it is written.
int stopped_solve(Ring ring, int window, int stop_at, const TempFolder& folder,
                  const std::string& table, TierCounts* counts = nullptr,
                  TableFormat format = TableFormat::plain) {
  const auto geometry = RingGeometry::of(ring);
  TierOptions options;
  options.solve.threads = 2;
  options.solve.progress = [&](const SolveProgress& progress) {
    if (progress.layer >= stop_at) throw Stopped{};  // reported as each layer begins
  };
  options.window = window;
  TableOutput output(table, *geometry, format, TableOutput::Room::later);
  TierSolve solve(geometry, options);
  solve.open(folder.path().string());
  try {
    solve.solve();
    solve.write(output, TierSolve::Merge::keep_layers);
  } catch (const Stopped&) {
  }
  if (counts != nullptr) *counts = solve.counts();
  return solve.finished_layers();
}

std::string layers_folder(const TempFolder& folder, Ring ring) {
  return folder.file("ioiwari-layers-" + std::to_string(ring.pits) + "-" +
                     std::to_string(ring.capacity) + "-" + std::to_string(::geteuid()));
}

}  // namespace

TEST_CASE("tier solver: a stopped solve is taken up where it stopped, to the same bytes",
          "[ring-solver][tiers]") {
  TempFolder folder;
  const Ring ring{8, 4};  // 33 layers
  const std::string table = folder.file("tiers.table");
  // In format 4, and in format 5, whose code is made of the kept layers' counts too.
  for (const auto& [window, format] :
       {std::pair{0, TableFormat::plain}, std::pair{2, TableFormat::compressed}}) {
    INFO("window " << window);
    const std::vector<unsigned char> expected = solved_in_memory(ring, folder, format);
    fs::remove(folder.file("memory.table"));
    // Stopped at layer 9, then at 20 (taking up 9), then run to the end (taking up 20).
    CHECK(stopped_solve(ring, window, 9, folder, table, nullptr, format) == 9);
    CHECK(fs::exists(layers_folder(folder, ring) + "/layer-8"));
    CHECK_FALSE(fs::exists(table));
    TierCounts counts;
    CHECK(stopped_solve(ring, window, 20, folder, table, &counts, format) == 20);
    CHECK(counts.kept_layers == 9);
    CHECK(counts.bytes_checked > 0);
    // No unfinished file is left: a stop takes them (and a kill's are taken by the next solve).
    for (const auto& entry : fs::directory_iterator(layers_folder(folder, ring)))
      CHECK_FALSE(entry.path().string().ends_with(".part"));
    CHECK(stopped_solve(ring, window, 1000, folder, table, &counts, format) == 33);
    CHECK(counts.kept_layers == 20);
    CHECK(file_bytes(table) == expected);
    // The table written, the folder is gone.
    CHECK_FALSE(fs::exists(layers_folder(folder, ring)));
    fs::remove(table);
  }
}

TEST_CASE("tier solver: a kept layer that fails its manifest is solved again, with all above it",
          "[ring-solver][tiers][hostile]") {
  TempFolder folder;
  const Ring ring{8, 4};
  const std::vector<unsigned char> expected = solved_in_memory(ring, folder);
  const std::string table = folder.file("tiers.table");
  const std::string layers = layers_folder(folder, ring);
  const auto flip = [](const std::string& path, std::uint64_t at) {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(static_cast<std::streamoff>(at));
    const int byte = file.get();
    file.seekp(static_cast<std::streamoff>(at));
    file.put(static_cast<char>(byte ^ 1));
  };
  // Each way a layer can be wrong: a flipped value, a flipped line, a short file, a missing
  // file, a manifest of another layer, of another version, or missing.
  const std::vector<std::pair<std::string, std::function<void()>>> damages = {
      {"a value", [&] { flip(layers + "/values-12", 100); }},
      {"a line", [&] { flip(layers + "/lines-12", 70); }},
      {"short",
       [&] { fs::resize_file(layers + "/values-12", fs::file_size(layers + "/values-12") - 1); }},
      {"no values", [&] { fs::remove(layers + "/values-12"); }},
      {"another layer's manifest",
       [&] {
         fs::copy_file(layers + "/layer-11", layers + "/layer-12",
                       fs::copy_options::overwrite_existing);
       }},
      {"another version", [&] { flip(layers + "/layer-12", 14); }},
      {"a value's count",
       [&] {
         // The last count's last digit, before the manifest's last line break.
         flip(layers + "/layer-12", fs::file_size(layers + "/layer-12") - 2);
       }},
      {"no manifest", [&] { fs::remove(layers + "/layer-12"); }},
  };
  for (const auto& [what, damage] : damages) {
    INFO(what);
    REQUIRE(stopped_solve(ring, 1, 20, folder, table) == 20);
    damage();
    TierCounts counts;
    CHECK(stopped_solve(ring, 1, 1000, folder, table, &counts) == 33);
    CHECK(counts.kept_layers == 12);
    CHECK(file_bytes(table) == expected);
    fs::remove(table);
  }
}

TEST_CASE(
    "tier solver: a layers' folder another user could write, or another solve holds, is "
    "refused",
    "[ring-solver][tiers][hostile]") {
  TempFolder folder;
  const Ring ring{6, 5};
  const auto geometry = RingGeometry::of(ring);
  TierOptions options;
  options.window = 1;
  {
    TierSolve first(geometry, options);
    first.open(folder.path().string());
    TierSolve second(geometry, options);
    CHECK_THROWS_WITH(second.open(folder.path().string()),
                      Catch::Matchers::Contains("another solve of 6 pits, capacity 5 is using it"));
  }
  // The first gone, its lock goes with it.
  CHECK_FALSE(fs::exists(layers_folder(folder, ring)));
  fs::create_directory(layers_folder(folder, ring));
  fs::permissions(layers_folder(folder, ring), fs::perms::owner_all | fs::perms::group_all);
  // Writable by its group, by others (the group's bit clear), or by both.
  for (const mode_t mode : {mode_t{0770}, mode_t{0757}, mode_t{0702}, mode_t{0777}}) {
    INFO(std::oct << mode);
    REQUIRE(::chmod(layers_folder(folder, ring).c_str(), mode) == 0);
    TierSolve solve(geometry, options);
    CHECK_THROWS_WITH(solve.open(folder.path().string()),
                      Catch::Matchers::Contains("another user owns it or may write in it"));
  }
  // Another user's, private to them (only root can make it here): in a shared /tmp its name
  // is known, and its layers and manifests forged.
  if (::geteuid() == 0) {
    REQUIRE(::chmod(layers_folder(folder, ring).c_str(), 0700) == 0);
    REQUIRE(::chown(layers_folder(folder, ring).c_str(), 65534, 65534) == 0);
    TierSolve solve(geometry, options);
    CHECK_THROWS_WITH(solve.open(folder.path().string()),
                      Catch::Matchers::Contains("another user owns it or may write in it"));
  }
  // A link in its place is not followed.
  fs::remove(layers_folder(folder, ring));
  fs::create_directory(folder.file("elsewhere"));
  fs::create_directory_symlink(folder.file("elsewhere"), layers_folder(folder, ring));
  TierSolve linked(geometry, options);
  CHECK_THROWS_AS(linked.open(folder.path().string()), TableFileError);
  CHECK(fs::is_empty(folder.file("elsewhere")));
}

TEST_CASE("tier solver: what a killed solve left unfinished is removed when the next one opens",
          "[ring-solver][tiers][hostile]") {
  TempFolder folder;
  const Ring ring{8, 4};
  const std::string table = folder.file("tiers.table");
  REQUIRE(stopped_solve(ring, 1, 9, folder, table) == 9);
  // A kill leaves a layer's files half written, beside kept layers and above them.
  const std::string layers = layers_folder(folder, ring);
  std::vector<std::string> parts;
  for (const std::string name :
       {"lines-9", "values-9", "layer-9", "values-3", "lines-0", "layer-32", "values-32"}) {
    parts.push_back(layers + "/" + name + ".part");
    std::ofstream(parts.back()) << "half";
  }
  const auto geometry = RingGeometry::of(ring);
  TierOptions options;
  options.window = 1;
  TierSolve solve(geometry, options);
  solve.open(folder.path().string());
  for (const std::string& part : parts) {
    INFO(part);
    CHECK_FALSE(fs::exists(part));
  }
  CHECK(solve.counts().kept_layers == 9);
}

TEST_CASE("tier solver: the layers' files are written and read through the folder it checked",
          "[ring-solver][tiers][hostile]") {
  // Another folder renamed into the checked one's place after open(): the solve goes on in the
  // folder it checked, and the one put in its place is neither written nor removed.
  TempFolder folder;
  const Ring ring{8, 4};
  const auto geometry = RingGeometry::of(ring);
  const std::vector<unsigned char> expected = solved_in_memory(ring, folder);
  const std::string layers = layers_folder(folder, ring);
  const std::string moved = folder.file("moved");
  TierOptions options;
  options.solve.threads = 2;
  options.window = 1;
  {
    TierSolve solve(geometry, options);
    solve.open(folder.path().string());
    fs::rename(layers, moved);
    fs::create_directory(layers);
    fs::permissions(layers, fs::perms::owner_all);
    solve.solve();
    CHECK(fs::is_empty(layers));
    CHECK(fs::exists(moved + "/layer-32"));
    CHECK(fs::exists(moved + "/values-32"));
    // The merge reads the values it wrote, whatever the folder of that name holds.
    for (int beads = 0; beads <= ring.max_beads(); ++beads)
      std::ofstream(layers + "/values-" + std::to_string(beads)) << "forged";
    TableOutput output(folder.file("tiers.table"), *geometry, TableFormat::plain,
                       TableOutput::Room::later);
    solve.write(output, TierSolve::Merge::keep_layers);
    CHECK(file_bytes(folder.file("tiers.table")) == expected);
  }
  CHECK(fs::exists(layers + "/values-0"));  // not the solve's to remove
  CHECK(fs::is_empty(moved));               // the solve's own files gone with it
}
