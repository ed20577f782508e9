// Runs a program where the kernel refuses it something the referee's containment needs, as on a
// system that does not allow it: a seccomp filter, for the program and everything it starts.
// Usage: deny_namespaces [--box | --filter] PROGRAM [ARGS...]
// - by default unshare() and clone() with a namespace flag fail with EPERM (no namespaces);
// - --box: pivot_root() fails with EPERM (namespaces, but no box);
// - --filter: prctl(PR_SET_SECCOMP) fails with EINVAL, as on a kernel without seccomp filters
//   (the filter here was set before, with seccomp(2)).
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  int first = 1;
  const bool box = argc > 1 && std::strcmp(argv[1], "--box") == 0;
  const bool filter_only = argc > 1 && std::strcmp(argv[1], "--filter") == 0;
  if (box || filter_only) ++first;
  if (argc <= first) {
    std::fputs("usage: deny_namespaces [--box | --filter] PROGRAM [ARGS...]\n", stderr);
    return 2;
  }
  constexpr unsigned kNamespaces =
      CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWUTS;
  constexpr unsigned kDeny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
  sock_filter namespaces[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),  // another architecture: not ours to test
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_unshare, 3, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 2, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 5, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      // unshare(flags) and clone(flags, ...): the flags are the first argument.
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])),
      BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, kNamespaces, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, kDeny),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      // clone3 keeps its flags in memory a filter cannot read: refuse it as too new, and the C
      // library falls back to clone.
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
  };
  sock_filter one_call[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(box ? SYS_pivot_root : SYS_prctl),
               1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, box ? 0U : static_cast<unsigned>(PR_SET_SECCOMP), 1, 0),
      BPF_STMT(BPF_RET | BPF_K, box ? kDeny : SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, box ? kDeny : SECCOMP_RET_ERRNO | (EINVAL & SECCOMP_RET_DATA)),
  };
  const bool one = box || filter_only;
  const sock_fprog program{
      static_cast<unsigned short>(one ? sizeof one_call / sizeof one_call[0]
                                      : sizeof namespaces / sizeof namespaces[0]),
      one ? one_call : namespaces};
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) {
    std::perror("deny_namespaces: seccomp");
    return 1;
  }
  ::execv(argv[first], argv + first);
  std::perror("deny_namespaces: exec");
  return 127;
}
