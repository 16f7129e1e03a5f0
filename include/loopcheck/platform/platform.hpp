// The one boundary between loopcheck and the operating system.
//
// Everything above this header is plain C++ over value types, which live in
// core (core/listeners/listener.hpp, core/input/machine.hpp). Each OS implements it in its
// folder of src/platform/ (posix/ with linux/ or macos/, or win32/), and
// CMake picks which. No OS header may be included here, so that the rest
// of the code cannot grow a dependency on one.
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/input/machine.hpp"
#include "loopcheck/core/listeners/listener.hpp"
#include "loopcheck/core/measure/http_answer.hpp"
#include "loopcheck/core/measure/sample.hpp"
#include "loopcheck/core/result.hpp"
#include "loopcheck/core/text/untrusted.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
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

/// Opens each of the standard descriptors 0, 1 and 2 that is closed on
/// the null device, so that no socket loopcheck opens later can become one
/// of them (a log line written to fd 2 would then go to a probe socket,
/// and its error would clear the connect's). Call it first in main(),
/// before any file or socket exists. POSIX: fcntl(F_GETFD) finds the closed
/// ones, open("/dev/null") fills them in order. Windows: nothing to do, as
/// sockets are never CRT descriptors. False when one could not be opened.
bool open_closed_standard_streams() noexcept;

/// The soft limit on open descriptors (RLIMIT_NOFILE) where the OS has a
/// small one; nullopt where there is none to speak of (Windows: sockets
/// are handles, bounded by memory) or it cannot be read.
std::optional<std::size_t> descriptor_limit() noexcept;

/// The command line as UTF-8, argv[0] first: every path and name the rest
/// of loopcheck reads is UTF-8 from here on. POSIX: `argv` as given.
/// Windows: GetCommandLineW split by CommandLineToArgvW, then converted
/// from UTF-16; main()'s `argv` holds the ANSI code page's bytes and loses
/// every character outside it (日本 in Windows-1252, José in code page 932).
std::vector<std::string> utf8_arguments(int argc, char** argv);

/// The value of the environment variable `name` as UTF-8, nullopt when it
/// is not set. Windows: GetEnvironmentVariableW (the UCRT deprecates
/// std::getenv, warning C4996, an error under /WX, and it gives the ANSI
/// code page's bytes). POSIX: getenv.
std::optional<std::string> environment_variable(const char* name);

/// How many processes share this process's console, when standard input
/// is that console: 1 when loopcheck is alone on it, as when Explorer
/// starts it in a console of its own that closes when it exits (a
/// double-click). Windows: GetConsoleProcessList. nullopt without a
/// console, and on POSIX, where a terminal outlives the program.
std::optional<unsigned> processes_on_console() noexcept;

/// A monotonic clock with at least microsecond resolution
/// (steady_clock on POSIX, QueryPerformanceCounter on Windows).
Micros monotonic_now();

/// Resolves `host` the way a typical client does and returns the addresses
/// in exactly the order the resolver gave them, each with `port` set.
/// ErrorKind::resolve carries the resolver's own message.
Result<std::vector<Address>> resolve(const std::string& host, std::uint16_t port,
                                     FamilyFilter filter);

/// What reading a small text file gave: its text, or why there is none.
struct TextFile {
    std::optional<std::string> text; ///< nullopt when not read
    /// Empty when read whole; else a phrase to follow the path: "is a FIFO,
    /// not a regular file", "could not be read: Is a directory", "is larger
    /// than 1048576 bytes: only the first ones were read" (text is set).
    std::string problem;
    /// True for a FIFO, a device or a socket: the system resolver, which
    /// reads the same file, could block on it or read without end.
    bool special = false;
};

/// The text of a small file (the hosts file, /etc/gai.conf), at most
/// `max_bytes` of it. Only a regular file is read: a FIFO, a device or a
/// directory is named as such and not opened, so nothing blocks on it.
TextFile read_text_file(const std::string& path, std::size_t max_bytes);

/// Up to `length` bytes of the regular file at `path` (UTF-8) from
/// `offset`, fewer at its end; empty when it is not a regular file or
/// cannot be read. For trace's runtime identification (a bounded read of
/// an executable: a Go binary's build info, a version string).
std::string read_file_range(const std::string& path, std::uint64_t offset, std::size_t length);

/// Non-blocking connects in flight, waited on together: the one connect
/// primitive each OS implements. The run layer's connect driver is its one
/// user (src/run/connect_driver.cpp).
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
    ~Socket() { close_handle(handle_); }
    Socket(Socket&& other) noexcept : handle_(std::exchange(other.handle_, invalid)) {}
    Socket& operator=(Socket&& other) noexcept {
        if (this != &other)
            close_handle(std::exchange(handle_, std::exchange(other.handle_, invalid)));
        return *this;
    }
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;

    [[nodiscard]] bool valid() const noexcept { return handle_ != invalid; }
    [[nodiscard]] std::intptr_t native() const noexcept { return handle_; }

    static constexpr std::intptr_t invalid = -1;

