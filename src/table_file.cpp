#include "ioiwari/table_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <span>
#include <vector>

namespace ioiwari {

namespace {

// "IOIWARI-TABLE\n" and two zero bytes.
constexpr char kMagic[16] = {'I', 'O', 'I', 'W', 'A', 'R',  'I', '-',
                             'T', 'A', 'B', 'L', 'E', '\n', 0,   0};
// Written as a number: read back as the same number only on a machine of the same byte order.
constexpr std::uint32_t kByteOrder = 0x01020304;

struct Header {
  char magic[16];
  std::uint32_t version;
  std::uint32_t byte_order;
  std::uint32_t pits;
  std::uint32_t capacity;
  std::uint64_t classes;
  std::uint64_t bitmap_bytes;
  std::uint64_t directory_bytes;
  std::uint64_t values_bytes;
  std::uint64_t checksum;
};
static_assert(sizeof(Header) == 72 && sizeof(Header) <= kTableHeaderBytes);

// A 64-bit hash of a stream of bytes, eight at a time. Each word goes through a bijection of
// the state, so a change to any one word always changes the result.
class Hasher {
 public:
  void update(const unsigned char* bytes, std::uint64_t size) {
    length_ += size;
    while (size > 0 && pending_ > 0) {
      word_ |= static_cast<std::uint64_t>(*bytes++) << (8 * pending_);
      --size;
      if (++pending_ == 8) flush();
    }
    for (; size >= 8; size -= 8, bytes += 8) {
      std::uint64_t word;
      std::memcpy(&word, bytes, 8);
      mix(word);
    }
    while (size > 0) {
      word_ |= static_cast<std::uint64_t>(*bytes++) << (8 * pending_);
      --size;
      if (++pending_ == 8) flush();
    }
  }
  std::uint64_t finish() {
    if (pending_ > 0) flush();
    mix(length_);
    std::uint64_t h = state_;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
  }

