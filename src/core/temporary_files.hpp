// The process-wide part of writing table files: the temporary files (and the unfinished files of
// a solve past memory's layers) that SIGINT, SIGTERM or SIGHUP must remove if one of them ends
// the process before the table is renamed into place.
//
// The handlers are installed while at least one file is registered, and only for the signals
// that are not ignored: a solve started under `nohup` (SIGHUP ignored) goes on when its terminal
// closes. A handler removes the registered files and then ends the process as the signal would
// have, so that its parent sees the signal. The previous dispositions come back when the last
// file is forgotten.
#pragma once

#include <string>

#include <signal.h>

namespace ioiwari {

// Holds back the signals above on this thread while it lives: a file created and registered
// under it is never left behind by a signal that came in between.
class SignalsHeld {
 public:
  SignalsHeld();
  ~SignalsHeld();
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t before_{};
};

// Held while this thread creates an unfinished file (kPartSuffix) in a registered folder: a
// signal's handler, on whichever thread it runs, waits until no such file is being created before
// it removes them, and a creation that would begin after the handler has begun waits for the
// process to end. Without it, a file created by one thread just after the handler on another
// had listed the folder was left behind. Holds back the signals on this thread too (a handler
// here would wait for itself).
class PartCreation {
 public:
  PartCreation();
  ~PartCreation();
  PartCreation(const PartCreation&) = delete;
  PartCreation& operator=(const PartCreation&) = delete;

 private:
  SignalsHeld held_;
};

// What a signal removes of a registered path: a file; or the files in a folder whose names end in
// kPartSuffix (a solve past memory's unfinished files: its finished layers stay for the next
// solve to take up), and then the folder if nothing else is left in it.
enum class Temporary { file, parts };
inline constexpr char kPartSuffix[] = ".part";

// Registers `path` to be removed as `kind` says if a signal ends the process. Returns its slot,
// or -1 when the path is too long or every slot is taken (a table's file is then removed only by
// the next write of its target, which finds it unlocked).
int remember_temporary(const std::string& path, Temporary kind);
// Forgets the file of `slot` (nothing for -1).
void forget_temporary(int slot);

}  // namespace ioiwari
