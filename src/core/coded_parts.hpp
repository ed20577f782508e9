// Format 5 written in steps (TableOutput, table_file.hpp): its parts made from format 4's bytes as
// they pass in file order, each written as soon as it is made, so that no format-4 file is ever
// on the disk. Of the index's lines only the first rank of each page of kIndexPageLines lines is
// kept; the values are coded page by page (kCodedPageClasses) with the code of their counts,
// which must be known before the first, and each page's start goes to the directory as it is
// coded (docs/table-format.md, "Version 5").
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "ioiwari/core/table_compressed.hpp"
#include "ioiwari/core/table_format.hpp"

namespace ioiwari {

class CodedParts {
 public:
  // Writes `bytes` at `offset` of the format-5 file, or throws.
  using Put = std::function<void(std::uint64_t offset, std::span<const unsigned char> bytes)>;
  // The bytes each part's run holds before it is written: the memory this object takes is three
  // runs and a page.
  static constexpr std::size_t kRunBytes = std::size_t{1} << 20;

  // For the table of `layout` whose values are counted by `counts` (every class's, once).
  // Throws std::logic_error when the counts are not the table's class count.
  CodedParts(const TableLayout& layout, const ValueCounts& counts, Put put);

  const ValueCode& code() const { return code_; }
  // The most bytes the coded values take: each value's code, and each page's last byte whole.
  std::uint64_t most_coded_bytes() const { return most_coded_bytes_; }

  // The parts' bytes from `offset` of format 4's file on, as TableDigest takes them.
  void pass(std::uint64_t offset, std::span<const unsigned char> bytes);
  // After the last value: codes the last page, writes what is held, and returns the bytes the
  // coded values took. Throws std::logic_error when the values passed are not those counted.
  std::uint64_t finish();

 private:
  void code_page();
  void flush(std::vector<unsigned char>& run, std::uint64_t offset, std::uint64_t& written);

  TableLayout layout_;
  CompressedLayout at_;  // the offsets of the parts that come before the coded values
  ValueCounts counts_{}, seen_{};
  ValueCode code_;
  std::uint64_t most_coded_bytes_ = 0;
  Put put_;
  std::vector<std::int8_t> page_;  // the values of the page being filled
  std::uint64_t pages_ = 0;        // pages coded
  // Each part's bytes not yet written, and the bytes of it written.
  std::vector<unsigned char> ranks_, directory_, coded_;
  std::uint64_t ranks_written_ = 0, directory_written_ = 0, coded_written_ = 0;
};

}  // namespace ioiwari
