// Listening TCP sockets on Linux: NETLINK_SOCK_DIAG lists them (sock_diag(7));
// /proc/PID/fd links name their owners (proc(5)). Neither needs privileges
// for what it can show: every user sees every socket of the network
// namespace, but only the owners of processes they may ptrace.
#include "loopcheck/core/listeners/decode.hpp"
#include "loopcheck/core/listeners/queries.hpp"
#include "loopcheck/core/listeners/servers.hpp"
#include "loopcheck/core/measure/netstat.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"
#include "platform/posix/small_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <memory>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string_view>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace loopcheck::platform {

namespace {

// The pure decoder spells the kernel ABI out; hold it to the real headers.
namespace layout = decode::sock_diag_layout;
static_assert(NLMSG_HDRLEN == layout::nlmsghdr_size);
static_assert(NLMSG_ERROR == layout::nlmsg_error && NLMSG_DONE == layout::nlmsg_done);
static_assert(SOCK_DIAG_BY_FAMILY == layout::sock_diag_by_family);
static_assert(NLM_F_DUMP_INTR == layout::nlm_f_dump_intr);
static_assert(AF_INET == layout::af_inet && AF_INET6 == layout::af_inet6);
static_assert(INET_DIAG_SKV6ONLY == layout::inet_diag_skv6only);
static_assert(sizeof(inet_diag_msg) == layout::msg_size);
static_assert(offsetof(inet_diag_msg, idiag_state) == layout::msg_state);
static_assert(offsetof(inet_diag_msg, id.idiag_sport) == layout::msg_sport);
static_assert(offsetof(inet_diag_msg, id.idiag_src) == layout::msg_src);
static_assert(offsetof(inet_diag_msg, idiag_uid) == layout::msg_uid);
static_assert(offsetof(inet_diag_msg, idiag_inode) == layout::msg_inode);

/// A descriptor closed when it goes out of scope.
class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0)
            ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    [[nodiscard]] int get() const noexcept { return fd_; }

private:
    int fd_;
};

/// Bounds every recv() of a dump: the kernel answers at once, so a silent
/// socket means something is wrong, not slow.
constexpr int netlink_timeout_s = 2;

Error netlink_error(std::string_view what, int err) {
    return system_error(fmt::format("sock_diag {}: {}", what, std::strerror(err)));
}

/// recv(), again when a signal interrupts it.
ssize_t recv_restarting(int fd, void* buf, std::size_t len, int flags) {
    ssize_t n = 0;
    do
        n = ::recv(fd, buf, len, flags);
    while (n < 0 && errno == EINTR);
    return n;
}

/// Asks the kernel for a SOCK_DIAG_BY_FAMILY dump of the TCP listeners of
/// `family`, narrowed to `port` when given; the replies carry `seq`.
std::optional<Error> send_dump_request(int fd, std::uint8_t family,
                                       std::optional<std::uint16_t> port, std::uint32_t seq) {
    struct Request {
        nlmsghdr header;
        inet_diag_req_v2 body;
    };
    Request req{};
    req.header.nlmsg_len = sizeof req;
    req.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    req.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    req.header.nlmsg_seq = seq;
    req.body.sdiag_family = family;
    req.body.sdiag_protocol = IPPROTO_TCP;
    req.body.idiag_states = 1U << TCP_LISTEN;
    // A non-zero source port makes the kernel skip listeners on other ports
    // (inet_diag_dump_icsk; seen here on Linux 6.18); filtered again below.
    if (port)
        req.body.id.idiag_sport = htons(*port);
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    if (::sendto(fd, &req, sizeof req, 0, reinterpret_cast<const sockaddr*>(&kernel),
                 sizeof kernel) < 0)
        return netlink_error("request", errno);
    return std::nullopt;
}

