// docs/json.md held to the code: the keys it lists for each JSON document against the top-level
// keys of documents the commands wrote. Every key written must be listed, and every key listed
// must be written by one of the documents given (so they must cover every variant: another
// ring, --negamax, and so on).
#pragma once

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"

namespace ioiwari::test {

// The names in backquotes in `text` that are keys: lower-case letters and underscores.
inline std::vector<std::string> quoted_names(const std::string& text) {
  std::vector<std::string> names;
  for (std::size_t open = text.find('`'); open != std::string::npos;) {
    const std::size_t close = text.find('`', open + 1);
    if (close == std::string::npos) break;
    const std::string name = text.substr(open + 1, close - open - 1);
    if (!name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos)
      names.push_back(name);
    open = text.find('`', close + 1);
  }
  return names;
}

// The keys docs/json.md lists for each document, by the document's name.
inline std::map<std::string, std::set<std::string>> documented_keys() {
  std::ifstream file(std::string(IOIWARI_SOURCE_DIR) + "/docs/json.md");
  REQUIRE(file);
  std::map<std::string, std::set<std::string>> keys;
  std::string line, document;
  while (std::getline(file, line)) {
    if (!line.starts_with("| ")) continue;
    // | `document` (or nothing, for the one above) | `key`, `key` ... | what it holds |
    std::vector<std::string> cells;
    std::stringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');)
      cells.push_back(cell);
    if (cells.size() < 3) continue;
    const std::string& first_column = cells[0];
    const std::string& keys_column = cells[1];
    if (const auto named = quoted_names(first_column); !named.empty()) document = named.front();
    if (document.empty()) continue;
    for (const std::string& key : quoted_names(keys_column))
      keys[document].insert(key);
  }
  return keys;
}

// The keys of a JSON object's top level.
inline std::set<std::string> top_level_keys(const std::string& json) {
  std::set<std::string> keys;
  int depth = 0;
  for (std::size_t at = 0; at < json.size(); ++at) {
    const char c = json[at];
    if (c == '"') {
      std::size_t end = at + 1;
      while (end < json.size() && json[end] != '"')
        end += json[end] == '\\' ? 2 : 1;
      std::size_t after = end + 1;
      while (after < json.size() && json[after] == ' ')
        ++after;
      if (depth == 1 && after < json.size() && json[after] == ':')
        keys.insert(json.substr(at + 1, end - at - 1));
      at = end;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return keys;
}

// Checks the documents `written` (each one JSON object) of `document` against docs/json.md.
inline void check_documented(const std::string& document, const std::vector<std::string>& written) {
  const std::set<std::string> listed = documented_keys()[document];
  INFO("docs/json.md, the document " << document);
  REQUIRE_FALSE(listed.empty());
  std::set<std::string> seen;
  for (const std::string& json : written) {
    for (const std::string& key : top_level_keys(json)) {
      INFO("the key " << key << ", written");
      CHECK(listed.count(key) == 1);
      seen.insert(key);
    }
  }
  for (const std::string& key : listed) {
    INFO("the key " << key << ", listed");
    CHECK(seen.count(key) == 1);
  }
}

}  // namespace ioiwari::test
