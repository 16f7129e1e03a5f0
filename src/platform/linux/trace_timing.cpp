// --windows-timing: Windows answers a refused loopback SYN by sending it
// again every 500 ms, four times, and reports WSAECONNREFUSED after ~2 s.
// Linux refuses at once, so a client that tries addresses in turn and one
// that races them (Happy Eyeballs) look alike here. To let the traced
// program's own algorithm show its cost, each refused connect is made to
// take ~2 s on real packets, for the program's own ports only:
//
// 1. At the connect()'s seccomp stop (before its SYN is sent), if nothing
//    is bound on the destination, the tracer takes the address itself: a
//    listener with backlog 0 whose one queue place it fills with its own
//    connection. Linux drops a SYN to a listener whose accept queue is full
//    (LINUX_MIB_LISTENOVERFLOWS), so the program's socket stays SYN_SENT
//    and resends its SYN after the initial RTO (1 s), dropped again.
// 2. It sets TCP_USER_TIMEOUT = 2000 ms on the program's socket (through
//    its pidfd_getfd duplicate). In SYN_SENT the kernel does not time out
//    on it, but tcp_clamp_rto_to_user_timeout() arms the next retransmit
//    at the 2 s mark instead of 1 + 2 = 3 s.
// 3. At 1.5 s the tarpit closes and the program's own TCP_USER_TIMEOUT
//    comes back, so the SYN sent at 2 s meets no listener and is reset:
//    connect() reports ECONNREFUSED at ~2.0 s, as on Windows.
//
// A connect that the program gives up on earlier (a Happy Eyeballs race
// won by the other address) releases its tarpit when the tracer sees the
// socket closed. While a tarpit holds a port (at most 1.5 s), a server
// that binds that very address fails with EADDRINUSE: the help says so.
// Chosen over an nftables rule that drops the first resets in a network
// namespace (tests/netns/lab.sh --drop-rst-conn): that needs the server in
// the same namespace (or root and the machine's own ruleset), where the
// tarpit needs no privilege and touches no one else's ports. Dropping one
// reset makes a refusal cost 1 s, two 3 s: the user timeout's clamp is
// what puts the refusal at Windows' 2 s.
#include "platform/linux/trace_timing.hpp"

// clang-format off
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>
// clang-format on

#include "platform/common/sockaddr.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

