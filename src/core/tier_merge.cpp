// The merge of a solve past memory (tier_solver.hpp): its layers' files, each in the order of its
// layer's own index, merged into the table file's order.
#include <fcntl.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <span>
#include <vector>

#include "ioiwari/core/table_file.hpp"
#include "ioiwari/core/tier_solver.hpp"
#include "layer_folder.hpp"
#include "solver_parts.hpp"
#include "tier_merge.hpp"

namespace ioiwari {

namespace {

// The bytes of a layer's values given back to the disk at once, as the merge passes them.
constexpr std::uint64_t kHole = std::uint64_t{1} << 20;

// Runs make(k, buffer) for k = 0 .. count-1 on `threads` threads, each with a buffer of its own
// (copies of `buffer`), and take(k, buffer) after each, in order of k: a thread whose turn has
// not come waits for it.
template <class Buffer, class Make, class Take>
void in_order(std::uint64_t count, int threads, const Buffer& buffer, Make&& make, Take&& take) {
  std::atomic<std::uint64_t> next{0};
  std::mutex mutex;
  std::condition_variable turn_came;
  std::uint64_t turn = 0;
  std::exception_ptr failed;
  on_threads(threads, [&](int) {
    Buffer mine = buffer;
    for (std::uint64_t k = next++; k < count; k = next++) {
      try {
        make(k, mine);
      } catch (...) {
        const std::lock_guard lock(mutex);
        if (!failed) failed = std::current_exception();
      }
      std::unique_lock lock(mutex);
      turn_came.wait(lock, [&] { return turn == k; });
      if (!failed) {
        try {
          take(k, mine);
        } catch (...) {
          failed = std::current_exception();
        }
      }
      ++turn;
      turn_came.notify_all();
    }
  });
  if (failed) std::rethrow_exception(failed);
}

}  // namespace

std::uint64_t merge_bytes(std::uint64_t lines, int threads) {
  return TableOutput::kStepsBytes + static_cast<std::uint64_t>(std::max(1, threads) + 1) * lines *
                                        (kLineWords * sizeof(std::uint64_t) + 2 * kLinePositions);
}

void TierSolve::write(TableOutput& output, Merge merge) {
  if (!solved_) throw std::logic_error("TierSolve::write before solve");
  const Ring ring = geometry_->ring();
  const RingIndex& ring_index = geometry_->index();
  const auto layers = static_cast<std::size_t>(ring.max_beads() + 1);
  const bool give_back = merge == Merge::give_back;
  // Format 5's code, from the counts of every layer's values, before they are merged.
  if (output.format() == TableFormat::compressed) output.set_value_counts(folder_->value_counts());
  if (give_back) folder_->give_back();
  output.reserve();

  // The ring's index is cut into chunks of lines, each walked by any thread and appended in
  // order: first the lines, then (a second walk) the values, each class's from its layer's file.
  const std::uint64_t all_lines = geometry_->lines();
  const std::uint64_t chunks = (all_lines + merge_lines_ - 1) / merge_lines_;
  const auto chunk_lines = [&](std::uint64_t chunk) {
    return std::min(merge_lines_, all_lines - chunk * merge_lines_);
  };
  const auto walk = [&](std::uint64_t chunk, auto&& visit) {
    const std::uint64_t first = chunk * merge_lines_ * kLinePositions;
    const std::uint64_t end = first + chunk_lines(chunk) * kLinePositions;
    for_each_necklace(ring.pits, ring.capacity, -1, ring_index.board_at(first),
                      ring_index.board_at(end), visit);
  };
  const auto bytes_of = [](const auto& vector, std::size_t count) {
    return std::span(reinterpret_cast<const unsigned char*>(vector.data()),
                     count * sizeof(vector[0]));
  };
  // The classes of each layer in each chunk, then where each chunk's start in each layer.
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(chunks) * layers, 0);

  std::uint64_t rank = 0;
  in_order(
      chunks, threads_, std::vector<std::uint64_t>(merge_lines_ * kLineWords),
      [&](std::uint64_t chunk, std::vector<std::uint64_t>& lines) {
        std::fill(lines.begin(), lines.end(), 0);
        const std::uint64_t first = chunk * merge_lines_;
        std::uint64_t* here = counts.data() + chunk * layers;
        walk(chunk, [&](Packed packed) {
          const std::uint64_t position = ring_index.position(packed) - first * kLinePositions;
          lines[kLineWords * (position / kLinePositions) + 2 + position % kLinePositions / 64] |=
              std::uint64_t{1} << (position % 64);
          ++here[beads_of(packed)];
        });
      },
      [&](std::uint64_t chunk, std::vector<std::uint64_t>& lines) {
        rank = count_lines(lines.data(), chunk_lines(chunk), rank);
        output.append(bytes_of(lines, chunk_lines(chunk) * kLineWords));
      });

  std::vector<std::unique_ptr<LayerFile>> files(layers);
  for (int beads = 0; beads <= ring.max_beads(); ++beads) {
    files[static_cast<std::size_t>(beads)] =
        give_back ? folder_->take_values(beads) : folder_->finished_file("values", beads);
  }
  std::vector<std::uint64_t> starts(counts.size() + layers, 0);
  for (std::uint64_t chunk = 0; chunk < chunks; ++chunk)
    for (std::size_t b = 0; b < layers; ++b)
      starts[(chunk + 1) * layers + b] = starts[chunk * layers + b] + counts[chunk * layers + b];
  std::atomic<std::uint64_t> read{0};
  struct Values {
    std::vector<std::int8_t> out;
    std::vector<std::vector<std::int8_t>> in;  // each layer's values of the chunk
  };
  in_order(
      chunks, threads_, Values{{}, std::vector<std::vector<std::int8_t>>(layers)},
      [&](std::uint64_t chunk, Values& values) {
        std::uint64_t total = 0;
        std::vector<std::size_t> taken(layers, 0);
        for (std::size_t b = 0; b < layers; ++b) {
          const std::uint64_t count = counts[chunk * layers + b];
          values.in[b].resize(count);
          files[b]->read(values.in[b].data(), count, starts[chunk * layers + b]);
          read += count;
          total += count;
        }
        values.out.resize(total);
        std::size_t at = 0;
        walk(chunk, [&](Packed packed) {
          const auto b = static_cast<std::size_t>(beads_of(packed));
          values.out[at++] = values.in[b][taken[b]++];
        });
      },
      [&](std::uint64_t chunk, Values& values) {
        output.append(bytes_of(values.out, values.out.size()));
        // The layers' bytes merged so far go back to the disk as the merge goes.
        if (give_back && chunk % 64 == 63) {
          for (std::size_t b = 0; b < layers; ++b) {
            const std::uint64_t done = starts[(chunk + 1) * layers + b] / kHole * kHole;
            if (done > 0) {
              ::fallocate(files[b]->fd(), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
                          static_cast<off_t>(done));
            }
          }
        }
      });
  counts_.bytes_read += read.load();
  files.clear();
  output.commit(rank);
  folder_->written();
}

}  // namespace ioiwari
