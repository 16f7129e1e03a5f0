// The advice half of the diagnosis: the fixes to offer (client settings,
// the address to use, the server to start or rebind), the exit code and the
// one-line verdict, from the findings diagnose.cpp made.
#include "core/diagnose_listeners.hpp"
#include "core/diagnoser.hpp"
#include "core/verdict.hpp"
#include "loopcheck/core/clients.hpp"
#include "loopcheck/core/exit_codes.hpp"
#include "loopcheck/core/servers.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck::detail {

using namespace std::chrono_literals;

void Diagnoser::client_fixes() {
    // A fix that is a client setting, named for the case measured: which
    // family the server accepts on, and which clients pay for it here.
    if (!first_accept_ || !name_target())
        return;
    const Family served = obs_[*first_accept_].address.family;
    const bool other_fails = std::any_of(obs_.begin(), obs_.end(), [&](const Observation& o) {
        return o.address.family != served && !accepted(o);
    });
    if (!other_fails)
        return;
    auto pays = [&](std::string_view id) {
        return std::any_of(d_.clients.begin(), d_.clients.end(),
                           [&](const ClientImpact& c) { return c.id == id && client_pays(c); });
    };
    if (served == Family::ipv4) {
        if (pays("node"))
            d_.fixes.push_back("Node.js: start it with --dns-result-order=ipv4first (or call "
                               "dns.setDefaultResultOrder('ipv4first')) so it tries 127.0.0.1 "
                               "first.");
        if (pays("dotnet"))
            d_.fixes.push_back(".NET: set DOTNET_SYSTEM_NET_DISABLEIPV6=1 so it does not try ::1.");
        if (pays("curl"))
            d_.fixes.push_back("curl: add -4 (--ipv4).");
        return;
    }
    // IPv6 only: the clients that never try ::1 fail outright.
    std::vector<std::string> failing;
    for (const auto& c : d_.clients)
        if (!c.prediction.connected)
            failing.push_back(c.client);
    if (!failing.empty())
        d_.fixes.push_back(fmt::format(
            "These clients never try {0} and fail here: {1}. Connect them to {0} (for a URL, "
            "the host [{2}]), or make {3} listen on 127.0.0.1 as well.",
            endpoint_string(obs_[*first_accept_].address), fmt::join(failing, ", "),
            ip_string(obs_[*first_accept_].address),
            server_name(listener_at(obs_[*first_accept_].address))));
    // A recognised server gets its own setting here too (Vite's default
    // 'localhost' binds ::1 alone where ::1 comes first; docs/servers.md).
    if (const Listener* server = listener_at(obs_[*first_accept_].address);
        !failing.empty() && server && server->server) {
        if (std::string own = server_own_fix(*server->server, obs_[*first_accept_].address.port);
            !own.empty()) {
            d_.server_fix = d_.fixes.size();
            d_.fixes.push_back(std::move(own));
        }
    }
    if (pays("java-socket") || pays("java-httpclient"))
        d_.fixes.push_back("Java: run it with -Djava.net.preferIPv6Addresses=true so it prefers "
                           "::1.");
    if (pays("curl"))
        d_.fixes.push_back("curl: add -6 (--ipv6).");
}

void Diagnoser::both_families_fix(const Listener* server, const Address& winner) {
    // A recognised server gets its own setting (docs/servers.md).
    std::string own =
        server && server->server ? server_own_fix(*server->server, winner.port) : std::string();
    if (!own.empty())
        d_.server_fix = d_.fixes.size();
    d_.fixes.push_back(!own.empty() ? std::move(own)
                                    : fmt::format("Or make {} listen on both ::1 and "
                                                  "127.0.0.1, or on [::] with IPV6_V6ONLY "
                                                  "off, so every address of the name accepts.",
                                                  server_name(server)));
}

void Diagnoser::windows_fixes() {
    // Off Windows, this machine may be fine while the same set-up costs a
    // Windows user 2 s per connection, or fails: Windows answers localhost
    // itself, ::1 first, and retries a refused SYN. The client settings
    // below cover the clients that pay here; for the others the address
    // that accepts (and a server on both families) is the fix.
    if (!first_accept_ || !name_target() || os_ == Os::windows || in_.expect_refused ||
        in_.own_listener)
        return;
    const bool address_fix_given = *first_accept_ > 0 && penalty_ > in_.threshold;
    const bool pays_on_windows_only =
        std::any_of(d_.clients.begin(), d_.clients.end(), [&](const ClientImpact& c) {
            return c.windows && !client_pays(c) &&
                   (!c.windows->connected || c.windows->time > in_.threshold);
        });
    const auto& winner = obs_[*first_accept_].address;
    const bool pays_here = std::any_of(d_.clients.begin(), d_.clients.end(),
                                       [&](const ClientImpact& c) { return client_pays(c); });
    // A server on ::1 alone: client_fixes() tells the clients that fail
    // here to connect to it already.
    if (address_fix_given || !pays_on_windows_only || (winner.family == Family::ipv6 && pays_here))
        return;
    const Listener* server = listener_at(winner);
    d_.rewritten = rewrite_host(*in_.target, winner);
    const std::string why =
        winner.family == Family::ipv4 && windows_answers_itself(in_.target->host)
            ? "Windows tries IPv6 first for localhost and waits about 2 s for its refusal"
            : "Windows waits about 2 s for each refused address";
    // The address that accepts serves the clients that pay here as well.
    const std::string who =
        fmt::format("For Windows users ({}){}", why,
                    pays_here ? ", and the clients that fail or wait here" : "");
    d_.fixes.push_back(
        server
            ? fmt::format("{}: connect to {} instead of {}; {} listens on {}.", who, *d_.rewritten,
                          in_.target->input, owner_string(*server), bound_string(*server))
            : fmt::format("{}: connect to {} instead of {}, the address that accepts.", who,
                          *d_.rewritten, in_.target->input));
    // With IPv6 off here no server can listen on ::1 (the ipv6-off finding).
    if (std::none_of(obs_.begin(), obs_.end(), ipv6_off_at))
        both_families_fix(server, winner);
}

