#include "temporary_files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstring>
#include <ctime>
#include <iterator>
#include <mutex>

namespace ioiwari {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

struct Registered {
  std::atomic<bool> used{false};
  Temporary kind = Temporary::file;
  char path[PATH_MAX]{};
};

// Whether `name` ends in kPartSuffix, with no call a signal handler may not make.
bool is_part(const char* name) {
  constexpr std::size_t suffix = sizeof kPartSuffix - 1;
  std::size_t length = 0;
  while (name[length] != 0)
    ++length;
  if (length < suffix) return false;
  for (std::size_t i = 0; i < suffix; ++i) {
    if (name[length - suffix + i] != kPartSuffix[i]) return false;
  }
  return true;
}

// Removes the unfinished files in `path` (is_part()), and then the folder if it is empty, with
// system calls alone (a signal handler may make no other call): getdents64 lists it, as
// readdir() would.
void remove_parts(const char* path) {
  const int folder = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder >= 0) {
    alignas(8) static char entries[1 << 14];
    for (;;) {
      const long length = ::syscall(SYS_getdents64, folder, entries, sizeof entries);
      if (length <= 0) break;
      for (long at = 0; at < length;) {
        const auto* entry = reinterpret_cast<const dirent64*>(entries + at);
        const char* name = entry->d_name;
        if (is_part(name)) ::unlinkat(folder, name, 0);
        at += entry->d_reclen;
      }
    }
    ::close(folder);
  }
  ::rmdir(path);
}
std::array<Registered, 8> temporaries;
std::mutex temporaries_lock;  // guards taking and giving back slots, and the handlers
int temporaries_taken = 0;
std::array<struct sigaction, std::size(kSignals)> previous_actions{};
std::array<bool, std::size(kSignals)> handled{};

std::atomic<int> parts_being_created{0};
std::atomic<bool> removing{false};

extern "C" void remove_temporaries(int signal) {
  // No unfinished file is being created once this is past: each that was is there to remove.
  removing.store(true);
  while (parts_being_created.load() > 0) {
    const timespec pause{0, 100'000};
    ::nanosleep(&pause, nullptr);
  }
  for (Registered& temporary : temporaries) {
    if (!temporary.used.load()) continue;
    if (temporary.kind == Temporary::parts) {
      remove_parts(temporary.path);
    } else {
      ::unlink(temporary.path);
    }
  }
  // Then end as the signal would have: the shell sees 128 + its number.
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

}  // namespace

SignalsHeld::SignalsHeld() {
  sigset_t held;
  sigemptyset(&held);
  for (const int signal : kSignals)
    sigaddset(&held, signal);
  ::pthread_sigmask(SIG_BLOCK, &held, &before_);
}

SignalsHeld::~SignalsHeld() {
  ::pthread_sigmask(SIG_SETMASK, &before_, nullptr);
}

PartCreation::PartCreation() {
  parts_being_created.fetch_add(1);
  if (removing.load()) {
    // A handler is removing the files and the process ends with it: create nothing more.
    parts_being_created.fetch_sub(1);
    for (;;)
      ::pause();
  }
}

PartCreation::~PartCreation() {
  parts_being_created.fetch_sub(1);
}

int remember_temporary(const std::string& path, Temporary kind) {
  const std::lock_guard lock(temporaries_lock);
  if (path.size() >= PATH_MAX) return -1;
  for (std::size_t slot = 0; slot < temporaries.size(); ++slot) {
    Registered& temporary = temporaries[slot];
    if (temporary.used.load()) continue;
    std::memcpy(temporary.path, path.c_str(), path.size() + 1);
    temporary.kind = kind;
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

}  // namespace ioiwari
