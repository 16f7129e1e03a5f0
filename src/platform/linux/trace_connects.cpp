// What the tracer does at a connect() or getsockopt(SO_ERROR) stop, and how
// it learns the outcome of a non-blocking connect without touching the
// program's error: a pidfd_getfd() duplicate of the socket, watched in the
// tracer's own epoll, read only through TCP_INFO. getsockopt(SO_ERROR) on
// the duplicate would clear the error the program is about to read
// (measured: the program then reads 0), so the tracer never asks for it.
#include "platform/linux/trace_name_record.hpp"
#include "platform/linux/trace_session.hpp"
#include "platform/linux/trace_timing.hpp"

// clang-format off
#include <cstdint>
#include <chrono>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
// clang-format on

#include "platform/common/sockaddr.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace loopcheck::platform::trace {

namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t fd_key(int tgid, int fd) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(tgid)) << 32) |
           static_cast<std::uint32_t>(fd);
}

// The loopback destination in a connect()'s sockaddr: 127/8, ::1, or
// ::ffff:127/104 (returned as its IPv4 address, with `mapped` set).
std::optional<Address> loopback_destination(const std::vector<std::uint8_t>& raw, bool& mapped) {
    sockaddr_storage ss{};
    if (raw.size() < sizeof(sa_family_t))
        return std::nullopt;
    std::memcpy(&ss, raw.data(), std::min(raw.size(), sizeof ss));
    if ((ss.ss_family == AF_INET && raw.size() < sizeof(sockaddr_in)) ||
        (ss.ss_family == AF_INET6 && raw.size() < sizeof(sockaddr_in6)))
        return std::nullopt;
    auto a = detail::read_sockaddr(reinterpret_cast<const sockaddr*>(&ss));
    if (!a)
        return std::nullopt;
    static constexpr std::uint8_t v4_mapped_prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (a->family == Family::ipv6 && std::memcmp(a->bytes.data(), v4_mapped_prefix, 12) == 0) {
        Address v4 = make_ipv4(a->bytes[12], a->bytes[13], a->bytes[14], a->bytes[15], a->port);
        mapped = true;
        a = v4;
    }
    return is_loopback(*a) ? a : std::nullopt;
}

// The shim's record of one getaddrinfo() answer (trace_name_record.hpp).
void take_name_record(Session& s, int tgid, const std::vector<std::uint8_t>& raw) {
    constexpr std::size_t head = sizeof name_record_magic + 2;
    if (raw.size() < head ||
        std::memcmp(raw.data(), name_record_magic, sizeof name_record_magic) != 0)
        return;
    const std::size_t name_len = raw[sizeof name_record_magic];
    const std::size_t count = raw[sizeof name_record_magic + 1];
    if (count > name_record_max_addresses || raw.size() < head + name_len + count * 17)
        return;
    ResolvedName resolved;
    resolved.name.assign(reinterpret_cast<const char*>(raw.data() + head), name_len);
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint8_t* at = raw.data() + head + name_len + i * 17;
        Address a;
        a.family = at[0] == 6 ? Family::ipv6 : Family::ipv4;
        std::memcpy(a.bytes.data(), at + 1, 16);
        static constexpr std::uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (a.family == Family::ipv6 && std::memcmp(a.bytes.data(), mapped, 12) == 0)
            a = make_ipv4(a.bytes[12], a.bytes[13], a.bytes[14], a.bytes[15]);
        resolved.addresses.push_back(a);
    }
    auto& names = s.names[tgid];
    if (names.size() >= 64)
        names.erase(names.begin());
    names.push_back(std::move(resolved));
}

// The name this process last resolved to `destination`, if the shim saw it.
void name_connect(const Session& s, TraceConnect& c) {
    const auto it = s.names.find(c.pid);
    if (it == s.names.end())
        return;
    Address ip = c.destination;
    ip.port = 0;
    ip.scope_id = 0;
    for (auto n = it->second.rbegin(); n != it->second.rend(); ++n) {
        for (const Address& a : n->addresses) {
            if (a == ip) {
                c.name = n->name;
                c.name_source = NameSource::shim;
                return;
            }
        }
    }
}

int pidfd_for(Session& s, int tgid) {
    const auto it = s.pidfds.find(tgid);
    if (it != s.pidfds.end())
        return it->second;
    const int pidfd = open_pidfd(tgid);
    if (pidfd >= 0)
        s.pidfds.emplace(tgid, pidfd);
    return pidfd;
}

// A TCP socket? Asked on the duplicate: SO_PROTOCOL only reads, it clears
// nothing. TCP (and MPTCP) sockets are always SOCK_STREAM, so the protocol
// alone answers for the type too, one syscall less per connect.
bool is_tcp(int dup) {
    int protocol = 0;
    socklen_t len = sizeof protocol;
    if (getsockopt(dup, SOL_SOCKET, SO_PROTOCOL, &protocol, &len) != 0)
        return false;
    return protocol == IPPROTO_TCP || protocol == 262 /* IPPROTO_MPTCP */;
}

