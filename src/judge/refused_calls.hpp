// The system calls a player may not make (docs/referee.md, "A narrower kernel"), as a seccomp
// filter that the keeper installs on the player before its exec. Each refused call fails in the
// player with an error, and the game goes on. Private to the judge.
#pragma once

#include <linux/filter.h>

#include <span>

namespace ioiwari::keeping {

// The filter, built once; empty where this processor's calls are not known (then nothing is
// refused, which docs/referee.md says).
std::span<const sock_filter> refused_calls_filter();

}  // namespace ioiwari::keeping
