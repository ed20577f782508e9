// Putting outside text into one line of a message, whatever bytes it holds. Shared by every
// program of the project; it knows nothing of any game.
#pragma once

#include <string>
#include <string_view>

namespace textio {

// The token in double quotes, fit for one line of a message: bytes outside printable ASCII as
// \xNN, the quote and the backslash as \" and \\, and a token longer than `shown` bytes (24 unless
// given) cut short with "...".
std::string quoted(std::string_view token, std::size_t shown = 24);

}  // namespace textio
