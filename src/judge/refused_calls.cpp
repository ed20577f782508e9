#include "refused_calls.hpp"

#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstddef>
#include <vector>

namespace ioiwari::keeping {

namespace {

#if defined(__x86_64__)
constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#endif

struct Refusal {
  long number;
  int error;
};

// What isolate and DOMjudge's runguard leave out of a box, and why each is refused here:
// - io_uring: a second way to every call, which no filter of single calls sees (isolate
//   refuses it too); ENOSYS, as on a kernel without it, so that programs fall back.
// - the kernel's keyrings: a key added to the user's keyring outlives the game, and the next
//   game of the same user would find it.
// - new namespaces (unshare, setns, clone with a CLONE_NEW* flag, and clone3, whose flags a
//   filter cannot read: ENOSYS makes the C library use clone): a user namespace of its own
//   gives a player mounts and a root of its own to attack the kernel with.
// - bpf, perf_event_open, userfaultfd: the kernel's largest surfaces for an unprivileged
//   process, which no player needs.
constexpr Refusal kRefused[] = {
#ifdef __NR_io_uring_setup
    {__NR_io_uring_setup, ENOSYS},
    {__NR_io_uring_enter, ENOSYS},
    {__NR_io_uring_register, ENOSYS},
#endif
    {__NR_add_key, EPERM},
    {__NR_request_key, EPERM},
    {__NR_keyctl, EPERM},
    {__NR_unshare, EPERM},
    {__NR_setns, EPERM},
#ifdef __NR_clone3
    {__NR_clone3, ENOSYS},
#endif
    {__NR_bpf, EPERM},
    {__NR_perf_event_open, EPERM},
#ifdef __NR_userfaultfd
    {__NR_userfaultfd, EPERM},
#endif
};

constexpr unsigned kNewNamespaces = CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER |
                                    CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWCGROUP;

sock_filter statement(unsigned short code, unsigned k) {
  return sock_filter{code, 0, 0, k};
}
sock_filter jump(unsigned short code, unsigned k, unsigned char yes, unsigned char no) {
  return sock_filter{code, yes, no, k};
}

std::vector<sock_filter> build() {
  std::vector<sock_filter> filter;
#if defined(__x86_64__) || defined(__aarch64__)
  const auto refuse = [](int error) {
    return statement(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (static_cast<unsigned>(error) & 0xffff));
  };
  // Another processor's calls (i386's through int 0x80 on x86_64) have other numbers: all of
  // them fail.
  filter.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
  filter.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0));
  filter.push_back(refuse(ENOSYS));
  filter.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
#if defined(__x86_64__)
  // x32's calls are x86_64's with a bit set: all of them fail.
  filter.push_back(jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000U, 0, 1));
  filter.push_back(refuse(ENOSYS));
#endif
  for (const Refusal& refusal : kRefused) {
    filter.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(refusal.number), 0, 1));
    filter.push_back(refuse(refusal.error));
  }
  // clone with a new namespace among its flags (the low half of its first argument).
  filter.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(__NR_clone), 0, 3));
  filter.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])));
  filter.push_back(jump(BPF_JMP | BPF_JSET | BPF_K, kNewNamespaces, 0, 1));
  filter.push_back(refuse(EPERM));
  filter.push_back(statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
#endif
  return filter;
}

}  // namespace

std::span<const sock_filter> refused_calls_filter() {
  static const std::vector<sock_filter> filter = build();
  return filter;
}

}  // namespace ioiwari::keeping
