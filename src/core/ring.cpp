#include "ioiwari/core/ring.hpp"

#include "textio/number.hpp"

namespace ioiwari {

std::string Ring::describe() const {
  return std::to_string(pits) + " pits, capacity " + std::to_string(capacity);
}

std::string StartRule::describe() const {
  return textio::counted(static_cast<unsigned long long>(beads), "bead", "beads") + ", " +
         std::to_string(min_beads) + " to " + std::to_string(max_beads) + " a pit";
}

}  // namespace ioiwari
