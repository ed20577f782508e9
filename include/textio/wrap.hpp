// Prose for a terminal of a given width: lines broken at spaces, never inside a word. Shared by
// every program of the project; it knows nothing of any game.
#pragma once

#include <string>
#include <string_view>

namespace textio {

// The columns `text` takes on a terminal: its characters (UTF-8 sequences count once), ANSI
// escape sequences ("\x1b[...m") not counted.
std::size_t width_of(std::string_view text);

// `text` with its lines broken at spaces so that none takes more than `width` columns, where a
// word allows; each line after the first of a paragraph starts with `indent` spaces. A line
// break in `text` ends a paragraph and is kept; escape sequences take no room.
std::string wrap(std::string_view text, std::size_t width, std::size_t indent = 0);

// `text` with each line wider than `width` wrapped at spaces, its further lines indented two
// spaces more than it; lines that fit are kept as they are (a table's columns too).
std::string fit(std::string_view text, std::size_t width);

// `label` (as it is, spaces kept: "  hint   ") and then `text` wrapped in the column after it, its
// further lines indented to that column: an item of a list. No line break at the end.
std::string hanging(std::string_view label, std::string_view text, std::size_t width);

}  // namespace textio
