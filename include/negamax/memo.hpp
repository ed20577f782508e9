// The solver's memory of solved states: a flat table for games with a dense key, a hash map
// for the others. Both hand out stable pointers to entries, which the solver writes in place.
#pragma once

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "negamax/game.hpp"

namespace negamax {

// What the memo holds for one state: its value and remoteness once solved, or the fact that it
// was never reached, or that its search is under way (a state met again while its own search
// is under way lies on a cycle).
template <class Value>
struct Entry {
  static constexpr Remoteness kUnseen = std::numeric_limits<Remoteness>::max();
  static constexpr Remoteness kSearching = kUnseen - 1;

  Value value{};
  Remoteness remoteness = kUnseen;

  bool solved() const { return remoteness < kSearching; }
  bool searching() const { return remoteness == kSearching; }
};

// One entry per key 0..key_count()-1, allocated when the memo is made.
template <DenseKeyed G>
class DenseMemo {
 public:
  using Slot = Entry<typename G::Value>;

  explicit DenseMemo(const G& game) : game_(game), entries_(game.key_count()) {}

  // The entry of `state`, made if it is new (unseen). Throws std::out_of_range when the game
  // gives a key beyond its own key_count(): a bug in the game, caught before it writes
  // anywhere.
  Slot& operator[](const typename G::State& state) {
    const auto key = static_cast<std::size_t>(game_.key(state));
    if (key >= entries_.size()) {
      throw std::out_of_range("negamax: key " + std::to_string(key) + " is not below key_count " +
                              std::to_string(entries_.size()));
    }
    return entries_[key];
  }

 private:
  const G& game_;
  std::vector<Slot> entries_;
};

// Entries made as states are met, in a hash map keyed by the state itself (so two states with
// equal hashes never share an entry).
template <Hashed G>
class HashMemo {
 public:
  using Slot = Entry<typename G::Value>;

  explicit HashMemo(const G& game) : entries_(0, Hash{&game}) {}

  // The entry of `state`, made if it is new (unseen). References stay valid as the map grows.
  Slot& operator[](const typename G::State& state) { return entries_[state]; }

 private:
  struct Hash {
    const G* game;
    std::size_t operator()(const typename G::State& state) const {
      return static_cast<std::size_t>(game->hash(state));
    }
  };
  std::unordered_map<typename G::State, Slot, Hash> entries_;
};

// The memo a game gets: the flat table when it has a dense key, else the hash map.
template <class G>
struct MemoChoice;
template <DenseKeyed G>
struct MemoChoice<G> {
  using type = DenseMemo<G>;
};
template <Hashed G>
requires(!DenseKeyed<G>) struct MemoChoice<G> {
  using type = HashMemo<G>;
};
template <Game G>
using MemoFor = typename MemoChoice<G>::type;

}  // namespace negamax
