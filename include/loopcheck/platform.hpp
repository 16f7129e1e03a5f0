// The one boundary between loopcheck and the operating system.
//
// Everything above this header is plain C++ over value types. Each OS
// implements it in one file (src/platform_posix.cpp, src/platform_win32.cpp)
// and CMake picks which. No OS header may be included here, so that the rest
// of the code cannot grow a dependency on one.
#pragma once

#include "loopcheck/address.hpp"
#include "loopcheck/duration.hpp"
#include "loopcheck/result.hpp"
#include "loopcheck/sample.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace loopcheck::platform {

/// Keeps the OS's socket library up for its lifetime (WSAStartup and
/// WSACleanup on Windows; nothing on POSIX). Create one before any other
/// call in this header.
class NetworkScope {
public:
    NetworkScope();
    ~NetworkScope();
    NetworkScope(const NetworkScope&) = delete;
    NetworkScope& operator=(const NetworkScope&) = delete;

    /// Set when start-up failed; no other call may be made then.
    [[nodiscard]] const std::optional<Error>& error() const noexcept { return error_; }

private:
    std::optional<Error> error_;
};

/// A monotonic clock with at least microsecond resolution
/// (steady_clock on POSIX, QueryPerformanceCounter on Windows).
Micros monotonic_now();

enum class FamilyFilter : std::uint8_t { any, ipv4, ipv6 };

/// Resolves `host` the way a typical client does and returns the addresses
/// in exactly the order the resolver gave them, each with `port` set.
/// ErrorKind::resolve carries the resolver's own message.
Result<std::vector<Address>> resolve(const std::string& host, std::uint16_t port,
                                     FamilyFilter filter);

/// Non-blocking connects in flight, waited on together: the one connect
/// primitive each OS implements. probe() and the client emulation are
/// built on it (src/probe.cpp, src/emulate.cpp).
class ConnectSet {
public:
    using Id = std::size_t;

    struct Completion {
        Id id = 0;
        Sample sample;
    };

    ConnectSet();
    ~ConnectSet(); ///< closes every socket still pending
    ConnectSet(const ConnectSet&) = delete;
    ConnectSet& operator=(const ConnectSet&) = delete;

    /// Opens a socket for spec.address, applies the spec's SYN policy and
    /// starts a non-blocking connect; the clock for its latency starts just
    /// before connect(). A connect that finishes at once, or a socket that
    /// cannot be opened, is reported by the next wait() like any other.
    /// nullopt when the process is out of descriptors (EMFILE/ENFILE): wait
    /// for others to finish, then try again.
    std::optional<Id> start(const ProbeSpec& spec);

    /// Waits until at least one connect has finished or `max_wait` has
    /// passed, and returns those that finished: outcome, latency, native
    /// code, the kernel's SYN retransmission count; their sockets are closed.
    std::vector<Completion> wait(Micros max_wait);

    /// Ends a pending connect now as Outcome::timeout, with the time it
    /// waited and the kernel's count, and closes its socket.
    Sample abandon(Id id);

    /// When the connect `id` started (monotonic_now() clock).
    [[nodiscard]] Micros started_at(Id id) const;
    [[nodiscard]] std::size_t pending() const noexcept;

    /// How many connects may be in flight at once: the descriptor limit
    /// less a reserve on POSIX, FD_SETSIZE on Windows.
    static std::size_t capacity() noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// An owned socket; closed when destroyed.
class Socket {
public:
    Socket() = default;
    explicit Socket(std::intptr_t handle) : handle_(handle) {}
    ~Socket();
    Socket(Socket&& other) noexcept : handle_(std::exchange(other.handle_, invalid)) {}
    Socket& operator=(Socket&& other) noexcept;
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;

    [[nodiscard]] bool valid() const noexcept { return handle_ != invalid; }
    [[nodiscard]] std::intptr_t native() const noexcept { return handle_; }

