// ioiwari-mpi: the ring solver on the processes of an MPI job (README, "Beyond one machine").
#pragma once

#include <span>

#include "ioiwari/cli/options.hpp"

namespace ioiwari::cluster {

// The commands of ioiwari-mpi (cluster_commands.cpp): `solve`, with the options of `ioiwari
// solve`, declared where those are.
std::span<const cli::Command> commands();

// Runs `ioiwari-mpi solve` in every process of the job (cluster_solve.cpp).
int run_solve(cli::Invocation& call);

}  // namespace ioiwari::cluster