struct TcpState {
    std::uint8_t state = 0;
    std::uint32_t retransmits = 0;
};

std::optional<TcpState> tcp_state(int dup) {
    tcp_info info{};
    socklen_t len = sizeof info;
    if (getsockopt(dup, IPPROTO_TCP, TCP_INFO, &info, &len) != 0)
        return std::nullopt;
    return TcpState{info.tcpi_state, info.tcpi_total_retrans};
}

void set_error_outcome(TraceConnect& c, int err) {
    c.error = err;
    c.outcome = err == ECONNREFUSED ? TraceOutcome::refused
                : err == ETIMEDOUT  ? TraceOutcome::timed_out
                                    : TraceOutcome::error;
}

// The outcome TCP_INFO shows, or false while the handshake is still on.
// A socket that left SYN_SENT for CLOSE was reset (refused) unless the
// kernel had retransmitted its SYN as often as it ever does (timed out);
// the program's own SO_ERROR, when it read one, overrides this.
bool decide(TraceConnect& c, const TcpState& t) {
    c.syn_retransmits = std::max(c.syn_retransmits, t.retransmits);
    if (t.state == TCP_SYN_SENT)
        return false;
    if (t.state == TCP_CLOSE) {
        if (c.program_errno && *c.program_errno != 0)
            set_error_outcome(c, *c.program_errno);
        else
            set_error_outcome(c, t.retransmits >= 6 ? ETIMEDOUT : ECONNREFUSED);
        return true;
    }
    c.outcome = TraceOutcome::accepted;
    c.error = 0;
    return true;
}

void end_watch(Session& s, int dup) {
    epoll_ctl(s.epoll_fd, EPOLL_CTL_DEL, dup, nullptr);
    close(dup);
    s.watches.erase(dup);
}

void finish_duration(Session& s, TraceConnect& c) {
    c.duration_ms = s.ms_since_start(Clock::now()) - c.start_ms;
}

} // namespace

bool on_connect_entry(Session& s, int tid, const std::uint64_t args[6]) {
    Thread& thread = s.threads[tid];
    const int fd = static_cast<int>(args[0]);
    if (thread.pending.restarting && thread.pending.fd == fd) {
        thread.pending.restarting = false;
        return true; // the same connect, rerun after a signal handler
    }
    thread.pending = PendingExit{}; // an interrupted one not rerun: its watch goes on
    const std::size_t len = std::min<std::uint64_t>(args[2], name_record_max_size);
    const auto raw = read_memory(tid, args[1], len);
    if (fd == -1) {
        take_name_record(s, thread.tgid, raw);
        return false;
    }
    TraceConnect c;
    const auto destination = loopback_destination(raw, c.v4_mapped);
    if (!destination) {
        ++s.run.other_connects;
        return false;
    }
    const int pidfd = pidfd_for(s, thread.tgid);
    const int dup = pidfd >= 0 ? take_fd(pidfd, fd) : -1;
    if (dup < 0 || !is_tcp(dup)) {
        if (dup >= 0)
            close(dup);
        ++s.run.other_connects;
        return false;
    }
    c.start_ms = s.ms_since_start(Clock::now());
    c.pid = thread.tgid;
    c.tid = tid;
    c.destination = *destination;
    name_connect(s, c);
    s.run.connects.push_back(std::move(c));
    const std::size_t index = s.run.connects.size() - 1;
    s.last_connect[fd_key(thread.tgid, fd)] = index;
    thread.pending = PendingExit{PendingExit::Kind::connect, index, fd, dup, 0, false};
    if (s.timing != nullptr && !timing_before_connect(*s.timing, dup, index, s.run.connects[index]))
        s.not_slowed.push_back(index);
    return true;
}

bool on_so_error_entry(Session& s, int tid, const std::uint64_t args[6]) {
    Thread& thread = s.threads[tid];
    const int fd = static_cast<int>(args[0]);
    if (s.last_connect.find(fd_key(thread.tgid, fd)) == s.last_connect.end())
        return false; // not a socket whose connect was recorded
    thread.pending = PendingExit{PendingExit::Kind::so_error, 0, fd, -1, args[3], false};
    return true;
}

