// Decoders for the listener tables each OS hands out, as pure functions over
// bytes and plain values. The platform files (platform_*_listeners.cpp) do
// the system calls and hand their answers here, so the decoding runs in the
// unit tests on every OS, with recorded or constructed input, and can be
// fuzzed. The layouts are written out from the OS documentation; each
// platform file checks them against its own headers with static_asserts.
#pragma once

#include "loopcheck/core/listeners/listener.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck::decode {

// --- Linux: NETLINK_SOCK_DIAG (sock_diag(7), linux/inet_diag.h). ----------

/// The kernel ABI as linux/netlink.h, linux/sock_diag.h and
/// linux/inet_diag.h define it; platform/linux/listener_table.cpp checks every
/// value against those headers.
namespace sock_diag_layout {
inline constexpr std::size_t nlmsghdr_size = 16;
inline constexpr std::uint16_t nlmsg_error = 2;
inline constexpr std::uint16_t nlmsg_done = 3;
inline constexpr std::uint16_t sock_diag_by_family = 20;
inline constexpr std::uint16_t nlm_f_dump_intr = 0x10;
inline constexpr std::uint8_t af_inet = 2;
inline constexpr std::uint8_t af_inet6 = 10;
inline constexpr std::uint16_t inet_diag_skv6only = 11;
/// struct inet_diag_msg: family, state, timer, retrans (a byte each), then
/// inet_diag_sockid {be16 sport, dport; be32 src[4], dst[4]; if; cookie[2]},
/// then expires, rqueue, wqueue, uid, inode (u32 each).
inline constexpr std::size_t msg_state = 1;
inline constexpr std::size_t msg_sport = 4;
inline constexpr std::size_t msg_src = 8;
inline constexpr std::size_t msg_uid = 64;
inline constexpr std::size_t msg_inode = 68;
inline constexpr std::size_t msg_size = 72;
} // namespace sock_diag_layout

/// One socket of a sock_diag dump (struct inet_diag_msg).
struct DiagSocket {
    Address local;
    std::uint8_t state = 0;     ///< TCP_LISTEN is 10
    std::optional<bool> v6only; ///< INET_DIAG_SKV6ONLY, sent for IPv6 sockets
    std::uint32_t uid = 0;
    std::uint32_t inode = 0;
};

enum class DiagStatus : std::uint8_t {
    more,      ///< the dump goes on in the next datagram
    done,      ///< NLMSG_DONE: the dump is complete
    error,     ///< NLMSG_ERROR (or a DONE carrying an error); see `error`
    malformed, ///< lengths that do not fit the datagram
};

struct DiagResult {
    DiagStatus status = DiagStatus::more;
    int error = 0;            ///< the positive errno the kernel sent
    bool interrupted = false; ///< NLM_F_DUMP_INTR: the table changed during the dump
};

/// Decodes one datagram of a SOCK_DIAG_BY_FAMILY dump and appends its
/// sockets to `out`. Header fields, uid and inode are in host byte order,
/// ports and addresses in network order, as the kernel sends them
/// (netlink(7)). Messages with another sequence number than `seq` are
/// skipped.
DiagResult decode_sock_diag(std::span<const std::uint8_t> datagram, std::uint32_t seq,
                            std::vector<DiagSocket>& out);

// --- Linux: /proc (proc(5)). ---------------------------------------------

/// The inode of a /proc/PID/fd/N link target "socket:[12345]"; nullopt for
/// anything else (files, pipes, "anon_inode:[eventfd]").
std::optional<std::uint32_t> socket_inode_from_link(std::string_view target);

/// A /proc entry's name as a pid: digits only, no sign, fits 32 bits.
std::optional<std::uint32_t> pid_from_name(std::string_view name);

/// /proc/PID/comm as a name: the contents without the newline the kernel ends them with.
std::string name_from_comm(std::string_view contents);

// --- Windows: GetExtendedTcpTable (iprtrmib.h, tcpmib.h). -----------------

/// MIB_TCPTABLE_OWNER_PID and MIB_TCP6TABLE_OWNER_PID as iprtrmib.h lays
/// them out; platform/win32/listener_table.cpp checks them against the SDK.
namespace mib_layout {
inline constexpr std::size_t count_size = 4; ///< DWORD dwNumEntries
/// MIB_TCPROW_OWNER_PID: dwState, dwLocalAddr, dwLocalPort, dwRemoteAddr,
/// dwRemotePort, dwOwningPid.
inline constexpr std::size_t row4_size = 24, row4_addr = 4, row4_port = 8, row4_pid = 20;
/// MIB_TCP6ROW_OWNER_PID: ucLocalAddr[16], dwLocalScopeId, dwLocalPort,
/// ucRemoteAddr[16], dwRemoteScopeId, dwRemotePort, dwState, dwOwningPid.
inline constexpr std::size_t row6_size = 56, row6_scope = 16, row6_port = 20, row6_state = 48,
                             row6_pid = 52;
} // namespace mib_layout

