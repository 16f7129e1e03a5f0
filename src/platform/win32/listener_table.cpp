// Listening TCP sockets on Windows: GetExtendedTcpTable with
// TCP_TABLE_OWNER_PID_LISTENER, once per family, gives each listener's
// address and owning pid (what `netstat -ano` prints); the process name
// comes from a CreateToolhelp32Snapshot of every process, which needs no
// access to the process, and from QueryFullProcessImageNameW where this
// user may open it. Sources: learn.microsoft.com
// nf-iphlpapi-getextendedtcptable, ne-iprtrmib-tcp_table_class,
// nf-tlhelp32-createtoolhelp32snapshot, ns-tlhelp32-processentry32w,
// nf-winbase-queryfullprocessimagenamew.
#include "loopcheck/core/listeners/decode.hpp"
#include "loopcheck/core/listeners/queries.hpp"
#include "loopcheck/platform/platform.hpp"

// The shared header first: it sets FD_SETSIZE before winsock2.h, so every
// file sees the same fd_set, and orders winsock2.h before windows.h.
// iphlpapi.h and tlhelp32.h build on both.
#include "platform/win32/socket_helpers.hpp"
// clang-format off
#include <cstdint>
#include <iphlpapi.h>
#include <tlhelp32.h>
// clang-format on

#include "loopcheck/platform/common/log.hpp"

#include <cstddef>
#include <fmt/format.h>
#include <unordered_map>
#include <vector>

namespace loopcheck::platform {

namespace {

// The pure decoder spells the table layout out; hold it to the SDK.
namespace layout = decode::mib_layout;
static_assert(offsetof(MIB_TCPTABLE_OWNER_PID, table) == layout::count_size);
static_assert(sizeof(MIB_TCPROW_OWNER_PID) == layout::row4_size);
static_assert(offsetof(MIB_TCPROW_OWNER_PID, dwLocalAddr) == layout::row4_addr);
static_assert(offsetof(MIB_TCPROW_OWNER_PID, dwLocalPort) == layout::row4_port);
static_assert(offsetof(MIB_TCPROW_OWNER_PID, dwOwningPid) == layout::row4_pid);
static_assert(offsetof(MIB_TCP6TABLE_OWNER_PID, table) == layout::count_size);
static_assert(sizeof(MIB_TCP6ROW_OWNER_PID) == layout::row6_size);
static_assert(offsetof(MIB_TCP6ROW_OWNER_PID, dwLocalScopeId) == layout::row6_scope);
static_assert(offsetof(MIB_TCP6ROW_OWNER_PID, dwLocalPort) == layout::row6_port);
static_assert(offsetof(MIB_TCP6ROW_OWNER_PID, dwState) == layout::row6_state);
static_assert(offsetof(MIB_TCP6ROW_OWNER_PID, dwOwningPid) == layout::row6_pid);
static_assert(MIB_TCP_STATE_LISTEN == decode::mib_tcp_state_listen);

/// The table for one family. The size is only known by asking: the first
/// call reports it with ERROR_INSUFFICIENT_BUFFER, and the table may grow
/// before the second, so ask again (a few times) with the new size.
Result<std::vector<std::uint8_t>> tcp_table(ULONG family) {
    std::vector<std::uint8_t> buf;
    DWORD size = 0;
    for (int attempt = 0; attempt < 5; ++attempt) {
        const DWORD rc = ::GetExtendedTcpTable(buf.empty() ? nullptr : buf.data(), &size, FALSE,
                                               family, TCP_TABLE_OWNER_PID_LISTENER, 0);
        if (rc == NO_ERROR) {
            buf.resize(size);
            return buf;
        }
        if (rc != ERROR_INSUFFICIENT_BUFFER)
            return system_error(fmt::format("GetExtendedTcpTable failed: error {}", rc));
        buf.resize(size + 16 * sizeof(MIB_TCP6ROW_OWNER_PID)); // room to grow
        size = static_cast<DWORD>(buf.size());
    }
    return system_error("GetExtendedTcpTable: the table kept growing");
}

/// Every process's pid and executable name, from one snapshot. It needs no
/// per-process access, so services running as LocalSystem or
/// NetworkService (PostgreSQL, MySQL, Docker's proxies) are named too.
/// Empty when the snapshot cannot be taken.
std::vector<decode::WindowsProcess> process_snapshot() {
    std::vector<decode::WindowsProcess> out;
    const HANDLE snap = ::CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snap == INVALID_HANDLE_VALUE) {
        log::debug("CreateToolhelp32Snapshot failed: error {}", ::GetLastError());
        return out;
    }
    PROCESSENTRY32W entry{};
    entry.dwSize = sizeof entry;
    for (BOOL more = ::Process32FirstW(snap, &entry); more != FALSE;
         more = ::Process32NextW(snap, &entry))
        out.push_back({entry.th32ProcessID, win32::utf8(entry.szExeFile)});
    ::CloseHandle(snap);
    return out;
}

/// The full image path of `pid`; empty when the process may not be
/// opened: other accounts' processes refuse a non-elevated caller even
/// PROCESS_QUERY_LIMITED_INFORMATION.
std::string process_path(DWORD pid) {
    if (pid == 0 || pid == decode::windows_system_pid)
        return {};
    HANDLE process = ::OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
    if (process == nullptr)
        return {};
    std::vector<wchar_t> path(32768); // the longest path Windows allows
    DWORD length = static_cast<DWORD>(path.size());
    std::string full;
    if (::QueryFullProcessImageNameW(process, 0, path.data(), &length) != 0)
        full = win32::utf8(path.data(), static_cast<int>(length));
    ::CloseHandle(process);
    return full;
}

} // namespace

