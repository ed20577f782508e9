#include "ioiwari/core/table_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "ioiwari/core/exit_code.hpp"

namespace ioiwari {

namespace {

constexpr std::uint64_t kBlock = TableLayout::kBlockBytes;

// "IOIWARI-TABLE\n" and two zero bytes.
constexpr char kMagic[16] = {'I', 'O', 'I', 'W', 'A', 'R',  'I', '-',
                             'T', 'A', 'B', 'L', 'E', '\n', 0,   0};
// Written as a number: read back as the same number only on a machine of the same byte order.
constexpr std::uint32_t kByteOrder = 0x01020304;

// The first 120 bytes of the header block; the rest of the block is zero. Every version keeps the
// magic and the header's checksum where they are, so that any header can be checked before its
// fields are believed.
struct Header {
  char magic[16];
  std::uint64_t checksum;  // of the whole header block, with this field as zero
  std::uint32_t version;
  std::uint32_t byte_order;
  std::uint32_t pits;
  std::uint32_t capacity;
  std::uint64_t classes;
  std::uint64_t block_bytes;
  std::uint64_t blocks;
  std::uint64_t lines_offset, lines_bytes;
  std::uint64_t values_offset, values_bytes;
  std::uint64_t sums_offset;
  std::uint64_t sums_checksum;  // of the list of block checksums
  std::uint64_t file_bytes;
};
static_assert(offsetof(Header, checksum) == 16 && offsetof(Header, version) == 24);
static_assert(sizeof(Header) == 120 && sizeof(Header) <= kBlock);

constexpr std::uint64_t round_up(std::uint64_t bytes, std::uint64_t unit) {
  return (bytes + unit - 1) / unit * unit;
}

// The 64-bit hash of table_checksum(): four lanes of eight-byte words, so that four multiplies
// are under way at once. Each word goes into its lane through a bijection of the lane's state,
// and the lanes are folded together by bijections, so one changed word always changes the hash.
class Hasher {
 public:
  void update(const unsigned char* bytes, std::uint64_t size) {
    length_ += size;
    while (size > 0 && pending_ > 0) {
      buffer_[pending_++] = *bytes++;
      --size;
      if (pending_ == sizeof buffer_) {
        mix_stripe(buffer_.data());
        pending_ = 0;
      }
    }
    for (; size >= sizeof buffer_; size -= sizeof buffer_, bytes += sizeof buffer_)
      mix_stripe(bytes);
    while (size > 0) {
      buffer_[pending_++] = *bytes++;
      --size;
    }
  }
  // `size` zero bytes, as a file's padding reads.
  void zeros(std::uint64_t size) {
    static constexpr std::array<unsigned char, 4096> kZeros{};
    for (; size > 0; size -= std::min<std::uint64_t>(size, kZeros.size()))
      update(kZeros.data(), std::min<std::uint64_t>(size, kZeros.size()));
  }
  std::uint64_t finish() {
    if (pending_ > 0) {
      std::fill(buffer_.begin() + static_cast<std::ptrdiff_t>(pending_), buffer_.end(), 0);
      mix_stripe(buffer_.data());
      pending_ = 0;
    }
    std::uint64_t h = length_;
    for (std::uint64_t lane : lanes_)
      h = mix(h ^ lane);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
  }

