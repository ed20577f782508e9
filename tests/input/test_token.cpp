// Tokens and numbers: the parsers of everything that comes from outside.
#include <sstream>
#include <string>

#include "catch.hpp"
#include "ioiwari/input/token.hpp"

using namespace ioiwari;

TEST_CASE("tokens are split on any white space", "[token]") {
  std::istringstream in(" 4\t3\r\n2\v\f 4\n\n2 3 2");
  TokenReader reader(in);
  for (const char* expected : {"4", "3", "2", "4", "2", "3", "2"}) {
    const auto token = reader.next();
    REQUIRE(token);
    CHECK(*token == expected);
  }
  CHECK_FALSE(reader.next());
  CHECK_FALSE(reader.next());
}

TEST_CASE("the reader stops right after a token's delimiter", "[token]") {
  std::istringstream in("12 rest");
  TokenReader reader(in);
  CHECK(reader.next() == std::optional<std::string>("12"));
  CHECK(in.rdbuf()->in_avail() == 4);  // "rest" is still unread
}

TEST_CASE("a long token is kept cut short but consumed whole", "[token]") {
  std::istringstream in(std::string(1 << 20, '7') + " 5");
  TokenReader reader(in);
  const auto first = reader.next();
  REQUIRE(first);
  CHECK(first->size() == TokenReader::kMaxKept);
  CHECK(parse_number(*first).kind == Number::Kind::too_large);
  CHECK(reader.next() == std::optional<std::string>("5"));
}

TEST_CASE("numbers are an optional minus and digits only", "[token]") {
  CHECK(parse_number("0").kind == Number::Kind::integer);
  CHECK(parse_number("7").value == 7);
  CHECK(parse_number("007").value == 7);
  CHECK(parse_number("-1").value == -1);
  CHECK(parse_number("9223372036854775807").value == 9223372036854775807LL);
  CHECK(parse_number("9223372036854775808").kind == Number::Kind::too_large);
  CHECK(parse_number("99999999999999999999999").kind == Number::Kind::too_large);
  CHECK(parse_number("-99999999999999999999999").kind == Number::Kind::too_large);
  for (const char* bad : {"", "-", "+3", "3.5", "0x3", "three", "3a", "--3", "1e3", " 3"}) {
    INFO(bad);
    CHECK(parse_number(bad).kind == Number::Kind::not_integer);
  }
  CHECK(parse_number(std::string("3\0", 2)).kind == Number::Kind::not_integer);
}

TEST_CASE("tokens are quoted printably for messages", "[token]") {
  CHECK(quoted("abc") == "\"abc\"");
  CHECK(quoted(std::string("a\0b", 3)) == "\"a\\x00b\"");
  CHECK(quoted("\"\\\xff") == "\"\\\"\\\\\\xff\"");
  CHECK(quoted(std::string(100, 'x')) == "\"" + std::string(24, 'x') + "...\"");
}
