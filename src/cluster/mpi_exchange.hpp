// The exchange between the processes of an MPI job (ring_solver.hpp, step 2): each process holds
// a share of the index's lines (stripes dealt in turn) and their classes' values, and a batch's
// successors go to the processes that hold them, as positions, and come back as values.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

#include "ioiwari/core/ring_solver.hpp"

namespace ioiwari::cluster {

class MpiExchange final : public Exchange {
 public:
  // The exchange of the processes of `comm`, each holding the part of its rank (part.share).
  MpiExchange(MPI_Comm comm, const RingPart& part);

  // 16 times the local batch: a round of messages for every 16,384 classes of each process.
  static constexpr std::size_t kBatch = 16 * kSolveBatch;
  // The buffers of a round, at most: for each successor of a batch of `ring`, a position out and
  // one in (8 bytes each), an answer and a reply (1 each) and its slot (4).
  static std::uint64_t buffer_bytes(Ring ring) {
    return kBatch * static_cast<std::uint64_t>(ring.pits) * (8 + 8 + 1 + 1 + 4);
  }

  bool concurrent() const override { return false; }
  std::size_t batch() const override { return kBatch; }
  // The most batches any process has for the layer.
  std::uint64_t rounds(int layer, std::uint64_t batches) override;
  // One round: every process sends each position to the process that holds it, answers what it
  // is sent from its own part, and sends the values back.
  void values(std::span<std::uint64_t> positions, std::span<std::int8_t> values) override;

  // What the rounds sent to other processes: positions (8 bytes each) and values (1 byte).
  std::uint64_t sent_positions() const { return sent_positions_; }
  std::uint64_t rounds_made() const { return rounds_made_; }

 private:
  MPI_Comm comm_;
  const RingPart& part_;
  int processes_ = 0, me_ = 0;
  std::vector<int> send_counts_, send_starts_, receive_counts_, receive_starts_;
  std::vector<std::uint64_t> outgoing_, incoming_;
  std::vector<std::int8_t> answers_, replies_;
  std::vector<std::uint32_t> slot_;  // where each asked position went in `outgoing_`
  std::uint64_t sent_positions_ = 0, rounds_made_ = 0;
};

}  // namespace ioiwari::cluster
