#include "ioiwari/input/token.hpp"

#include <istream>
#include <limits>

namespace ioiwari {

namespace {

bool is_space(int c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace

std::optional<std::string> TokenReader::next() {
  std::streambuf* buffer = in_.rdbuf();
  if (buffer == nullptr) return std::nullopt;
  constexpr int eof = std::char_traits<char>::eof();
  int c = buffer->sbumpc();
  while (c != eof && is_space(c))
    c = buffer->sbumpc();
  if (c == eof) {
    in_.setstate(std::ios::eofbit);
    return std::nullopt;
  }
  std::string token;
  // The token ends at white space, which is consumed, or at the end of input.
  while (c != eof && !is_space(c)) {
    if (token.size() < kMaxKept) token.push_back(static_cast<char>(c));
    c = buffer->sbumpc();
  }
  return token;
}

Number parse_number(std::string_view token) {
  const bool negative = !token.empty() && token.front() == '-';
  std::string_view digits = negative ? token.substr(1) : token;
  if (digits.empty()) return {Number::Kind::not_integer};
  long long value = 0;
  bool too_large = false;
  for (char c : digits) {
    if (c < '0' || c > '9') return {Number::Kind::not_integer};
    const int digit = c - '0';
    if (value > (std::numeric_limits<long long>::max() - digit) / 10) too_large = true;
    if (!too_large) value = value * 10 + digit;
  }
  // The reader keeps at most kMaxKept characters: a longer run of digits is too large anyway.
  if (too_large || token.size() >= TokenReader::kMaxKept) return {Number::Kind::too_large};
  return {Number::Kind::integer, negative ? -value : value};
}

}  // namespace ioiwari
