// Decoders for the OS listener tables' bytes (sock_diag, MIB rows), fuzzed.
#include "loopcheck/core/listeners/decode.hpp"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>

namespace loopcheck::decode {

namespace {

std::uint32_t host_u32(const std::uint8_t* p) {
    std::uint32_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return v;
}

std::uint16_t host_u16(const std::uint8_t* p) {
    std::uint16_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return v;
}

std::int32_t host_i32(const std::uint8_t* p) {
    std::int32_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return v;
}

std::uint16_t net_u16(const std::uint8_t* p) {
    return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}

std::uint32_t le_u32(const std::uint8_t* p) {
    return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
           (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

using namespace sock_diag_layout;

constexpr std::size_t align4(std::size_t n) {
    return (n + 3) & ~std::size_t{3};
}

void decode_attributes(std::span<const std::uint8_t> attrs, DiagSocket& s) {
    std::size_t pos = 0;
    while (pos + 4 <= attrs.size()) {
        const std::uint16_t len = host_u16(attrs.data() + pos);
        const std::uint16_t type = host_u16(attrs.data() + pos + 2);
        if (len < 4 || pos + len > attrs.size())
            return;
        if (type == inet_diag_skv6only && len >= 5)
            s.v6only = attrs[pos + 4] != 0;
        pos += align4(len);
    }
}

/// The socket one SOCK_DIAG_BY_FAMILY message describes: `payload` is at
/// least msg_size bytes, an inet_diag_msg and then its attributes. nullopt
/// for a socket of another family, which the dump passes over.
std::optional<DiagSocket> socket_from_message(std::span<const std::uint8_t> payload) {
    const std::uint8_t* m = payload.data();
    DiagSocket s;
    if (m[0] == af_inet) {
        s.local.family = Family::ipv4;
        std::memcpy(s.local.bytes.data(), m + msg_src, 4);
    } else if (m[0] == af_inet6) {
        s.local.family = Family::ipv6;
        std::memcpy(s.local.bytes.data(), m + msg_src, 16);
    } else {
        return std::nullopt;
    }
    s.state = m[msg_state];
    s.local.port = net_u16(m + msg_sport);
    s.uid = host_u32(m + msg_uid);
    s.inode = host_u32(m + msg_inode);
    decode_attributes(payload.subspan(msg_size), s);
    return s;
}

} // namespace

namespace {

/// The errno a netlink error or DONE message carries as a negative number;
/// nullopt for anything that is no errno (positive, or below -4095, the
/// kernel's MAX_ERRNO: -INT_MIN would not even be representable).
std::optional<int> errno_of(std::int32_t code) {
    if (code >= 0 || code < -4095)
        return std::nullopt;
    return -code;
}

} // namespace

DiagResult decode_sock_diag(std::span<const std::uint8_t> datagram, std::uint32_t seq,
                            std::vector<DiagSocket>& out) {
    DiagResult result;
    std::size_t pos = 0;
    while (pos + nlmsghdr_size <= datagram.size()) {
        const std::uint8_t* h = datagram.data() + pos;
        const std::uint32_t len = host_u32(h);
        const std::uint16_t type = host_u16(h + 4);
        const std::uint16_t flags = host_u16(h + 6);
        const std::uint32_t msg_seq = host_u32(h + 8);
        if (len < nlmsghdr_size || len > datagram.size() - pos)
            return {DiagStatus::malformed, 0, result.interrupted};
        const std::span<const std::uint8_t> payload =
            datagram.subspan(pos + nlmsghdr_size, len - nlmsghdr_size);
        pos += align4(len);
        if (msg_seq != seq)
            continue;
        if ((flags & nlm_f_dump_intr) != 0)
            result.interrupted = true;
        if (type == nlmsg_done) {
            // A dump may end with a negative errno in DONE's payload.
            if (payload.size() >= 4 && host_i32(payload.data()) < 0) {
                const auto err = errno_of(host_i32(payload.data()));
                if (!err)
                    return {DiagStatus::malformed, 0, result.interrupted};
                return {DiagStatus::error, *err, result.interrupted};
            }
            return {DiagStatus::done, 0, result.interrupted};
        }
        if (type == nlmsg_error) {
            if (payload.size() < 4)
                return {DiagStatus::malformed, 0, result.interrupted};
            const std::int32_t code = host_i32(payload.data());
            if (code == 0)
                continue; // an acknowledgement
            const auto err = errno_of(code);
            if (!err)
                return {DiagStatus::malformed, 0, result.interrupted};
            return {DiagStatus::error, *err, result.interrupted};
        }
        if (type != sock_diag_by_family || payload.size() < msg_size)
            continue;
        if (auto s = socket_from_message(payload))
            out.push_back(*s);
    }
    return result;
}

std::optional<std::uint32_t> socket_inode_from_link(std::string_view target) {
    constexpr std::string_view prefix = "socket:[";
    if (!target.starts_with(prefix) || !target.ends_with("]"))
        return std::nullopt;
    const auto digits = target.substr(prefix.size(), target.size() - prefix.size() - 1);
    return pid_from_name(digits); // the same rule: digits only, fits 32 bits
}

std::optional<std::uint32_t> pid_from_name(std::string_view name) {
    if (name.empty() || name.size() > 10)
        return std::nullopt;
    for (char c : name)
        if (c < '0' || c > '9')
            return std::nullopt;
    std::uint32_t v = 0;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), v);
    if (ec != std::errc{} || end != name.data() + name.size())
        return std::nullopt;
    return v;
}

std::string name_from_comm(std::string_view contents) {
    // The kernel ends the name with one newline; a newline inside the name
    // (prctl allows any byte but NUL) is part of it.
    if (contents.ends_with('\n'))
        contents.remove_suffix(1);
    return std::string(contents);
}

std::optional<std::vector<MibRow>> decode_mib_tcp_table(std::span<const std::uint8_t> table,
                                                        Family family) {
    using namespace mib_layout;
    if (table.size() < count_size)
        return std::nullopt;
    const std::uint64_t count = le_u32(table.data());
    const std::size_t row = family == Family::ipv4 ? row4_size : row6_size;
    if (count > (table.size() - count_size) / row)
        return std::nullopt;
    std::vector<MibRow> rows;
    rows.reserve(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint8_t* r = table.data() + count_size + i * row;
        MibRow m;
        m.local.family = family;
        if (family == Family::ipv4) {
            m.state = le_u32(r);
            std::memcpy(m.local.bytes.data(), r + row4_addr, 4); // network order in memory
            m.local.port = net_u16(r + row4_port);
            m.pid = le_u32(r + row4_pid);
        } else {
            std::memcpy(m.local.bytes.data(), r, 16);
            // A zone only means something for a link-local address (fe80::/10);
            // Wine fills it in for ::1 too, which would print "[::1%4096]".
            if (m.local.bytes[0] == 0xfe && (m.local.bytes[1] & 0xc0) == 0x80)
                m.local.scope_id = le_u32(r + row6_scope);
            m.local.port = net_u16(r + row6_port);
            m.state = le_u32(r + row6_state);
            m.pid = le_u32(r + row6_pid);
        }
        rows.push_back(m);
    }
    return rows;
}

std::string image_base_name(std::string_view path) {
    const auto slash = path.find_last_of("\\/");
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::optional<std::vector<MibRow>> join_mib_tables(std::span<const MibTableRead> reads,
                                                   std::string& missing) {
    std::vector<MibRow> rows;
    bool any = false;
    missing.clear();
    for (const auto& r : reads) {
        if (r.rows) {
            any = true;
            rows.insert(rows.end(), r.rows->begin(), r.rows->end());
            continue;
        }
        missing +=
            fmt::format("{}{} listeners could not be listed: {}", missing.empty() ? "" : "; ",
                        r.family == Family::ipv4 ? "IPv4" : "IPv6",
                        r.error.empty() ? "no reason given" : r.error);
    }
    if (!any)
        return std::nullopt;
    return rows;
}

std::string windows_owner_name(std::uint32_t pid, std::string_view full_path,
                               std::span<const WindowsProcess> snapshot) {
    if (pid == 0)
        return {};
    if (pid == windows_system_pid)
        return "System";
    if (!full_path.empty())
        return image_base_name(full_path);
    for (const auto& p : snapshot)
        if (p.pid == pid)
            return p.exe_file;
    return {};
}

std::optional<Listener> listener_from_macos(const MacTcpSocket& s) {
    if (s.state != macos_tsi_s_listen)
        return std::nullopt;
    Listener l;
    l.bound.port = s.port;
    if (s.ipv6) {
        l.bound.family = Family::ipv6;
        l.bound.bytes = s.laddr;
        l.v6only = (s.flags & macos_in6p_v6only) != 0;
    } else {
        l.bound.family = Family::ipv4;
        std::memcpy(l.bound.bytes.data(), s.laddr.data() + 12, 4); // in4in6_addr.i46a_addr4
    }
    return l;
}

} // namespace loopcheck::decode
