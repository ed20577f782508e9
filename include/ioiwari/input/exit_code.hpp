// The exit statuses of the ioiwari command (docs/playing.md, "Exit status"): the front ends'
// decision, from the input layer up; the core returns errors and chooses no status.
#pragma once

namespace ioiwari {

enum class ExitCode : int {
  ok = 0,             // the game was played to its end, or a command finished
  failure = 1,        // an unexpected internal error
  usage = 2,          // the command line was wrong
  bad_start = 3,      // the start was not kPits counts of 0..kPitCapacity with a bead
  bad_move = 4,       // an opponent's move was not a number, not a pit, or an empty pit
  input_ended = 5,    // standard input ended before the game was over
  output_closed = 6,  // the reader of standard output went away
  bad_table = 7,      // a table file could not be read, written, or used for this ring
};

constexpr int to_int(ExitCode code) {
  return static_cast<int>(code);
}

}  // namespace ioiwari