 private:
  static std::uint64_t mix(std::uint64_t x) {
    x *= 0x9e3779b97f4a7c15ULL;
    return x ^ (x >> 29);
  }
  void mix_stripe(const unsigned char* bytes) {
    for (std::size_t lane = 0; lane < lanes_.size(); ++lane) {
      std::uint64_t word;
      std::memcpy(&word, bytes + 8 * lane, 8);
      lanes_[lane] = mix(lanes_[lane] ^ word);
    }
  }
  std::array<std::uint64_t, 4> lanes_{0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL,
                                      0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL};
  std::array<unsigned char, 32> buffer_{};
  std::size_t pending_ = 0;
  std::uint64_t length_ = 0;
};

std::string quoted_path(const std::string& path) {
  return "'" + path + "'";
}

// What a file that is not a regular file is, for messages.
std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// "470.2 MB".
std::string size_text(std::uint64_t bytes) {
  const char* units[] = {"bytes", "kB", "MB", "GB", "TB"};
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

// The header of a table of `ring` laid out as `layout`, with both its checksums.
std::array<unsigned char, kBlock> header_block(Ring ring, std::uint64_t classes,
                                               const TableLayout& layout,
                                               std::uint64_t sums_checksum) {
  const TableSize size = table_size(ring);
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.version = kTableFormatVersion;
  header.byte_order = kByteOrder;
  header.pits = static_cast<std::uint32_t>(ring.pits);
  header.capacity = static_cast<std::uint32_t>(ring.capacity);
  header.classes = classes;
  header.block_bytes = kBlock;
  header.blocks = layout.blocks;
  header.lines_offset = layout.lines_offset;
  header.lines_bytes = size.index_bytes;
  header.values_offset = layout.values_offset;
  header.values_bytes = size.values_bytes;
  header.sums_offset = layout.sums_offset;
  header.sums_checksum = sums_checksum;
  header.file_bytes = layout.file_bytes;
  std::array<unsigned char, kBlock> block{};
  std::memcpy(block.data(), &header, sizeof header);
  header.checksum = table_checksum(block.data(), block.size());
  std::memcpy(block.data(), &header, sizeof header);
  return block;
}

// The header's own checksum: of its block with the checksum field as zero.
std::uint64_t header_checksum(const unsigned char* block) {
  Hasher hasher;
  hasher.update(block, offsetof(Header, checksum));
  hasher.zeros(sizeof(std::uint64_t));
  const std::uint64_t after = offsetof(Header, checksum) + sizeof(std::uint64_t);
  hasher.update(block + after, kBlock - after);
  return hasher.finish();
}

// ---- Files a signal must remove: the temporary files of tables being written. ----------------

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

struct Temporary {
  std::atomic<bool> used{false};
  char path[PATH_MAX]{};
};
std::array<Temporary, 8> temporaries;
std::mutex temporaries_lock;  // guards taking and giving back slots, and the handlers
int temporaries_taken = 0;
std::array<struct sigaction, std::size(kSignals)> previous_actions{};
std::array<bool, std::size(kSignals)> handled{};

extern "C" void remove_temporaries(int signal) {
  for (Temporary& temporary : temporaries) {
    if (temporary.used.load()) ::unlink(temporary.path);
  }
  // Then end as the signal would have: the shell sees 128 + its number.
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

// Holds back the signals that remove temporary files while it lives, on this thread: a file
// created and registered under it is never left behind by a signal that came in between.
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t held;
    sigemptyset(&held);
    for (const int signal : kSignals)
      sigaddset(&held, signal);
    ::pthread_sigmask(SIG_BLOCK, &held, &before_);
  }
  ~SignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &before_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t before_{};
};

// Registers `path` to be removed if a signal ends the process; the slot, or -1 when the path is
// too long or every slot is taken (it is then only removed by the next write of its target).
int remember_temporary(const std::string& path) {
  const std::lock_guard lock(temporaries_lock);
  if (path.size() >= PATH_MAX) return -1;
  for (std::size_t slot = 0; slot < temporaries.size(); ++slot) {
    Temporary& temporary = temporaries[slot];
    if (temporary.used.load()) continue;
    std::memcpy(temporary.path, path.c_str(), path.size() + 1);
    temporary.used.store(true);
    if (temporaries_taken++ == 0) {
      for (std::size_t s = 0; s < std::size(kSignals); ++s) {
        struct sigaction now {};
        ::sigaction(kSignals[s], nullptr, &now);
        handled[s] = now.sa_handler != SIG_IGN;  // an ignored signal (nohup) stays ignored
        if (!handled[s]) continue;
        struct sigaction action {};
        action.sa_handler = remove_temporaries;
        sigemptyset(&action.sa_mask);
        ::sigaction(kSignals[s], &action, &previous_actions[s]);
      }
    }
    return static_cast<int>(slot);
  }
  return -1;
}

void forget_temporary(int slot) {
  if (slot < 0) return;
  const std::lock_guard lock(temporaries_lock);
  temporaries[static_cast<std::size_t>(slot)].used.store(false);
  if (--temporaries_taken == 0) {
    for (std::size_t s = 0; s < std::size(kSignals); ++s) {
      if (handled[s]) ::sigaction(kSignals[s], &previous_actions[s], nullptr);
    }
  }
}

// ---- Mapped files a SIGBUS may come from: tables cut short while in use. --------------------

struct Mapped {
  std::atomic<std::uintptr_t> begin{0}, end{0};
  char message[PATH_MAX + 128]{};
  std::size_t length = 0;
};
std::array<Mapped, 8> mapped;
std::mutex mapped_lock;
struct sigaction previous_bus {};
bool bus_handled = false;

extern "C" void on_bus_error(int /*signal*/, siginfo_t* info, void* /*context*/) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (const Mapped& file : mapped) {
    const std::uintptr_t begin = file.begin.load(std::memory_order_acquire);
    if (begin != 0 && begin <= address && address < file.end.load(std::memory_order_acquire)) {
      [[maybe_unused]] const auto written = ::write(STDERR_FILENO, file.message, file.length);
      ::_exit(to_int(ExitCode::bad_table));
    }
  }
  // Not a table's page: give the signal back to whoever had it; the access faults again.
  ::sigaction(SIGBUS, &previous_bus, nullptr);
}

int remember_mapping(const void* base, std::size_t size, const std::string& message) {
  const std::lock_guard lock(mapped_lock);
  if (!bus_handled) {
    struct sigaction action {};
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &previous_bus);
    bus_handled = true;
  }
  for (std::size_t slot = 0; slot < mapped.size(); ++slot) {
    Mapped& file = mapped[slot];
    if (file.begin.load() != 0) continue;
    const std::size_t length = std::min(message.size(), sizeof file.message);
    std::memcpy(file.message, message.data(), length);
    file.length = length;
    file.end.store(reinterpret_cast<std::uintptr_t>(base) + size, std::memory_order_release);
    file.begin.store(reinterpret_cast<std::uintptr_t>(base), std::memory_order_release);
    return static_cast<int>(slot);
  }
  return -1;  // more tables than slots: a SIGBUS then ends the process as signals do
}

