// The platform layer for Linux, macOS and other POSIX systems: BSD sockets,
// poll(), getaddrinfo(). Linux-only and macOS-only parts are marked.
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <memory>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

// After the socket headers it relies on.
#include "platform/common/connect_book.hpp"
#include "platform/common/sockaddr.hpp"
#include "platform/posix/socket_helpers.hpp"

namespace loopcheck::platform {

using posix::from_sockaddr;
using posix::open_tcp_socket;
using posix::to_sockaddr;

namespace {

// --- Error translation: the one place errno values become outcomes. -------

struct ErrnoInfo {
    Outcome outcome;
    const char* name;
};

ErrnoInfo classify_errno(int err) {
    switch (err) {
    case ECONNREFUSED:
        return {Outcome::refused, "ECONNREFUSED"};
    case ETIMEDOUT:
        return {Outcome::timeout, "ETIMEDOUT"};
    case ENETUNREACH:
        return {Outcome::unreachable, "ENETUNREACH"};
    case EHOSTUNREACH:
        return {Outcome::unreachable, "EHOSTUNREACH"};
    case EADDRNOTAVAIL:
        return {Outcome::unreachable, "EADDRNOTAVAIL"};
    case EAFNOSUPPORT:
        // The family is not available at all (IPv6 disabled): nothing can be
        // reached through it.
        return {Outcome::unreachable, "EAFNOSUPPORT"};
    case ENETDOWN:
        return {Outcome::unreachable, "ENETDOWN"};
#ifdef EHOSTDOWN
    case EHOSTDOWN:
        return {Outcome::unreachable, "EHOSTDOWN"};
#endif
    case ECONNRESET:
        return {Outcome::error, "ECONNRESET"};
    case ECONNABORTED:
        return {Outcome::error, "ECONNABORTED"};
    case EACCES:
        return {Outcome::error, "EACCES"};
    case EPERM:
        // Linux returns EPERM when a local firewall rule drops the SYN.
        return {Outcome::error, "EPERM"};
    case EMFILE:
        return {Outcome::error, "EMFILE"};
    case ENFILE:
        return {Outcome::error, "ENFILE"};
    case ENOBUFS:
        return {Outcome::error, "ENOBUFS"};
    case EINVAL:
        return {Outcome::error, "EINVAL"};
    case EADDRINUSE:
        return {Outcome::error, "EADDRINUSE"};
    default:
        return {Outcome::error, "errno"};
    }
}

Sample sample_from_errno(int err, Micros latency) {
    auto info = classify_errno(err);
    Sample s;
    s.outcome = info.outcome;
    s.latency = latency;
    s.native_code = err;
    s.native_name = std::strcmp(info.name, "errno") == 0 ? fmt::format("errno {}", err) : info.name;
    return s;
}

/// What a failed poll() (not EINTR) ends each pending connect with: the
/// next poll() would fail too, so the connects end with the error rather
/// than the caller spinning until their timeouts (as on Windows).
Sample poll_failure(int err) {
    log::warn("poll failed: {}", std::strerror(err));
    Sample failed = sample_from_errno(err, Micros{0});
    failed.outcome = Outcome::error; // the wait failed, not the connect
    failed.native_name = "poll: " + failed.native_name;
    return failed;
}

// --- SYN retry control and kernel evidence. -------------------------------

/// Applies the spec's SYN policy before connect. Linux takes a fixed count
/// through TCP_SYNCNT (1..255, tcp(7)), but with tcp_syn_linear_timeouts
/// (6.7+) it does not stop after N SYNs: N = 1, 2, 3 sent 2, 5 and 7
/// retransmissions on Linux 6.18, giving up at 3, 7 and 19.5 s
/// (docs/hacking.md#the-network-namespace-lab-testsnetns).
/// Linux never resends a SYN after a RST, so "no retries after a refusal"
/// has no counterpart and is reported as unsupported rather than silently
/// ignored.
void apply_syn_policy(int fd, const ProbeSpec& spec, Sample& s) {
    if (spec.syn == SynPolicy::system_default) {
        s.option = OptionState::not_requested;
        return;
    }
#ifdef __linux__
    if (spec.syn == SynPolicy::fixed) {
        const int n = spec.syn_retries;
        if (::setsockopt(fd, IPPROTO_TCP, TCP_SYNCNT, &n, sizeof n) == 0) {
            s.option = OptionState::applied;
        } else {
            s.option = OptionState::refused;
            s.option_error = errno;
            s.option_error_name = sample_from_errno(s.option_error, Micros{0}).native_name;
        }
        return;
    }
#else
    (void)fd;
#endif
    s.option = OptionState::unsupported;
}

/// SYN retransmissions counted by the kernel for this connect. Linux keeps
/// TCP_INFO readable after a failed connect (state TCP_CLOSE, counters
/// kept); no data was ever sent on the socket, so every retransmission
/// counted is a SYN. That holds for this non-blocking connect ended by
/// poll() and SO_ERROR: a blocking connect() that fails disconnects the
/// socket, which zeroes tcpi_total_retrans (docs/hacking.md#the-network-namespace-lab-testsnetns).
std::optional<int> read_syn_retransmissions(int fd) {
#ifdef __linux__
    tcp_info info{};
    socklen_t len = sizeof info;
    if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) == 0 &&
        len >= offsetof(tcp_info, tcpi_total_retrans) + sizeof info.tcpi_total_retrans)
        return static_cast<int>(info.tcpi_total_retrans);
#else
    (void)fd;
#endif
    return std::nullopt;
}

