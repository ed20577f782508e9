// What the table reader and writer both say of paths: a path quoted in a message, and what a
// file that is not a regular file is.
#pragma once

#include <sys/stat.h>

#include <string>

namespace ioiwari {

inline std::string quoted_path(const std::string& path) {
  return "'" + path + "'";
}

inline std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

}  // namespace ioiwari