void forget_mapping(int slot) {
  if (slot < 0) return;
  const std::lock_guard lock(mapped_lock);
  mapped[static_cast<std::size_t>(slot)].begin.store(0, std::memory_order_release);
  mapped[static_cast<std::size_t>(slot)].end.store(0, std::memory_order_release);
}

// ---- Reading. --------------------------------------------------------------------------------

bool same_times(const struct stat& a, const struct stat& b) {
  return a.st_size == b.st_size && a.st_mtim.tv_sec == b.st_mtim.tv_sec &&
         a.st_mtim.tv_nsec == b.st_mtim.tv_nsec && a.st_ctim.tv_sec == b.st_ctim.tv_sec &&
         a.st_ctim.tv_nsec == b.st_ctim.tv_nsec;
}

// A table file mapped read-only: the storage of a RingTable that checks every block against its
// checksum when it is first read, and notices when the file changes.
class MappedTable final : public TableStorage {
 public:
  explicit MappedTable(std::string path)
      : path_(std::move(path)), name_("table " + quoted_path(path_)) {}
  ~MappedTable() override {
    forget_mapping(bus_slot_);
    if (base_ != nullptr) ::munmap(const_cast<unsigned char*>(base_), size_);
    if (fd_ >= 0) ::close(fd_);
  }
  MappedTable(const MappedTable&) = delete;
  MappedTable& operator=(const MappedTable&) = delete;

  // Opens, maps and checks the header and the block list. `expected`, when given, is the ring
  // the command plays.
  void open(const Ring* expected);

  Ring ring() const { return ring_; }
  const TableLayout& layout() const { return layout_; }
  std::uint64_t classes() const { return classes_; }
  const unsigned char* at(std::uint64_t offset) const { return base_ + offset; }
  std::uint64_t size() const { return size_; }

  void vouch(const void* data, std::size_t size) const override {
    if (size == 0) return;
    const auto offset = static_cast<std::uint64_t>(static_cast<const unsigned char*>(data) - base_);
    const std::uint64_t first = offset / kBlock - 1;  // block 0 is the header's
    const std::uint64_t last = (offset + size - 1) / kBlock - 1;
    for (std::uint64_t block = first; block <= last; ++block)
      check_block(block);
  }