/// Reads the kernel's count, closes the socket and fills the sample's
/// option state from what start() recorded.
void close_with(int& fd, Sample& s) {
    if (fd < 0)
        return;
    s.syn_retransmissions = read_syn_retransmissions(fd);
    ::close(fd);
    fd = -1;
}

} // namespace

NetworkScope::NetworkScope() = default;
NetworkScope::~NetworkScope() = default;

Micros monotonic_now() {
    return std::chrono::duration_cast<Micros>(std::chrono::steady_clock::now().time_since_epoch());
}

Result<std::vector<Address>> resolve(const std::string& host, std::uint16_t port,
                                     FamilyFilter filter) {
    return detail::resolve_like_a_client(host, port, filter, [](int rc) {
        // The C library's text (translated under a non-C locale): escaped.
        return escape_text(rc == EAI_SYSTEM ? std::strerror(errno) : ::gai_strerror(rc));
    });
}

// --- ConnectSet: non-blocking connects waited with poll(). ----------------

struct ConnectSet::Impl : detail::ConnectBook<int, -1, close_with> {
    std::vector<pollfd> pfds;
};

namespace {

/// The sample of a connect that poll() reported finished at `now`.
/// POLLOUT alone: connected. POLLERR/POLLHUP: failed; SO_ERROR says why
/// (and clears it).
Sample finished_sample(int fd, Micros start, Micros now) {
    int soerr = 0;
    socklen_t len = sizeof soerr;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) != 0)
        soerr = errno;
    if (soerr != 0)
        return sample_from_errno(soerr, now - start);
    Sample s;
    s.outcome = Outcome::accepted;
    s.latency = now - start;
    return s;
}

/// A connect that said EINPROGRESS, looked at once without waiting: on
/// loopback the peer's stack answers inside connect() itself, so the
/// handshake or the reset is usually done by now. Without this look the
/// connect's latency would include starting every connect after it until
/// the next wait(), several times the refusal itself (docs/performance.md).
/// A pending error (the
/// refusal) is read first: poll() would report it as POLLERR and
/// finished_sample() read the same SO_ERROR, so the one getsockopt() saves
/// a poll() per refused connect.
std::optional<Sample> ended_already(int fd, Micros start) {
    int soerr = 0;
    socklen_t soerr_len = sizeof soerr;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &soerr_len) == 0 && soerr != 0)
        return sample_from_errno(soerr, monotonic_now() - start);
    pollfd pfd{fd, POLLOUT, 0};
    if (::poll(&pfd, 1, 0) == 1 && pfd.revents != 0)
        return finished_sample(fd, start, monotonic_now());
    return std::nullopt;
}

} // namespace

ConnectSet::ConnectSet() : impl_(std::make_unique<Impl>()) {}

