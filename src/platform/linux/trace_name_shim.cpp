// loopcheck-names.so: preloaded into the traced program (LD_PRELOAD), it
// tells the tracer which name the program resolved to which addresses, so
// a connect to ::1 can be reported as "localhost". It wraps getaddrinfo()
// and, when an answer holds a loopback address, passes a record to the
// tracer as connect(-1, record, size): the seccomp filter stops the
// program there anyway, the call fails with EBADF and changes nothing, and
// it needs no descriptor that a program closing all of its own (Python's
// subprocess close_fds) could take away. Not traced, the call just fails.
//
// It runs inside other people's programs: C library calls only (no C++
// runtime: it is linked without libstdc++), no allocation, no errno change.
#include "platform/linux/trace_name_record.hpp"

#include <cerrno>
#include <cstring>
#include <dlfcn.h>
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