  [[noreturn]] void damaged(const std::string& what) const override {
    changed_since_open();  // damage that a change made is the change's
    throw TableFileError(TableFileError::Kind::damaged, name_ + " is damaged: " + what);
  }

  void check_unchanged() const override {
    const std::lock_guard lock(unchanged_lock_);
    struct stat now {};
    if (::fstat(fd_, &now) != 0) changed(std::strerror(errno));
    if (same_times(now, status_)) return;
    if (now.st_size != status_.st_size) {
      changed("its size went from " + std::to_string(status_.st_size) + " to " +
              std::to_string(now.st_size) + " bytes");
    }
    // Its times moved: its contents may have. Every block read so far must still be as it was.
    for (std::uint64_t block = 0; block < layout_.blocks; ++block) {
      if (!checked(block)) continue;
      if (block_checksum(block) != sums_[block]) {
        changed("block " + std::to_string(block) + " no longer matches its checksum");
      }
    }
    status_ = now;
  }

 private:
  [[noreturn]] void refuse(TableFileError::Kind kind, const std::string& why) const {
    throw TableFileError(kind, name_ + why);
  }
  [[noreturn]] void changed(const std::string& why) const {
    throw TableFileError(TableFileError::Kind::changed, name_ + " changed while in use: " + why);
  }
  // Throws `changed` when the file's size or times are not what they were when it was opened.
  void changed_since_open() const {
    struct stat now {};
    if (::fstat(fd_, &now) != 0) return;
    const std::lock_guard lock(unchanged_lock_);
    if (!same_times(now, status_)) {
      changed(now.st_size != status_.st_size
                  ? "its size went from " + std::to_string(status_.st_size) + " to " +
                        std::to_string(now.st_size) + " bytes"
                  : "it was written to");
    }
  }
  bool checked(std::uint64_t block) const {
    return (checked_[block / 64].load(std::memory_order_relaxed) >> (block % 64) & 1) != 0;
  }
  std::uint64_t block_checksum(std::uint64_t block) const {
    return table_checksum(base_ + kBlock * (block + 1), kBlock);
  }
  void check_block(std::uint64_t block) const {
    if (block >= layout_.blocks) damaged("a look-up reaches past its blocks");
    if (checked(block)) return;
    if (block_checksum(block) != sums_[block]) {
      changed_since_open();
      refuse(TableFileError::Kind::checksum, " is damaged: block " + std::to_string(block) +
                                                 " (bytes " + std::to_string(kBlock * (block + 1)) +
                                                 " to " + std::to_string(kBlock * (block + 2) - 1) +
                                                 ") fails its checksum");
    }
    checked_[block / 64].fetch_or(std::uint64_t{1} << (block % 64), std::memory_order_relaxed);
  }

  std::string path_, name_;
  int fd_ = -1;
  const unsigned char* base_ = nullptr;
  std::size_t size_ = 0;
  int bus_slot_ = -1;
  Ring ring_;
  std::uint64_t classes_ = 0;
  TableLayout layout_;
  std::vector<std::uint64_t> sums_;  // a copy: a change to the file cannot change them
  std::unique_ptr<std::atomic<std::uint64_t>[]> checked_;  // a bit per block checked
  mutable std::mutex unchanged_lock_;
  mutable struct stat status_ {};
};