/// One SOCK_DIAG_BY_FAMILY dump of the TCP listeners of `family`.
Result<std::vector<decode::DiagSocket>>
dump_listeners(int fd, std::uint8_t family, std::optional<std::uint16_t> port, std::uint32_t seq) {
    if (auto err = send_dump_request(fd, family, port, seq))
        return *err;

    std::vector<decode::DiagSocket> out;
    // Each reply is read into a buffer of its own size, which MSG_PEEK |
    // MSG_TRUNC reports (netlink(7)): a one-port dump is a few dozen bytes,
    // and a fixed buffer of the largest reply grew the heap for nothing
    // (docs/performance.md). Not zero-filled: recv() writes what is read.
    std::unique_ptr<std::uint8_t[]> buf;
    std::size_t buf_size = 0;
    for (;;) {
        const ssize_t size = recv_restarting(fd, nullptr, 0, MSG_PEEK | MSG_TRUNC);
        if (size < 0)
            return netlink_error("reply", errno);
        if (size == 0)
            return system_error("sock_diag: the kernel closed the dump early");
        if (static_cast<std::size_t>(size) > buf_size) {
            buf_size = static_cast<std::size_t>(size);
            buf = std::make_unique_for_overwrite<std::uint8_t[]>(buf_size);
        }
        const ssize_t n = recv_restarting(fd, buf.get(), buf_size, 0);
        if (n < 0)
            return netlink_error("reply", errno);
        if (n == 0)
            return system_error("sock_diag: the kernel closed the dump early");
        auto r =
            decode::decode_sock_diag(std::span(buf.get(), static_cast<std::size_t>(n)), seq, out);
        if (r.interrupted)
            log::debug("sock_diag: the socket table changed during the dump");
        switch (r.status) {
        case decode::DiagStatus::more:
            continue;
        case decode::DiagStatus::done:
            return out;
        case decode::DiagStatus::error:
            return netlink_error("dump", r.error);
        case decode::DiagStatus::malformed:
            return system_error("sock_diag: a malformed reply from the kernel");
        }
    }
}

/// Calls `each(name)` for every entry of the open directory `fd` but "."
/// and "..". getdents64 into a buffer on the stack: fdopendir would add an
/// fstat, two fcntl calls and an allocation for each process's fd
/// directory, and readlinkat on "." and ".." only fails. The owner scan is
/// most of a run against a port with a listener (docs/performance.md).
template <class Each>
void for_each_entry(int fd, Each&& each) {
    alignas(dirent64) char buf[4096];
    for (;;) {
        const ssize_t n = ::getdents64(fd, buf, sizeof buf);
        if (n <= 0)
            return; // the end, or an error: the directory is done either way
        for (ssize_t at = 0; at < n;) {
            const auto* e = reinterpret_cast<const dirent64*>(buf + at);
            at += e->d_reclen;
            const std::string_view name = e->d_name;
            if (name != "." && name != "..")
                each(e->d_name);
        }
    }
}

/// The lowest pid holding each wanted socket inode, from the /proc/PID/fd
/// links "socket:[inode]". Processes whose fd directory this user may not
/// read (proc(5): a ptrace access check) are skipped. /proc lists pids in
/// ascending order, so the first holder found is the lowest pid; the scan
/// stops once every inode has one.
void find_owners(std::unordered_map<std::uint32_t, std::optional<std::uint32_t>>& wanted) {
    DIR* proc = ::opendir("/proc");
    if (proc == nullptr) {
        log::debug("cannot open /proc: {}", std::strerror(errno));
        return;
    }
    std::vector<std::uint32_t> pids;
    while (const dirent* e = ::readdir(proc))
        if (auto pid = decode::pid_from_name(e->d_name))
            pids.push_back(*pid);
    std::sort(pids.begin(), pids.end());
    std::size_t remaining = wanted.size();
    std::size_t denied = 0;
    for (const std::uint32_t pid : pids) {
        if (remaining == 0)
            break;
        const auto path = fmt::format("{}/fd", pid);
        const int fd_dir =
            ::openat(::dirfd(proc), path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd_dir < 0) {
            denied += errno == EACCES || errno == EPERM;
            continue; // not ours to read, or it exited
        }
        for_each_entry(fd_dir, [&](const char* name) {
            char target[64];
            const ssize_t n = ::readlinkat(fd_dir, name, target, sizeof target);
            if (n <= 0)
                return;
            const auto inode =
                decode::socket_inode_from_link({target, static_cast<std::size_t>(n)});
            if (!inode)
                return;
            auto it = wanted.find(*inode);
            if (it != wanted.end() && !it->second) {
                it->second = pid;
                --remaining;
            }
        });
        ::close(fd_dir);
    }
    ::closedir(proc);
    log::debug("/proc: {} process(es), {} not readable by this user", pids.size(), denied);
}

std::string process_name(std::uint32_t pid) {
    const auto path = fmt::format("/proc/{}/comm", pid);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK); // never a FIFO's wait
    if (fd < 0)
        return {};
    char buf[64];
    const ssize_t n = ::read(fd, buf, sizeof buf);
    ::close(fd);
    return n > 0 ? decode::name_from_comm({buf, static_cast<std::size_t>(n)}) : std::string{};
}

