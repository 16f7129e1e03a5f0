// The client table: one row per client and version range (client_table.hpp).
#include "loopcheck/core/clients/table.hpp"

#include "core/clients/rows_node.hpp"
#include "core/clients/rows_python.hpp"

#include <algorithm>
#include <array>

namespace loopcheck {

namespace {

using namespace std::chrono_literals;

/// Java: the first IPv4 address only (java.net.preferIPv6Addresses=false);
/// from JDK 16 no SYN retries on Windows loopback; HttpClient connects once
/// more after a refusal.
constexpr ClientModel java_row(VersionRange versions, std::string_view name, bool jdk16,
                               bool httpclient) {
    return {httpclient ? "java-httpclient" : "java-socket",
            versions,
            name,
            httpclient ? (jdk16 ? "IPv4 preferred, refusal retried once; Windows: no SYN retries"
                                : "one address, IPv4 preferred; a refusal is retried once")
                       : (jdk16 ? "one address, IPv4 preferred; Windows: no SYN retries"
                                : "one address, IPv4 preferred"),
            ConnectAlgorithm::first_ipv4,
            0ms,
            jdk16 ? FastFail::loopback : FastFail::none,
            AddressSource::resolver,
            false,
            httpclient,
            httpclient ? "java.net.http.HttpClient" : "java.net.Socket",
            httpclient ? Reuse::pooled : Reuse::per_call,
            httpclient ? "one HttpClient keeps its connections alive: paid once"
                       : "a raw socket: every connect pays"};
}

// One row per client and version range whose connect behaviour differs.
// docs/diagnosis.md ("The client table") gives the source of every row:
// (Python: core/clients/rows_python.hpp.)
// - Ruby >= 3.4: TCPSocket.new (Net::HTTP's TCPSocket.open) runs Happy
//   Eyeballs v2 (Ruby 3.4 NEWS, Feature #20108, #20782): IPv6 first,
//   families alternating, the next attempt 250 ms later
//   (CONNECTION_ATTEMPT_DELAY in ext/socket/lib/socket.rb). It is compiled
//   out without pthread_create/pthread_detach and on MinGW
//   (FAST_FALLBACK_INIT_INETSOCK_IMPL in ext/socket/rubysocket.h), so
//   Windows Ruby tries the addresses in turn as before.
// - Ruby < 3.4 (TCPSocket.open), Perl (IO::Socket::IP under HTTP::Tiny and
//   LWP), PHP (php_network_connect_socket_to_host): in turn.
// - .NET HttpClient: ConnectAsync(DnsEndPoint), one address after another.
// - curl: lib/hostip.c answers "localhost" itself from 7.78.0 (commit
//   "hostip: make 'localhost' return fixed values"), ::1 first from 8.2.1
//   ("hostip: return IPv6 first for localhost resolves"); lib/connect.c
//   eyeballs with two "ballers", the first address's family first, up to
//   8.9.1, IPv6 always first from 8.10.0 ("connect: always prefer ipv6 in IP
//   eyeballing"); lib/cf-ip-happy.c from 8.16.0 keeps attempts running and
//   alternates families ("ip happy eyeballing: keep attempts running");
//   8.22.0 turns SYN retries off for 127.0.0.1 and ::1 on Windows
//   ("cf-socket: disable TCP SYN retransmissions for localhost on
//   Windows", commit abcb534; RELEASE-NOTES list it for 8.22.0, whose
//   release date and later fixes were not read here).
// - wget: tries the resolved addresses in order.
// (Node.js: core/clients/rows_node.hpp.)
// - Go: net/dial.go dialParallel with FallbackDelay 300 ms; off Windows its
//   own resolver sorts by RFC 6724 and ignores gai.conf (measured by the
//   client harness). net/fd_windows.go turns SYN retries off on Windows
//   loopback from 1.21: under Wine 10, dial.exe built by Debian's Go 1.19
//   makes no SIO_TCP_INITIAL_RTO call, by 1.21, 1.22, 1.23 and 1.24 one per
//   connect; 1.20 was not at hand, and 1.21's code needs sync.OnceValue,
//   new in 1.21.
// - Java: java.net.preferIPv6Addresses=false, one InetSocketAddress; the
//   HttpClient retries a refused connect once (MultiExchange,
//   jdk.httpclient.disableRetryConnect=false). From JDK 16 (JDK-8250521)
//   sun.nio.ch.Net.connect0 (src/java.base/windows/native/libnio/ch/Net.c)
//   calls NET_EnableFastTcpLoopbackConnect (libnet/net_util_md.c) for every
//   loopback address (IS_LOOPBACK_ADDRESS: 127/8, ::1, ::ffff:127.x):
//   SIO_TCP_INITIAL_RTO with NO_SYN_RETRANSMISSIONS on build 16299+, 1
//   before. java.net.Socket (NioSocketImpl since 13) and HttpClient
//   (SocketChannel) both connect through it. JDK 11 to 15 do not; 11u got
//   backports (jdk11u-dev PRs #626, #628, 2021-11) in an update not pinned.
constexpr std::array<ClientModel, 8> rows_before_node{{
    {"dotnet",
     {},
     ".NET HttpClient",
     "sequential",
     ConnectAlgorithm::sequential,
     0ms,
     FastFail::none,
     AddressSource::resolver,
     false,
     false,
     "HttpClient",
     Reuse::pooled,
     "one HttpClient reuses its connections; a new HttpClient per call connects again"},
    {"curl",
     {"", "7.78.0"},
     "curl < 7.78",
     "Happy Eyeballs 200 ms, first family first",
     ConnectAlgorithm::go_dual_stack,
     200ms,
     FastFail::none,
     AddressSource::resolver,
     false,
     false,
     "curl, libcurl",
     Reuse::per_call,
     "each curl run connects; the URLs of one run reuse it"},
    {"curl",
     {"7.78.0", "8.2.1"},
     "curl 7.78.0 to 8.2.0",
     "own localhost, 127.0.0.1 first; Happy Eyeballs 200 ms",
     ConnectAlgorithm::go_dual_stack,
     200ms,
     FastFail::none,
     AddressSource::curl_localhost_ipv4_first,
     false,
     false,
     "curl, libcurl",
     Reuse::per_call,
     "each curl run connects; the URLs of one run reuse it"},
    {"curl",
     {"8.2.1", "8.10.0"},
     "curl 8.2.1 to 8.9.1",
     "own localhost, ::1 first; Happy Eyeballs 200 ms",
     ConnectAlgorithm::go_dual_stack,
     200ms,
     FastFail::none,
     AddressSource::curl_localhost_ipv6_first,
     false,
     false,
     "curl, libcurl",
     Reuse::per_call,
     "each curl run connects; the URLs of one run reuse it"},
    {"curl",
     {"8.10.0", "8.16.0"},
     "curl 8.10.0 to 8.15.x",
     "own localhost; Happy Eyeballs 200 ms, IPv6 first",
     ConnectAlgorithm::go_dual_stack,
     200ms,
     FastFail::none,
     AddressSource::curl_localhost_ipv6_first,
     true,
     false,
     "curl, libcurl",
     Reuse::per_call,
     "each curl run connects; the URLs of one run reuse it"},
    {"curl",
     {"8.16.0", "8.22.0"},
     "curl 8.16.0 to 8.21.x",
     "own localhost; Happy Eyeballs 200 ms, IPv6 first, alternating",
     ConnectAlgorithm::happy_eyeballs,
     200ms,
     FastFail::none,
     AddressSource::curl_localhost_ipv6_first,
     true,
     false,
     "curl, libcurl",
     Reuse::per_call,
     "each curl run connects; the URLs of one run reuse it"},
    {"curl",
     {"8.22.0", ""},
     "curl >= 8.22",
     "as 8.16; Windows: no SYN retries to 127.0.0.1/::1",
     ConnectAlgorithm::happy_eyeballs,
     200ms,
     FastFail::loopback_literals,
     AddressSource::curl_localhost_ipv6_first,
     true,
     false,
     "curl, libcurl",
     Reuse::per_call,
     "each curl run connects; the URLs of one run reuse it"},
    {"wget",
     {},
     "wget",
     "sequential",
     ConnectAlgorithm::sequential,
     0ms,
     FastFail::none,
     AddressSource::resolver,
     false,
     false,
     "wget",
     Reuse::per_call,
     "each wget run connects"},
}};

constexpr std::array<ClientModel, 10> rows_after_node{{
    {"go",
     {"", "1.21.0"},
     "Go net.Dial < 1.21",
     "own RFC 6724 order, fallback 300 ms",
     ConnectAlgorithm::go_dual_stack,
     300ms,
     FastFail::none,
     AddressSource::go_rfc6724,
     false,
     false,
     "net.Dial, net/http (http.Get, http.Client)",
     Reuse::depends,
     "net/http's default transport keeps connections alive: reused; net.Dial connects "
     "every call"},
    {"go",
     {"1.21.0", ""},
     "Go net.Dial >= 1.21",
     "own RFC 6724 order, fallback 300 ms; Windows: no SYN retries",
     ConnectAlgorithm::go_dual_stack,
     300ms,
     FastFail::loopback,
     AddressSource::go_rfc6724,
     false,
     false,
     "net.Dial, net/http (http.Get, http.Client)",
     Reuse::depends,
     "net/http's default transport keeps connections alive: reused; net.Dial connects "
     "every call"},
    java_row({"", "16"}, "Java java.net.Socket < 16", false, false),
    java_row({"16", ""}, "Java java.net.Socket >= 16", true, false),
    java_row({"11", "16"}, "Java HttpClient 11 to 15", false, true),
    java_row({"16", ""}, "Java HttpClient >= 16", true, true),
    {"ruby",
     {"", "3.4.0"},
     "Ruby Net::HTTP < 3.4",
     "sequential",
     ConnectAlgorithm::sequential,
     0ms,
     FastFail::none,
     AddressSource::resolver,
     false,
     false,
     "Net::HTTP, TCPSocket.new, open-uri, Faraday (net_http)",
     Reuse::depends,
     "Net::HTTP.get: a new connection every call; requests inside one Net::HTTP.start "
     "block reuse it"},
    {"ruby",
     {"3.4.0", ""},
     "Ruby Net::HTTP >= 3.4",
     "Happy Eyeballs 250 ms, IPv6 first; Windows: sequential",
     ConnectAlgorithm::happy_eyeballs,
     250ms,
     FastFail::none,
     AddressSource::resolver,
     true,
     false,
     "Net::HTTP, TCPSocket.new, Socket.tcp, open-uri, Faraday (net_http)",
     Reuse::depends,
     "Net::HTTP.get: a new connection every call; requests inside one Net::HTTP.start "
     "block reuse it",
     true},
    {"perl",
     {},
     "Perl HTTP::Tiny / LWP::UserAgent",
     "sequential",
     ConnectAlgorithm::sequential,
     0ms,
     FastFail::none,
     AddressSource::resolver,
     false,
     false,
     "HTTP::Tiny, LWP::UserAgent, IO::Socket::IP",
     Reuse::depends,
     "one HTTP::Tiny object keeps its connection alive; LWP::UserAgent only with keep_alive "
     "set, else a new connection per request"},
    {"php",
     {},
     "PHP file_get_contents / streams",
     "sequential",
     ConnectAlgorithm::sequential,
     0ms,
     FastFail::none,
     AddressSource::resolver,
     false,
     false,
     "file_get_contents, fopen (http://), stream_socket_client",
     Reuse::per_call,
     "a new connection every call"},
}};

/// The parts one after another, at compile time.
template <std::size_t... N>
constexpr std::array<ClientModel, (N + ...)> joined(const std::array<ClientModel, N>&... parts) {
    std::array<ClientModel, (N + ...)> out{};
    auto at = out.begin();
    ((at = std::copy(parts.begin(), parts.end(), at)), ...);
    return out;
}

/// Python first: the clients most of loopcheck's users run.
constexpr auto models =
    joined(detail::python_client_rows, rows_before_node, detail::node_client_rows, rows_after_node);
static_assert(models.size() == 32);

} // namespace

std::string_view reuse_name(Reuse r) noexcept {
    switch (r) {
    case Reuse::per_call:
        return "per_call";
    case Reuse::pooled:
        return "pooled";
    case Reuse::depends:
        return "depends";
    }
    return "per_call";
}

std::span<const ClientModel> client_models() {
    return models;
}

bool version_less(std::string_view a, std::string_view b) noexcept {
    // One part's number: its digits, saturating; anything after them in the
    // part ("0rc1") is left out.
    const auto part = [](std::string_view& s) {
        unsigned long long n = 0;
        bool digits = true;
        while (!s.empty() && s.front() != '.') {
            const char ch = s.front();
            digits = digits && ch >= '0' && ch <= '9';
            if (digits)
                n = n > 1'000'000'000'000ULL ? n : n * 10 + static_cast<unsigned>(ch - '0');
            s.remove_prefix(1);
        }
        if (!s.empty())
            s.remove_prefix(1);
        return n;
    };
    while (!a.empty() || !b.empty()) {
        const auto x = part(a), y = part(b);
        if (x != y)
            return x < y;
    }
    return false;
}

bool in_version_range(const VersionRange& r, std::string_view version) noexcept {
    return (r.min.empty() || !version_less(version, r.min)) &&
           (r.below.empty() || version_less(version, r.below));
}

} // namespace loopcheck