void MappedTable::open(const Ring* expected) {
  using Kind = TableFileError::Kind;
  // A table is a regular file: anything else is refused before it is opened, so that a FIFO
  // with no writer cannot make the command wait, and a device is never read.
  struct stat named {};
  if (::stat(path_.c_str(), &named) != 0)
    refuse(Kind::unreadable, ": " + std::string(std::strerror(errno)));
  if (!S_ISREG(named.st_mode)) {
    refuse(Kind::unreadable, " is " + kind_of(named.st_mode) + ", not a regular file");
  }
  fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd_ < 0) refuse(Kind::unreadable, ": " + std::string(std::strerror(errno)));
  if (::fstat(fd_, &status_) != 0)
    refuse(Kind::unreadable, ": " + std::string(std::strerror(errno)));
  if (!S_ISREG(status_.st_mode) || status_.st_ino != named.st_ino ||
      status_.st_dev != named.st_dev) {
    refuse(Kind::unreadable, " was replaced while it was opened");
  }
  const auto size = static_cast<std::uint64_t>(status_.st_size);
  if (size == 0) refuse(Kind::not_a_table, " is empty: not an ioiwari table");
  size_ = static_cast<std::size_t>(size);
  void* address = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd_, 0);
  if (address == MAP_FAILED) {
    size_ = 0;
    refuse(Kind::unreadable, ": cannot map it: " + std::string(std::strerror(errno)));
  }
  base_ = static_cast<const unsigned char*>(address);
  // From here a file cut short ends the process with one line, not a crash.
  bus_slot_ = remember_mapping(base_, size_,
                               "ioiwari: " + name_ + " changed while in use: it was cut short\n");

  if (std::memcmp(base_, kMagic, std::min<std::size_t>(size_, sizeof kMagic)) != 0) {
    refuse(Kind::not_a_table, " is not an ioiwari table");
  }
  if (size < kBlock) {
    refuse(Kind::truncated,
           " is truncated: " + std::to_string(size) + " bytes, less than its header");
  }
  Header header;
  std::memcpy(&header, base_, sizeof header);
  const std::uint64_t computed = header_checksum(base_);
  if (computed != header.checksum) {
    if (computed == __builtin_bswap64(header.checksum)) {
      refuse(Kind::not_a_table, " was written on a machine of another byte order");
    }
    refuse(Kind::checksum, " is damaged: its header fails its checksum");
  }
  if (header.byte_order != kByteOrder) {
    refuse(Kind::not_a_table, " was written on a machine of another byte order");
  }
  if (header.version != kTableFormatVersion) {
    refuse(Kind::not_a_table, " has format version " + std::to_string(header.version) +
                                  "; this ioiwari reads version " +
                                  std::to_string(kTableFormatVersion) + " (solve the ring again)");
  }
  ring_ = Ring{static_cast<int>(header.pits), static_cast<int>(header.capacity)};
  if (header.pits > kMaxPits || header.capacity > kMaxCapacity || !ring_.playable()) {
    refuse(Kind::not_a_table, " names no ring ioiwari plays: " + std::to_string(header.pits) +
                                  " pits, capacity " + std::to_string(header.capacity));
  }
  if (expected != nullptr && ring_ != *expected) {
    refuse(Kind::other_rules,
           " is a table of " + ring_.describe() + "; the command plays " + expected->describe());
  }
  layout_ = table_layout(ring_);
  const TableSize parts = table_size(ring_);
  classes_ = parts.classes;
  if (header.classes != parts.classes || header.block_bytes != kBlock ||
      header.blocks != layout_.blocks || header.lines_offset != layout_.lines_offset ||
      header.lines_bytes != parts.index_bytes || header.values_offset != layout_.values_offset ||
      header.values_bytes != parts.values_bytes || header.sums_offset != layout_.sums_offset ||
      header.file_bytes != layout_.file_bytes) {
    refuse(Kind::not_a_table, " has a layout that fits no table of " + ring_.describe());
  }
  if (size < layout_.file_bytes) {
    refuse(Kind::truncated, " is truncated: " + std::to_string(size) + " bytes of " +
                                std::to_string(layout_.file_bytes));
  }
  if (size > layout_.file_bytes) {
    refuse(Kind::not_a_table,
           " has " + std::to_string(size - layout_.file_bytes) + " bytes after its table");
  }
  if (table_checksum(base_ + layout_.sums_offset, 8 * layout_.blocks) != header.sums_checksum) {
    refuse(Kind::checksum, " is damaged: its list of block checksums fails its checksum");
  }
  sums_.resize(layout_.blocks);
  std::memcpy(sums_.data(), base_ + layout_.sums_offset, 8 * layout_.blocks);
  checked_ = std::make_unique<std::atomic<std::uint64_t>[]>((layout_.blocks + 63) / 64);
}

struct Opened {
  std::shared_ptr<MappedTable> file;
  std::shared_ptr<const RingTable> table;
};