private:
    /// close() or closesocket(), per OS (owned_sockets.cpp); nothing for `invalid`.
    static void close_handle(std::intptr_t handle) noexcept;

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

/// One GET of wait's HTTP readiness: connects to `address`, sends
/// `request`, reads the answer until its head's blank line, the server's
/// close, max_answer_head bytes or `limit` (one deadline for every step),
/// and closes. Blocks, at most `limit`; a signal ends it early (as
/// ExchangeEnd::timed_out: the caller's loop sees the stop).
HttpExchange http_exchange(const Address& address, std::string_view request, Micros limit);

/// How the command `wait -- COMMAND` runs ended, when it did not replace
/// loopcheck: its exit status (127 not found, 126 not runnable, as a shell
/// says them) and why, when it could not start.
struct CommandEnd {
    int status = 0;
    std::string error; ///< empty when the command ran
};

/// Runs `argv` (PATH searched) as this process. POSIX: execvp, so the
/// command takes loopcheck's pid, signals and exit status, as an exec-form
/// ENTRYPOINT needs; returns only when it could not start. Windows has no
/// exec: the command runs as a child on this console, waited for without
/// limit (it is the user's program), and its exit status is returned.
CommandEnd run_in_place(const std::vector<std::string>& argv);

/// Lists listening TCP sockets on `port` (every port when nullopt), with
/// their owners where this user may see them. Needs no privileges: what
/// cannot be seen is counted and explained. An Error only when the OS
/// gives no table at all (or has no way to list one). `owners_on`, sorted,
/// when not empty: owners are looked for only on these ports (Linux reads
/// every process's fd links for them), the other listeners come without.
Result<ListenerTable> list_listeners(std::optional<std::uint16_t> port,
                                     std::span<const std::uint16_t> owners_on = {});

/// The kernel's count of SYNs dropped because a listener's accept queue was
/// full (Linux: TcpExt ListenOverflows in /proc/net/netstat, parsed by
/// parse_listen_overflows); nullopt where the OS keeps no such counter or
/// it cannot be read.
std::optional<std::uint64_t> listen_overflows();

SystemFacts system_facts();

/// The OS this binary was built for, known without asking the system
/// (system_facts() reads files): what --help's last line depends on.
Os build_os() noexcept;

/// Calls `on_interrupt` on Ctrl-C or SIGTERM (Ctrl-C and Ctrl-Break on
/// Windows); a third one ends the process at once with exit code 130.
/// `on_interrupt` must be safe in a signal handler (an atomic store).
/// Then it wakes the wait in progress (interrupt_waits()).
void install_interrupt_handler(void (*on_interrupt)()) noexcept;

/// Whether the stop came from SIGTERM (Windows: the console closing, a
/// log-off or a shutdown) rather than Ctrl-C: exit 143, not 130, as a
/// shell reports a process SIGTERM ended.
bool terminate_requested() noexcept;

/// Ends the ConnectSet::wait() in progress now, or the next one when none
/// is in progress, from any thread; the wait returns what finished so far
/// (maybe nothing). Windows needs it: the console handler runs on a thread
/// of its own, so nothing else wakes the select() (a datagram to a
/// loopback wake socket does). False where the platform has no such path
/// because it needs none: on POSIX the signal itself interrupts poll().
bool interrupt_waits() noexcept;

/// For its lifetime, the console shows loopcheck's UTF-8 output as UTF-8
/// (process names, localized system messages). Windows: SetConsoleOutputCP
/// (CP_UTF8), and the code page it found is put back at the end (and before
/// a third Ctrl-C ends the process). POSIX: terminals take the bytes as
/// they are, so there is nothing to switch.
class Utf8Console {
public:
    Utf8Console() noexcept;
    ~Utf8Console();
    Utf8Console(const Utf8Console&) = delete;
    Utf8Console& operator=(const Utf8Console&) = delete;
};

enum class Stream : std::uint8_t { out, err };

/// True when the stream is an interactive terminal (colour, live progress).
/// On Windows a console counts once it takes ANSI codes: this call turns
/// ENABLE_VIRTUAL_TERMINAL_PROCESSING on (and the old mode back at exit).
bool is_terminal(Stream s) noexcept;

/// The terminal's width in columns; 0 when unknown or not a terminal.
int terminal_width() noexcept;

} // namespace loopcheck::platform
