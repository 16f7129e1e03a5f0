// Listening TCP sockets on Windows: GetExtendedTcpTable with
// TCP_TABLE_OWNER_PID_LISTENER, once per family, gives each listener's
// address and owning pid (what `netstat -ano` prints); the process name
// comes from QueryFullProcessImageNameW. Sources: learn.microsoft.com
// nf-iphlpapi-getextendedtcptable, ne-iprtrmib-tcp_table_class,
// nf-winbase-queryfullprocessimagenamew.
#include "loopcheck/listener_decode.hpp"
#include "loopcheck/listeners.hpp"
#include "loopcheck/platform.hpp"

// winsock2.h must come before windows.h, and iphlpapi.h after both.
// clang-format off
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <iphlpapi.h>
// clang-format on

#include <cstddef>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
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

std::string utf8(const wchar_t* text, int length) {
    const int bytes = ::WideCharToMultiByte(CP_UTF8, 0, text, length, nullptr, 0, nullptr, nullptr);
    if (bytes <= 0)
        return {};
    std::string out(static_cast<std::size_t>(bytes), '\0');
    ::WideCharToMultiByte(CP_UTF8, 0, text, length, out.data(), bytes, nullptr, nullptr);
    return out;
}

/// The image name of `pid` ("ollama.exe"); empty when the process may not
/// be opened: protected and elevated processes refuse a non-elevated
/// caller even PROCESS_QUERY_LIMITED_INFORMATION.
std::string process_name(DWORD pid) {
    // Pid 4 is the kernel: listeners of http.sys (IIS, WinRM) show it.
    if (pid == 4)
        return "System";
    if (pid == 0)
        return {};
    HANDLE process = ::OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
    if (process == nullptr)
        return {};
    std::vector<wchar_t> path(32768); // the longest path Windows allows
    DWORD length = static_cast<DWORD>(path.size());
    std::string name;
    if (::QueryFullProcessImageNameW(process, 0, path.data(), &length) != 0)
        name = decode::image_base_name(utf8(path.data(), static_cast<int>(length)));
    ::CloseHandle(process);
    return name;
}

} // namespace

Result<ListenerTable> list_listeners(std::optional<std::uint16_t> port) {
    ListenerTable table;
    std::unordered_map<DWORD, std::string> names;
    std::size_t unnamed = 0;
    for (const Family family : {Family::ipv4, Family::ipv6}) {
        auto bytes = tcp_table(family == Family::ipv4 ? AF_INET : AF_INET6);
        if (!bytes)
            return bytes.error();
        auto rows = decode::decode_mib_tcp_table(*bytes, family);
        if (!rows)
            return system_error("GetExtendedTcpTable returned a truncated table");
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
            if (fresh)
                name->second = process_name(row.pid);
            l.process = name->second;
            unnamed += l.process.empty();
            table.listeners.push_back(std::move(l));
        }
    }
    sort_listeners(table.listeners);
    table.owner_hidden = unnamed;
    if (unnamed > 0)
        table.hidden_because = "run as administrator to see the names of elevated processes";
    spdlog::debug("GetExtendedTcpTable: {} listener(s)", table.listeners.size());
    return table;
}

std::optional<std::uint64_t> listen_overflows() {
    return std::nullopt; // Windows has no per-system listen-overflow counter loopcheck reads
}

} // namespace loopcheck::platform