Opened open_table(const std::string& path, const Ring* expected) {
  auto file = std::make_shared<MappedTable>(path);
  file->open(expected);
  const TableLayout& layout = file->layout();
  const TableSize parts = table_size(file->ring());
  const std::span lines(reinterpret_cast<const std::uint64_t*>(file->at(layout.lines_offset)),
                        static_cast<std::size_t>(parts.index_bytes / 8));
  const std::span values(reinterpret_cast<const std::int8_t*>(file->at(layout.values_offset)),
                         static_cast<std::size_t>(parts.values_bytes));
  auto table = RingTable::adopt(file->ring(), lines, values, file);
  return {std::move(file), std::move(table)};
}

// ---- Writing. --------------------------------------------------------------------------------

[[noreturn]] void unwritable(const std::string& path, const std::string& why) {
  throw TableFileError(TableFileError::Kind::unwritable,
                       "cannot write the table " + quoted_path(path) + ": " + why);
}

// The regular file that `path` names, following symbolic links: the path itself when nothing is
// there yet.
std::string resolve_target(const std::string& path) {
  std::string at = path;
  for (int links = 0;; ++links) {
    struct stat status {};
    if (::lstat(at.c_str(), &status) != 0) {
      if (errno == ENOENT) return at;  // a new file: its folder is checked when it is opened
      unwritable(path, std::strerror(errno));
    }
    if (S_ISLNK(status.st_mode)) {
      if (links == 40) unwritable(path, "too many symbolic links");
      std::string link(PATH_MAX, '\0');
      const ssize_t length = ::readlink(at.c_str(), link.data(), link.size());
      if (length < 0) unwritable(path, std::strerror(errno));
      link.resize(static_cast<std::size_t>(length));
      const auto slash = at.rfind('/');
      at = link.starts_with('/') || slash == std::string::npos ? link
                                                               : at.substr(0, slash + 1) + link;
      continue;
    }
    if (!S_ISREG(status.st_mode)) {
      unwritable(path, (at == path ? "it is " : "it leads to " + quoted_path(at) + ", ") +
                           kind_of(status.st_mode) + "; a table is written only to a regular file");
    }
    return at;
  }
}

