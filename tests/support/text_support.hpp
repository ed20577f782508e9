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

// `text` with the lines that wrapping to a width broke joined again: a line break followed by
// the continuation's indent becomes one space (a line that starts at the margin stays a line).
inline std::string unwrapped(const std::string& text) {
  std::string joined;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && i + 1 < text.size() && text[i + 1] == ' ') {
      while (i + 1 < text.size() && text[i + 1] == ' ')
        ++i;
      joined += ' ';
      continue;
    }
    joined += text[i];
  }
  return joined;
}

}  // namespace ioiwari::test
