// loopcheck-names.so: preloaded into the traced program (LD_PRELOAD), it
// tells the tracer which name the program resolved to which addresses, so
// a connect to ::1 can be reported as "localhost". It wraps getaddrinfo()
// and, when an answer holds a loopback address, passes a record to the
// tracer as connect(-1, record, size): the seccomp filter stops the
// program there anyway, the call fails with EBADF and changes nothing, and
// it needs no descriptor that a program closing all of its own (Python's
// subprocess close_fds) could take away. Not traced, the call just fails.
//
// Where ptrace is refused, the tracer sets LOOPCHECK_TRACE_LOG and the shim
// records the program's loopback TCP connects itself (the preload mode,
// trace_preload.cpp reads them): connect() and the program's own
// getsockopt(SO_ERROR) are wrapped and logged one line each, appended to
// that file. Statically linked programs (Go) are not seen then.
//
// It runs inside other people's programs: C library calls only (no C++
// runtime: it is linked without libstdc++), no allocation, no errno change.
#include "platform/linux/trace_name_record.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

using namespace loopcheck::platform::trace;

using getaddrinfo_fn = int (*)(const char*, const char*, const addrinfo*, addrinfo**);

bool is_loopback_answer(const sockaddr* sa) {
    if (sa->sa_family == AF_INET)
        return (ntohl(reinterpret_cast<const sockaddr_in*>(sa)->sin_addr.s_addr) >> 24) == 127;
    if (sa->sa_family != AF_INET6)
        return false;
    const in6_addr& a = reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr;
    return IN6_IS_ADDR_LOOPBACK(&a) || (IN6_IS_ADDR_V4MAPPED(&a) && a.s6_addr[12] == 127);
}

// The preload mode's memory of the last names resolved to loopback, for
// its connect lines: a small ring, guarded by a spin lock.
struct Remembered {
    char name[name_record_max_name + 1];
    unsigned char addresses[name_record_max_addresses * 17];
    std::size_t count;
};
Remembered remembered[8];
std::size_t next_slot = 0;
int lock = 0;

void take_lock() {
    while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE) != 0) {
    }
}
void drop_lock() {
    __atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}

// Read once per call: getenv is a scan of a short list, and a cached copy
// would need the C++ runtime's guarded statics, which the shim has not.
const char* log_path() {
    return getenv("LOOPCHECK_TRACE_LOG");
}

void remember(const char* name, std::size_t len, const unsigned char* addresses,
              std::size_t count) {
    if (log_path() == nullptr)
        return;
    take_lock();
    Remembered& r = remembered[next_slot++ % 8];
    std::memcpy(r.name, name, len);
    r.name[len] = '\0';
    std::memcpy(r.addresses, addresses, count * 17);
    r.count = count;
    drop_lock();
}