// Whether `name` is a temporary file of a write of `base`: BASE.tmp-PID-SERIAL.
bool is_temporary_of(std::string_view name, std::string_view base) {
  const std::string prefix = std::string(base) + ".tmp-";
  if (!name.starts_with(prefix)) return false;
  name.remove_prefix(prefix.size());
  const auto dash = name.find('-');
  if (dash == 0 || dash == std::string_view::npos || dash + 1 == name.size()) return false;
  const auto digits = [](std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  return digits(name.substr(0, dash)) && digits(name.substr(dash + 1));
}

// Removes the temporary files of `base` in `directory` that no live writer holds: a writer
// keeps its own locked until it is done, so a lock that can be taken belongs to a dead one.
void remove_dead_temporaries(int directory, const std::string& base) {
  const int listing = ::dup(directory);
  if (listing < 0) return;
  DIR* folder = ::fdopendir(listing);
  if (folder == nullptr) {
    ::close(listing);
    return;
  }
  std::vector<std::string> dead;
  while (const dirent* entry = ::readdir(folder)) {
    if (!is_temporary_of(entry->d_name, base)) continue;
    const int fd = ::openat(directory, entry->d_name,
                            O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat status {};
    if (::fstat(fd, &status) == 0 && S_ISREG(status.st_mode) &&
        ::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      ::unlinkat(directory, entry->d_name, 0);  // under the lock: no writer can hold it now
    }
    ::close(fd);
  }
  ::closedir(folder);
}

}  // namespace

std::uint64_t table_checksum(const unsigned char* bytes, std::uint64_t size) {
  Hasher hasher;
  hasher.update(bytes, size);
  return hasher.finish();
}

TableLayout table_layout(Ring ring) {
  const TableSize size = table_size(ring);
  TableLayout layout;
  layout.lines_offset = kBlock;
  layout.values_offset = round_up(layout.lines_offset + size.index_bytes, kBlock);
  layout.sums_offset = round_up(layout.values_offset + size.values_bytes, kBlock);
  layout.blocks = (layout.sums_offset - kBlock) / kBlock;
  layout.file_bytes = layout.sums_offset + 8 * layout.blocks;
  return layout;
}

// The parts in file order, and the byte where each ends.
struct TableOutput::Stream {
  explicit Stream(const TableLayout& layout, const TableSize& size)
      : ends{layout.lines_offset + size.index_bytes, layout.values_offset + size.values_bytes},
        starts{layout.lines_offset, layout.values_offset},
        at(layout.lines_offset),
        sums(layout.blocks) {}
  std::array<std::uint64_t, 2> ends, starts;
  std::size_t part = 0;
  std::uint64_t at;  // the next byte's offset in the file
  Hasher block;      // the block `at` lies in
  std::vector<std::uint64_t> sums;

  // Hashes `size` bytes (zeros when `bytes` is null) at `at`, closing each block they fill.
  void hash(const unsigned char* bytes, std::uint64_t size) {
    while (size > 0) {
      const std::uint64_t room = kBlock - at % kBlock;
      const std::uint64_t take = std::min(room, size);
      if (bytes != nullptr) {
        block.update(bytes, take);
        bytes += take;
      } else {
        block.zeros(take);
      }
      at += take;
      size -= take;
      if (at % kBlock == 0) {
        sums[at / kBlock - 2] = block.finish();
        block = Hasher();
      }
    }
  }
};

TableOutput::TableOutput(const std::string& path, Ring ring)
    : ring_(ring), layout_(table_layout(ring)) {
  if (path.empty()) unwritable(path, "no file name");
  target_ = resolve_target(path);
  const auto slash = target_.rfind('/');
  const std::string folder = slash == std::string::npos ? "."
                             : slash == 0               ? "/"
                                                        : target_.substr(0, slash);
  const std::string base = slash == std::string::npos ? target_ : target_.substr(slash + 1);
  if (base.empty() || base == "." || base == "..") unwritable(path, "it names a directory");
  directory_ = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_ < 0) {
    unwritable(path, "the directory " + quoted_path(folder) + ": " + std::strerror(errno));
  }
  try {
    remove_dead_temporaries(directory_, base);
    {
      // A signal waits until the file is registered for removal: then its handler removes it.
      const SignalsHeld held;
      std::string name;
      for (unsigned serial = 0; fd_ < 0; ++serial) {
        name = base + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(serial);
        fd_ = ::openat(directory_, name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                       0644);
        if (fd_ < 0 && (errno != EEXIST || serial == 1000)) {
          unwritable(
              path, "cannot create a file in " + quoted_path(folder) + ": " + std::strerror(errno));
        }
      }
      temporary_ = (slash == std::string::npos ? "" : target_.substr(0, slash + 1)) + name;
      ::flock(fd_, LOCK_EX);  // ours while we live: see remove_dead_temporaries()
      slot_ = remember_temporary(temporary_);
    }
    // Room for the whole file, taken now: a full file system shows before the solve, not after.
    const int reserved = ::posix_fallocate(fd_, 0, static_cast<off_t>(layout_.file_bytes));
    if (reserved == ENOSPC || reserved == EDQUOT || reserved == EFBIG) {
      struct statvfs space {};
      const std::string free_space =
          ::fstatvfs(fd_, &space) == 0
              ? size_text(static_cast<std::uint64_t>(space.f_bavail) * space.f_frsize)
              : "less";
      unwritable(path, "the table needs " + size_text(layout_.file_bytes) + " and " +
                           quoted_path(folder) + " has " + free_space + " free");
    }
    if (reserved != 0) unwritable(path, std::strerror(reserved));
  } catch (...) {
    discard();
    throw;
  }
}

TableOutput::~TableOutput() {
  discard();
}

void TableOutput::discard() {
  if (fd_ >= 0) {
    const auto slash = temporary_.rfind('/');
    ::unlinkat(directory_, temporary_.c_str() + (slash == std::string::npos ? 0 : slash + 1), 0);
    ::close(fd_);
    fd_ = -1;
  }
  forget_temporary(slot_);
  slot_ = -1;
  if (directory_ >= 0) ::close(directory_);
  directory_ = -1;
}

