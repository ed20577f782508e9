// Reading table files: load_table() for the commands that look boards up, verify_table() for
// `ioiwari verify`. Nothing is read in place: every byte used is a copy, checked first; and the
// memory a file asks for is checked before any is taken, so that no file can make a reader fail
// but with a TableFileError.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "file_kind.hpp"
#include "ioiwari/core/table_compressed.hpp"
#include "ioiwari/core/table_file.hpp"
#include "ioiwari/core/tier_solver.hpp"
#include "table_file_reader.hpp"

namespace ioiwari {

namespace {

using namespace reading;

// The bytes of a table in file order, block by block: a file, or a table solved in memory.
class TableBytes {
 public:
  virtual ~TableBytes() = default;
  // The hash of hashed block `block`.
  virtual Digest block_hash(std::uint64_t block) const = 0;
  // Block `block`, whole (kBlock bytes).
  virtual void block(std::uint64_t block, unsigned char* into) const = 0;
};

class FileBytes final : public TableBytes {
 public:
  explicit FileBytes(const TableFile& file) : file_(file) {}
  Digest block_hash(std::uint64_t block) const override {
    Digest digest;
    std::memcpy(digest.data(), file_.block_hash_at(block), kHash);
    return digest;
  }
  void block(std::uint64_t block, unsigned char* into) const override {
    file_.read_block(block, into);
  }

 private:
  const TableFile& file_;
};

class SolvedBytes final : public TableBytes {
 public:
  SolvedBytes(const RingTable& table, const TableDigest& digest)
      : table_(table), digest_(digest), layout_(table.geometry().layout()) {}
  Digest block_hash(std::uint64_t block) const override {
    Digest digest;
    std::memcpy(digest.data(), digest_.block_hashes().data() + kHash * block, kHash);
    return digest;
  }
  void block(std::uint64_t block, unsigned char* into) const override {
    std::memset(into, 0, static_cast<std::size_t>(kBlock));
    const std::uint64_t begin = TableLayout::block_offset(block);
    const auto copy = [&](std::uint64_t offset, std::span<const unsigned char> part) {
      const std::uint64_t from = std::max(begin, offset);
      const std::uint64_t to = std::min(begin + kBlock, offset + part.size());
      if (from < to)
        std::memcpy(into + (from - begin), part.data() + (from - offset),
                    static_cast<std::size_t>(to - from));
    };
    copy(layout_.lines_offset,
         std::span(reinterpret_cast<const unsigned char*>(table_.lines().data()),
                   table_.lines().size_bytes()));
    copy(layout_.values_offset,
         std::span(reinterpret_cast<const unsigned char*>(table_.values().data()),
                   table_.values().size_bytes()));
  }

