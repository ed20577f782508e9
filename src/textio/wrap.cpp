#include "textio/wrap.hpp"

#include <algorithm>

namespace textio {

std::size_t width_of(std::string_view text) {
  std::size_t columns = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b') {
      // An escape sequence: up to its final letter.
      while (i < text.size() &&
             !((text[i] >= 'A' && text[i] <= 'Z') || (text[i] >= 'a' && text[i] <= 'z')))
        ++i;
      continue;
    }
    // A UTF-8 continuation byte belongs to the character before it.
    if ((static_cast<unsigned char>(text[i]) & 0xc0) != 0x80) ++columns;
  }
  return columns;
}

std::string wrap(std::string_view text, std::size_t width, std::size_t indent) {
  std::string wrapped;
  while (true) {
    const auto newline = text.find('\n');
    std::string_view paragraph = text.substr(0, newline);
    // Leading spaces are the paragraph's own (an indented line keeps them).
    std::size_t column = 0;
    std::size_t lead = 0;
    while (lead < paragraph.size() && paragraph[lead] == ' ')
      ++lead;
    wrapped.append(paragraph.substr(0, lead));
    column += lead;
    paragraph.remove_prefix(lead);
    bool first = true;
    while (!paragraph.empty()) {
      const auto space = paragraph.find(' ');
      const std::string_view word = paragraph.substr(0, space);
      const std::size_t columns = width_of(word);
      if (!first && column + 1 + columns > width) {
        wrapped += '\n';
        wrapped.append(indent, ' ');
        column = indent;
      } else if (!first) {
        wrapped += ' ';
        ++column;
      }
      wrapped.append(word);
      column += columns;
      first = false;
      if (space == std::string_view::npos) break;
      paragraph.remove_prefix(space + 1);
      while (!paragraph.empty() && paragraph.front() == ' ')
        paragraph.remove_prefix(1);
    }
    if (newline == std::string_view::npos) break;
    wrapped += '\n';
    text.remove_prefix(newline + 1);
  }
  return wrapped;
}

std::string fit(std::string_view text, std::size_t width) {
  std::string out;
  while (!text.empty()) {
    const auto newline = text.find('\n');
    const std::string_view line = text.substr(0, newline);
    if (width_of(line) <= width) {
      out.append(line);
    } else {
      const std::size_t lead = std::min(line.find_first_not_of(' '), line.size());
      out += wrap(line, width, std::min(lead + 2, width / 2));
    }
    if (newline == std::string_view::npos) break;
    out += '\n';
    text.remove_prefix(newline + 1);
  }
  return out;
}

std::string hanging(std::string_view label, std::string_view text, std::size_t width) {
  const std::size_t column = width_of(label);
  const std::string wrapped = wrap(text, width > column + 10 ? width - column : 10, 0);
  std::string out(label);
  for (std::size_t at = 0; at < wrapped.size();) {
    const auto end = std::min(wrapped.find('\n', at), wrapped.size());
    if (at > 0) out.append("\n").append(column, ' ');
    out.append(wrapped, at, end - at);
    at = end + 1;
  }
  return out;
}

}  // namespace textio