/// The arguments of `pid` from /proc/PID/cmdline (NUL-separated; the first
/// 4 KiB, enough for the program and its options), or none when it cannot be
/// read (a kernel thread, a process that exited). Untrusted bytes: only
/// recognise_server() compares them, and nothing prints them.
std::vector<std::string> process_args(std::uint32_t pid) {
    std::vector<std::string> args;
    const auto path = fmt::format("/proc/{}/cmdline", pid);
    const auto text = posix::read_small_file(path.c_str(), 4096);
    if (!text)
        return args;
    std::string_view rest(*text);
    while (!rest.empty()) {
        const auto end = rest.find('\0');
        args.emplace_back(rest.substr(0, end));
        if (end == std::string_view::npos)
            break;
        rest.remove_prefix(end + 1);
    }
    return args;
}

/// The listeners among `sockets` (on `port` when given), sorted, each with
/// the process `owners` found for its inode and that process's name; the
/// others are counted as hidden, with the likely reason.
ListenerTable
table_of(const std::vector<decode::DiagSocket>& sockets, std::optional<std::uint16_t> port,
         const std::unordered_map<std::uint32_t, std::optional<std::uint32_t>>& owners) {
    ListenerTable table;
    struct Owner {
        std::string name;
        std::optional<ServerMatch> server;
    };
    std::unordered_map<std::uint32_t, Owner> names;
    for (const auto& s : sockets) {
        if (s.state != TCP_LISTEN || (port && s.local.port != *port))
            continue;
        Listener l;
        l.bound = s.local;
        l.v6only = s.local.family == Family::ipv6 ? s.v6only : std::nullopt;
        l.uid = s.uid;
        if (auto it = owners.find(s.inode); it != owners.end() && it->second) {
            l.pid = *it->second;
            auto [name, fresh] = names.try_emplace(*l.pid);
            if (fresh) {
                name->second.name = process_name(*l.pid);
                name->second.server = recognise_server(name->second.name, process_args(*l.pid));
            }
            l.process = name->second.name;
            l.server = name->second.server;
        } else {
            ++table.owner_hidden;
            l.owner_outside_pid_namespace = ::geteuid() == 0; // as hidden_because says
        }
        table.listeners.push_back(std::move(l));
    }
    sort_listeners(table.listeners);
    if (table.owner_hidden > 0)
        table.hidden_because = ::geteuid() != 0
                                   ? "run as root to see other users' processes"
                                   : "no process in this PID namespace holds the socket (a "
                                     "kernel socket, or a process in another container)";
    return table;
}

} // namespace

Result<ListenerTable> list_listeners(std::optional<std::uint16_t> port,
                                     std::span<const std::uint16_t> owners_on) {
    Fd fd(::socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG));
    if (fd.get() < 0)
        return netlink_error("socket", errno);
    const timeval timeout{netlink_timeout_s, 0};
    ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);

    std::vector<decode::DiagSocket> sockets;
    std::string missing;
    std::uint32_t seq = 1;
    for (const std::uint8_t family : {std::uint8_t{AF_INET}, std::uint8_t{AF_INET6}}) {
        auto dumped = dump_listeners(fd.get(), family, port, seq++);
        if (!dumped) {
            // Without IPv6 (ipv6.disable=1) the second dump fails; the IPv4
            // table is still worth having.
            if (family == AF_INET)
                return dumped.error();
            log::debug("IPv6 listeners: {}", dumped.error().message);
            missing =
                fmt::format("IPv6 listeners could not be listed ({})", dumped.error().message);
            continue;
        }
        sockets.insert(sockets.end(), dumped->begin(), dumped->end());
    }

    std::unordered_map<std::uint32_t, std::optional<std::uint32_t>> owners;
    for (const auto& s : sockets)
        if (s.state == TCP_LISTEN && (!port || s.local.port == *port) && s.inode != 0 &&
            (owners_on.empty() ||
             std::binary_search(owners_on.begin(), owners_on.end(), s.local.port)))
            owners.emplace(s.inode, std::nullopt);
    if (!owners.empty())
        find_owners(owners);

    auto table = table_of(sockets, port, owners);
    table.missing = std::move(missing);
    return table;
}

std::optional<std::uint64_t> listen_overflows() {
    // Of this network namespace, like the listener table. A few kB: read whole.
    const auto text = posix::read_small_file("/proc/net/netstat", 1 << 20);
    if (!text)
        return std::nullopt;
    return parse_listen_overflows(*text);
}

} // namespace loopcheck::platform
