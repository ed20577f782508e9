// Setting aside the parts of a document that vary from run to run (timings), so that the rest
// can be compared whole. Plain string work: <regex> makes GCC 12 warn falsely under ASan.
#pragma once

#include <string>
#include <string_view>

namespace ioiwari::test {

// `text` with what follows each `key`, up to the first character in `stop` (or the end),
// replaced by `with`.
inline std::string replace_after(std::string text, std::string_view key, std::string_view stop,
                                 std::string_view with) {
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
    const std::size_t from = at + key.size();
    const std::size_t to = std::min(text.find_first_of(stop, from), text.size());
    text.replace(from, to - from, with);
    at = from + with.size();
  }
  return text;
}

}  // namespace ioiwari::test
