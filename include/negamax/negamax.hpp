// Memoized negamax for two-player games of perfect information: the whole library.
//   game.hpp    what a game provides (concepts), Step, MoveList, Scoring
//   memo.hpp    the memo: a flat table for dense keys, a hash map otherwise
//   solver.hpp  Solver: value, best move, remoteness, every move's value, positions searched
//   fnv.hpp     Fnv1a: a hash of bytes, for a game's hash of its states
//   conformance.hpp  check_against_plain_recursion: a game's solver against plain recursion
#pragma once

#include "negamax/conformance.hpp"
#include "negamax/fnv.hpp"
#include "negamax/game.hpp"
#include "negamax/memo.hpp"
#include "negamax/solver.hpp"
