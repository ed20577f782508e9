// Numbers as people read them in messages and reports.
#pragma once

#include <cstddef>
#include <cstdio>
#include <iterator>
#include <string>

namespace textio {

// A value with its sign, "+3", "0", "-2": what a move or a game is worth to a player.
inline std::string signed_number(int value) {
  return (value > 0 ? "+" : "") + std::to_string(value);
}

// A count with its noun, singular or plural: "1 run", "3 runs".
inline std::string counted(unsigned long long count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// A size in bytes for people, in powers of 1000: "512 bytes", "470.2 MB".
inline std::string bytes_text(unsigned long long bytes) {
  const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
  double size = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (size >= 1000 && unit + 1 < std::size(units)) {
    size /= 1000;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", size, units[unit]);
  return text;
}

}  // namespace textio