inline constexpr std::uint32_t mib_tcp_state_listen = 2; ///< MIB_TCP_STATE_LISTEN

/// One row of MIB_TCPTABLE_OWNER_PID or MIB_TCP6TABLE_OWNER_PID.
struct MibRow {
    Address local;
    std::uint32_t state = 0;
    std::uint32_t pid = 0;
};

/// Decodes the table GetExtendedTcpTable filled for `family`: a DWORD
/// count, then 24-byte (IPv4) or 56-byte (IPv6) rows. DWORDs are
/// little-endian (every Windows target is); dwLocalPort holds the port in
/// network byte order in its low 16 bits. nullopt when the buffer is
/// shorter than the count says.
std::optional<std::vector<MibRow>> decode_mib_tcp_table(std::span<const std::uint8_t> table,
                                                        Family family);

/// One family's table as the platform read it: the decoded rows, or why
/// there are none ("GetExtendedTcpTable failed: error 50").
struct MibTableRead {
    Family family = Family::ipv4;
    std::optional<std::vector<MibRow>> rows;
    std::string error;
};

/// The rows of every family that could be read, in the order given; one
/// that failed only adds a line to `missing` ("IPv6 listeners could not be
/// listed: ..."), so a failed AF_INET6 table keeps the IPv4 rows. nullopt
/// when no family could be read (then `missing` says why for each).
std::optional<std::vector<MibRow>> join_mib_tables(std::span<const MibTableRead> reads,
                                                   std::string& missing);

/// The file name of a Windows image path: "C:\\bin\\ollama.exe" gives
/// "ollama.exe".
std::string image_base_name(std::string_view path);

/// One process as CreateToolhelp32Snapshot + Process32NextW list it: its
/// pid and szExeFile, which is the file name only ("postgres.exe"). The
/// snapshot needs no access to the process itself, so it names services
/// running as LocalSystem or NetworkService, which OpenProcess refuses a
/// user without admin.
struct WindowsProcess {
    std::uint32_t pid = 0;
    std::string exe_file;
};

/// Pid 4, the kernel's "System" process. It owns the listeners of http.sys:
/// IIS, WinRM, and every program that serves through an HTTP.sys URL
/// reservation.
inline constexpr std::uint32_t windows_system_pid = 4;

/// The owner name the listener table shows for `pid`:
/// - "" for pid 0: the idle process holds no socket, so a table that says
///   0 does not know the owner (Wine's tables always say 0);
/// - "System" for pid 4, as Task Manager names it;
/// - the file name of `full_path` (QueryFullProcessImageNameW, where this
///   user may open the process);
/// - else the snapshot's szExeFile for that pid;
/// - else "" (the process ended between the table and the snapshot).
std::string windows_owner_name(std::uint32_t pid, std::string_view full_path,
                               std::span<const WindowsProcess> snapshot);

// --- macOS: proc_pidfdinfo(PROC_PIDFDSOCKETINFO) (sys/proc_info.h). --------

inline constexpr int macos_tsi_s_listen = 1;                   ///< TSI_S_LISTEN
inline constexpr std::uint32_t macos_in6p_v6only = 0x00008000; ///< IN6P_IPV6_V6ONLY in inp_flags

/// The fields of a socket_fdinfo for a TCP socket that matter here.
struct MacTcpSocket {
    bool ipv6 = false;       ///< soi_family == AF_INET6
    int state = 0;           ///< tcpsi_state
    std::uint16_t port = 0;  ///< insi_lport, already in host order
    std::uint32_t flags = 0; ///< insi_flags (the kernel's inp_flags)
    /// insi_laddr as stored: ina_6 for IPv6; for IPv4 an in4in6_addr whose
    /// last 4 bytes are the address.
    std::array<std::uint8_t, 16> laddr{};
};

/// The listener a macOS TCP socket is, or nullopt when it is not listening.
std::optional<Listener> listener_from_macos(const MacTcpSocket& s);

} // namespace loopcheck::decode
