#include "loopcheck/core/clients.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>

namespace loopcheck {

namespace {

using namespace std::chrono_literals;

// One row per client and version range whose connect behaviour differs.
// docs/diagnosis.md ("The client table") gives the source of every row:
// - Python socket.create_connection / urllib3 / requests: getaddrinfo order,
//   one address after another; asyncio with happy_eyeballs_delay interleaves
//   families (interleave=1) and staggers attempts.
// - .NET HttpClient: ConnectAsync(DnsEndPoint), one address after another.
// - curl: lib/hostip.c answers "localhost" itself from 7.78.0 (commit
//   "hostip: make 'localhost' return fixed values"), ::1 first from 8.2.1
//   ("hostip: return IPv6 first for localhost resolves"); lib/connect.c
//   eyeballs with two "ballers", the first address's family first, up to
//   8.9.1, IPv6 always first from 8.10.0 ("connect: always prefer ipv6 in IP
//   eyeballing"); lib/cf-ip-happy.c from 8.16.0 keeps attempts running and
//   alternates families ("ip happy eyeballing: keep attempts running");
//   8.22.0 turns SYN retries off for 127.0.0.1 and ::1 on Windows (in the
//   8.22.0 release candidates only when this table was made).
// - wget: tries the resolved addresses in order.
// - Node.js: dns.lookup sorts IPv4 first up to 16 (verbatim=false), takes
//   the resolver's order from 17 and connects to the first address only;
//   autoSelectFamily (default on from 20.0.0) tries addresses one at a time,
//   families interleaved, aborting each but the last after
//   autoSelectFamilyAttemptTimeout (250 ms; 500 ms from 25.2). libuv turns
//   SYN retries off on Windows loopback (src/win/tcp.c, 1.39+).
// - Go: net/dial.go dialParallel with FallbackDelay 300 ms; off Windows its
//   own resolver sorts by RFC 6724 and ignores gai.conf (measured by the
//   client harness); net/fd_windows.go turns SYN retries off on Windows
//   loopback.
// - Java: java.net.preferIPv6Addresses=false, one InetSocketAddress; the
//   HttpClient retries a refused connect once (MultiExchange,
//   jdk.httpclient.disableRetryConnect=false).
constexpr std::array<ClientModel, 17> models{{
    {"python",
     {},
     "Python requests / urllib / socket.create_connection",
     "sequential",
     ConnectAlgorithm::sequential,
     0ms,
     FastFail::none,
     AddressSource::resolver,
     false},
    {"python-asyncio",
     {},
     "Python asyncio, happy_eyeballs_delay=0.25",
     "Happy Eyeballs 250 ms",
     ConnectAlgorithm::happy_eyeballs,
     250ms,
     FastFail::none,
     AddressSource::resolver,
     false},
    {"dotnet",
     {},
     ".NET HttpClient",
     "sequential",
     ConnectAlgorithm::sequential,
     0ms,
     FastFail::none,
     AddressSource::resolver,
     false},
    {"curl",
     {"", "7.78.0"},
     "curl < 7.78",
     "Happy Eyeballs 200 ms, first family first",
     ConnectAlgorithm::go_dual_stack,
     200ms,
     FastFail::none,
     AddressSource::resolver,
     false},
    {"curl",
     {"7.78.0", "8.2.1"},
     "curl 7.78.0 to 8.2.0",
     "own localhost, 127.0.0.1 first; Happy Eyeballs 200 ms",
     ConnectAlgorithm::go_dual_stack,
     200ms,
     FastFail::none,
     AddressSource::curl_localhost_ipv4_first,
     false},
    {"curl",
     {"8.2.1", "8.10.0"},
     "curl 8.2.1 to 8.9.1",
     "own localhost, ::1 first; Happy Eyeballs 200 ms",
     ConnectAlgorithm::go_dual_stack,
     200ms,
     FastFail::none,
     AddressSource::curl_localhost_ipv6_first,
     false},
    {"curl",
     {"8.10.0", "8.16.0"},
     "curl 8.10.0 to 8.15.x",
     "own localhost; Happy Eyeballs 200 ms, IPv6 first",
     ConnectAlgorithm::go_dual_stack,
     200ms,
     FastFail::none,
     AddressSource::curl_localhost_ipv6_first,
     true},
    {"curl",
     {"8.16.0", "8.22.0"},
     "curl 8.16.0 to 8.21.x",
     "own localhost; Happy Eyeballs 200 ms, IPv6 first, alternating",
     ConnectAlgorithm::happy_eyeballs,
     200ms,
     FastFail::none,
     AddressSource::curl_localhost_ipv6_first,
     true},
    {"curl",
     {"8.22.0", ""},
     "curl >= 8.22 (unreleased)",
     "as 8.16; Windows: no SYN retries to 127.0.0.1/::1",
     ConnectAlgorithm::happy_eyeballs,
     200ms,
     FastFail::loopback_literals,
     AddressSource::curl_localhost_ipv6_first,
     true},
    {"wget",
     {},
     "wget",
     "sequential",
     ConnectAlgorithm::sequential,
     0ms,
     FastFail::none,
     AddressSource::resolver,
     false},
    {"node",
     {"", "17.0.0"},
     "Node.js <= 16",
     "first address only, IPv4 first; Windows: no SYN retries",
     ConnectAlgorithm::first_address,
     0ms,
     FastFail::loopback,
     AddressSource::resolver_ipv4_first,
     false},
    {"node",
     {"17.0.0", "20.0.0"},
     "Node.js 17 to 19",
     "first address only; Windows: no SYN retries on loopback",
     ConnectAlgorithm::first_address,
     0ms,
     FastFail::loopback,
     AddressSource::resolver,
     false},
    {"node",
     {"20.0.0", "25.2.0"},
     "Node.js 20.0 to 25.1",
     "autoSelectFamily, 250 ms per attempt; Windows: no SYN retries",
     ConnectAlgorithm::attempt_timeout,
     250ms,
     FastFail::loopback,
     AddressSource::resolver,
     false},
    {"node",
     {"25.2.0", ""},
     "Node.js >= 25.2",
     "autoSelectFamily, 500 ms per attempt; Windows: no SYN retries",
     ConnectAlgorithm::attempt_timeout,
     500ms,
     FastFail::loopback,
     AddressSource::resolver,
     false},
    {"go",
     {},
     "Go net.Dial",
     "own RFC 6724 order, fallback 300 ms; Windows: no SYN retries",
     ConnectAlgorithm::go_dual_stack,
     300ms,
     FastFail::loopback,
     AddressSource::go_rfc6724,
     false},
    {"java-socket",
     {},
     "Java java.net.Socket",
     "one address, IPv4 preferred",
     ConnectAlgorithm::first_ipv4,
     0ms,
     FastFail::none,
     AddressSource::resolver,
     false},
    {"java-httpclient",
     {},
     "Java HttpClient",
     "one address, IPv4 preferred; a refusal is retried once",
     ConnectAlgorithm::first_ipv4,
     0ms,
     FastFail::none,
     AddressSource::resolver,
     false,
     true},
}};

constexpr Micros never = Micros::max();

bool fast_fail_applies(FastFail f, const Address& a) {
    switch (f) {
    case FastFail::none:
        return false;
    case FastFail::loopback:
        return is_loopback(a);
    case FastFail::loopback_literals: {
        const auto ip = ip_string(a);
        return ip == "127.0.0.1" || ip == "::1";
    }
    }
    return false;
}

ConnectPrediction sequential(std::span<const Attempt> attempts) {
    ConnectPrediction p;
    for (const auto& a : attempts) {
        ++p.attempts;
        p.time += a.cost;
        p.lower_bound = p.lower_bound || a.outcome == Outcome::timeout;
        if (a.outcome == Outcome::accepted) {
            p.connected = true;
            p.via = a.address;
            return p;
        }
    }
    return p;
}

/// RFC 8305 section 5: attempt k+1 starts `delay` after attempt k, or as
/// soon as every attempt started so far has failed, whichever is first; the
/// first attempt to succeed wins.
ConnectPrediction happy_eyeballs(Micros delay, std::span<const Attempt> attempts) {
    ConnectPrediction p;
    Micros best = never, prev_start{0}, last_end{0};
    std::optional<Address> via;
    bool any_success_started = false;
    for (std::size_t k = 0; k < attempts.size(); ++k) {
        Micros start{0};
        if (k > 0) {
            start = prev_start + delay;
            if (!any_success_started)
                start = std::min(start, last_end); // all earlier ones have failed by then
            if (best <= start)
                break;
        }
        const auto& a = attempts[k];
        ++p.attempts;
        p.lower_bound = p.lower_bound || a.outcome == Outcome::timeout;
        const Micros end = start + a.cost;
        if (a.outcome == Outcome::accepted) {
            any_success_started = true;
            if (end < best) {
                best = end;
                via = a.address;
            }
        }
        last_end = std::max(last_end, end);
        prev_start = start;
    }
    if (best != never) {
        p.connected = true;
        p.time = best;
        p.via = via;
        // Attempts that had not ended when the winner connected do not add
        // to the wait, timed out or not.
        p.lower_bound = false;
        for (std::size_t k = 0; k < static_cast<std::size_t>(p.attempts); ++k)
            if (attempts[k].outcome == Outcome::timeout && attempts[k].cost < best)
                p.lower_bound = true;
    } else {
        p.time = last_end;
    }
    return p;
}

/// Go's dialParallel (and curl's two "ballers" up to 8.15): the primaries
/// (the first address's family) are tried in turn; the fallbacks, in turn
/// too, start after the delay or as soon as the primaries have all failed.
ConnectPrediction go_dual_stack(Micros delay, std::span<const Attempt> attempts) {
    if (attempts.empty())
        return {};
    std::vector<Attempt> primaries, fallbacks;
    for (const auto& a : attempts)
        (a.address.family == attempts.front().address.family ? primaries : fallbacks).push_back(a);
    auto primary = sequential(primaries);
    if (fallbacks.empty())
        return primary;
    const Micros fallback_start = primary.connected ? delay : std::min(delay, primary.time);
    if (primary.connected && primary.time <= fallback_start)
        return primary;
    auto fallback = sequential(fallbacks);
    fallback.time += fallback_start;
    const int attempts_started = primary.attempts + fallback.attempts;
    ConnectPrediction p;
    if (primary.connected && (!fallback.connected || primary.time <= fallback.time)) {
        p = primary;
    } else if (fallback.connected) {
        p = fallback;
        // A primary that timed out before the fallback won moved its start.
        p.lower_bound = fallback.lower_bound || (primary.lower_bound && primary.time < p.time);
    } else {
        p.time = std::max(primary.time, fallback.time);
        p.lower_bound = primary.lower_bound || fallback.lower_bound;
    }
    p.attempts = attempts_started;
    return p;
}

ConnectPrediction first_ipv4(std::span<const Attempt> attempts) {
    if (attempts.empty())
        return {};
    auto it = std::find_if(attempts.begin(), attempts.end(),
                           [](const Attempt& a) { return a.address.family == Family::ipv4; });
    if (it == attempts.end())
        it = attempts.begin();
    return sequential(std::span<const Attempt>(&*it, 1));
}

/// Node.js autoSelectFamily (lib/net.js internalConnectMultiple): one
/// attempt at a time; every attempt but the last is destroyed after
/// `limit` and the next one starts; a failure starts the next at once.
ConnectPrediction attempt_timeout(Micros limit, std::span<const Attempt> attempts) {
    ConnectPrediction p;
    for (std::size_t k = 0; k < attempts.size(); ++k) {
        const auto& a = attempts[k];
        const bool last = k + 1 == attempts.size();
        ++p.attempts;
        if (!last && a.cost > limit) {
            p.time += limit; // cut short, whatever it would have done
            continue;
        }
        p.time += a.cost;
        p.lower_bound = p.lower_bound || a.outcome == Outcome::timeout;
        if (a.outcome == Outcome::accepted) {
            p.connected = true;
            p.via = a.address;
            return p;
        }
    }
    return p;
}

bool same_name_ci(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

} // namespace

int rfc6724_precedence(const Address& a) noexcept {
    if (a.family == Family::ipv4)
        return 35; // ::ffff:0:0/96
    const auto& b = a.bytes;
    auto zero = [&](std::size_t from, std::size_t to) {
        return std::all_of(b.begin() + static_cast<std::ptrdiff_t>(from),
                           b.begin() + static_cast<std::ptrdiff_t>(to),
                           [](std::uint8_t x) { return x == 0; });
    };
    if (zero(0, 15) && b[15] == 1)
        return 50; // ::1/128
    if (b[0] == 0x20 && b[1] == 0x02)
        return 30; // 2002::/16
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0)
        return 5; // 2001::/32
    if ((b[0] & 0xfe) == 0xfc)
        return 3; // fc00::/7
    if (zero(0, 12) || (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0) || (b[0] == 0x3f && b[1] == 0xfe))
        return 1; // ::/96, fec0::/10, 3ffe::/16
    return 40;    // ::/0
}

std::span<const ClientModel> client_models() {
    return models;
}

ConnectPrediction simulate(ConnectAlgorithm kind, Micros delay, std::span<const Attempt> attempts) {
    switch (kind) {
    case ConnectAlgorithm::sequential:
        return sequential(attempts);
    case ConnectAlgorithm::happy_eyeballs:
        return happy_eyeballs(delay, attempts);
    case ConnectAlgorithm::go_dual_stack:
        return go_dual_stack(delay, attempts);
    case ConnectAlgorithm::first_ipv4:
        return first_ipv4(attempts);
    case ConnectAlgorithm::first_address:
        return attempts.empty() ? ConnectPrediction{} : sequential(attempts.first(1));
    case ConnectAlgorithm::attempt_timeout:
        return attempt_timeout(delay, attempts);
    }
    return {};
}

bool curl_answers_itself(std::string_view host) noexcept {
    if (!host.empty() && host.back() == '.')
        host.remove_suffix(1);
    constexpr std::string_view suffix = ".localhost";
    return same_name_ci(host, "localhost") ||
           (host.size() > suffix.size() &&
            same_name_ci(host.substr(host.size() - suffix.size()), suffix));
}

std::vector<std::size_t> attempt_order(const ClientModel& client,
                                       std::span<const Address> addresses) {
    std::vector<std::size_t> order(addresses.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    auto family = [&](std::size_t i) { return addresses[i].family; };
    if (client.ipv6_first)
        std::stable_partition(order.begin(), order.end(),
                              [&](std::size_t i) { return family(i) == Family::ipv6; });
    if (client.source == AddressSource::resolver_ipv4_first)
        std::stable_partition(order.begin(), order.end(),
                              [&](std::size_t i) { return family(i) == Family::ipv4; });
    const bool interleaves = client.kind == ConnectAlgorithm::happy_eyeballs ||
                             client.kind == ConnectAlgorithm::attempt_timeout;
    if (interleaves && !order.empty()) {
        // RFC 8305 section 4 (First Address Family Count 1), and Node.js's
        // toAttempt list: alternate families, starting with the first
        // address's.
        std::vector<std::size_t> first, other, mixed;
        for (auto i : order)
            (family(i) == family(order.front()) ? first : other).push_back(i);
        for (std::size_t k = 0; k < std::max(first.size(), other.size()); ++k) {
            if (k < first.size())
                mixed.push_back(first[k]);
            if (k < other.size())
                mixed.push_back(other[k]);
        }
        order = std::move(mixed);
    }
    return order;
}

std::vector<Attempt> attempts_for(const ClientModel& client, std::span<const Observation> obs,
                                  const ClientContext& ctx) {
    // The client's own address list.
    std::vector<const Observation*> list;
    const bool own_localhost = (client.source == AddressSource::curl_localhost_ipv4_first ||
                                client.source == AddressSource::curl_localhost_ipv6_first) &&
                               curl_answers_itself(ctx.host);
    if (own_localhost) {
        // curl never asks the resolver: whatever the hosts file or gai.conf
        // say, it tries these two. An address the resolver did not give was
        // probed on the side (ctx.curl_localhost); one probed nowhere cannot
        // be costed and is left out.
        const bool v6_first = client.source == AddressSource::curl_localhost_ipv6_first;
        for (std::string_view ip :
             {v6_first ? "::1" : "127.0.0.1", v6_first ? "127.0.0.1" : "::1"}) {
            for (auto from : {obs, ctx.curl_localhost}) {
                const auto it = std::find_if(from.begin(), from.end(), [&](const Observation& o) {
                    return ip_string(o.address) == ip;
                });
                if (it != from.end()) {
                    list.push_back(&*it);
                    break;
                }
            }
        }
    } else {
        for (const auto& o : obs)
            list.push_back(&o);
        // Go's pure resolver (Linux, macOS) reads the hosts file itself and
        // sorts by its own RFC 6724 table, ignoring gai.conf; on Windows it
        // asks the OS, whose order the observations already have.
        if (client.source == AddressSource::go_rfc6724 && ctx.os != Os::windows)
            std::stable_sort(
                list.begin(), list.end(), [](const Observation* a, const Observation* b) {
                    return rfc6724_precedence(a->address) > rfc6724_precedence(b->address);
                });
    }
    std::vector<Address> addresses;
    addresses.reserve(list.size());
    for (const auto* o : list)
        addresses.push_back(o->address);
    std::vector<Attempt> out;
    out.reserve(list.size());
    for (auto k : attempt_order(client, addresses)) {
        const auto& o = *list[k];
        Attempt a{o.address, o.summary.outcome, o.summary.latency.median};
        // Only Windows retries a refused SYN, so only there does turning
        // the retries off change anything.
        if (ctx.os == Os::windows && fast_fail_applies(client.fast, o.address) &&
            o.summary.fast_latency && o.summary.fast_outcome) {
            a.outcome = *o.summary.fast_outcome;
            a.cost = o.summary.fast_latency->median;
        }
        out.push_back(a);
    }
    return out;
}

ConnectPrediction predict(const ClientModel& client, std::span<const Observation> obs,
                          const ClientContext& ctx) {
    const auto attempts = attempts_for(client, obs, ctx);
    auto p = simulate(client.kind, client.delay, attempts);
    if (client.retry_refused && !p.connected && p.attempts > 0 && !p.lower_bound) {
        // A refused connect (ConnectException) makes the whole connect run
        // again, once; a timed-out one (lower_bound) is not retried.
        p.time += p.time;
        p.attempts *= 2;
    }
    return p;
}

std::vector<Observation> as_on_windows(std::span<const Observation> obs) {
    std::vector<Observation> out(obs.begin(), obs.end());
    for (auto& o : out) {
        auto& s = o.summary;
        if (s.outcome != Outcome::refused || s.fast_latency)
            continue;
        s.fast_outcome = Outcome::refused;
        s.fast_latency = s.latency;
        for (Micros* m : {&s.latency.min, &s.latency.median, &s.latency.max, &s.latency.mean})
            *m += windows_refusal_retries;
    }
    return out;
}

std::vector<ClientImpact> predict_clients(std::span<const Observation> obs,
                                          const ClientContext& ctx) {
    std::vector<ClientImpact> out;
    std::vector<Observation> windows_obs, windows_extra;
    if (ctx.os != Os::windows) {
        windows_obs = as_on_windows(obs);
        windows_extra = as_on_windows(ctx.curl_localhost);
    }
    for (const auto& m : client_models()) {
        ClientImpact c;
        c.id = std::string(m.id);
        if (!m.versions.min.empty())
            c.min_version = std::string(m.versions.min);
        if (!m.versions.below.empty())
            c.below_version = std::string(m.versions.below);
        c.client = std::string(m.name);
        c.algorithm = std::string(m.algorithm);
        c.prediction = predict(m, obs, ctx);
        if (ctx.os != Os::windows)
            c.windows = predict(m, windows_obs, {ctx.host, Os::windows, windows_extra});
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace loopcheck
