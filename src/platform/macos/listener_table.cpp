// Listening TCP sockets on macOS through libproc (sys/proc_info.h): every
// process's descriptors, and for each TCP socket its state and local
// address. This is how lsof finds them, without running lsof.
//
// NOT COMPILED IN CI: there is no macOS build yet. Keep it small and
// careful; the decoding it relies on (decode::listener_from_macos) is
// unit-tested on every OS.
#include "loopcheck/core/listeners/decode.hpp"
#include "loopcheck/core/listeners/queries.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>
#include <libproc.h>
#include <sys/proc_info.h>
#include <sys/socket.h>
#include <unistd.h>
#include <unordered_set>
#include <vector>

namespace loopcheck::platform {

namespace {

static_assert(TSI_S_LISTEN == decode::macos_tsi_s_listen);
static_assert(sizeof(in_sockinfo::insi_laddr) == 16);
// IN6P_IPV6_V6ONLY (0x8000) is in netinet/in_pcb.h, a kernel header; the
// kernel copies inp_flags into insi_flags unchanged (bsd/kern/socket_info.c).

std::vector<pid_t> all_pids() {
    const int bytes = ::proc_listpids(PROC_ALL_PIDS, 0, nullptr, 0);
    if (bytes <= 0)
        return {};
    // Room for processes started between the two calls.
    std::vector<pid_t> pids(static_cast<std::size_t>(bytes) / sizeof(pid_t) + 64);
    const int got = ::proc_listpids(PROC_ALL_PIDS, 0, pids.data(),
                                    static_cast<int>(pids.size() * sizeof(pid_t)));
    if (got <= 0)
        return {};
    pids.resize(static_cast<std::size_t>(got) / sizeof(pid_t));
    std::erase(pids, 0);
    std::sort(pids.begin(), pids.end()); // the lowest pid owns a shared socket
    return pids;
}

/// The descriptors of `pid`; nullopt when this user may not look (EPERM:
/// another user's process without root).
std::optional<std::vector<proc_fdinfo>> descriptors(pid_t pid) {
    std::vector<proc_fdinfo> fds;
    const int bytes = ::proc_pidinfo(pid, PROC_PIDLISTFDS, 0, nullptr, 0);
    if (bytes <= 0) {
        if (errno == EPERM)
            return std::nullopt;
        return fds; // it exited, or holds no descriptors
    }
    // Room for descriptors opened between the two calls.
    fds.resize(static_cast<std::size_t>(bytes) / sizeof(proc_fdinfo) + 16);
    const int got = ::proc_pidinfo(pid, PROC_PIDLISTFDS, 0, fds.data(),
                                   static_cast<int>(fds.size() * sizeof(proc_fdinfo)));
    if (got <= 0) {
        if (errno == EPERM)
            return std::nullopt;
        fds.clear();
        return fds;
    }
    fds.resize(static_cast<std::size_t>(got) / sizeof(proc_fdinfo));
    return fds;
}

std::string process_name(pid_t pid) {
    char name[256] = {};
    return ::proc_name(pid, name, sizeof name) > 0 ? std::string(name) : std::string();
}

} // namespace

// Owners come with each process's own socket list here: owners_on saves nothing.
Result<ListenerTable> list_listeners(std::optional<std::uint16_t> port,
                                     std::span<const std::uint16_t> /*owners_on*/) {
    const auto pids = all_pids();
    if (pids.empty())
        return system_error(fmt::format("proc_listpids failed: {}", std::strerror(errno)));
    ListenerTable table;
    std::unordered_set<std::uint64_t> seen; // soi_pcb: one socket, held by several processes
    std::size_t skipped = 0;
    for (const pid_t pid : pids) {
        const auto fds = descriptors(pid);
        if (!fds) {
            ++skipped;
            continue;
        }
        std::string name;
        for (const auto& fd : *fds) {
            if (fd.proc_fdtype != PROX_FDTYPE_SOCKET)
                continue;
            socket_fdinfo info{};
            if (::proc_pidfdinfo(pid, fd.proc_fd, PROC_PIDFDSOCKETINFO, &info, sizeof info) !=
                    static_cast<int>(sizeof info) ||
                info.psi.soi_kind != SOCKINFO_TCP ||
                (info.psi.soi_family != AF_INET && info.psi.soi_family != AF_INET6))
                continue;
            const tcp_sockinfo& tcp = info.psi.soi_proto.pri_tcp;
            decode::MacTcpSocket raw;
            raw.ipv6 = info.psi.soi_family == AF_INET6;
            raw.state = tcp.tcpsi_state;
            // insi_lport holds the port in network order (proc_info.h).
            raw.port = ntohs(static_cast<std::uint16_t>(tcp.tcpsi_ini.insi_lport));
            raw.flags = tcp.tcpsi_ini.insi_flags;
            std::memcpy(raw.laddr.data(), &tcp.tcpsi_ini.insi_laddr, raw.laddr.size());
            auto l = decode::listener_from_macos(raw);
            if (!l || (port && l->bound.port != *port) || !seen.insert(info.psi.soi_pcb).second)
                continue;
            if (name.empty())
                name = process_name(pid);
            l->pid = static_cast<std::uint32_t>(pid);
            l->process = name;
            // The name only (proc_name); KERN_PROCARGS2's argv is not read
            // yet, so uvicorn or Flask under python3 stay unknown here.
            l->server = recognise_server(name, {});
            table.listeners.push_back(std::move(*l));
        }
    }
    sort_listeners(table.listeners);
    if (skipped > 0) {
        // Unlike Linux, macOS shows nothing of a socket whose process this
        // user may not inspect: those listeners are missing, not anonymous.
        table.missing = ::geteuid() != 0
                            ? fmt::format("{} process(es) of other users could not be searched: "
                                          "run with sudo to see their listeners",
                                          skipped)
                            : fmt::format("{} process(es) could not be searched", skipped);
    }
    log::debug("libproc: {} process(es), {} skipped", pids.size(), skipped);
    return table;
}

std::optional<std::uint64_t> listen_overflows() {
    return std::nullopt; // macOS counts listen queue overflows (netstat -s) but loopcheck does not
                         // read them yet
}

} // namespace loopcheck::platform
