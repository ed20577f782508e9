#include "textio/quoted.hpp"

namespace textio {

std::string quoted(std::string_view token, std::size_t shown) {
  std::string text = "\"";
  for (std::size_t i = 0; i < token.size() && i < shown; ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      text.push_back(static_cast<char>(c));
    } else if (c == '"' || c == '\\') {
      text.push_back('\\');
      text.push_back(static_cast<char>(c));
    } else {
      constexpr char kHex[] = "0123456789abcdef";
      text += "\\x";
      text.push_back(kHex[c >> 4]);
      text.push_back(kHex[c & 0xf]);
    }
  }
  if (token.size() > shown) text += "...";
  text += '"';
  return text;
}

}  // namespace textio