    static constexpr std::intptr_t invalid = -1;

private:
    std::intptr_t handle_ = invalid;
};

struct ListenOptions {
    Address bind;       ///< port 0 picks a free port
    bool v6only = true; ///< IPV6_V6ONLY for IPv6 binds; set explicitly either way
    int backlog = 128;
};

/// Opens a listening TCP socket.
Result<Socket> open_listener(const ListenOptions& options);

/// Binds a TCP socket to `address` without listening, so that port stays
/// closed (a connect is refused) and no one else can take it. Port 0 picks
/// a free port. IPv6 binds set IPV6_V6ONLY.
Result<Socket> bind_closed(const Address& address);

/// The address a socket is bound to.
Result<Address> local_address(const Socket& socket);

/// Waits up to `wait` for a connection on a listener, accepts it, closes it
/// and returns the peer's address; nullopt when the wait ran out.
Result<std::optional<Address>> accept_and_close(const Socket& listener, Micros wait);

/// One listening TCP socket on this machine (in this network namespace).
struct Listener {
    Address bound; ///< the address and port it is bound to; 0.0.0.0 or :: for a wildcard
    /// IPV6_V6ONLY of an IPv6 socket: false means a [::] listener takes IPv4
    /// connects too. nullopt for IPv4 sockets and where the OS does not say
    /// (Windows' tables do not).
    std::optional<bool> v6only;
    /// The process holding the socket; nullopt when it could not be seen
    /// (another user's process without root, another PID namespace).
    std::optional<std::uint32_t> pid;
    std::string process; ///< its name ("python3"); empty when unknown
    /// The socket's owner uid where the OS says even when the process is
    /// hidden (Linux sock_diag); nullopt elsewhere.
    std::optional<std::uint32_t> uid;

    friend bool operator==(const Listener&, const Listener&) = default;
};

struct ListenerTable {
    /// Every listening socket that could be seen, IPv4 first, then by
    /// address and port.
    std::vector<Listener> listeners;
    /// How many of them have no owner: no pid, or no process name.
    std::size_t owner_hidden = 0;
    /// Why owners are hidden and how to see them ("run as root to see other
    /// users' processes"); empty when none is.
    std::string hidden_because;
    /// What the table is missing altogether ("IPv6 listeners could not be
    /// listed: ...", macOS: other users' processes); empty when nothing.
    std::string missing;
};

/// Lists listening TCP sockets on `port` (every port when nullopt), with
/// their owners where this user may see them. Needs no privileges: what
/// cannot be seen is counted and explained. An Error only when the OS
/// gives no table at all (or has no way to list one).
Result<ListenerTable> list_listeners(std::optional<std::uint16_t> port);

/// The kernel's count of SYNs dropped because a listener's accept queue was
/// full (Linux: TcpExt ListenOverflows in /proc/net/netstat, parsed by
/// parse_listen_overflows); nullopt where the OS keeps no such counter or
/// it cannot be read.
std::optional<std::uint64_t> listen_overflows();

/// Facts about the machine that explain connect timings.
struct SystemFacts {
    std::string os;         ///< "Linux", "Windows", "macOS", ...
    std::string os_version; ///< kernel release or "10.0.26200"
    /// Windows' build number (0 elsewhere); gates the no-retry option.
    std::uint32_t windows_build = 0;
    /// Settings that shape SYN retries, as the OS names them, e.g.
    /// {"net.ipv4.tcp_syn_retries", "6"}; a value is "unknown" when unreadable.
    std::vector<std::pair<std::string, std::string>> tcp_settings;
    /// Where the resolver reads static names ("/etc/hosts").
    std::string hosts_file;
};

SystemFacts system_facts();

/// Calls `on_interrupt` on Ctrl-C or SIGTERM (Ctrl-C and Ctrl-Break on
/// Windows); a third one ends the process at once with exit code 130.
/// `on_interrupt` must be safe in a signal handler (an atomic store).
void install_interrupt_handler(void (*on_interrupt)()) noexcept;

enum class Stream : std::uint8_t { out, err };

/// True when the stream is an interactive terminal (colour, live progress).
/// On Windows a console counts once it takes ANSI codes: this call turns
/// ENABLE_VIRTUAL_TERMINAL_PROCESSING on (and the old mode back at exit).
bool is_terminal(Stream s) noexcept;

/// The terminal's width in columns; 0 when unknown or not a terminal.
int terminal_width() noexcept;

} // namespace loopcheck::platform
