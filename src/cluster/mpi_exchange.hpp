// The exchange between the processes of an MPI job (ring_solver.hpp, step 2): each process holds
// a share of the index's lines (stripes dealt in turn) and their classes' values, and a batch's
// successors go to the processes that hold them, as positions, and come back as values.
//
// It is pipelined: a round's questions are sent when its batch is expanded, and it is finished
// (its questions answered, the answers sent, its own answers awaited) when the third batch after
// it has started its round, so that a process that is a little behind in one round does not
// hold the others up. Every message is a point-to-point one (posted receives of the largest
// size a round can send), so that no process waits for the others to reach a collective call.
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "ioiwari/core/ring_solver.hpp"

namespace ioiwari::cluster {

class MpiExchange final : public Exchange {
 public:
  // The exchange of the processes of `comm`, each holding the part of its rank (part.share).
  MpiExchange(MPI_Comm comm, const RingPart& part);
  ~MpiExchange() override;
  MpiExchange(const MpiExchange&) = delete;
  MpiExchange& operator=(const MpiExchange&) = delete;

  // Twice the local batch: a round of messages for every 2,048 classes of each process, whose
  // buffers stay in a core's cache.
  static constexpr std::size_t kBatch = 2 * kSolveBatch;
  // The buffers of the two rounds in flight, at most, for `processes` processes: for each
  // successor of a batch of `ring`, a position out, a reply and its owner (8 + 1 + 4 bytes), and
  // from every other process as many positions in and answers out (8 + 1).
  static std::uint64_t buffer_bytes(Ring ring, int processes) {
    const std::uint64_t most = kBatch * static_cast<std::uint64_t>(ring.pits);
    return (kDepth + 1) * most * (13 + 9 * static_cast<std::uint64_t>(processes));
  }

  bool concurrent() const override { return false; }
  std::size_t batch() const override { return kBatch; }
  // The most batches any process has for the layer.
  std::uint64_t rounds(int layer, std::uint64_t batches) override;
  // One round at once: start() and finish().
  void values(std::span<std::uint64_t> positions, std::span<std::int8_t> values) override;

  bool pipelined() const override { return true; }
  std::size_t depth() const override { return kDepth; }
  // Sends each position to the process that holds it, and posts the receives of the round's
  // questions from the others and of their answers.
  void start(std::span<std::uint64_t> positions) override;
  // Answers the questions of the oldest round not finished from this process's part, sends the
  // answers, and waits for its own.
  void finish(std::span<std::int8_t> values) override;

  // What the rounds sent to other processes: positions (8 bytes each) and values (1 byte).
  std::uint64_t sent_positions() const { return sent_positions_; }
  std::uint64_t rounds_made() const { return rounds_made_; }

 private:
  static constexpr std::size_t kLanes = 4;
  static constexpr std::size_t kDepth = 3;
  // A round's buffers and messages.
  struct Round {
    std::vector<std::uint64_t> outgoing;  // the positions asked, grouped by owner
    std::vector<std::uint32_t> owner;     // the process that holds each asked position
    // Where each lane's positions of each owner begin in `outgoing` (start()): the answers are
    // taken back in the order the positions were put there.
    std::vector<std::uint64_t> lane_starts;
    std::vector<int> counts, starts;      // each owner's group in `outgoing`
    std::vector<std::uint64_t> incoming;  // the questions of each process, kMost apart
    std::vector<std::int8_t> answers;     // and their answers
    std::vector<std::int8_t> replies;     // the answers to `outgoing`, in its order
    std::vector<MPI_Request> questions_in, answers_in, sends;
    std::size_t count = 0;
  };
  void wait_sends(Round& round);

  MPI_Comm comm_;
  const RingPart& part_;
  int processes_ = 0, me_ = 0;
  std::size_t most_ = 0;  // the most positions a round asks of one process
  std::vector<std::uint64_t> lane_counts_;
  std::array<Round, kDepth + 1> rounds_;
  std::uint64_t started_ = 0, finished_ = 0;
  std::uint64_t sent_positions_ = 0, rounds_made_ = 0;
};

}  // namespace ioiwari::cluster