 private:
  void mix(std::uint64_t word) {
    state_ ^= word;
    state_ *= 0x9e3779b97f4a7c15ULL;
    state_ ^= state_ >> 29;
  }
  void flush() {
    mix(word_);
    word_ = 0;
    pending_ = 0;
  }
  std::uint64_t state_ = 0x6a09e667f3bcc908ULL;
  std::uint64_t word_ = 0;
  unsigned pending_ = 0;
  std::uint64_t length_ = 0;
};

template <class T>
const unsigned char* bytes_of(std::span<const T> span) {
  return reinterpret_cast<const unsigned char*>(span.data());
}

std::uint64_t checksum_of(const RingTable& table) {
  Hasher hasher;
  hasher.update(bytes_of(table.bitmap()), table.bitmap().size_bytes());
  hasher.update(bytes_of(table.directory()), table.directory().size_bytes());
  hasher.update(bytes_of(table.values()), table.values().size_bytes());
  return hasher.finish();
}

// A file mapped read-only, unmapped when the last table over it goes.
struct Mapping {
  void* address = MAP_FAILED;
  std::size_t size = 0;
  ~Mapping() {
    if (address != MAP_FAILED) ::munmap(address, size);
  }
};

std::string quoted_path(const std::string& path) {
  return "'" + path + "'";
}

}  // namespace

std::uint64_t table_checksum(const unsigned char* bytes, std::uint64_t size) {
  Hasher hasher;
  hasher.update(bytes, size);
  return hasher.finish();
}

void save_table(const RingTable& table, const std::string& path, std::uint64_t fail_after) {
  static std::atomic<unsigned> serial{0};
  const std::string temporary =
      path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
  const auto fail = [&](const std::string& why) {
    ::unlink(temporary.c_str());
    throw TableFileError(TableFileError::Kind::unwritable,
                         "cannot write the table " + quoted_path(path) + ": " + why);
  };
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail(std::strerror(errno));

  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.version = kTableFormatVersion;
  header.byte_order = kByteOrder;
  header.pits = static_cast<std::uint32_t>(table.ring().pits);
  header.capacity = static_cast<std::uint32_t>(table.ring().capacity);
  header.classes = table.classes();
  header.bitmap_bytes = table.bitmap().size_bytes();
  header.directory_bytes = table.directory().size_bytes();
  header.values_bytes = table.values().size_bytes();
  header.checksum = checksum_of(table);
  std::vector<unsigned char> first(kTableHeaderBytes, 0);
  std::memcpy(first.data(), &header, sizeof header);

  std::uint64_t written = 0;
  const auto write_all = [&](const unsigned char* bytes, std::uint64_t size) {
    while (size > 0) {
      std::uint64_t chunk = std::min<std::uint64_t>(size, std::uint64_t{1} << 24);
      if (fail_after != 0 && written + chunk > fail_after) {
        chunk = fail_after > written ? fail_after - written : 0;
        if (chunk == 0) {
          ::close(fd);
          fail("the write was interrupted");
        }
      }
      const ssize_t done = ::write(fd, bytes, static_cast<std::size_t>(chunk));
      if (done < 0) {
        if (errno == EINTR) continue;
        const std::string why = std::strerror(errno);
        ::close(fd);
        fail(why);
      }
      bytes += done;
      size -= static_cast<std::uint64_t>(done);
      written += static_cast<std::uint64_t>(done);
    }
  };
  write_all(first.data(), first.size());
  write_all(bytes_of(table.bitmap()), table.bitmap().size_bytes());
  write_all(bytes_of(table.directory()), table.directory().size_bytes());
  write_all(bytes_of(table.values()), table.values().size_bytes());
  if (::fsync(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    fail(why);
  }
  if (::close(fd) != 0) fail(std::strerror(errno));
  if (::rename(temporary.c_str(), path.c_str()) != 0) fail(std::strerror(errno));
}

std::shared_ptr<const RingTable> load_table(const std::string& path, Ring ring) {
  using Kind = TableFileError::Kind;
  const std::string name = "table " + quoted_path(path);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw TableFileError(Kind::unreadable, name + ": " + std::strerror(errno));
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd);
    throw TableFileError(Kind::unreadable, name + ": not a regular file");
  }
  const auto size = static_cast<std::uint64_t>(status.st_size);
  if (size == 0) {
    ::close(fd);
    throw TableFileError(Kind::not_a_table, name + " is empty: not an ioiwari table");
  }
  auto mapping = std::make_shared<Mapping>();
  mapping->size = static_cast<std::size_t>(size);
  mapping->address = ::mmap(nullptr, mapping->size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (mapping->address == MAP_FAILED) {
    throw TableFileError(Kind::unreadable, name + ": cannot map it: " + std::strerror(errno));
  }
  const auto* bytes = static_cast<const unsigned char*>(mapping->address);

  const std::size_t seen = static_cast<std::size_t>(std::min<std::uint64_t>(size, sizeof kMagic));
  if (std::memcmp(bytes, kMagic, seen) != 0) {
    throw TableFileError(Kind::not_a_table, name + " is not an ioiwari table");
  }
  if (size < kTableHeaderBytes) {
    throw TableFileError(Kind::truncated, name + " is truncated: " + std::to_string(size) +
                                              " bytes, less than its header");
  }
  Header header;
  std::memcpy(&header, bytes, sizeof header);
  if (header.byte_order != kByteOrder) {
    throw TableFileError(Kind::not_a_table,
                         name + " was written on a machine of another byte order");
  }
  if (header.version != kTableFormatVersion) {
    throw TableFileError(Kind::not_a_table,
                         name + " has format version " + std::to_string(header.version) +
                             "; this ioiwari reads version " + std::to_string(kTableFormatVersion));
  }
  const Ring stored{static_cast<int>(header.pits), static_cast<int>(header.capacity)};
  if (stored.pits < kMinPits || stored.pits > kMaxPits || stored.capacity < kMinCapacity ||
      stored.capacity > kMaxCapacity) {
    throw TableFileError(Kind::not_a_table, name + " names no ring of 3 to 13 pits, 1 to 9 beads");
  }
  if (stored != ring) {
    throw TableFileError(Kind::other_rules, name + " is a table of " + stored.describe() +
                                                "; the command plays " + ring.describe());
  }
  const TableSize expected = table_size(ring);
  if (header.classes != expected.classes || header.bitmap_bytes != expected.bitmap_bytes ||
      header.directory_bytes != expected.directory_bytes ||
      header.values_bytes != expected.values_bytes) {
    throw TableFileError(Kind::not_a_table,
                         name + " has sizes that fit no table of " + ring.describe());
  }
  const std::uint64_t whole = kTableHeaderBytes + expected.table_bytes();
  if (size < whole) {
    throw TableFileError(Kind::truncated, name + " is truncated: " + std::to_string(size) +
                                              " bytes of " + std::to_string(whole));
  }
  if (size > whole) {
    throw TableFileError(Kind::not_a_table,
                         name + " has " + std::to_string(size - whole) + " bytes after its table");
  }
  const unsigned char* payload = bytes + kTableHeaderBytes;
  if (table_checksum(payload, expected.table_bytes()) != header.checksum) {
    throw TableFileError(Kind::checksum, name + " fails its checksum: it is damaged");
  }
  const std::span bitmap(reinterpret_cast<const std::uint64_t*>(payload),
                         static_cast<std::size_t>(header.bitmap_bytes / 8));
  const std::span directory(reinterpret_cast<const std::uint64_t*>(payload + header.bitmap_bytes),
                            static_cast<std::size_t>(header.directory_bytes / 8));
  const std::span values(
      reinterpret_cast<const std::int8_t*>(payload + header.bitmap_bytes + header.directory_bytes),
      static_cast<std::size_t>(header.values_bytes));
  return RingTable::adopt(ring, bitmap, directory, values, std::move(mapping));
}

}  // namespace ioiwari