void TableOutput::write_at(std::uint64_t offset, std::span<const unsigned char> bytes) {
  while (!bytes.empty()) {
    std::size_t chunk = std::min<std::size_t>(bytes.size(), std::size_t{1} << 24);
    if (fail_after_ != 0 && written_ + chunk > fail_after_) {
      chunk = static_cast<std::size_t>(fail_after_ > written_ ? fail_after_ - written_ : 0);
      if (chunk == 0) {
        discard();
        unwritable(target_, "the write was interrupted");
      }
    }
    const ssize_t done = ::pwrite(fd_, bytes.data(), chunk, static_cast<off_t>(offset));
    if (done < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      discard();
      unwritable(target_, why);
    }
    bytes = bytes.subspan(static_cast<std::size_t>(done));
    offset += static_cast<std::uint64_t>(done);
    written_ += static_cast<std::uint64_t>(done);
  }
}

void TableOutput::append(std::span<const unsigned char> bytes) {
  if (fd_ < 0) unwritable(target_, "the table was written already");
  if (!stream_) stream_ = std::make_unique<Stream>(layout_, table_size(ring_));
  Stream& stream = *stream_;
  while (!bytes.empty()) {
    if (stream.part == stream.ends.size()) unwritable(target_, "more bytes than the table holds");
    const std::uint64_t room = stream.ends[stream.part] - stream.at;
    const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(room, bytes.size()));
    write_at(stream.at, bytes.first(take));
    stream.hash(bytes.data(), take);
    bytes = bytes.subspan(take);
    // A part that is full: the padding to the next part (reserved as zeros, not written) is
    // hashed as zeros.
    while (stream.part < stream.ends.size() && stream.at == stream.ends[stream.part]) {
      const std::uint64_t next =
          ++stream.part < stream.ends.size() ? stream.starts[stream.part] : layout_.sums_offset;
      stream.hash(nullptr, next - stream.at);
    }
  }
}

void TableOutput::commit(std::uint64_t classes) {
  if (fd_ < 0) unwritable(target_, "the table was written already");
  if (!stream_) stream_ = std::make_unique<Stream>(layout_, table_size(ring_));
  if (stream_->part != stream_->ends.size()) unwritable(target_, "the table is incomplete");
  const std::vector<std::uint64_t>& sums = stream_->sums;
  const auto sums_bytes =
      std::span(reinterpret_cast<const unsigned char*>(sums.data()), 8 * sums.size());
  const auto header =
      header_block(ring_, classes, layout_, table_checksum(sums_bytes.data(), sums_bytes.size()));
  write_at(0, header);
  write_at(layout_.sums_offset, sums_bytes);
  const auto fail = [&](const char* step) {
    const std::string why = std::string(step) + ": " + std::strerror(errno);
    discard();
    unwritable(target_, why);
  };
  if (::fsync(fd_) != 0) fail("fsync");
  const auto slash = temporary_.rfind('/');
  const char* temporary_name = temporary_.c_str() + (slash == std::string::npos ? 0 : slash + 1);
  const auto target_slash = target_.rfind('/');
  const char* target_name =
      target_.c_str() + (target_slash == std::string::npos ? 0 : target_slash + 1);
  if (::renameat(directory_, temporary_name, directory_, target_name) != 0) fail("rename");
  ::fsync(directory_);  // the rename itself, on disk
  ::close(fd_);
  fd_ = -1;
  discard();
}

void TableOutput::commit(const RingTable& table, std::uint64_t fail_after) {
  if (table.ring() != ring_) unwritable(target_, "a table of another ring");
  fail_after_ = fail_after;
  const auto bytes_of = [](auto span) {
    return std::span(reinterpret_cast<const unsigned char*>(span.data()), span.size_bytes());
  };
  append(bytes_of(table.lines()));
  append(bytes_of(table.values()));
  commit(table.classes());
}

void save_table(const RingTable& table, const std::string& path, std::uint64_t fail_after) {
  TableOutput output(path, table.ring());
  output.commit(table, fail_after);
}

std::shared_ptr<const RingTable> load_table(const std::string& path, Ring ring) {
  return open_table(path, &ring).table;
}

TableCheck verify_table(const std::string& path, const SolveOptions& options) {
  const Opened opened = open_table(path, nullptr);
  const TableLayout& layout = opened.file->layout();
  // Every block, including the padding between the parts, then the structure.
  opened.file->vouch(opened.file->at(kBlock), layout.sums_offset - kBlock);
  opened.table->verify(options);
  return {opened.file->ring(), opened.file->classes(), opened.file->size(), layout.blocks};
}

}  // namespace ioiwari
