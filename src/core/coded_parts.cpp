#include "coded_parts.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace ioiwari {

namespace {

// Format 4's bytes of a page of the index's lines: kIndexPageLines lines of 64 bytes. Its first
// 8 bytes are the page's first rank.
constexpr std::uint64_t kIndexPageBytes = 64 * kIndexPageLines;

ValueCode code_of(const TableLayout& layout, const ValueCounts& counts) {
  const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
  if (total != layout.classes) {
    throw std::logic_error("format 5's value counts add up to " + std::to_string(total) +
                           ", not the table's " + std::to_string(layout.classes) + " classes");
  }
  const std::optional<ValueCode> code = ValueCode::of(ValueCode::lengths_for(counts));
  if (!code) throw std::logic_error("Huffman's lengths made no code");
  return *code;
}

template <class Number>
void append_number(std::vector<unsigned char>& run, Number number) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(&number);
  run.insert(run.end(), bytes, bytes + sizeof number);
}

}  // namespace

CodedParts::CodedParts(const TableLayout& layout, const ValueCounts& counts, Put put)
    : layout_(layout),
      at_(CompressedLayout::of(layout, 0)),
      counts_(counts),
      code_(code_of(layout, counts)),
      put_(std::move(put)) {
  std::uint64_t bits = 0;
  for (std::size_t b = 0; b < 256; ++b)
    bits += counts[b] * code_.lengths()[b];
  most_coded_bytes_ = (bits + 7) / 8 + at_.value_pages;
  page_.reserve(static_cast<std::size_t>(kCodedPageClasses));
  for (auto* run : {&ranks_, &directory_, &coded_})
    run->reserve(kRunBytes + kMostPageCodeBytes);
}

void CodedParts::flush(std::vector<unsigned char>& run, std::uint64_t offset,
                       std::uint64_t& written) {
  if (run.empty()) return;
  put_(offset + written, run);
  written += run.size();
  run.clear();
}

void CodedParts::code_page() {
  append_number(directory_, coded_written_ + coded_.size());
  code_.encode(page_, coded_);
  page_.clear();
  ++pages_;
  if (coded_.size() >= kRunBytes) flush(coded_, at_.coded_offset, coded_written_);
  if (directory_.size() >= kRunBytes) flush(directory_, at_.directory_offset, directory_written_);
}

void CodedParts::pass(std::uint64_t offset, std::span<const unsigned char> bytes) {
  const std::uint64_t end = offset + bytes.size();
  // The first rank of each page of lines: the first 8 bytes of its first line.
  const std::uint64_t lines_end = layout_.lines_offset + layout_.lines_bytes;
  if (offset < lines_end && end > layout_.lines_offset) {
    const std::uint64_t from = std::max(offset, layout_.lines_offset) - layout_.lines_offset;
    const std::uint64_t to = std::min(end, lines_end) - layout_.lines_offset;
    for (std::uint64_t page = from / kIndexPageBytes * kIndexPageBytes; page < to;
         page += kIndexPageBytes) {
      for (std::uint64_t at = std::max(page, from); at < std::min(page + 8, to); ++at)
        ranks_.push_back(bytes[static_cast<std::size_t>(layout_.lines_offset + at - offset)]);
    }
    if (ranks_.size() >= kRunBytes) flush(ranks_, at_.first_ranks_offset, ranks_written_);
  }
  // The values, a page at a time.
  const std::uint64_t values_end = layout_.values_offset + layout_.values_bytes;
  if (offset < values_end && end > layout_.values_offset) {
    const std::uint64_t from = std::max(offset, layout_.values_offset) - offset;
    const std::uint64_t to = std::min(end, values_end) - offset;
    const auto values =
        std::span(reinterpret_cast<const std::int8_t*>(bytes.data()), bytes.size())
            .subspan(static_cast<std::size_t>(from), static_cast<std::size_t>(to - from));
    add_value_counts(values, seen_);
    for (std::size_t done = 0; done < values.size();) {
      const std::size_t take = std::min(values.size() - done,
                                        static_cast<std::size_t>(kCodedPageClasses) - page_.size());
      page_.insert(page_.end(), values.begin() + static_cast<std::ptrdiff_t>(done),
                   values.begin() + static_cast<std::ptrdiff_t>(done + take));
      done += take;
      if (page_.size() == kCodedPageClasses) code_page();
    }
  }
}

std::uint64_t CodedParts::finish() {
  if (seen_ != counts_) {
    throw std::logic_error(
        "the values passed to format 5 are not the ones it was given the counts of");
  }
  if (!page_.empty()) code_page();
  if (pages_ != at_.value_pages || ranks_written_ + ranks_.size() != at_.first_ranks_bytes) {
    throw std::logic_error("format 5 was given a part of the table");
  }
  const std::uint64_t coded = coded_written_ + coded_.size();
  append_number(directory_, coded);
  flush(ranks_, at_.first_ranks_offset, ranks_written_);
  flush(directory_, at_.directory_offset, directory_written_);
  flush(coded_, at_.coded_offset, coded_written_);
  return coded;
}

}  // namespace ioiwari