 private:
  const RingTable& table_;
  const TableDigest& digest_;
  const TableLayout& layout_;
};

// Where the file's bytes first differ from the true table's, in words: the class and its two
// values, or the line of the index. `file` and `truth` have different roots.
std::string first_difference(const TableFile& file, const TableBytes& truth) {
  const TableLayout& layout = file.layout();
  const FileBytes bytes(file);
  std::vector<unsigned char> ours(static_cast<std::size_t>(kBlock)),
      theirs(static_cast<std::size_t>(kBlock));
  for (std::uint64_t b = 0; b < layout.blocks; ++b) {
    if (bytes.block_hash(b) == truth.block_hash(b)) continue;
    bytes.block(b, ours.data());
    truth.block(b, theirs.data());
    const auto at = std::mismatch(ours.begin(), ours.end(), theirs.begin());
    if (at.first == ours.end()) continue;  // its hashes differ where its bytes do not
    const std::uint64_t offset =
        TableLayout::block_offset(b) + static_cast<std::uint64_t>(at.first - ours.begin());
    if (offset >= layout.values_offset && offset < layout.values_offset + layout.values_bytes) {
      const std::uint64_t rank = offset - layout.values_offset;
      return "the class of rank " + std::to_string(rank) + " has the value " +
             std::to_string(static_cast<std::int8_t>(*at.first)) + " in it and " +
             std::to_string(static_cast<std::int8_t>(*at.second)) + " in the solved table";
    }
    if (offset >= layout.lines_offset && offset < layout.lines_offset + layout.lines_bytes) {
      return "its index line " + std::to_string((offset - layout.lines_offset) / 64) +
             " differs from the solved table's";
    }
    return "byte " + std::to_string(offset) + " differs from the solved table's";
  }
  return "its hashes differ from the solved table's";
}

// Reads every block of `file` against its hashes, in order, through one block's memory; the
// bytes between and after the parts must be zero. In version 5, then its parts that no page
// holds (TableFile::check_compressed()).
void check_blocks(const TableFile& file) {
  std::array<std::uint64_t, 256> counts{};
  const TableLayout& layout = file.layout();
  std::vector<unsigned char> block(static_cast<std::size_t>(kBlock));
  const struct Part {
    std::uint64_t offset, bytes;
  } parts[] = {{layout.lines_offset, layout.lines_bytes},
               {layout.values_offset, layout.values_bytes}};
  for (std::uint64_t b = 0; b < layout.blocks; ++b) {
    file.read_block(b, block.data());
    const std::uint64_t begin = TableLayout::block_offset(b), end = begin + kBlock;
    std::uint64_t at = begin;
    for (const Part& part : parts) {
      const std::uint64_t from = std::max(begin, part.offset);
      const std::uint64_t to = std::min(end, part.offset + part.bytes);
      if (from >= to) continue;
      if (!all_zero(std::span(block).subspan(static_cast<std::size_t>(at - begin),
                                             static_cast<std::size_t>(from - at)))) {
        file.damaged("the padding before byte " + std::to_string(from) + " is not zero");
      }
      if (part.offset == layout.values_offset) {
        for (std::uint64_t o = from; o < to; ++o)
          ++counts[block[static_cast<std::size_t>(o - begin)]];
      }
      at = to;
    }
    if (!all_zero(std::span(block).subspan(static_cast<std::size_t>(at - begin)))) {
      file.damaged("the padding after byte " + std::to_string(at) + " is not zero");
    }
  }
  file.check_compressed(counts);
}

[[noreturn]] void out_of_memory(const std::string& path) {
  throw TableFileError(
      TableFileError::Kind::too_large,
      "table " + quoted_path(path) + " cannot be read in the memory this process may take");
}

}  // namespace

std::shared_ptr<const RingTable> load_table(const std::string& path,
                                            std::shared_ptr<const RingGeometry> geometry,
                                            const TableReading& reading) {
  try {
    auto file = std::make_shared<TableFile>(path, std::move(geometry), reading.roots,
                                            reading.trust_unknown_root, reading.memory);
    file->cache(reading.cache_bytes);
    auto shape = file->geometry();
    return RingTable::over(std::move(shape), std::move(file));
  } catch (const std::bad_alloc&) {
    out_of_memory(path);
  }
}

TableKind table_kind(const std::string& path) {
  try {
    const TableFile file(path, nullptr, RootBook::none(), true, 0);
    return {file.ring(), static_cast<TableFormat>(file.version())};
  } catch (const std::bad_alloc&) {
    out_of_memory(path);
  }
}

Ring table_ring(const std::string& path) {
  return table_kind(path).ring;
}

TableCopy copy_table(const std::string& path, std::shared_ptr<const RingGeometry> geometry,
                     const RootBook& roots, std::uint64_t memory, const std::string& out,
                     TableFormat format) {
  try {
    const TableFile file(path, geometry, roots, false, memory);
    const TableLayout& layout = file.layout();
    TableOutput output(out, *geometry, format, TableOutput::Room::later);
    std::vector<unsigned char> block(static_cast<std::size_t>(kBlock));
    const struct Part {
      std::uint64_t offset, bytes;
    } parts[] = {{layout.lines_offset, layout.lines_bytes},
                 {layout.values_offset, layout.values_bytes}};
    // Format 5's code is made of the values' counts: a first pass reads the values' blocks.
    if (output.format() == TableFormat::compressed) {
      ValueCounts counts{};
      const std::uint64_t values_end = layout.values_offset + layout.values_bytes;
      for (std::uint64_t b = TableLayout::block_of(layout.values_offset);
           TableLayout::block_offset(b) < values_end; ++b) {
        file.read_block(b, block.data());
        const std::uint64_t begin = TableLayout::block_offset(b);
        const std::uint64_t from = std::max(begin, layout.values_offset);
        const std::uint64_t to = std::min(begin + kBlock, values_end);
        add_value_counts({reinterpret_cast<const std::int8_t*>(block.data()) + (from - begin),
                          static_cast<std::size_t>(to - from)},
                         counts);
      }
      output.set_value_counts(counts);
    }
    for (std::uint64_t b = 0; b < layout.blocks; ++b) {
      file.read_block(b, block.data());
      const std::uint64_t begin = TableLayout::block_offset(b), end = begin + kBlock;
      for (const Part& part : parts) {
        const std::uint64_t from = std::max(begin, part.offset);
        const std::uint64_t to = std::min(end, part.offset + part.bytes);
        if (from < to) {
          output.append(std::span(block).subspan(static_cast<std::size_t>(from - begin),
                                                 static_cast<std::size_t>(to - from)));
        }
      }
    }
    output.commit(layout.classes);
    if (output.root() != file.root()) throw std::logic_error("a copied table has another root");
    return {file.version(), output.root(), output.size()};
  } catch (const std::bad_alloc&) {
    throw TableFileError(
        TableFileError::Kind::too_large,
        "table " + quoted_path(path) + " cannot be copied in the memory this process may take");
  }
}

TableCheck verify_table(const std::string& path, const VerifyOptions& options) {
  try {
    const TableFile file(path, nullptr, options.roots, true, options.memory);
    const TableLayout& layout = file.layout();
    check_blocks(file);
    TableCheck check{file.ring(), layout.classes, file.size(), layout.blocks,
                     file.root(), file.source(),  false};
    if (check.source != RootBook::Source::none) return check;
    // No true root is known: the ring is solved and the two tables compared.
    const std::shared_ptr<const RingGeometry>& geometry = file.geometry();
    const auto not_true = [&](const std::string& where) {
      throw TableFileError(TableFileError::Kind::wrong_root,
                           "table " + quoted_path(path) + " is not the true table of " +
                               check.ring.describe() + ": " + where);
    };
    if (options.memory == 0 || solve_bytes(*geometry, 1, 0, kSolveBatch) <= options.memory) {
      const auto solved = RingTable::solve(geometry, options.solve);
      TableDigest digest(layout);
      digest.append({reinterpret_cast<const unsigned char*>(solved->lines().data()),
                     solved->lines().size_bytes()});
      digest.append({reinterpret_cast<const unsigned char*>(solved->values().data()),
                     solved->values().size_bytes()});
      if (digest.root() != file.root())
        not_true(first_difference(file, SolvedBytes(*solved, digest)));
      return check;
    }
    // Past memory: the solve writes the true table to a file in the work folder, which is
    // compared and removed.
    TierOptions tier_options;
    tier_options.solve = options.solve;
    tier_options.memory = options.memory;
    TierSolve tier(geometry, tier_options);
    if (tier.window() < 0) {
      throw TableFileError(TableFileError::Kind::too_large,
                           "table " + quoted_path(path) + ": solving " + check.ring.describe() +
                               " to check it needs more memory than the " +
                               std::to_string(options.memory) + " bytes it may take");
    }
    const std::string truth_path =
        options.work + "/ioiwari-verify-" + std::to_string(::getpid()) + ".table";
    // Format 4: compared page by page and removed, never read by a look-up.
    TableOutput output(truth_path, *geometry, TableFormat::plain, TableOutput::Room::later);
    tier.open(options.work);
    tier.solve();
    tier.write(output, TierSolve::Merge::give_back);
    check.solved_past_memory = true;
    if (output.root() != file.root()) {
      std::string where;
      {
        const TableFile truth(truth_path, geometry, RootBook::none(), true, options.memory);
        where = first_difference(file, FileBytes(truth));
      }
      ::unlink(truth_path.c_str());
      not_true(where);
    }
    ::unlink(truth_path.c_str());
    return check;
  } catch (const std::bad_alloc&) {
    out_of_memory(path);
  }
}

}  // namespace ioiwari
