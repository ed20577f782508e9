#include "mpi_exchange.hpp"

#include <algorithm>

namespace ioiwari::cluster {

namespace {

constexpr int kQuestion = 1, kAnswer = 2;

}  // namespace

MpiExchange::MpiExchange(MPI_Comm comm, const RingPart& part) : comm_(comm), part_(part) {
  MPI_Comm_size(comm_, &processes_);
  MPI_Comm_rank(comm_, &me_);
  most_ = kBatch * static_cast<std::size_t>(part.index().ring().pits);
  const auto processes = static_cast<std::size_t>(processes_);
  for (Round& round : rounds_) {
    round.counts.resize(processes);
    round.starts.resize(processes);
    round.incoming.resize(most_ * processes);
    round.answers.resize(most_ * processes);
    round.questions_in.assign(processes, MPI_REQUEST_NULL);
    round.answers_in.assign(processes, MPI_REQUEST_NULL);
  }
}

MpiExchange::~MpiExchange() {
  for (Round& round : rounds_)
    wait_sends(round);
}

std::uint64_t MpiExchange::rounds(int, std::uint64_t batches) {
  std::uint64_t most = 0;
  MPI_Allreduce(&batches, &most, 1, MPI_UINT64_T, MPI_MAX, comm_);
  return most;
}

void MpiExchange::values(std::span<std::uint64_t> positions, std::span<std::int8_t> values) {
  start(positions);
  finish(values);
}

void MpiExchange::wait_sends(Round& round) {
  if (round.sends.empty()) return;
  MPI_Waitall(static_cast<int>(round.sends.size()), round.sends.data(), MPI_STATUSES_IGNORE);
  round.sends.clear();
}

void MpiExchange::start(std::span<std::uint64_t> positions) {
  ++rounds_made_;
  Round& round = rounds_[started_++ % rounds_.size()];
  wait_sends(round);  // the sends of the round that used these buffers last
  const std::size_t count = positions.size();
  const auto processes = static_cast<std::size_t>(processes_);
  round.count = count;
  // Group the positions by the process that holds them (a counting sort), so that finish() can
  // take each answer back by going through the positions again in the same order. The positions
  // are taken in kLanes interleaved lanes, each with counts of its own, so that no count waits
  // for the one before it to be stored (a chain of stores and loads took a third of the
  // grouping's time).
  lane_counts_.assign(kLanes * processes, 0);
  round.owner.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto to = static_cast<std::uint32_t>(part_.share.owner(positions[i] / kLinePositions));
    round.owner[i] = to;
    ++lane_counts_[(i % kLanes) * processes + to];
  }
  std::uint64_t at = 0;
  for (std::size_t p = 0; p < processes; ++p) {
    round.starts[p] = static_cast<int>(at);
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      const std::uint64_t here = lane_counts_[lane * processes + p];
      lane_counts_[lane * processes + p] = at;
      at += here;
    }
    round.counts[p] = static_cast<int>(at) - round.starts[p];
  }
  round.lane_starts = lane_counts_;
  round.outgoing.resize(count);
  for (std::size_t i = 0; i < count; ++i)
    round.outgoing[lane_counts_[(i % kLanes) * processes + round.owner[i]]++] = positions[i];
  round.replies.resize(count);
  // The questions out, and the receives of the others' questions and of the answers to ours.
  for (int p = 0; p < processes_; ++p) {
    if (p == me_) continue;
    const auto q = static_cast<std::size_t>(p);
    MPI_Irecv(round.incoming.data() + most_ * q, static_cast<int>(most_), MPI_UINT64_T, p,
              kQuestion, comm_, &round.questions_in[q]);
    MPI_Irecv(round.replies.data() + round.starts[q], round.counts[q], MPI_INT8_T, p, kAnswer,
              comm_, &round.answers_in[q]);
    round.sends.emplace_back();
    MPI_Isend(round.outgoing.data() + round.starts[q], round.counts[q], MPI_UINT64_T, p, kQuestion,
              comm_, &round.sends.back());
    sent_positions_ += static_cast<std::uint64_t>(round.counts[q]);
  }
}

void MpiExchange::finish(std::span<std::int8_t> values) {
  Round& round = rounds_[finished_++ % rounds_.size()];
  // This process's own questions first, while the others' arrive.
  const auto mine = static_cast<std::size_t>(me_);
  const auto own = std::span(round.outgoing)
                       .subspan(static_cast<std::size_t>(round.starts[mine]),
                                static_cast<std::size_t>(round.counts[mine]));
  look_up(
      part_, own,
      std::span(round.replies).subspan(static_cast<std::size_t>(round.starts[mine]), own.size()));
  // Each other process's questions, answered as they come.
  for (int left = processes_ - 1; left > 0; --left) {
    int from = 0;
    MPI_Status status;
    MPI_Waitany(processes_, round.questions_in.data(), &from, &status);
    int asked = 0;
    MPI_Get_count(&status, MPI_UINT64_T, &asked);
    const auto q = static_cast<std::size_t>(from);
    const auto questions =
        std::span(round.incoming).subspan(most_ * q, static_cast<std::size_t>(asked));
    const auto answers = std::span(round.answers).subspan(most_ * q, questions.size());
    look_up(part_, questions, answers);
    round.sends.emplace_back();
    MPI_Isend(answers.data(), asked, MPI_INT8_T, from, kAnswer, comm_, &round.sends.back());
  }
  MPI_Waitall(processes_, round.answers_in.data(), MPI_STATUSES_IGNORE);
  // The answers back in the positions' order: the grouping once more.
  std::vector<std::uint64_t>& at = round.lane_starts;
  const auto processes = static_cast<std::size_t>(processes_);
  for (std::size_t i = 0; i < round.count; ++i)
    values[i] = round.replies[at[(i % kLanes) * processes + round.owner[i]]++];
}

}  // namespace ioiwari::cluster