namespace {

// Watches the duplicate in the tracer's epoll; the watch owns it.
void watch(Session& s, int tgid, const PendingExit& p) {
    s.watches[p.dup] = Watch{p.connect, tgid, p.fd, fd_inode(tgid, p.fd)};
    epoll_event ev{};
    ev.events = EPOLLOUT | EPOLLERR | EPOLLHUP;
    ev.data.fd = p.dup;
    epoll_ctl(s.epoll_fd, EPOLL_CTL_ADD, p.dup, &ev);
}

// A blocking connect's result, from the syscall's return.
void take_return(Session& s, TraceConnect& c, int dup, std::int64_t rval) {
    // A failed connect's count is reset (tcp_disconnect()) before its exit:
    // only an accepted one's is worth reading.
    const auto t = rval == 0 && dup >= 0 ? tcp_state(dup) : std::nullopt;
    if (t)
        c.syn_retransmits = std::max(c.syn_retransmits, t->retransmits);
    if (rval == 0) {
        c.outcome = TraceOutcome::accepted;
    } else {
        set_error_outcome(c, static_cast<int>(-rval));
        c.program_errno = static_cast<int>(-rval);
    }
    finish_duration(s, c);
}

bool is_restart(std::int64_t rval) {
    // ERESTARTSYS, ERESTARTNOINTR, ERESTARTNOHAND, ERESTART_RESTARTBLOCK:
    // a signal came; the kernel reruns the call after the handler, or the
    // program gets EINTR while the handshake goes on.
    return rval == -512 || rval == -513 || rval == -514 || rval == -516;
}

void connect_exit(Session& s, Thread& thread, std::int64_t rval) {
    PendingExit& p = thread.pending;
    TraceConnect& c = s.run.connects[p.connect];
    if (is_restart(rval)) {
        if (p.dup >= 0)
            watch(s, thread.tgid, p); // its outcome comes on, rerun or not
        p.dup = -1;
        p.restarting = true;
        return;
    }
    if (p.dup < 0) { // the rerun of an interrupted connect: the watch ends with it
        for (const auto& [dup, w] : s.watches)
            if (w.connect == p.connect) {
                end_watch(s, dup);
                break;
            }
        take_return(s, c, -1, rval);
        if (s.timing != nullptr)
            timing_after_connect(*s.timing, p.connect);
        p = PendingExit{};
        return;
    }
    if (rval == -EINPROGRESS) {
        c.nonblocking = true;
        const auto t = tcp_state(p.dup);
        if (!t || !decide(c, *t)) {
            watch(s, thread.tgid, p);
            p = PendingExit{};
            return;
        }
        finish_duration(s, c);
    } else {
        take_return(s, c, p.dup, rval);
    }
    if (s.timing != nullptr)
        timing_after_connect(*s.timing, p.connect);
    close(p.dup);
    p = PendingExit{};
}

void so_error_exit(Session& s, Thread& thread, std::int64_t rval) {
    PendingExit p = thread.pending;
    thread.pending = PendingExit{};
    const auto it = s.last_connect.find(fd_key(thread.tgid, p.fd));
    if (rval != 0 || it == s.last_connect.end())
        return;
    const auto raw = read_memory(static_cast<int>(thread.tgid), p.optval, sizeof(int));
    if (raw.size() != sizeof(int))
        return;
    int err = 0;
    std::memcpy(&err, raw.data(), sizeof err);
    TraceConnect& c = s.run.connects[it->second];
    if (!c.program_errno)
        c.program_errno = err;
    // The program has its answer: a connect still watched ends with it.
    for (auto& [dup, w] : s.watches)
        if (w.connect == it->second) {
            on_watch_event(s, dup);
            break;
        }
}

} // namespace

void on_syscall_exit(Session& s, int tid, std::int64_t rval) {
    Thread& thread = s.threads[tid];
    if (thread.pending.kind == PendingExit::Kind::connect)
        connect_exit(s, thread, rval);
    else if (thread.pending.kind == PendingExit::Kind::so_error)
        so_error_exit(s, thread, rval);
}

void on_watch_event(Session& s, int dup) {
    const auto it = s.watches.find(dup);
    if (it == s.watches.end())
        return;
    TraceConnect& c = s.run.connects[it->second.connect];
    const auto t = tcp_state(dup);
    if (t && !decide(c, *t))
        return;
    finish_duration(s, c);
    if (s.timing != nullptr)
        timing_after_connect(*s.timing, it->second.connect);
    end_watch(s, dup);
}

void sweep_watches(Session& s, bool all) {
    std::vector<int> ended;
    for (const auto& [dup, w] : s.watches)
        if (all || fd_inode(w.tgid, w.fd) != w.inode)
            ended.push_back(dup);
    for (const int dup : ended) {
        TraceConnect& c = s.run.connects[s.watches[dup].connect];
        const auto t = tcp_state(dup);
        if (t && !decide(c, *t))
            c.outcome = TraceOutcome::abandoned; // closed while SYN_SENT
        else if (!t)
            c.outcome = TraceOutcome::unknown;
        finish_duration(s, c);
        if (s.timing != nullptr)
            timing_after_connect(*s.timing, s.watches[dup].connect);
        end_watch(s, dup);
    }
}

void forget_process(Session& s, int tgid) {
    const auto it = s.pidfds.find(tgid);
    if (it != s.pidfds.end()) {
        close(it->second);
        s.pidfds.erase(it);
    }
    s.names.erase(tgid);
    bool watched = false;
    for (const auto& [dup, w] : s.watches)
        watched = watched || w.tgid == tgid;
    if (watched)
        sweep_watches(s, false);
}

} // namespace loopcheck::platform::trace
