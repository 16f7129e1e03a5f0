// The platform layer for Windows: Winsock 2, select(), getaddrinfo(). It
// mirrors src/platform/posix/connect.cpp. The sockets loopcheck holds itself
// (listeners, closed ports) are in src/platform/win32/owned_sockets.cpp, system
// facts and the console in src/platform/win32/facts.cpp, shared socket
// helpers in src/platform/win32/socket_helpers.cpp. docs/windows.md explains each call.
#include "loopcheck/core/measure/syn_policy.hpp"
#include "loopcheck/core/windows/tcp_info.hpp"
#include "loopcheck/core/windows/winsock_errors.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"
#include "platform/common/connect_book.hpp"
#include "platform/win32/socket_helpers.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <fmt/format.h>
#include <memory>

// After the Winsock headers (platform/win32/socket_helpers.hpp) it relies on.
#include "platform/common/sockaddr.hpp"

namespace loopcheck::platform {

using namespace win32;

// The portable tables (winsock_errors.hpp, syn_policy.hpp) carry plain
// numbers so that they are tested on every OS; here they meet the SDK's.
static_assert(WSAECONNREFUSED == wsa::connection_refused);
static_assert(WSAETIMEDOUT == wsa::timed_out);
static_assert(WSAENETUNREACH == wsa::net_unreachable);
static_assert(WSAEHOSTUNREACH == wsa::host_unreachable);
static_assert(WSAEADDRNOTAVAIL == wsa::addr_not_available);
static_assert(WSAEAFNOSUPPORT == wsa::af_not_supported);
static_assert(WSAENETDOWN == wsa::net_down);
static_assert(WSAEHOSTDOWN == wsa::host_down);
static_assert(WSAEWOULDBLOCK == wsa::would_block);
static_assert(WSAEOPNOTSUPP == wsa::op_not_supported);
static_assert(WSAEMFILE == wsa::too_many_sockets);
static_assert(WSAENOBUFS == wsa::no_buffers);
static_assert(SIO_TCP_INITIAL_RTO == sio_tcp_initial_rto);
#ifdef TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS
// The sentinels of TCP_INITIAL_RTO_PARAMETERS: 0 is the system default,
// only (UCHAR)-2 means no SYN retransmission (syn_policy.hpp).
static_assert(TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS == tcp_initial_rto_no_syn_retransmissions);
static_assert(TCP_INITIAL_RTO_DEFAULT_MAX_SYN_RETRANSMISSIONS ==
              tcp_initial_rto_default_max_syn_retransmissions);
static_assert(TCP_INITIAL_RTO_UNSPECIFIED_MAX_SYN_RETRANSMISSIONS ==
              tcp_initial_rto_unspecified_max_syn_retransmissions);
static_assert(sizeof(TCP_INITIAL_RTO_PARAMETERS) == 4);
#endif
#ifdef SIO_TCP_INFO
// Only where the SDK's NTDDI_VERSION exposes it (MinGW's default does not).
static_assert(SIO_TCP_INFO == sio_tcp_info);
static_assert(offsetof(TCP_INFO_v0, SynRetrans) == tcp_info_v0_syn_retrans_offset);
static_assert(sizeof(TCP_INFO_v0) == tcp_info_v0_size);
#endif

namespace {

/// TCP_INITIAL_RTO_PARAMETERS (mstcpip.h, Windows 8 SDK and later), spelt
/// out so the build does not depend on which SDK or NTDDI_VERSION it gets.
struct InitialRtoPayload {
    USHORT Rtt;
    UCHAR MaxSynRetransmissions;
};
static_assert(sizeof(InitialRtoPayload) == 4);

// --- SYN retry control and kernel evidence. -------------------------------

/// Applies the spec's SYN policy before connect, as the option requires
/// (learn.microsoft.com .../winsock/sio-tcp-initial-rto). The payload comes
/// from initial_rto_for(): NO_SYN_RETRANSMISSIONS (0xFE) for no retries
/// and for a limit of 0 from build 16299, one retry before it (where 0xFE
/// reads as ~255 retries), the count otherwise. A refusal (Wine:
/// WSAEOPNOTSUPP) is recorded, and the connect goes ahead with the system's
/// defaults. -vv logs every call with its values and its answer.
void apply_syn_policy(SOCKET s, const ProbeSpec& spec, Sample& out) {
    const auto p = initial_rto_for(spec.syn, spec.syn_retries, windows_build());
    if (!p) {
        out.option = OptionState::not_requested;
        return;
    }
    InitialRtoPayload payload{p->rtt, p->max_syn_retransmissions};
    DWORD returned = 0;
    if (::WSAIoctl(s, SIO_TCP_INITIAL_RTO, &payload, sizeof payload, nullptr, 0, &returned, nullptr,
                   nullptr) == 0) {
        out.option = OptionState::applied;
        log::trace("{} -> 0", initial_rto_call_text(*p));
        return;
    }
    out.option = OptionState::refused;
    out.option_error = ::WSAGetLastError();
    out.option_error_name = wsa_error_name(out.option_error);
    log::trace("{} -> {}", initial_rto_call_text(*p), out.option_error_name);
}

/// SYN retransmissions the stack counted, from SIO_TCP_INFO version 0
/// (Windows 10 1703+). Whether Windows still answers once a connect has
/// failed is not documented; Wine 8 answers WSAEOPNOTSUPP in every state
/// (docs/windows.md). nullopt whenever the call fails.
std::optional<int> read_syn_retransmissions(SOCKET s) {
    DWORD version = 0;
    alignas(8) std::array<std::uint8_t, tcp_info_v0_size> info{};
    DWORD written = 0;
    if (::WSAIoctl(s, sio_tcp_info, &version, sizeof version, info.data(),
                   static_cast<DWORD>(info.size()), &written, nullptr, nullptr) != 0) {
        log::trace("SIO_TCP_INFO(version=0) -> {}", wsa_error_name(::WSAGetLastError()));
        return std::nullopt;
    }
    const auto count = tcp_info_v0_syn_retransmissions(
        std::span<const std::uint8_t>(info.data(), std::min<std::size_t>(written, info.size())));
    log::trace("SIO_TCP_INFO(version=0) -> {} bytes, SynRetrans={}", written,
               count ? std::to_string(*count) : "n/a");
    return count;
}

/// What a failed select() ends each pending connect with: an error, not a
/// timeout, with the WSA code. Returning nothing instead made the caller
/// wait() again at once and spin until each connect's timeout.
Sample select_failure(int err) {
    log::warn("select failed: {}", wsa_error_name(err));
    Sample failed;
    failed.outcome = Outcome::error;
    failed.native_code = err;
    failed.native_name = fmt::format("select: {}", wsa_error_name(err));
    return failed;
}

void close_with(SOCKET& s, Sample& sample) {
    if (s == INVALID_SOCKET)
        return;
    sample.syn_retransmissions = read_syn_retransmissions(s);
    ::closesocket(s);
    s = INVALID_SOCKET;
}
} // namespace

NetworkScope::NetworkScope() {
    WSADATA data{};
    const int rc = ::WSAStartup(MAKEWORD(2, 2), &data);
    if (rc != 0) {
        error_ = system_error(fmt::format("WSAStartup failed: {}", wsa_message(rc)));
        return;
    }
    if (LOBYTE(data.wVersion) != 2 || HIBYTE(data.wVersion) != 2) {
        ::WSACleanup();
        error_ = system_error("Winsock 2.2 is not available");
        return;
    }
    // Without it a Ctrl-C waits out the select(); the probes still run.
    open_wake_socket();
}

NetworkScope::~NetworkScope() {
    if (!error_) {
        close_wake_socket();
        ::WSACleanup();
    }
}

bool interrupt_waits() noexcept {
    const SOCKET s = wake_socket();
    if (s == INVALID_SOCKET)
        return false;
    // One byte to the socket's own address: select() in wait() sees it
    // readable and returns. send() on a socket is safe from another thread.
    const char byte = 1;
    return ::send(s, &byte, 1, 0) == 1;
}

Micros monotonic_now() {
    // The frequency is fixed at boot (learn.microsoft.com .../profileapi/
    // nf-profileapi-queryperformancefrequency). Split the conversion so
    // that counter * 1e6 cannot overflow.
    static const std::int64_t freq = [] {
        LARGE_INTEGER f{};
        ::QueryPerformanceFrequency(&f);
        return static_cast<std::int64_t>(f.QuadPart);
    }();
    LARGE_INTEGER now{};
    ::QueryPerformanceCounter(&now);
    const auto c = static_cast<std::int64_t>(now.QuadPart);
    return Micros{(c / freq) * 1'000'000 + (c % freq) * 1'000'000 / freq};
}

Result<std::vector<Address>> resolve(const std::string& host, std::uint16_t port,
                                     FamilyFilter filter) {
    // Windows' getaddrinfo returns the WSA code itself (gai_strerror is a
    // thread-unsafe macro there), so the message comes from FormatMessage.
    return detail::resolve_like_a_client(host, port, filter,
                                         [](int rc) { return wsa_message(rc); });
}

// --- ConnectSet: non-blocking connects waited with select(). --------------
//
// select(), not WSAPoll: WSAPoll reports a failed connect (POLLHUP|POLLERR)
// only since Windows 10 2004, and before that a refused connect looks like
// one that never ends (learn.microsoft.com .../winsock2/nf-winsock2-wsapoll;
// curl turned WSAPoll off for the same reason). select() has always put a
// failed connect in exceptfds, with the reason in SO_ERROR
// (learn.microsoft.com .../winsock2/nf-winsock2-select).

struct ConnectSet::Impl : detail::ConnectBook<SOCKET, INVALID_SOCKET, close_with> {
    fd_set readfds{};  ///< the wake socket only
    fd_set writefds{}; ///< 8 KiB each at FD_SETSIZE 1024: kept off the stack
    fd_set exceptfds{};
};

ConnectSet::ConnectSet() : impl_(std::make_unique<Impl>()) {}

ConnectSet::~ConnectSet() {
    for (auto& e : impl_->entries)
        if (e.handle != INVALID_SOCKET)
            ::closesocket(e.handle);
}

std::optional<ConnectSet::Id> ConnectSet::start(const ProbeSpec& spec) {
    auto& im = *impl_;
    // A socket beyond FD_SETSIZE would silently drop out of the sets.
    if (im.open.size() >= capacity())
        return std::nullopt;
    SOCKET s = open_tcp_socket(spec.address.family);
    const int open_err = s == INVALID_SOCKET ? ::WSAGetLastError() : 0;
    if (open_err == WSAEMFILE || open_err == WSAENOBUFS)
        return std::nullopt;
    const Id id = im.entries.size();
    im.entries.push_back({});
    auto& e = im.entries.back();
    if (s == INVALID_SOCKET) {
        e.sample = wsa_failure_sample(open_err, Micros{0});
        log::trace("socket() for {} failed: {}", endpoint_string(spec.address),
                   e.sample.native_name);
        im.finished_at_once.push_back(id);
        return id;
    }
    e.handle = s;
    apply_syn_policy(s, spec, e.sample);
    sockaddr_storage ss{};
    const int len = to_sockaddr(spec.address, ss);
    e.start = monotonic_now();
    const int rc = ::connect(s, reinterpret_cast<const sockaddr*>(&ss), len);
    const int err = rc == 0 ? 0 : ::WSAGetLastError();
    const Micros elapsed = monotonic_now() - e.start;
    log::trace("connect({}) -> {}", endpoint_string(spec.address),
               rc == 0 ? "0" : wsa_error_name(err));
    // A non-blocking connect in progress is WSAEWOULDBLOCK on Windows, not
    // EINPROGRESS.
    if (rc == 0 || err != WSAEWOULDBLOCK) {
        Sample done = rc == 0 ? Sample{} : wsa_failure_sample(err, elapsed);
        if (rc == 0) {
            done.outcome = Outcome::accepted;
            done.latency = elapsed;
        }
        im.finished_now(id, std::move(done));
        return id;
    }
    im.open.push_back(id);
    return id;
}

std::vector<ConnectSet::Completion> ConnectSet::wait(Micros max_wait) {
    auto& im = *impl_;
    std::vector<Completion> done = im.take_finished();
    if (!done.empty() || im.open.empty())
        return done; // select() with no sockets at all is WSAEINVAL
    FD_ZERO(&im.readfds);
    FD_ZERO(&im.writefds);
    FD_ZERO(&im.exceptfds);
    for (Id id : im.open) {
        FD_SET(im.entries[id].handle, &im.writefds);
        FD_SET(im.entries[id].handle, &im.exceptfds);
    }
    // The console handler's thread cannot interrupt select() (there are no
    // signals); interrupt_waits() sends a datagram to this socket instead.
    // It does not count against capacity(): readfds is a set of its own.
    const SOCKET wake = wake_socket();
    if (wake != INVALID_SOCKET)
        FD_SET(wake, &im.readfds);
    timeval tv = to_timeval(max_wait);
    const int n = ::select(0, &im.readfds, &im.writefds, &im.exceptfds, &tv);
    const Micros now = monotonic_now();
    if (n == SOCKET_ERROR) // done is empty here: the connects end with the error
        return im.fail_open(select_failure(::WSAGetLastError()), now);
    if (wake != INVALID_SOCKET && FD_ISSET(wake, &im.readfds) != 0) {
        drain_wake_socket();
        log::trace("select woken by interrupt_waits()");
    }
    std::vector<Id> still_open;
    for (Id id : im.open) {
        const SOCKET s = im.entries[id].handle;
        const bool failed = FD_ISSET(s, &im.exceptfds) != 0;
        const bool writable = FD_ISSET(s, &im.writefds) != 0;
        if (!failed && !writable) {
            still_open.push_back(id);
            continue;
        }
        int soerr = 0;
        int len = sizeof soerr;
        if (::getsockopt(s, SOL_SOCKET, SO_ERROR, reinterpret_cast<char*>(&soerr), &len) != 0)
            soerr = ::WSAGetLastError();
        const Micros latency = now - im.entries[id].start;
        Sample sample;
        if (soerr != 0) {
            sample = wsa_failure_sample(soerr, latency);
        } else if (failed) {
            // exceptfds without a code: not seen in practice; keep it visible.
            sample.outcome = Outcome::error;
            sample.latency = latency;
            sample.native_name = "connect failed without SO_ERROR";
        } else {
            sample.outcome = Outcome::accepted;
            sample.latency = latency;
        }
        done.push_back(im.complete(id, std::move(sample)));
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
    return FD_SETSIZE;
}

} // namespace loopcheck::platform
