#include "cluster.hpp"

#include "ioiwari/cli/commands.hpp"
#include "ioiwari/input/exit_code.hpp"

namespace ioiwari::cluster {

namespace {

constexpr int code(ExitCode exit) {
  return static_cast<int>(exit);
}

constexpr cli::Exit kExits[] = {
    {code(ExitCode::ok), "the table was written"},
    {code(ExitCode::usage),
     "bad command line, or a ring too large for the memory of some machine of the job"},
    {code(ExitCode::output_closed), "standard output could not be written"},
    {code(ExitCode::bad_table),
     "FILE cannot take the table (no regular file, no directory, no room) or the write failed"},
};

const cli::Command kCommands[] = {
    {"solve",
     "solve a ring on the processes of an MPI job and write its table to a file",
     "Run it under mpirun: 'mpirun -np K ioiwari-mpi solve --pits N --out FILE'. The processes "
     "share the ring's classes, about as many each, and hold only their share of the table; each "
     "solves its share one layer of bead count at a time, asking the others for the values of "
     "its moves' successors, then process 0 writes the table to FILE, byte for byte the file "
     "'ioiwari solve' writes (docs/table-format.md). FILE is on the machine of process 0. It "
     "prints a line for the solve and one for each process: its share, its times, what it sent "
     "and its peak memory.",
     cli::solve_options(),
     cli::Group::ring | cli::Group::quiet,
     cli::Operands::none,
     "",
     {},
     kExits,
     run_solve,
     "ioiwari-mpi"},
};

}  // namespace

std::span<const cli::Command> commands() {
  return kCommands;
}

}  // namespace ioiwari::cluster
