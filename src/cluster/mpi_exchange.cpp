#include "mpi_exchange.hpp"

#include <algorithm>

namespace ioiwari::cluster {

MpiExchange::MpiExchange(MPI_Comm comm, const RingPart& part) : comm_(comm), part_(part) {
  MPI_Comm_size(comm_, &processes_);
  MPI_Comm_rank(comm_, &me_);
  const auto count = static_cast<std::size_t>(processes_);
  send_counts_.resize(count);
  send_starts_.resize(count);
  receive_counts_.resize(count);
  receive_starts_.resize(count);
}

std::uint64_t MpiExchange::rounds(int, std::uint64_t batches) {
  std::uint64_t most = 0;
  MPI_Allreduce(&batches, &most, 1, MPI_UINT64_T, MPI_MAX, comm_);
  return most;
}

void MpiExchange::values(std::span<std::uint64_t> positions, std::span<std::int8_t> values) {
  ++rounds_made_;
  const std::size_t count = positions.size();
  // Group the positions by the process that holds them (a counting sort), remembering where each
  // went, so that its answer can be put back in its place.
  std::fill(send_counts_.begin(), send_counts_.end(), 0);
  slot_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const int to = part_.share.owner(positions[i] / kLinePositions);
    slot_[i] = static_cast<std::uint32_t>(to);
    ++send_counts_[static_cast<std::size_t>(to)];
  }
  int start = 0;
  for (std::size_t p = 0; p < send_counts_.size(); ++p) {
    send_starts_[p] = start;
    start += send_counts_[p];
  }
  outgoing_.resize(count);
  std::vector<int> next = send_starts_;
  for (std::size_t i = 0; i < count; ++i) {
    const int at = next[slot_[i]]++;
    outgoing_[static_cast<std::size_t>(at)] = positions[i];
    slot_[i] = static_cast<std::uint32_t>(at);
  }
  sent_positions_ +=
      count - static_cast<std::uint64_t>(send_counts_[static_cast<std::size_t>(me_)]);

  MPI_Alltoall(send_counts_.data(), 1, MPI_INT, receive_counts_.data(), 1, MPI_INT, comm_);
  int received = 0;
  for (std::size_t p = 0; p < receive_counts_.size(); ++p) {
    receive_starts_[p] = received;
    received += receive_counts_[p];
  }
  incoming_.resize(static_cast<std::size_t>(received));
  MPI_Alltoallv(outgoing_.data(), send_counts_.data(), send_starts_.data(), MPI_UINT64_T,
                incoming_.data(), receive_counts_.data(), receive_starts_.data(), MPI_UINT64_T,
                comm_);
  // Answer what was asked of this process from its own part, then send the answers back the way
  // the questions came.
  answers_.resize(incoming_.size());
  look_up(part_, incoming_, answers_);
  replies_.resize(count);
  MPI_Alltoallv(answers_.data(), receive_counts_.data(), receive_starts_.data(), MPI_INT8_T,
                replies_.data(), send_counts_.data(), send_starts_.data(), MPI_INT8_T, comm_);
  for (std::size_t i = 0; i < count; ++i)
    values[i] = replies_[slot_[i]];
}

}  // namespace ioiwari::cluster