void Diagnoser::fallback_fixes() {
    const bool slow_fallback = first_accept_ && *first_accept_ > 0 && penalty_ > in_.threshold;
    if (slow_fallback && name_target()) {
        const auto& winner = obs_[*first_accept_].address;
        const Listener* server = listener_at(winner);
        d_.rewritten = rewrite_host(*in_.target, winner);
        d_.fixes.push_back(
            server ? fmt::format("Connect to {} instead of {}: {} listens on {}.", *d_.rewritten,
                                 in_.target->input, owner_string(*server), bound_string(*server))
                   : fmt::format("Connect to {} instead of {}: it is the address that accepts.",
                                 *d_.rewritten, in_.target->input));
        both_families_fix(server, winner);
        if (winner.family == Family::ipv6) {
            d_.fixes.push_back("Do not switch to 127.0.0.1: the server listens on IPv6 only, "
                               "and nothing accepts there.");
        }
        d_.fixes.push_back(
            os_ == Os::windows
                ? "Or use a client that does not wait out the retries: one with Happy Eyeballs "
                  "(asyncio happy_eyeballs_delay=0.25, curl, Go) or one that turns SYN retries "
                  "off on loopback (Node.js >= 14.9, Go >= 1.21, curl >= 8.22)."
                : "Or use a client that does not wait for the failed address: one with Happy "
                  "Eyeballs (asyncio happy_eyeballs_delay=0.25, curl, Go) or Node.js >= 20 "
                  "(autoSelectFamily).");
    } else if (first_accept_ && *first_accept_ > 0 && name_target()) {
        d_.rewritten = rewrite_host(*in_.target, obs_[*first_accept_].address);
    }
}

void Diagnoser::fixes() {
    fallback_fixes();
    const bool slow_refusal = std::any_of(d_.findings.begin(), d_.findings.end(),
                                          [](auto& f) { return f.id == finding_id::slow_refusal; });
    const bool elsewhere = std::any_of(d_.findings.begin(), d_.findings.end(), [](auto& f) {
        return f.id == finding_id::listener_elsewhere;
    });
    if (!first_accept_ && !in_.expect_refused && elsewhere) {
        // The server runs, on an address the client does not use.
        std::string rewritten;
        std::vector<Observation> usable;
        for (const auto& o : obs_)
            if (!ipv6_off_at(o))
                usable.push_back(o);
        auto advice = listener_words::elsewhere_fixes(port_listeners_, *in_.target,
                                                      usable.empty() ? obs_ : usable, rewritten);
        // "Listen on the tried addresses as well" needs an address that
        // exists here: not when the only one tried was ::1 with IPv6 off.
        if (usable.empty())
            advice.resize(1);
        for (auto& f : advice)
            d_.fixes.push_back(std::move(f));
        d_.rewritten = std::move(rewritten);
    } else if (!first_accept_ && !in_.expect_refused && port_listeners_.empty() &&
               !some_client_connects()) {
        // (When something listens at an address that timed out, the server
        // runs: the no-answer finding says what to look at instead.)
        d_.fixes.push_back(fmt::format("Start the server, or check which port and address it "
                                       "listens on (port {} here).",
                                       in_.target->port));
    }
    if (!first_accept_ && slow_refusal) {
        d_.fixes.push_back(
            os_ == Os::windows
                ? "A test that uses a closed port as \"a server that is down\" pays the slow "
                  "refusal on every call: give that connect a short timeout (0.5 s), or turn "
                  "SYN retries off for it (SIO_TCP_INITIAL_RTO), or use Node.js >= 14.9 or Go >= "
                  "1.21."
                : "A test that uses a closed port as \"a server that is down\" pays the slow "
                  "refusal on every call: give that connect a short timeout (0.5 s).");
    }
    windows_fixes();
    client_fixes();
}

void Diagnoser::verdict() {
    VerdictFacts v;
    v.input = in_.target->input;
    v.addresses = obs_.size();
    v.threshold = in_.threshold;
    v.timeout = in_.timeout;
    if (first_accept_) {
        v.winner = obs_[*first_accept_].address;
        v.winner_time = penalty_ + cost(obs_[*first_accept_]);
    }
    for (const auto& o : obs_) {
        v.any_refused = v.any_refused || o.summary.outcome == Outcome::refused;
        v.any_timeout = v.any_timeout || o.summary.outcome == Outcome::timeout;
        if (!v.slow_refused && o.summary.outcome == Outcome::refused && cost(o) > in_.threshold) {
            v.slow_refused = o.address;
            v.slow_refused_time = cost(o);
        }
    }
    auto decided = decide_verdict(d_.findings, v);
    d_.verdict = std::move(decided.line);
    d_.verdict_says = std::string(decided.says);
    d_.exit_code = decided.exit_code;
}

} // namespace loopcheck::detail
