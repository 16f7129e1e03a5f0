#include "loopcheck/core/clients.hpp"

#include <algorithm>
#include <array>
#include <limits>

namespace loopcheck {

namespace {

using namespace std::chrono_literals;

// Sources (see docs/diagnosis.md): Python socket.create_connection and
// urllib3 loop over getaddrinfo in order; .NET HttpClient connects to a
// DnsEndPoint address by address; asyncio's suggested happy_eyeballs_delay
// is 0.25 s; curl's Happy Eyeballs default is 200 ms with IPv6 first; curl
// 8.22 turns SYN retries off for 127.0.0.1 and ::1 on Windows; libuv (Node)
// and Go do it for all loopback; Go's FallbackDelay is 300 ms; Java prefers
// IPv4 and tries one address.
constexpr std::array<ClientModel, 8> models{{
    {"Python requests / socket.create_connection", "sequential", ConnectAlgorithm::sequential, 0ms,
     FastFail::none, false},
    {".NET HttpClient", "sequential", ConnectAlgorithm::sequential, 0ms, FastFail::none, false},
    {"Python asyncio, happy_eyeballs_delay=0.25", "Happy Eyeballs 250 ms",
     ConnectAlgorithm::happy_eyeballs, 250ms, FastFail::none, false},
    {"curl < 8.22", "Happy Eyeballs 200 ms, IPv6 first", ConnectAlgorithm::happy_eyeballs, 200ms,
     FastFail::none, true},
    {"curl >= 8.22", "Happy Eyeballs 200 ms, no SYN retries to 127.0.0.1/::1",
     ConnectAlgorithm::happy_eyeballs, 200ms, FastFail::loopback_literals, true},
    {"Node.js (libuv)", "sequential, no SYN retries on loopback", ConnectAlgorithm::sequential, 0ms,
     FastFail::loopback, false},
    {"Go net.Dial", "fallback after 300 ms, no SYN retries on loopback",
     ConnectAlgorithm::go_dual_stack, 300ms, FastFail::loopback, false},
    {"Java java.net.Socket", "one address, IPv4 preferred", ConnectAlgorithm::first_ipv4, 0ms,
     FastFail::none, false},
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

/// Go's dialParallel: the primaries (the first address's family) are
/// tried in turn; the fallbacks, in turn too, start after FallbackDelay or
/// as soon as the primaries have all failed.
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

} // namespace

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
    }
    return {};
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
    if (client.kind == ConnectAlgorithm::happy_eyeballs && !order.empty()) {
        // RFC 8305 section 4: alternate families, starting with the first
        // address's (First Address Family Count 1).
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

std::vector<Attempt> attempts_for(const ClientModel& client, std::span<const Observation> obs) {
    std::vector<Address> addresses;
    addresses.reserve(obs.size());
    for (const auto& o : obs)
        addresses.push_back(o.address);
    std::vector<Attempt> out;
    out.reserve(obs.size());
    for (auto i : attempt_order(client, addresses)) {
        const auto& o = obs[i];
        Attempt a{o.address, o.summary.outcome, o.summary.latency.median};
        if (fast_fail_applies(client.fast, o.address) && o.summary.fast_latency &&
            o.summary.fast_outcome) {
            a.outcome = *o.summary.fast_outcome;
            a.cost = o.summary.fast_latency->median;
        }
        out.push_back(a);
    }
    return out;
}

std::vector<ClientImpact> predict_clients(std::span<const Observation> obs) {
    std::vector<ClientImpact> out;
    for (const auto& m : client_models()) {
        const auto attempts = attempts_for(m, obs);
        out.push_back(
            {std::string(m.name), std::string(m.algorithm), simulate(m.kind, m.delay, attempts)});
    }
    return out;
}

} // namespace loopcheck
