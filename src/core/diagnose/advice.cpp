// The advice half of the diagnosis: the fixes to offer (client settings,
// the address to use, the server to start or rebind), the exit code and the
// one-line verdict, from the findings diagnose.cpp made.
#include "core/diagnose/diagnoser.hpp"
#include "core/diagnose/listeners.hpp"
#include "core/diagnose/verdict.hpp"
#include "loopcheck/core/clients/impact.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/listeners/servers.hpp"

#include <algorithm>

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
    using Which = facts::ClientSetting::Which;
    if (served == Family::ipv4) {
        if (pays("node"))
            d_.fixes.emplace_back(facts::ClientSetting{Which::node_ipv4_first});
        if (pays("dotnet"))
            d_.fixes.emplace_back(facts::ClientSetting{Which::dotnet_no_ipv6});
        if (pays("curl"))
            d_.fixes.emplace_back(facts::ClientSetting{Which::curl_ipv4});
        return;
    }
    // IPv6 only: the clients that never try ::1 fail outright.
    const Address& winner = obs_[*first_accept_].address;
    const Listener* server = listener_at(winner);
    facts::ConnectFailingClients failing{winner, {}, known(server)};
    for (const auto& c : d_.clients)
        if (!c.prediction.connected)
            failing.clients.push_back(c.client);
    const bool any_fail = !failing.clients.empty();
    if (any_fail)
        d_.fixes.emplace_back(std::move(failing));
    // A recognised server gets its own setting here too (Vite's default
    // 'localhost' binds ::1 alone where ::1 comes first; docs/servers.md).
    if (any_fail && server && server->server && has_own_fix(*server->server)) {
        d_.server_fix = d_.fixes.size();
        d_.fixes.emplace_back(facts::ServerOwn{*server->server, winner.port});
    }
    if (pays("java-socket") || pays("java-httpclient"))
        d_.fixes.emplace_back(facts::ClientSetting{Which::java_prefer_ipv6});
    if (pays("curl"))
        d_.fixes.emplace_back(facts::ClientSetting{Which::curl_ipv6});
}

void Diagnoser::both_families_fix(const Listener* server, const Address& winner) {
    // A recognised server gets its own setting (docs/servers.md).
    if (server && server->server && has_own_fix(*server->server)) {
        d_.server_fix = d_.fixes.size();
        d_.fixes.emplace_back(facts::ServerOwn{*server->server, winner.port});
    } else {
        d_.fixes.emplace_back(facts::BothFamilies{known(server)});
    }
}

void Diagnoser::windows_fixes() {
    // Off Windows, this machine may be fine while the same set-up costs a
    // Windows user 2 s per connection, or fails: Windows answers localhost
    // itself, ::1 first, and retries a refused SYN. The client settings
    // below cover the clients that pay here; for the others the address
    // that accepts (and a server on both families) is the fix.
    if (!first_accept_ || !name_target() || os_ == Os::windows || in_.expect_refused ||
        in_.own_listener || in_.own_socket)
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
    // The address that accepts serves the clients that pay here as well.
    d_.fixes.emplace_back(facts::WindowsConnect{*d_.rewritten, in_.target->input,
                                                winner.family == Family::ipv4 &&
                                                    windows_answers_itself(in_.target->host),
                                                pays_here, known(server)});
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
        d_.fixes.emplace_back(
            facts::ConnectInstead{*d_.rewritten, in_.target->input, known(server)});
        both_families_fix(server, winner);
        if (winner.family == Family::ipv6)
            d_.fixes.emplace_back(facts::KeepIpv6{});
        d_.fixes.emplace_back(facts::NoWaitClient{os_ == Os::windows});
    } else if (first_accept_ && *first_accept_ > 0 && name_target()) {
        d_.rewritten = rewrite_host(*in_.target, obs_[*first_accept_].address);
    }
}

void Diagnoser::fixes() {
    // loopcheck's own throwaway sockets: a fix would point at loopcheck.
    if (in_.own_socket)
        return;
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
        d_.fixes.emplace_back(facts::StartServer{in_.target->port});
    }
    if (!first_accept_ && slow_refusal) {
        d_.fixes.emplace_back(facts::ClosedPortTest{os_ == Os::windows});
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
    d_.verdict = decide_verdict(d_.findings, v);
    d_.exit_code = d_.verdict.exit_code;
}

} // namespace loopcheck::detail