namespace loopcheck::platform::trace {

using Clock = std::chrono::steady_clock;

namespace {

constexpr auto tarpit_hold = std::chrono::milliseconds(1500);
constexpr unsigned windows_refusal_ms = 2000;

struct Tarpit {
    Address address;
    int listener = -1;
    int filler = -1;
    Clock::time_point remove_at;
};

// A connect the tracer slowed: its tarpit and the user timeout to restore.
struct Held {
    std::size_t index = 0;
    Address address;
    int socket = -1; ///< the tracer's own duplicate of the program's socket
    unsigned old_user_timeout = 0;
    Clock::time_point restore_at;
};

int bound_listener(const Address& a) {
    sockaddr_storage ss{};
    const socklen_t len = static_cast<socklen_t>(detail::fill_sockaddr(a, ss));
    const int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (a.family == Family::ipv6)
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    if (bind(fd, reinterpret_cast<const sockaddr*>(&ss), len) != 0 || listen(fd, 0) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

// A listener on `a` whose accept queue is full, or nullopt when something
// is bound there already (a refusal is then not what the program meets).
std::optional<Tarpit> make_tarpit(const Address& a) {
    Tarpit t{a, bound_listener(a), -1, Clock::now() + tarpit_hold};
    if (t.listener < 0)
        return std::nullopt;
    sockaddr_storage ss{};
    const socklen_t len = static_cast<socklen_t>(detail::fill_sockaddr(a, ss));
    t.filler = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    // Blocking, and immediate: the queue has its one place free.
    if (t.filler < 0 || connect(t.filler, reinterpret_cast<const sockaddr*>(&ss), len) != 0) {
        if (t.filler >= 0)
            close(t.filler);
        close(t.listener);
        return std::nullopt;
    }
    return t;
}

void remove_tarpit(Tarpit& t) {
    close(t.filler);
    close(t.listener);
}

void restore(Held& h) {
    setsockopt(h.socket, IPPROTO_TCP, TCP_USER_TIMEOUT, &h.old_user_timeout,
               sizeof h.old_user_timeout);
    close(h.socket);
}

} // namespace

struct Timing {
    std::vector<Tarpit> tarpits;
    std::vector<Held> held;

    ~Timing() {
        for (Held& h : held)
            restore(h);
        for (Tarpit& t : tarpits)
            remove_tarpit(t);
    }
    Timing() = default;
    Timing(const Timing&) = delete;
    Timing& operator=(const Timing&) = delete;

    void drop_tarpit_of(const Address& a) {
        const bool still_used =
            std::any_of(held.begin(), held.end(), [&](const Held& h) { return h.address == a; });
        if (still_used)
            return;
        auto it = std::find_if(tarpits.begin(), tarpits.end(),
                               [&](const Tarpit& t) { return t.address == a; });
        if (it != tarpits.end()) {
            remove_tarpit(*it);
            tarpits.erase(it);
        }
    }
};

TimingPtr start_timing() {
    return TimingPtr(new Timing, [](Timing* t) { delete t; });
}

bool timing_before_connect(Timing& t, int dup, std::size_t index, const TraceConnect& c) {
    Address a = c.destination;
    auto existing = std::find_if(t.tarpits.begin(), t.tarpits.end(),
                                 [&](const Tarpit& p) { return p.address == a; });
    if (existing != t.tarpits.end()) {
        existing->remove_at = Clock::now() + tarpit_hold;
    } else if (auto made = make_tarpit(a)) {
        t.tarpits.push_back(*made);
    } else {
        return false;
    }
    Held h{index, a, fcntl(dup, F_DUPFD_CLOEXEC, 0), 0, Clock::now() + tarpit_hold};
    if (h.socket < 0)
        return true; // the tarpit alone: refused after 3 s, not 2
    socklen_t len = sizeof h.old_user_timeout;
    getsockopt(h.socket, IPPROTO_TCP, TCP_USER_TIMEOUT, &h.old_user_timeout, &len);
    setsockopt(h.socket, IPPROTO_TCP, TCP_USER_TIMEOUT, &windows_refusal_ms,
               sizeof windows_refusal_ms);
    t.held.push_back(h);
    return true;
}

void timing_after_connect(Timing& t, std::size_t index) {
    auto it =
        std::find_if(t.held.begin(), t.held.end(), [&](const Held& h) { return h.index == index; });
    if (it == t.held.end())
        return;
    const Address a = it->address;
    restore(*it);
    t.held.erase(it);
    t.drop_tarpit_of(a);
}

int timing_tick(Timing& t, TraceRun& run) {
    const auto now = Clock::now();
    for (auto it = t.held.begin(); it != t.held.end();) {
        if (it->restore_at <= now) {
            tcp_info info{};
            socklen_t len = sizeof info;
            if (getsockopt(it->socket, IPPROTO_TCP, TCP_INFO, &info, &len) == 0) {
                auto& c = run.connects[it->index];
                c.syn_retransmits = std::max(c.syn_retransmits, info.tcpi_total_retrans);
            }
            restore(*it);
            it = t.held.erase(it);
        } else {
            ++it;
        }
    }
    for (auto it = t.tarpits.begin(); it != t.tarpits.end();) {
        if (it->remove_at <= now) {
            remove_tarpit(*it);
            it = t.tarpits.erase(it);
        } else {
            ++it;
        }
    }
    auto next = Clock::time_point::max();
    for (const Held& h : t.held)
        next = std::min(next, h.restore_at);
    for (const Tarpit& p : t.tarpits)
        next = std::min(next, p.remove_at);
    if (next == Clock::time_point::max())
        return -1;
    return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(next - now).count());
}

} // namespace loopcheck::platform::trace
