// The listener-table decoders and the listener logic, fed with recorded and
// constructed bytes: runs the same on every OS.
#include "loopcheck/core/listeners/decode.hpp"
#include "loopcheck/core/listeners/queries.hpp"
#include "support/catch.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::decode;

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes from_hex(std::string_view hex) {
    Bytes out;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
        out.push_back(
            static_cast<std::uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
    return out;
}

template <class T>
void put_host(Bytes& b, std::size_t at, T v) {
    if (b.size() < at + sizeof v)
        b.resize(at + sizeof v);
    std::memcpy(b.data() + at, &v, sizeof v);
}

void put_le32(Bytes& b, std::size_t at, std::uint32_t v) {
    if (b.size() < at + 4)
        b.resize(at + 4);
    for (int i = 0; i < 4; ++i)
        b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

/// A netlink message as the kernel builds it: nlmsghdr, then the payload.
Bytes nlmsg(std::uint16_t type, std::uint32_t seq, const Bytes& payload, std::uint16_t flags = 2) {
    Bytes m;
    put_host<std::uint32_t>(m, 0, static_cast<std::uint32_t>(16 + payload.size()));
    put_host<std::uint16_t>(m, 4, type);
    put_host<std::uint16_t>(m, 6, flags);
    put_host<std::uint32_t>(m, 8, seq);
    put_host<std::uint32_t>(m, 12, 0);
    m.insert(m.end(), payload.begin(), payload.end());
    while (m.size() % 4 != 0)
        m.push_back(0);
    return m;
}

/// An inet_diag_msg for a socket bound to `a`, with an optional v6only
/// attribute.
Bytes diag_msg(const Address& a, std::uint8_t state, std::uint32_t uid, std::uint32_t inode,
               std::optional<bool> v6only = std::nullopt) {
    Bytes m(72, 0);
    m[0] = a.family == Family::ipv4 ? 2 : 10;
    m[1] = state;
    m[4] = static_cast<std::uint8_t>(a.port >> 8);
    m[5] = static_cast<std::uint8_t>(a.port & 0xff);
    std::memcpy(m.data() + 8, a.bytes.data(), a.family == Family::ipv4 ? 4 : 16);
    put_host<std::uint32_t>(m, 64, uid);
    put_host<std::uint32_t>(m, 68, inode);
    if (v6only) {
        put_host<std::uint16_t>(m, 72, 5);  // rta_len
        put_host<std::uint16_t>(m, 74, 11); // INET_DIAG_SKV6ONLY
        m.push_back(*v6only ? 1 : 0);
        while (m.size() % 4 != 0)
            m.push_back(0);
    }
    return m;
}

Bytes concat(std::initializer_list<Bytes> parts) {
    Bytes out;
    for (const auto& p : parts)
        out.insert(out.end(), p.begin(), p.end());
    return out;
}

Address any6(std::uint16_t port = 0) {
    Address a;
    a.family = Family::ipv6;
    a.port = port;
    return a;
}

Listener listener(Address bound, std::optional<bool> v6only = std::nullopt,
                  std::optional<std::uint32_t> pid = std::nullopt, std::string name = {}) {
    Listener l;
    l.bound = bound;
    l.v6only = v6only;
    l.pid = pid;
    l.process = std::move(name);
    return l;
}

} // namespace

TEST_CASE("sock_diag: a datagram recorded from Linux 6.18", "[listeners][decode]") {
    // One [::]:48123 listener with IPV6_V6ONLY off, answered to a dump with
    // seq 7; it carries attributes 8, 11 (SKV6ONLY = 0), 15, 21 and 22.
    const auto datagram =
        from_hex("8400000014000200070000004e4800000a0a0000bbfb000000000000000000000000000000000000"
                 "00000000000000000000000000000000000000000300000000000000000000000000000080000000"
                 "000000003d080100050008000000000005000b000000000008000f00000000000c00150001000000"
                 "000000000600160012000000");
    std::vector<DiagSocket> out;
    auto r = decode_sock_diag(datagram, 7, out);
    CHECK(r.status == DiagStatus::more);
    REQUIRE(out.size() == 1);
    CHECK(out[0].local.family == Family::ipv6);
    CHECK(endpoint_string(out[0].local) == "[::]:48123");
    CHECK(out[0].state == 10);
    REQUIRE(out[0].v6only.has_value());
    CHECK_FALSE(*out[0].v6only);
    CHECK(out[0].uid == 0);
    CHECK(out[0].inode == 0x1083d);

    const auto done = from_hex("1400000003000200070000004e48000000000000");
    CHECK(decode_sock_diag(done, 7, out).status == DiagStatus::done);
    CHECK(out.size() == 1);
}

TEST_CASE("sock_diag: several messages, IPv4 and IPv6, then DONE", "[listeners][decode]") {
    const auto datagram =
        concat({nlmsg(20, 3, diag_msg(make_ipv4(127, 0, 0, 1, 8000), 10, 1000, 4242)),
                nlmsg(20, 3, diag_msg(ipv6_loopback(8000), 10, 1000, 4243, true)),
                nlmsg(20, 3, diag_msg(any6(9000), 10, 0, 17, false)), nlmsg(3, 3, Bytes(4, 0))});
    std::vector<DiagSocket> out;
    auto r = decode_sock_diag(datagram, 3, out);
    CHECK(r.status == DiagStatus::done);
    CHECK_FALSE(r.interrupted);
    REQUIRE(out.size() == 3);
    CHECK(endpoint_string(out[0].local) == "127.0.0.1:8000");
    CHECK_FALSE(out[0].v6only);
    CHECK(out[0].uid == 1000);
    CHECK(out[0].inode == 4242);
    CHECK(endpoint_string(out[1].local) == "[::1]:8000");
    CHECK(out[1].v6only == true);
    CHECK(out[2].v6only == false);
}

TEST_CASE("sock_diag: errors, other sequence numbers and bad lengths", "[listeners][decode]") {
    std::vector<DiagSocket> out;
    Bytes err_payload;
    put_host<std::int32_t>(err_payload, 0, -13); // -EACCES
    err_payload.resize(20);
    auto e = decode_sock_diag(nlmsg(2, 5, err_payload), 5, out);
    CHECK(e.status == DiagStatus::error);
    CHECK(e.error == 13);

    Bytes ack(20, 0); // NLMSG_ERROR with 0 is an acknowledgement
    CHECK(decode_sock_diag(nlmsg(2, 5, ack), 5, out).status == DiagStatus::more);

    Bytes done_err;
    put_host<std::int32_t>(done_err, 0, -16);
    auto d = decode_sock_diag(nlmsg(3, 5, done_err), 5, out);
    CHECK(d.status == DiagStatus::error);
    CHECK(d.error == 16);

    // No errno can be INT_MIN (the fuzzer's find: negating it is undefined)
    // or beyond the kernel's MAX_ERRNO.
    for (std::int32_t bogus : {std::numeric_limits<std::int32_t>::min(), -4096}) {
        Bytes p;
        put_host<std::int32_t>(p, 0, bogus);
        p.resize(20);
        CHECK(decode_sock_diag(nlmsg(2, 5, p), 5, out).status == DiagStatus::malformed);
        CHECK(decode_sock_diag(nlmsg(3, 5, p), 5, out).status == DiagStatus::malformed);
    }

    // A reply to another request is not ours.
    auto other =
        decode_sock_diag(nlmsg(20, 9, diag_msg(make_ipv4(127, 0, 0, 1, 1), 10, 0, 1)), 5, out);
    CHECK(other.status == DiagStatus::more);
    CHECK(out.empty());

    // The dump-interrupted flag is passed on.
    auto intr = decode_sock_diag(nlmsg(20, 5, diag_msg(make_ipv4(127, 0, 0, 1, 1), 10, 0, 1), 0x12),
                                 5, out);
    CHECK(intr.interrupted);
    CHECK(out.size() == 1);
    out.clear();

    // A length beyond the datagram, or below a header, is malformed.
    auto msg = nlmsg(20, 5, diag_msg(make_ipv4(127, 0, 0, 1, 1), 10, 0, 1));
    put_host<std::uint32_t>(msg, 0, 4000);
    CHECK(decode_sock_diag(msg, 5, out).status == DiagStatus::malformed);
    put_host<std::uint32_t>(msg, 0, 8);
    CHECK(decode_sock_diag(msg, 5, out).status == DiagStatus::malformed);
    CHECK(out.empty());

    // A truncated inet_diag_msg is skipped; a short attribute is ignored.
    auto short_msg = nlmsg(20, 5, Bytes(40, 0));
    CHECK(decode_sock_diag(short_msg, 5, out).status == DiagStatus::more);
    CHECK(out.empty());
    auto bad_attr = diag_msg(any6(5), 10, 0, 9, true);
    put_host<std::uint16_t>(bad_attr, 72, 200); // rta_len past the message
    CHECK(decode_sock_diag(nlmsg(20, 5, bad_attr), 5, out).status == DiagStatus::more);
    REQUIRE(out.size() == 1);
    CHECK_FALSE(out[0].v6only);

    // Empty and tiny datagrams decode to nothing.
    CHECK(decode_sock_diag({}, 5, out).status == DiagStatus::more);
    CHECK(decode_sock_diag(Bytes(7, 0xff), 5, out).status == DiagStatus::more);
}

TEST_CASE("sock_diag and MIB decoders: every truncation is rejected or partial",
          "[listeners][decode]") {
    // What a fuzzer would try first: cut a valid answer anywhere.
    const auto datagram =
        concat({nlmsg(20, 3, diag_msg(make_ipv4(127, 0, 0, 1, 80), 10, 0, 1)),
                nlmsg(20, 3, diag_msg(any6(81), 10, 0, 2, true)), nlmsg(3, 3, Bytes(4, 0))});
    for (std::size_t n = 0; n < datagram.size(); ++n) {
        std::vector<DiagSocket> out;
        const auto r = decode_sock_diag(std::span(datagram.data(), n), 3, out);
        INFO("prefix " << n);
        CHECK(r.status != DiagStatus::done);
        CHECK(r.status != DiagStatus::error);
        CHECK(out.size() <= 2);
    }
    Bytes table(4 + 2 * 24, 0);
    put_le32(table, 0, 2);
    for (std::size_t n = 0; n < table.size(); ++n)
        CHECK_FALSE(decode_mib_tcp_table(std::span(table.data(), n), Family::ipv4));
    CHECK(decode_mib_tcp_table(table, Family::ipv4)->size() == 2);
}

TEST_CASE("/proc: socket links, pids and comm", "[listeners][decode]") {
    CHECK(socket_inode_from_link("socket:[4242]") == 4242U);
    CHECK(socket_inode_from_link("socket:[4294967295]") == 4294967295U);
    CHECK_FALSE(socket_inode_from_link("socket:[4294967296]"));
    CHECK_FALSE(socket_inode_from_link("socket:[]"));
    CHECK_FALSE(socket_inode_from_link("socket:[12a]"));
    CHECK_FALSE(socket_inode_from_link("socket:[-1]"));
    CHECK_FALSE(socket_inode_from_link("socket:[12"));
    CHECK_FALSE(socket_inode_from_link("pipe:[4242]"));
    CHECK_FALSE(socket_inode_from_link("anon_inode:[eventfd]"));
    CHECK_FALSE(socket_inode_from_link("/dev/null"));

    CHECK(pid_from_name("1") == 1U);
    CHECK(pid_from_name("4194304") == 4194304U);
    CHECK_FALSE(pid_from_name("self"));
    CHECK_FALSE(pid_from_name(""));
    CHECK_FALSE(pid_from_name("+1"));
    CHECK_FALSE(pid_from_name("99999999999"));

    CHECK(name_from_comm("python3\n") == "python3");
    CHECK(name_from_comm("loopcheck_tests") == "loopcheck_tests");
    CHECK(name_from_comm("") == "");
    // Only the kernel's final newline goes: the name is kept byte for byte.
    CHECK(name_from_comm("a\nb\n") == "a\nb");
}

TEST_CASE("Windows: MIB_TCPTABLE_OWNER_PID bytes", "[listeners][decode]") {
    // Two rows: 127.0.0.1:11434 LISTEN pid 4242 and 0.0.0.0:135 LISTEN pid 1068.
    Bytes t;
    put_le32(t, 0, 2);
    auto row = [&](std::size_t at, std::uint32_t state, std::array<std::uint8_t, 4> ip,
                   std::uint16_t port, std::uint32_t pid) {
        put_le32(t, at, state);
        for (int i = 0; i < 4; ++i)
            t.at(at + 4 + i) = ip[i];
        // dwLocalPort: network order in the low 16 bits of a little-endian DWORD.
        put_le32(t, at + 8, static_cast<std::uint32_t>(((port & 0xff) << 8) | (port >> 8)));
        put_le32(t, at + 12, 0);
        put_le32(t, at + 16, 0);
        put_le32(t, at + 20, pid);
    };
    t.resize(4 + 2 * 24);
    row(4, 2, {127, 0, 0, 1}, 11434, 4242);
    row(28, 2, {0, 0, 0, 0}, 135, 1068);
    auto rows = decode_mib_tcp_table(t, Family::ipv4);
    REQUIRE(rows);
    REQUIRE(rows->size() == 2);
    CHECK(endpoint_string((*rows)[0].local) == "127.0.0.1:11434");
    CHECK((*rows)[0].state == mib_tcp_state_listen);
    CHECK((*rows)[0].pid == 4242);
    CHECK(endpoint_string((*rows)[1].local) == "0.0.0.0:135");
    CHECK((*rows)[1].pid == 1068);

    // The count says more rows than the buffer holds.
    put_le32(t, 0, 3);
    CHECK_FALSE(decode_mib_tcp_table(t, Family::ipv4));
    CHECK_FALSE(decode_mib_tcp_table(Bytes{1, 0}, Family::ipv4));
    put_le32(t, 0, 0);
    REQUIRE(decode_mib_tcp_table(t, Family::ipv4));
    CHECK(decode_mib_tcp_table(t, Family::ipv4)->empty());
}

TEST_CASE("Windows: MIB_TCP6TABLE_OWNER_PID bytes", "[listeners][decode]") {
    Bytes t(4 + 2 * 56, 0);
    put_le32(t, 0, 2);
    // Row 0: [::1]:3000 LISTEN, pid 77, with the zone 4096 Wine reports for
    // it (meaningless off link-local). Row 1: [fe80::1%12]:5000 LISTEN, pid 5.
    t[4 + 15] = 1;
    put_le32(t, 4 + 16, 4096);
    put_le32(t, 4 + 20, (3000 & 0xff) << 8 | (3000 >> 8));
    put_le32(t, 4 + 48, 2);
    put_le32(t, 4 + 52, 77);
    const std::size_t r1 = 4 + 56;
    t[r1] = 0xfe;
    t[r1 + 1] = 0x80;
    t[r1 + 15] = 1;
    put_le32(t, r1 + 16, 12);
    put_le32(t, r1 + 20, (5000 & 0xff) << 8 | (5000 >> 8));
    put_le32(t, r1 + 48, 2);
    put_le32(t, r1 + 52, 5);
    auto rows = decode_mib_tcp_table(t, Family::ipv6);
    REQUIRE(rows);
    REQUIRE(rows->size() == 2);
    CHECK(endpoint_string((*rows)[0].local) == "[::1]:3000");
    CHECK((*rows)[0].pid == 77);
    CHECK((*rows)[0].state == 2);
    CHECK(endpoint_string((*rows)[1].local) == "[fe80::1%12]:5000");
    CHECK((*rows)[1].pid == 5);
    t.pop_back();
    CHECK_FALSE(decode_mib_tcp_table(t, Family::ipv6));

    CHECK(image_base_name("C:\\Users\\me\\AppData\\Local\\Programs\\Ollama\\ollama.exe") ==
          "ollama.exe");
    CHECK(image_base_name("node.exe") == "node.exe");
    CHECK(image_base_name("") == "");
}

TEST_CASE("macOS: socket_fdinfo fields", "[listeners][decode]") {
    MacTcpSocket v4;
    v4.state = macos_tsi_s_listen;
    v4.port = 8000;
    v4.laddr[12] = 127; // in4in6_addr: three padding words, then the address
    v4.laddr[15] = 1;
    auto l = listener_from_macos(v4);
    REQUIRE(l);
    CHECK(endpoint_string(l->bound) == "127.0.0.1:8000");
    CHECK_FALSE(l->v6only);

    MacTcpSocket v6;
    v6.ipv6 = true;
    v6.state = macos_tsi_s_listen;
    v6.port = 8000;
    v6.flags = 0x00000800; // some other inp flag; V6ONLY clear
    auto dual = listener_from_macos(v6);
    REQUIRE(dual);
    CHECK(endpoint_string(dual->bound) == "[::]:8000");
    CHECK(dual->v6only == false);
    v6.flags |= macos_in6p_v6only;
    CHECK(listener_from_macos(v6)->v6only == true);

    v6.state = 4; // TSI_S_ESTABLISHED
    CHECK_FALSE(listener_from_macos(v6));
}

TEST_CASE("which listener a connect reaches", "[listeners]") {
    const auto v4 = listener(make_ipv4(127, 0, 0, 1, 8000));
    CHECK(reaches(v4, make_ipv4(127, 0, 0, 1, 8000)) == true);
    CHECK(reaches(v4, make_ipv4(127, 0, 0, 1, 8001)) == false);
    CHECK(reaches(v4, make_ipv4(127, 0, 0, 2, 8000)) == false);
    CHECK(reaches(v4, ipv6_loopback(8000)) == false);

    const auto any4 = listener(make_ipv4(0, 0, 0, 0, 8000));
    CHECK(reaches(any4, make_ipv4(127, 0, 0, 1, 8000)) == true);
    CHECK(reaches(any4, make_ipv4(127, 0, 0, 53, 8000)) == true);
    CHECK(reaches(any4, ipv6_loopback(8000)) == false);

    const auto dual = listener(any6(8000), false);
    const auto v6only = listener(any6(8000), true);
    const auto unknown = listener(any6(8000));
    CHECK(reaches(dual, make_ipv4(127, 0, 0, 1, 8000)) == true);
    CHECK(reaches(dual, ipv6_loopback(8000)) == true);
    CHECK(reaches(v6only, make_ipv4(127, 0, 0, 1, 8000)) == false);
    CHECK(reaches(v6only, ipv6_loopback(8000)) == true);
    CHECK_FALSE(reaches(unknown, make_ipv4(127, 0, 0, 1, 8000)).has_value());
    CHECK(reaches(unknown, ipv6_loopback(8000)) == true);

    // v4-mapped: a connect to ::ffff:127.0.0.1 reaches an IPv4 listener.
    auto mapped = *parse_ip_literal("::ffff:127.0.0.1");
    mapped.port = 8000;
    CHECK(reaches(v4, mapped) == true);

    // A specific bind wins over a wildcard one.
    std::vector<Listener> both{any4, v4};
    CHECK(serving(both, make_ipv4(127, 0, 0, 1, 8000)) == &both[1]);
    CHECK(serving(both, make_ipv4(127, 0, 0, 9, 8000)) == &both[0]);
    CHECK(serving(both, ipv6_loopback(8000)) == nullptr);
}

TEST_CASE("loopback reach and the families a port serves", "[listeners]") {
    CHECK(loopback_reachable(listener(make_ipv4(127, 0, 0, 53, 53))));
    CHECK(loopback_reachable(listener(any6(80))));
    CHECK(loopback_reachable(listener(ipv6_loopback(80))));
    CHECK_FALSE(loopback_reachable(listener(make_ipv4(192, 168, 1, 5, 22))));

    std::vector<Listener> v4only{listener(make_ipv4(127, 0, 0, 1, 8000))};
    CHECK(port_serves_loopback(v4only, Family::ipv4) == true);
    CHECK(port_serves_loopback(v4only, Family::ipv6) == false);
    std::vector<Listener> pair{listener(make_ipv4(127, 0, 0, 1, 8000)),
                               listener(ipv6_loopback(8000), true)};
    CHECK(port_serves_loopback(pair, Family::ipv6) == true);
    std::vector<Listener> windows_any{listener(any6(8000))};
    CHECK_FALSE(port_serves_loopback(windows_any, Family::ipv4).has_value());
    CHECK(port_serves_loopback(windows_any, Family::ipv6) == true);
    CHECK(port_serves_loopback({}, Family::ipv4) == false);
}

TEST_CASE("owners and bound addresses in words", "[listeners]") {
    CHECK(owner_string(listener(make_ipv4(127, 0, 0, 1, 1), {}, 4242, "python3")) ==
          "python3 (pid 4242)");
    CHECK(owner_string(listener(make_ipv4(127, 0, 0, 1, 1), {}, 7)) == "pid 7");
    auto hidden = listener(make_ipv4(127, 0, 0, 1, 1));
    CHECK(owner_string(hidden) == "a process not visible here");
    hidden.uid = 1000;
    CHECK(owner_string(hidden) == "a process of uid 1000 this user cannot see");
    // As root, a hidden owner is outside this PID namespace: never "this
    // user cannot see" (a new user's review, audit run as root).
    hidden.uid = 0;
    hidden.owner_outside_pid_namespace = true;
    CHECK(owner_string(hidden) == "an owner of uid 0 outside this PID namespace");

    CHECK(bound_string(listener(any6(80), false)) == "[::]:80 (IPV6_V6ONLY off)");
    CHECK(bound_string(listener(any6(80), true)) == "[::]:80 (IPV6_V6ONLY on)");
    CHECK(bound_string(listener(any6(80))) == "[::]:80");
    CHECK(bound_string(listener(ipv6_loopback(80), true)) == "[::1]:80");

    CHECK(connect_address(listener(any6(80))) == ipv6_loopback(80));
    CHECK(connect_address(listener(make_ipv4(0, 0, 0, 0, 80))) == make_ipv4(127, 0, 0, 1, 80));
    CHECK(connect_address(listener(make_ipv4(127, 0, 0, 53, 53))) == make_ipv4(127, 0, 0, 53, 53));

    std::vector<Listener> table{listener(ipv6_loopback(80)), listener(make_ipv4(127, 0, 0, 1, 81)),
                                listener(make_ipv4(127, 0, 0, 1, 80))};
    sort_listeners(table);
    CHECK(endpoint_string(table[0].bound) == "127.0.0.1:80");
    CHECK(endpoint_string(table[1].bound) == "127.0.0.1:81");
    CHECK(endpoint_string(table[2].bound) == "[::1]:80");
    CHECK(listeners_on_port(table, 80).size() == 2);
    CHECK(listeners_on_port(table, 82).empty());
}

TEST_CASE("Windows: owners come from the process snapshot, without admin", "[listeners][decode]") {
    // Process32NextW's rows on a machine with PostgreSQL and MySQL running
    // as services: OpenProcess refuses a normal user there, so there is
    // no full path, but the snapshot still names them.
    const std::vector<WindowsProcess> snapshot{{0, "[System Process]"},
                                               {4, "System"},
                                               {1312, "postgres.exe"},
                                               {2208, "mysqld.exe"},
                                               {7720, "ollama.exe"}};
    CHECK(windows_owner_name(1312, "", snapshot) == "postgres.exe");
    CHECK(windows_owner_name(2208, "", snapshot) == "mysqld.exe");
    // Where the process may be opened, the full path gives the name.
    CHECK(windows_owner_name(7720, "C:\\Users\\me\\AppData\\Local\\Programs\\Ollama\\ollama.exe",
                             snapshot) == "ollama.exe");
    CHECK(windows_owner_name(9999, "C:\\tools\\started-later.exe", snapshot) ==
          "started-later.exe");
    // Pid 4 owns http.sys's listeners (IIS, WinRM, URL reservations).
    CHECK(windows_owner_name(4, "", {}) == "System");
    CHECK(windows_owner_name(windows_system_pid, "", snapshot) == "System");
    // Pid 0 owns nothing: the table does not know (Wine says 0 for all).
    CHECK(windows_owner_name(0, "", snapshot).empty());
    CHECK(windows_owner_name(0, "C:\\x.exe", snapshot).empty());
    // Gone between the table and the snapshot.
    CHECK(windows_owner_name(4242, "", snapshot).empty());
}

TEST_CASE("Windows: a failed IPv6 table keeps the IPv4 rows and says what is missing",
          "[listeners][decode]") {
    MibRow v4;
    v4.local = make_ipv4(127, 0, 0, 1, 5432);
    v4.state = mib_tcp_state_listen;
    v4.pid = 1312;
    MibTableRead ipv4{Family::ipv4, std::vector<MibRow>{v4}, ""};
    MibTableRead ipv6{Family::ipv6, std::nullopt, "GetExtendedTcpTable failed: error 50"};
    std::vector<MibTableRead> reads{ipv4, ipv6};
    std::string missing;
    auto rows = join_mib_tables(reads, missing);
    REQUIRE(rows);
    REQUIRE(rows->size() == 1);
    CHECK((*rows)[0].local.port == 5432);
    CHECK(missing == "IPv6 listeners could not be listed: GetExtendedTcpTable failed: error 50");

    // Both read: nothing missing, IPv4 rows first.
    MibRow v6;
    v6.local = ipv6_loopback(8080);
    v6.state = mib_tcp_state_listen;
    reads[1] = {Family::ipv6, std::vector<MibRow>{v6}, ""};
    rows = join_mib_tables(reads, missing);
    REQUIRE(rows);
    CHECK(rows->size() == 2);
    CHECK((*rows)[1].local.family == Family::ipv6);
    CHECK(missing.empty());

    // Neither: no table at all, and each reason is kept.
    reads[0] = {Family::ipv4, std::nullopt, "error 1"};
    reads[1] = {Family::ipv6, std::nullopt, "error 2"};
    CHECK_FALSE(join_mib_tables(reads, missing));
    CHECK(missing == "IPv4 listeners could not be listed: error 1; IPv6 listeners could not be "
                     "listed: error 2");
}
