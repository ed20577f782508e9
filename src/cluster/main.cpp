// ioiwari-mpi: starts MPI, runs its one command in every process, and ends MPI.
#include <mpi.h>

#include <csignal>
#include <exception>
#include <iostream>
#include <sstream>
#include <string_view>
#include <vector>

#include "cluster.hpp"
#include "ioiwari/cli/cli.hpp"
#include "ioiwari/cli/environment.hpp"
#include "ioiwari/input/exit_code.hpp"

#ifndef IOIWARI_VERSION
#define IOIWARI_VERSION "unknown"
#endif

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int status = 0;
  try {
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    ioiwari::ProcessOutput process;
    std::ostream& out = process.out;
    ioiwari::Environment& environment = process.environment;
    // Every process parses the same command line: process 0 alone says what is wrong with it.
    std::ostringstream quiet;
    std::ostream& err = me == 0 ? std::cerr : quiet;
    const ioiwari::cli::Command& solve = ioiwari::cluster::commands().front();
    if (args.size() == 1 && (args.front() == "--help" || args.front() == "-h")) {
      status = ioiwari::run_command(solve, args, std::cin, me == 0 ? out : quiet, err, environment);
    } else if (args.size() == 1 && args.front() == "--version") {
      if (me == 0) out << "ioiwari-mpi " << IOIWARI_VERSION << '\n' << std::flush;
    } else if (args.empty() || args.front() != solve.name) {
      err << "ioiwari-mpi: the command is 'solve': mpirun -np K ioiwari-mpi solve --out FILE "
             "[--pits N ...]\nTry 'ioiwari-mpi solve --help' for its options.\n";
      status = ioiwari::to_int(ioiwari::ExitCode::usage);
    } else {
      status =
          ioiwari::run_command(solve, std::span(args).subspan(1), std::cin, out, err, environment);
    }
  } catch (const std::exception& error) {
    std::cerr << "ioiwari-mpi: process " << me << ": internal error: " << error.what() << '\n';
    MPI_Abort(MPI_COMM_WORLD, ioiwari::to_int(ioiwari::ExitCode::failure));
  }
  MPI_Finalize();
  return status;
}