// The OS's table names each owner's pid: owners_on saves nothing.
Result<ListenerTable> list_listeners(std::optional<std::uint16_t> port,
                                     std::span<const std::uint16_t> /*owners_on*/) {
    ListenerTable table;
    const auto snapshot = process_snapshot();
    std::unordered_map<DWORD, std::string> names;
    std::size_t unnamed = 0;
    // Both families first; one that fails (IPv6 off, a driver that refuses
    // it) must not hide the other's rows (join_mib_tables).
    std::vector<decode::MibTableRead> reads;
    for (const Family family : {Family::ipv4, Family::ipv6}) {
        decode::MibTableRead read;
        read.family = family;
        auto bytes = tcp_table(family == Family::ipv4 ? AF_INET : AF_INET6);
        if (!bytes)
            read.error = bytes.error().message;
        else if (!(read.rows = decode::decode_mib_tcp_table(*bytes, family)))
            read.error = "GetExtendedTcpTable returned a truncated table";
        reads.push_back(std::move(read));
    }
    auto rows = decode::join_mib_tables(reads, table.missing);
    if (!rows)
        return system_error(table.missing);
    for (const auto& row : *rows) {
        if (row.state != decode::mib_tcp_state_listen || (port && row.local.port != *port))
            continue;
        Listener l;
        l.bound = row.local;
        // The tables carry no IPV6_V6ONLY flag, so it stays unknown.
        // Pid 0 is the idle process, which owns no socket: a table that
        // says 0 (Wine's does) does not know the owner.
        if (row.pid != 0)
            l.pid = row.pid;
        auto [name, fresh] = names.try_emplace(row.pid);
        if (fresh) {
            const std::string path = process_path(row.pid);
            name->second = decode::windows_owner_name(row.pid, path, snapshot);
            if (!path.empty())
                log::debug("pid {}: {}", row.pid, path);
        }
        l.process = name->second;
        // Only the image name: another process's command line needs
        // PROCESS_VM_READ. Enough for the servers that have a program of
        // their own (ollama.exe, llama-server.exe, node.exe).
        l.server = recognise_server(name->second, {});
        unnamed += l.process.empty();
        table.listeners.push_back(std::move(l));
    }
    sort_listeners(table.listeners);
    table.owner_hidden = unnamed;
    // The snapshot names every process this user can see, so an owner is
    // missing only when the table says pid 0 or the process is gone.
    if (unnamed > 0)
        table.hidden_because = snapshot.empty()
                                   ? "the process list could not be read"
                                   : "the table gives no owner (pid 0) or the process has ended";
    log::debug("GetExtendedTcpTable: {} listener(s), {} process(es) in the snapshot",
               table.listeners.size(), snapshot.size());
    return table;
}

std::optional<std::uint64_t> listen_overflows() {
    return std::nullopt; // Windows has no per-system listen-overflow counter loopcheck reads
}

} // namespace loopcheck::platform