// The record (trace_name_record.hpp) for `name` and the answer `res`.
void report(const char* name, const addrinfo* res) {
    unsigned char record[name_record_max_size];
    std::size_t name_len = std::strlen(name);
    if (name_len > name_record_max_name)
        name_len = name_record_max_name;
    std::memcpy(record, name_record_magic, sizeof name_record_magic);
    std::size_t at = sizeof name_record_magic + 2;
    std::memcpy(record + at, name, name_len);
    at += name_len;
    std::size_t count = 0;
    bool loopback = false;
    for (const addrinfo* ai = res; ai != nullptr && count < name_record_max_addresses;
         ai = ai->ai_next) {
        if (ai->ai_addr == nullptr || (ai->ai_family != AF_INET && ai->ai_family != AF_INET6))
            continue;
        loopback = loopback || is_loopback_answer(ai->ai_addr);
        unsigned char* slot = record + at + count * 17;
        std::memset(slot, 0, 17);
        if (ai->ai_family == AF_INET) {
            slot[0] = 4;
            std::memcpy(slot + 1, &reinterpret_cast<const sockaddr_in*>(ai->ai_addr)->sin_addr, 4);
        } else {
            slot[0] = 6;
            std::memcpy(slot + 1, &reinterpret_cast<const sockaddr_in6*>(ai->ai_addr)->sin6_addr,
                        16);
        }
        ++count;
    }
    if (!loopback)
        return;
    remember(name, name_len, record + at, count);
    record[sizeof name_record_magic] = static_cast<unsigned char>(name_len);
    record[sizeof name_record_magic + 1] = static_cast<unsigned char>(count);
    const int saved = errno;
    syscall(SYS_connect, -1, record, at + count * 17);
    errno = saved;
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
getaddrinfo(const char* node, const char* service, const addrinfo* hints, addrinfo** res) {
    static getaddrinfo_fn real = nullptr;
    if (real == nullptr)
        real = reinterpret_cast<getaddrinfo_fn>(dlsym(RTLD_NEXT, "getaddrinfo"));
    if (real == nullptr)
        return EAI_SYSTEM;
    const int rc = real(node, service, hints, res);
    if (rc == 0 && node != nullptr && res != nullptr)
        report(node, *res);
    return rc;
}

namespace {

using connect_fn = int (*)(int, const sockaddr*, socklen_t);
using getsockopt_fn = int (*)(int, int, int, void*, socklen_t*);

long long now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

void append(const char* line, int len) {
    const int fd = open(log_path(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0)
        return;
    (void)!write(fd, line, static_cast<std::size_t>(len));
    close(fd);
}

// The name this process last resolved to the 17-byte `slot`, or "-".
void name_for(const unsigned char* slot, char* out, std::size_t size) {
    std::snprintf(out, size, "-");
    take_lock();
    for (std::size_t i = 0; i < 8; ++i) {
        const Remembered& r = remembered[(next_slot + 7 - i) % 8];
        for (std::size_t a = 0; a < r.count && r.name[0] != '\0'; ++a)
            if (std::memcmp(r.addresses + a * 17, slot, 17) == 0) {
                std::snprintf(out, size, "%s", r.name);
                drop_lock();
                return;
            }
    }
    drop_lock();
}

// A loopback TCP destination as the ring's 17-byte form (v4-mapped as IPv4).
bool loopback_tcp(int fd, const sockaddr* sa, unsigned char slot[17], int& port) {
    if (sa == nullptr || !is_loopback_answer(sa))
        return false;
    int protocol = 0;
    socklen_t len = sizeof protocol;
    if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &protocol, &len) != 0 || protocol != IPPROTO_TCP)
        return false;
    std::memset(slot, 0, 17);
    if (sa->sa_family == AF_INET) {
        const auto* in = reinterpret_cast<const sockaddr_in*>(sa);
        slot[0] = 4;
        std::memcpy(slot + 1, &in->sin_addr, 4);
        port = ntohs(in->sin_port);
        return true;
    }
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(sa);
    port = ntohs(in6->sin6_port);
    if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
        slot[0] = 4;
        std::memcpy(slot + 1, in6->sin6_addr.s6_addr + 12, 4);
    } else {
        slot[0] = 6;
        std::memcpy(slot + 1, &in6->sin6_addr, 16);
    }
    return true;
}

} // namespace

// C <pid> <tid> <start ns> <end ns> <family> <address hex> <port> <errno or 0>
//   <nonblocking 0/1> <fd> <name or ->
extern "C" __attribute__((visibility("default"))) int connect(int fd, const sockaddr* sa,
                                                              socklen_t len) {
    static connect_fn real = nullptr;
    if (real == nullptr)
        real = reinterpret_cast<connect_fn>(dlsym(RTLD_NEXT, "connect"));
    if (real == nullptr) {
        errno = ENOSYS;
        return -1;
    }
    unsigned char slot[17];
    int port = 0;
    if (log_path() == nullptr || !loopback_tcp(fd, sa, slot, port))
        return real(fd, sa, len);
    const long long start = now_ns();
    const int rc = real(fd, sa, len);
    const int err = rc == 0 ? 0 : errno;
    const long long end = now_ns();
    char hex[33];
    for (int i = 0; i < 16; ++i)
        std::snprintf(hex + 2 * i, 3, "%02x", slot[1 + i]);
    char name[name_record_max_name + 1];
    name_for(slot, name, sizeof name);
    char line[512];
    const int n = std::snprintf(line, sizeof line, "C %d %ld %lld %lld %d %s %d %d %d %d %s\n",
                                getpid(), syscall(SYS_gettid), start, end, slot[0], hex, port, err,
                                err == EINPROGRESS ? 1 : 0, fd, name);
    if (n > 0 && n < static_cast<int>(sizeof line))
        append(line, n);
    errno = err;
    return rc;
}

// E <pid> <fd> <errno read> <ns>: the program read its connect's result.
extern "C" __attribute__((visibility("default"))) int getsockopt(int fd, int level, int name,
                                                                 void* value, socklen_t* len) {
    static getsockopt_fn real = nullptr;
    if (real == nullptr)
        real = reinterpret_cast<getsockopt_fn>(dlsym(RTLD_NEXT, "getsockopt"));
    if (real == nullptr) {
        errno = ENOSYS;
        return -1;
    }
    const int rc = real(fd, level, name, value, len);
    if (rc == 0 && level == SOL_SOCKET && name == SO_ERROR && log_path() != nullptr &&
        value != nullptr) {
        const int saved = errno;
        char line[96];
        const int n = std::snprintf(line, sizeof line, "E %d %d %d %lld\n", getpid(), fd,
                                    *static_cast<const int*>(value), now_ns());
        if (n > 0)
            append(line, n);
        errno = saved;
    }
    return rc;
}
