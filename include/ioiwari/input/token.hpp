// Reading what other programs and people type: whitespace-separated tokens and the numbers
// in them. Everything that comes from outside the program is parsed here.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "textio/quoted.hpp"

namespace ioiwari {

// Splits a stream into tokens separated by white space (space, tab, CR, LF, VT, FF). It reads
// one character at a time and stops at the character after a token, so it never waits for
// input beyond the token it returns.
class TokenReader {
 public:
  // Longer tokens are cut to this many characters (none of them is a valid number anyway);
  // the reader still consumes the whole token.
  static constexpr std::size_t kMaxKept = 64;

  explicit TokenReader(std::istream& in) : in_(in) {}

  // The next token, or nothing at the end of input.
  std::optional<std::string> next();

 private:
  std::istream& in_;
};

// A token read as a decimal integer: an optional '-' and then only digits.
struct Number {
  enum class Kind {
    integer,      // `value` holds it
    too_large,    // digits, but beyond what `value` can hold
    not_integer,  // anything else: letters, "3.5", "+3", "0x3", an empty token
  };
  Kind kind;
  long long value = 0;
};
Number parse_number(std::string_view token);

// The token in double quotes, fit for one line of an error message (textio/quoted.hpp).
using textio::quoted;

}  // namespace ioiwari
