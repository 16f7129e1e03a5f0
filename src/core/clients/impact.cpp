// The client-impact model: each client's attempts (its address order, each address's measured
// cost) run through its algorithm.
#include "loopcheck/core/clients/impact.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <limits>

namespace loopcheck {

namespace {

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
    if (client.source == AddressSource::anyio_ipv6_first) {
        // anyio's connect_tcp (_core/_sockets.py): the first IPv6 address
        // goes to the front, the first IPv4 address seen after it second,
        // every other address after them in the resolver's order.
        std::vector<std::size_t> front, rest;
        bool v6 = false, v4 = false;
        for (auto i : order) {
            if (family(i) == Family::ipv6 && !v6) {
                v6 = true;
                front.insert(front.begin(), i);
            } else if (family(i) == Family::ipv4 && v6 && !v4) {
                v4 = true;
                front.insert(front.begin() + 1, i);
            } else {
                rest.push_back(i);
            }
        }
        front.insert(front.end(), rest.begin(), rest.end());
        order = std::move(front);
    }
    // anyio starts the next address in its own order, without interleaving.
    const bool interleaves = (client.kind == ConnectAlgorithm::happy_eyeballs ||
                              client.kind == ConnectAlgorithm::attempt_timeout) &&
                             client.source != AddressSource::anyio_ipv6_first;
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
    ClientModel as_run = client;
    if (client.sequential_on_windows && ctx.os == Os::windows) {
        // Built without its Happy Eyeballs (Ruby >= 3.4 on Windows): the
        // resolver's order, one address after another.
        as_run.kind = ConnectAlgorithm::sequential;
        as_run.delay = Micros{0};
        as_run.ipv6_first = false;
    }
    const auto attempts = attempts_for(as_run, obs, ctx);
    auto p = simulate(as_run.kind, as_run.delay, attempts);
    if (client.retry_refused && !p.connected && p.attempts > 0 && !p.lower_bound) {
        // A refused connect (ConnectException) makes the whole connect run
        // again, once; a timed-out one (lower_bound) is not retried.
        p.time += p.time;
        p.attempts *= 2;
    }
    return p;
}

bool windows_answers_itself(std::string_view host) noexcept {
    if (!host.empty() && host.back() == '.')
        host.remove_suffix(1);
    return same_name_ci(host, "localhost");
}

std::vector<Observation> as_on_windows(std::span<const Observation> obs, const ClientContext& ctx,
                                       WindowsProjection* projection) {
    std::vector<Observation> out;
    std::string assumed;
    if (windows_answers_itself(ctx.host)) {
        // Windows' DNS client answers localhost itself (the stock hosts
        // file says "localhost name resolution is handled within DNS
        // itself"), and sorts ::1 first by RFC 6724's default policy.
        for (std::string_view ip : {"::1", "127.0.0.1"}) {
            for (auto from : {obs, ctx.curl_localhost}) {
                const auto it = std::find_if(from.begin(), from.end(), [&](const Observation& o) {
                    return ip_string(o.address) == ip;
                });
                if (it != from.end()) {
                    out.push_back(*it);
                    break;
                }
            }
        }
        assumed = "localhost as Windows answers it itself: ::1, then 127.0.0.1";
        if (out.size() < 2)
            assumed += " (only the probed ones)";
    } else {
        out.assign(obs.begin(), obs.end());
        assumed = "this machine's address order (Windows' resolver may order the name differently)";
    }
    for (auto& o : out) {
        auto& s = o.summary;
        // IPv6 off here: Windows always has ::1, and nothing listens there.
        if (o.address.family == Family::ipv6 && is_loopback(o.address) &&
            s.outcome == Outcome::unreachable)
            s.outcome = Outcome::refused;
        if (s.outcome != Outcome::refused)
            continue;
        // Without retries: Windows' own figure, not this machine's refusal
        // (0.067 ms on Linux's ::1, 1 ms or more in a slow lab): what a
        // refusal costs here says nothing about Windows.
        const Micros fast = windows_fast_refusal;
        s.fast_outcome = Outcome::refused;
        s.fast_latency = s.latency;
        for (Micros* m : {&s.fast_latency->min, &s.fast_latency->median, &s.fast_latency->max,
                          &s.fast_latency->mean})
            *m = fast;
        for (Micros* m : {&s.latency.min, &s.latency.median, &s.latency.max, &s.latency.mean})
            *m = windows_refusal_retries;
    }
    assumed += "; a refusal costs 2 s (4 SYN retries 500 ms apart, the default), 1 ms with "
               "SYN retries off";
    if (projection) {
        projection->addresses.clear();
        for (const auto& o : out)
            projection->addresses.push_back(o.address);
        projection->assumed = std::move(assumed);
    }
    return out;
}

namespace {

/// Whether two rows' models predict alike: the fields attempts_for,
/// attempt_order, simulate and predict read. Many rows differ only in their
/// names and libraries.
bool same_behaviour(const ClientModel& a, const ClientModel& b) noexcept {
    return a.kind == b.kind && a.delay == b.delay && a.fast == b.fast && a.source == b.source &&
           a.ipv6_first == b.ipv6_first && a.retry_refused == b.retry_refused;
}

/// For each row of client_models(), the first row that behaves the same
/// (itself when none before it does): its predictions are reused.
const std::vector<std::size_t>& first_alike() {
    static const std::vector<std::size_t> index = [] {
        const auto models = client_models();
        std::vector<std::size_t> v(models.size());
        for (std::size_t i = 0; i < models.size(); ++i) {
            v[i] = i;
            for (std::size_t j = 0; j < i; ++j) {
                if (same_behaviour(models[j], models[i])) {
                    v[i] = j;
                    break;
                }
            }
        }
        return v;
    }();
    return index;
}

} // namespace

std::vector<ClientImpact> predict_clients(std::span<const Observation> obs,
                                          const ClientContext& ctx, WindowsProjection* projection) {
    const auto models = client_models();
    const auto& alike = first_alike();
    std::vector<ClientImpact> out;
    out.reserve(models.size());
    std::vector<Observation> windows_obs;
    const bool windows = ctx.os != Os::windows && ctx.full_rows;
    if (windows)
        windows_obs = as_on_windows(obs, ctx, projection);
    for (std::size_t i = 0; i < models.size(); ++i) {
        const auto& m = models[i];
        ClientImpact c;
        c.id = std::string(m.id);
        c.client = std::string(m.name);
        if (ctx.full_rows) {
            if (!m.versions.min.empty())
                c.min_version = std::string(m.versions.min);
            if (!m.versions.below.empty())
                c.below_version = std::string(m.versions.below);
            c.algorithm = std::string(m.algorithm);
            for (std::string_view rest = m.libraries; !rest.empty();) {
                const auto cut = rest.find(", ");
                c.libraries.emplace_back(rest.substr(0, cut));
                rest = cut == std::string_view::npos ? std::string_view{} : rest.substr(cut + 2);
            }
            c.reuse_note = std::string(m.reuse_note);
        }
        c.reuse = m.reuse;
        if (alike[i] < i) {
            c.prediction = out[alike[i]].prediction;
            c.windows = out[alike[i]].windows;
        } else {
            c.prediction = predict(m, obs, ctx);
            // Windows' list already holds curl's own answer for localhost.
            if (windows)
                c.windows = predict(m, windows_obs, {ctx.host, Os::windows, {}});
        }
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace loopcheck
