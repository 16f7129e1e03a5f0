// The seccomp-bpf program. SECCOMP_RET_TRACE hands the syscall to the
// ptrace tracer (a PTRACE_EVENT_SECCOMP stop) with the rule's number in
// SECCOMP_RET_DATA; everything else is allowed without a stop, which is
// why a traced program pays ~nothing per ordinary syscall, where
// PTRACE_SYSCALL would stop it twice at every one.
//
// Trapped: connect(); getsockopt(SOL_SOCKET, SO_ERROR) (the program's own
// reading of a non-blocking connect's result); io_uring_setup() (its
// IORING_OP_CONNECT never passes through connect(), so the report must say
// what it could not see); ptrace() (a program that traces itself breaks
// under a tracer). Syscalls of another ABI (i386 or x32 code on x86-64)
// are let through unseen: their numbers mean other calls, and i386's
// connect goes through socketcall().
#include "platform/linux/trace_filter.hpp"

#include "platform/linux/trace_session.hpp"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace loopcheck::platform::trace {

namespace {

#if defined(__x86_64__)
constexpr std::uint32_t native_arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr std::uint32_t native_arch = AUDIT_ARCH_AARCH64;
#else
constexpr std::uint32_t native_arch = 0;
#endif

sock_filter stmt(std::uint16_t code, std::uint32_t k) {
    return sock_filter{code, 0, 0, k};
}
sock_filter jeq(std::uint32_t k, std::uint8_t jt, std::uint8_t jf) {
    return sock_filter{BPF_JMP | BPF_JEQ | BPF_K, jt, jf, k};
}
std::uint32_t trace(Trap t) {
    return SECCOMP_RET_TRACE | static_cast<std::uint32_t>(t);
}

// The low 32 bits of argument n (both architectures are little-endian).
constexpr std::uint32_t arg_low(int n) {
    return static_cast<std::uint32_t>(offsetof(seccomp_data, args) + 8 * n);
}

} // namespace

std::vector<sock_filter> connect_filter() {
    if (native_arch == 0)
        return {};
    constexpr std::uint16_t ld = BPF_LD | BPF_W | BPF_ABS;
    constexpr std::uint16_t ret = BPF_RET | BPF_K;
    return {
        /* 0 */ stmt(ld, offsetof(seccomp_data, arch)),
        /* 1 */ jeq(native_arch, 1, 0),
        /* 2 */ stmt(ret, SECCOMP_RET_ALLOW),
        /* 3 */ stmt(ld, offsetof(seccomp_data, nr)),
        /* 4 */ jeq(SYS_connect, 0, 1),
        /* 5 */ stmt(ret, trace(Trap::connect)),
        /* 6 */ jeq(SYS_getsockopt, 0, 5),
        /* 7 */ stmt(ld, arg_low(1)),
        /* 8 */ jeq(SOL_SOCKET, 0, 7),
        /* 9 */ stmt(ld, arg_low(2)),
        /* 10 */ jeq(SO_ERROR, 0, 5),
        /* 11 */ stmt(ret, trace(Trap::so_error)),
        /* 12 */ jeq(SYS_io_uring_setup, 0, 1),
        /* 13 */ stmt(ret, trace(Trap::io_uring)),
        /* 14 */ jeq(SYS_ptrace, 0, 1),
        /* 15 */ stmt(ret, trace(Trap::self_trace)),
        /* 16 */ stmt(ret, SECCOMP_RET_ALLOW),
    };
}

int install_filter(const std::vector<sock_filter>& filter) noexcept {
    sock_fprog program{static_cast<unsigned short>(filter.size()),
                       const_cast<sock_filter*>(filter.data())};
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) == 0)
        return 0;
    if (errno != EACCES)
        return errno;
    // Without CAP_SYS_ADMIN the kernel installs a filter only under
    // no_new_privs: set-uid programs then run with the caller's rights.
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return errno;
    return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) == 0 ? 0 : errno;
}

} // namespace loopcheck::platform::trace
