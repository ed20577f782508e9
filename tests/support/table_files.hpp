// What the tests of table files share: a folder of their own, sockets to refuse, crafting a table
// whose hashes are recomputed after a change, as anyone can (docs/table-format.md), and the two
// ways a command reads a table.
#pragma once

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/table_file.hpp"
#include "table_seal.hpp"

namespace ioiwari::test {

// A folder of its own for one test, under the system's temporary folder, removed afterwards.
class TempFolder {
 public:
  TempFolder() {
    path_ = std::filesystem::temp_directory_path() /
            ("ioiwari-test-" + std::to_string(::getpid()) + "-" + std::to_string(count_++));
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(path_), {}));
  }

 private:
  std::filesystem::path path_;
  static inline int count_ = 0;
};

// A listening UNIX socket at `name` in `folder` (the socket is closed; its node stays).
inline std::string make_socket(const TempFolder& folder, const std::string& name) {
  const std::string path = folder.file(name);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  REQUIRE(path.size() < sizeof address.sun_path);
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  REQUIRE(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  ::close(fd);
  return path;
}

// The bytes of the file at `path`.
inline std::vector<unsigned char> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Writes `bytes` as the whole file at `path`.
inline void write_bytes(const std::string& path, const std::vector<unsigned char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  REQUIRE(out.good());
}

// Changes the file at `path` in place (the same inode, as a reader that maps it sees it) with
// `change`, then reseals it.
inline void rewrite(const std::string& path,
                    const std::function<void(std::vector<unsigned char>&)>& change) {
  std::vector<unsigned char> bytes = file_bytes(path);
  change(bytes);
  reseal(bytes);
  std::fstream out(path, std::ios::in | std::ios::out | std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  REQUIRE(out.good());
}

inline void reseal(const std::string& path) {
  rewrite(path, [](std::vector<unsigned char>&) {});
}

// How the tests read tables: held to ioiwari's known roots, as every command is, or, for a ring
// taken to have no known root (as a ring solved only by ioiwari-mpi), trusted as --trust-table
// trusts it. Room for every block of the tests' rings.
inline TableReading checked_reading() {
  TableReading reading;
  reading.roots = RootBook::built_in();
  reading.trust_unknown_root = false;
  reading.cache_bytes = std::uint64_t{64} << 20;
  return reading;
}
inline TableReading trusting_reading() {
  TableReading reading = checked_reading();
  reading.roots = RootBook::none();
  reading.trust_unknown_root = true;
  return reading;
}

}  // namespace ioiwari::test