ConnectSet::~ConnectSet() {
    for (auto& e : impl_->entries)
        if (e.handle >= 0)
            ::close(e.handle);
}

std::optional<ConnectSet::Id> ConnectSet::start(const ProbeSpec& spec) {
    const int fd = open_tcp_socket(spec.address.family);
    if (fd < 0 && (errno == EMFILE || errno == ENFILE))
        return std::nullopt;
    const Id id = impl_->entries.size();
    impl_->entries.push_back({});
    auto& e = impl_->entries.back();
    if (fd < 0) {
        e.sample = sample_from_errno(errno, Micros{0});
        log::trace("socket() for {} failed: {}", endpoint_string(spec.address),
                   e.sample.native_name);
        impl_->finished_at_once.push_back(id);
        return id;
    }
    e.handle = fd;
    apply_syn_policy(fd, spec, e.sample);
    sockaddr_storage ss{};
    const socklen_t len = to_sockaddr(spec.address, ss);
    e.start = monotonic_now();
    const int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&ss), len);
    const int err = rc == 0 ? 0 : errno;
    const Micros elapsed = monotonic_now() - e.start;
    // EINPROGRESS is the usual answer of a non-blocking connect, not a
    // failure, so classify_errno() does not know it.
    if (log::enabled(log::Level::trace)) // not an endpoint string per connect for nothing
        log::trace("connect({}) -> {}", endpoint_string(spec.address),
                   rc == 0              ? "0"
                   : err == EINPROGRESS ? "EINPROGRESS"
                                        : classify_errno(err).name);
    std::optional<Sample> finished;
    if (rc == 0) {
        finished = Sample{};
        finished->outcome = Outcome::accepted;
        finished->latency = elapsed;
    } else if (err != EINPROGRESS) {
        finished = sample_from_errno(err, elapsed);
    } else {
        finished = ended_already(fd, e.start);
    }
    if (finished) {
        impl_->finished_now(id, std::move(*finished));
        return id;
    }
    impl_->open.push_back(id);
    return id;
}

std::vector<ConnectSet::Completion> ConnectSet::wait(Micros max_wait) {
    auto& im = *impl_;
    std::vector<Completion> done = im.take_finished();
    if (!done.empty() || im.open.empty())
        return done;
    im.pfds.clear();
    for (Id id : im.open)
        im.pfds.push_back({im.entries[id].handle, POLLOUT, 0});
    // Round up so that a wait of 0.4 ms does not become a busy 0 ms poll.
    const int wait_ms = static_cast<int>((std::max(max_wait, Micros{0}).count() + 999) / 1000);
    const int n = ::poll(im.pfds.data(), static_cast<nfds_t>(im.pfds.size()), wait_ms);
    const Micros now = monotonic_now();
    if (n < 0) // EINTR (a signal) only ends this wait; done is empty here
        return errno == EINTR ? done : im.fail_open(poll_failure(errno), now);
    std::vector<Id> still_open;
    for (std::size_t i = 0; i < im.open.size(); ++i) {
        const Id id = im.open[i];
        if (im.pfds[i].revents == 0) {
            still_open.push_back(id);
            continue;
        }
        done.push_back(
            im.complete(id, finished_sample(im.entries[id].handle, im.entries[id].start, now)));
    }
    im.open = std::move(still_open);
    return done;
}

Sample ConnectSet::abandon(Id id) {
    return impl_->abandon(id, monotonic_now());
}

Micros ConnectSet::started_at(Id id) const {
    return impl_->entries[id].start;
}

std::size_t ConnectSet::pending() const noexcept {
    return impl_->pending();
}

std::size_t ConnectSet::capacity() noexcept {
    // The soft descriptor limit less a reserve for stdio, the resolver and
    // any listeners the caller holds.
    rlimit rl{};
    std::size_t limit = 1024;
    if (::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        limit = static_cast<std::size_t>(rl.rlim_cur);
    constexpr std::size_t reserve = 32;
    limit = limit > reserve + 1 ? limit - reserve : 1;
    return std::min<std::size_t>(limit, 4096);
}

} // namespace loopcheck::platform
