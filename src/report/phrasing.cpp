// The words of a diagnosis (report/phrasing.hpp). Here, at the edge, and
// not in core: core's findings, fixes and verdict are facts a test can
// assert field by field, and a report reads them to decide what to show
// (Finding::covered_by) without reading a sentence. Every format's words
// come from these functions, so text, Markdown and JSON say the same thing;
// the golden reports (tests/golden/) guard them. What stays in core is the
// naming of a listener (owner_string, bound_string, describe_listening) and
// the server table's settings (server_own_fix, docs/servers.md): data
// looked up by key, shared with `loopcheck scan`.
#include "report/phrasing.hpp"

#include "loopcheck/core/diagnose/facts.hpp"
#include "loopcheck/core/listeners/queries.hpp"

#include <chrono>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <type_traits>

namespace loopcheck::phrasing {

namespace {

using namespace facts;

template <class... F>
struct overloaded : F... {
    using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;

/// "ADDRESS OUTCOME after TIME" ("in TIME" for an accept).
std::string describe(const Tried& t) {
    return fmt::format("{} {} {} {}", endpoint_string(t.address), outcome_name(t.outcome),
                       t.outcome == Outcome::accepted ? "in" : "after", format_duration(t.time));
}

std::string describe_all(const std::vector<Tried>& tried) {
    std::vector<std::string> parts;
    for (const auto& t : tried)
        parts.push_back(describe(t));
    return fmt::format("{}", fmt::join(parts, ", "));
}

std::string ips(const std::vector<Address>& addresses, std::string_view separator) {
    std::vector<std::string> out;
    for (const auto& a : addresses)
        out.push_back(ip_string(a));
    return fmt::format("{}", fmt::join(out, separator));
}

std::string evidence(const SynEvidence& e) {
    switch (e.kind) {
    case SynEvidence::Kind::no_retry_twin:
        return fmt::format("without SYN retransmissions it was refused in {}",
                           format_duration(e.no_retry_time));
    case SynEvidence::Kind::kernel_count:
        return fmt::format("the kernel counted {} SYN retransmission(s)", e.retransmissions);
    case SynEvidence::Kind::retry_steps:
        return fmt::format("{} is {} whole step(s) of {}'s {} SYN retry interval",
                           format_duration(e.latency), e.steps, os_label(e.os),
                           format_duration(e.step));
    case SynEvidence::Kind::none:
        break;
    }
    return "no evidence of SYN retransmission was found";
}

/// The process's name for a fix ("ollama"), or "the server".
std::string server_name(const std::optional<Listener>& l) {
    return l && !l->process.empty() ? l->process.escaped() : "the server";
}

std::string_view family_word(Family f) {
    return f == Family::ipv4 ? "IPv4" : "IPv6";
}

// ---- findings ----

std::string words(const Healthy& f) {
    if (f.server)
        return fmt::format("Every connect a client needs here is fast: {} accepts on {} in {}.",
                           owner_string(*f.server), endpoint_string(f.winner),
                           format_duration(f.time));
    return fmt::format("Every connect a client needs here is fast: {} accepts in {}.",
                       endpoint_string(f.winner), format_duration(f.time));
}

std::string words(const SlowRefusal& f) {
    return fmt::format("{} was refused only after {}; {}.", endpoint_string(f.address),
                       format_duration(f.time), evidence(f.evidence));
}

std::string words(const FallbackPenalty& f) {
    std::string message = fmt::format(
        "{} resolves to {} first; {} before {} accepted, so a client that tries addresses in "
        "order (Python, .NET) pays {} on every new connection.",
        f.host, ip_string(f.first), describe_all(f.failed), endpoint_string(f.winner),
        format_duration(f.penalty));
    if (f.costly_on_windows)
        message += " That is cheap here because this system refuses at once; on Windows, "
                   "which resends the SYN after a refusal, the same set-up costs about 2 s "
                   "per connection.";
    return message;
}

std::string words(const SingleStack& f) {
    if (f.listeners.empty())
        return fmt::format("The server accepts on {} only, while {} also resolves to {} "
                           "addresses.",
                           family_word(f.served), f.host,
                           family_word(f.served == Family::ipv4 ? Family::ipv6 : Family::ipv4));
    // With the listener table: who listens where.
    std::string message = fmt::format("{} only", describe_listening(f.listeners));
    if (f.first.family != f.served)
        return message + fmt::format("; {} resolves to {} first.", f.host, ip_string(f.first));
    return message + fmt::format(", while {} also resolves to {}.", f.host, ips(f.others, ", "));
}

std::string words(const ServerDown& f) {
    if (f.expected)
        return fmt::format("Nothing accepts on {}, as expected: {}; a client pays {} to find out.",
                           f.input, describe_all(f.tried), format_duration(f.total));
    std::string message =
        fmt::format("Nothing accepts on {}: {}. A client that treats this as \"the server is "
                    "down\" pays {} per connection attempt to find out.",
                    f.input, describe_all(f.tried), format_duration(f.total));
    if (f.nothing_listens)
        message += fmt::format(" Nothing listens on port {} on this machine.", f.port);
    return message;
}

std::string words(const Ipv6Off& f) {
    return fmt::format("IPv6 is off here: {} is not configured on this machine ({}), so no "
                       "client can connect to it and each one moves on at once. On Windows ::1 "
                       "always exists.",
                       ip_string(f.address), f.native_name.empty() ? "unreachable" : f.native_name);
}

std::string words(const NotRefused& f) {
    return fmt::format("{} was expected to be refused, but {} accepted in {}.", f.input,
                       endpoint_string(f.address), format_duration(f.time));
}

std::string words(const ClientsFail& f) {
    const auto where = f.accepts ? endpoint_string(*f.accepts)
                                 : std::string("an address curl answers localhost with itself");
    return fmt::format("These clients fail here, though {} accepts: they never try it: {}.", where,
                       fmt::join(f.clients, "; "));
}

std::string words(const ClientsSlow& f) {
    std::vector<std::string> slow;
    for (const auto& c : f.clients)
        slow.push_back(fmt::format("{} ({})", c.client, format_duration(c.time)));
    return fmt::format("These clients wait longer than {} here: {}.", format_duration(f.threshold),
                       fmt::join(slow, "; "));
}

std::string words(const ListenerElsewhere& f) {
    std::string message =
        fmt::format("{}, which {} does not reach: it {} {}.", describe_listening(f.listeners),
                    f.input, f.literal ? "is" : "resolves to", ips(f.tried, ", "));
    if (f.v6only_wildcard)
        message += " The [::] socket has IPV6_V6ONLY on, so it takes no IPv4 connects.";
    return message;
}

std::string words(const NoAnswer& f) {
    if (f.listener)
        return fmt::format("{} did not answer within {}, though {} listens on {}: its accept "
                           "queue is full (the process is not accepting connections) or a "
                           "firewall drops the SYN; this is not a refusal.",
                           endpoint_string(f.address), format_duration(f.timeout),
                           owner_string(*f.listener), bound_string(*f.listener));
    if (f.nothing_listens)
        return fmt::format("{} did not answer within {} and nothing listens on port {} here: "
                           "no reset came back, so a firewall drops the SYN or its reset.",
                           endpoint_string(f.address), format_duration(f.timeout), f.address.port);
    return fmt::format("{} did not answer within {}: no reset came back, so a firewall drops "
                       "the SYN or the listener's queue is full; this is not a refusal.",
                       endpoint_string(f.address), format_duration(f.timeout));
}

std::string words(const ShortTimeout& f) {
    return fmt::format("--timeout {} is shorter than a refusal Windows delays with SYN "
                       "retransmissions (about 2 s); a refusal may be hiding behind these "
                       "timeouts. Run again with --timeout 5s.",
                       format_duration(f.timeout));
}

std::string words(const SlowAccept& f) {
    return fmt::format("{} accepted, but only after {} (threshold {}).", endpoint_string(f.address),
                       format_duration(f.time), format_duration(f.threshold));
}

std::string words(const AcceptQueueFull& f) {
    std::string counter;
    if (f.counter)
        counter = f.counter->after > f.counter->before
                      ? fmt::format(" The kernel's ListenOverflows counter (/proc/net/netstat) "
                                    "went from {} to {} during the probes.",
                                    f.counter->before, f.counter->after)
                      : fmt::format(" The kernel's ListenOverflows counter (/proc/net/netstat) "
                                    "stayed at {}.",
                                    f.counter->after);
    return fmt::format("An accept at {} took up to {} ({}): the listener's accept queue was "
                       "full, so the kernel dropped the SYN and the client sent it again. The "
                       "server accepts too slowly for the connections coming in, or its "
                       "listen backlog is too small.{}",
                       endpoint_string(f.address), format_duration(f.worst), evidence(f.evidence),
                       counter);
}

std::string words(const Unresolved& f) {
    return f.error;
}

std::string words(const OwnAddress& f) {
    return fmt::format("{} only: an address of its own, which localhost does not resolve to; "
                       "clients reach it only by that address.",
                       describe_listening(f.listeners));
}

std::string words(const LocalhostUnreached& f) {
    return fmt::format("localhost:{} does not reach it: localhost resolves to {} here, and {}.",
                       f.port, ips(f.resolved, ", "), describe_listening(f.listeners));
}

std::string words(const PortSingleStack& f) {
    // Who listens where is the port's row in the table: the words leave it
    // out, so ports in the same situation share one paragraph.
    if (f.only == Family::ipv4) {
        const std::string cost =
            f.windows_cost ? fmt::format("about {:.1f} s per connection",
                                         std::chrono::duration<double>(*f.windows_cost).count())
                           : std::string("about 2 s");
        return fmt::format(
            "Listens on IPv4 only. Where localhost resolves to ::1 first, as on Windows, a "
            "client that tries addresses in order (Python, .NET) waits for ::1 to be refused on "
            "every new connection, {} on Windows. Listen on ::1 as well, or on [::] with "
            "IPV6_V6ONLY off.",
            cost);
    }
    return fmt::format("Listens on IPv6 only. A client that connects to 127.0.0.1, or whose "
                       "localhost resolves to 127.0.0.1 only ({}Java by default), does not "
                       "reach it. Listen on 127.0.0.1 as well, or on [::] with IPV6_V6ONLY off.",
                       f.localhost_ipv4_only_here ? "as here, " : "");
}

// ---- fixes ----

std::string words(const ClientSetting& f) {
    switch (f.which) {
    case ClientSetting::Which::node_ipv4_first:
        return "Node.js: start it with --dns-result-order=ipv4first (or call "
               "dns.setDefaultResultOrder('ipv4first')) so it tries 127.0.0.1 first.";
    case ClientSetting::Which::dotnet_no_ipv6:
        return ".NET: set DOTNET_SYSTEM_NET_DISABLEIPV6=1 so it does not try ::1.";
    case ClientSetting::Which::curl_ipv4:
        return "curl: add -4 (--ipv4).";
    case ClientSetting::Which::java_prefer_ipv6:
        return "Java: run it with -Djava.net.preferIPv6Addresses=true so it prefers ::1.";
    case ClientSetting::Which::curl_ipv6:
        break;
    }
    return "curl: add -6 (--ipv6).";
}

std::string words(const ConnectFailingClients& f) {
    return fmt::format("These clients never try {0} and fail here: {1}. Connect them to {0} (for "
                       "a URL, the host [{2}]), or make {3} listen on 127.0.0.1 as well.",
                       endpoint_string(f.accepts), fmt::join(f.clients, ", "), ip_string(f.accepts),
                       server_name(f.server));
}

std::string words(const ServerOwn& f) {
    return server_own_fix(f.server, f.port, FixForm::alternative);
}

std::string words(const BothFamilies& f) {
    return fmt::format("Or make {} listen on both ::1 and 127.0.0.1, or on [::] with "
                       "IPV6_V6ONLY off, so every address of the name accepts.",
                       server_name(f.server));
}

std::string words(const ConnectInstead& f) {
    if (f.server)
        return fmt::format("Connect to {} instead of {}: {} listens on {}.", f.rewritten, f.input,
                           owner_string(*f.server), bound_string(*f.server));
    return fmt::format("Connect to {} instead of {}: it is the address that accepts.", f.rewritten,
                       f.input);
}

std::string words(const WindowsConnect& f) {
    const std::string_view why =
        f.localhost_ipv6_first
            ? "Windows tries IPv6 first for localhost and waits about 2 s for its refusal"
            : "Windows waits about 2 s for each refused address";
    const std::string who =
        fmt::format("For Windows users ({}){}", why,
                    f.pays_here ? ", and the clients that fail or wait here" : "");
    if (f.server)
        return fmt::format("{}: connect to {} instead of {}; {} listens on {}.", who, f.rewritten,
                           f.input, owner_string(*f.server), bound_string(*f.server));
    return fmt::format("{}: connect to {} instead of {}, the address that accepts.", who,
                       f.rewritten, f.input);
}

std::string words(const KeepIpv6&) {
    return "Do not switch to 127.0.0.1: the server listens on IPv6 only, and nothing accepts "
           "there.";
}

std::string words(const NoWaitClient& f) {
    return f.windows
               ? "Or use a client that does not wait out the retries: one with Happy Eyeballs "
                 "(asyncio happy_eyeballs_delay=0.25, curl, Go) or one that turns SYN retries "
                 "off on loopback (Node.js 12.19 to 12.22, 14.9 to 16 or >= 20, Go >= 1.21, "
                 "curl >= 8.22; Node.js 17 to 19 try only the first address and fail)."
               : "Or use a client that does not wait for the failed address: one with Happy "
                 "Eyeballs (asyncio happy_eyeballs_delay=0.25, curl, Go) or Node.js >= 20 "
                 "(autoSelectFamily).";
}

std::string words(const ListenOnTried& f) {
    return fmt::format("Or make {} listen on {} as well.",
                       f.server.process.empty() ? std::string("the server")
                                                : f.server.process.escaped(),
                       ips(f.tried, " and "));
}

std::string words(const StartServer& f) {
    return fmt::format("Start the server, or check which port and address it listens on (port {} "
                       "here).",
                       f.port);
}

std::string words(const ClosedPortTest& f) {
    return f.windows
               ? "A test that uses a closed port as \"a server that is down\" pays the slow "
                 "refusal on every call: give that connect a short timeout (0.5 s), or turn "
                 "SYN retries off for it (SIO_TCP_INITIAL_RTO), or use Node.js 12.19 to 12.22 "
                 "or >= 14.9, or Go >= 1.21."
               : "A test that uses a closed port as \"a server that is down\" pays the slow "
                 "refusal on every call: give that connect a short timeout (0.5 s).";
}

std::string words(const CheckName& f) {
    if (f.meant)
        return fmt::format("Check the name '{}': did you mean '{}'?", f.host, *f.meant);
    return fmt::format("Check the name '{}' (and the hosts file).", f.host);
}

std::string words(const ResolverAdvice& f) {
    return f.text;
}

// ---- the verdict ----

/// What follows "SLOW" in a slow line whose target connects: ": X connects
/// via Y, but ...".
std::string slow_body(const Verdict& v) {
    const auto& f = v.facts;
    const auto via = endpoint_string(*f.winner);
    switch (v.form) {
    case VerdictForm::slow_refusal:
        return fmt::format(": {} connects via {}, but {} is refused only after {}", f.input, via,
                           endpoint_string(*f.slow_refused), format_duration(f.slow_refused_time));
    case VerdictForm::slow_accept_queue:
        return fmt::format(": {} connects via {}, but the listener's accept queue overflowed: an "
                           "accept needed a SYN retransmission",
                           f.input, via);
    default:
        break;
    }
    return fmt::format(": {} connects via {}, but a connect took longer than {}", f.input, via,
                       format_duration(f.threshold));
}

} // namespace

std::string finding(const Finding& f) {
    return std::visit([](const auto& facts) { return words(facts); }, f.facts);
}

std::string fix(const facts::Fix& f) {
    return std::visit([](const auto& facts) { return words(facts); }, f);
}

std::string verdict(const facts::Verdict& v) {
    const auto& f = v.facts;
    const auto tried = fmt::format("{} address{} tried", f.addresses, f.addresses == 1 ? "" : "es");
    const auto winner = f.winner ? endpoint_string(*f.winner) : std::string();
    const auto fail_words =
        fmt::format("some clients fail: they never try {}",
                    f.winner ? winner : std::string("the address curl finds itself"));
    switch (v.form) {
    case VerdictForm::incomplete:
        return fmt::format("INCOMPLETE: {} was not measured (interrupted)", f.input);
    case VerdictForm::unresolved:
        return fmt::format("UNRESOLVED: {}", v.error);
    case VerdictForm::unexpected:
        return fmt::format("UNEXPECTED: {} accepts on {} (--expect refused)", f.input,
                           f.winner ? winner : std::string("an address"));
    case VerdictForm::partial_no_winner: {
        std::string cost;
        if (v.slow)
            cost = f.slow_refused ? fmt::format("{} is refused only after {}, and ",
                                                endpoint_string(*f.slow_refused),
                                                format_duration(f.slow_refused_time))
                                  : fmt::format("a connect takes longer than {}, and ",
                                                format_duration(f.threshold));
        return fmt::format("PARTIAL: {}{} accepts only on an address it does not resolve to "
                           "here: curl >= 7.78 finds it itself, clients that ask the resolver "
                           "fail",
                           cost, f.input);
    }
    case VerdictForm::partial_fails:
        return fmt::format("PARTIAL: {} connects via {}, but {}", f.input, winner, fail_words);
    case VerdictForm::slow_nothing_accepts:
        return fmt::format("SLOW: nothing accepts on {} ({}), and {} is refused only after {}",
                           f.input, tried,
                           f.slow_refused ? endpoint_string(*f.slow_refused) : "an address",
                           format_duration(f.slow_refused_time));
    case VerdictForm::slow_fallback:
        // Both: two lines at 80 columns, so the fallback names where it
        // ends once ("and some never try it").
        if (v.some_fail)
            return fmt::format("PARTIAL: clients that try addresses in turn wait {} per new "
                               "connection to {}, and some clients never try {} and fail",
                               format_duration(f.winner_time), f.input, winner);
        return fmt::format("SLOW: clients that try addresses in turn wait {} per new connection "
                           "to {} before {} accepts",
                           format_duration(f.winner_time), f.input, winner);
    case VerdictForm::slow_refusal:
    case VerdictForm::slow_accept_queue:
    case VerdictForm::slow_connect:
        if (v.some_fail)
            return fmt::format("PARTIAL{}, and {}", slow_body(v), fail_words);
        return "SLOW" + slow_body(v);
    case VerdictForm::ok:
        return fmt::format("OK: {} connects to {} in {}", f.input, winner,
                           format_duration(f.winner_time));
    case VerdictForm::ok_refused_as_expected:
        return fmt::format("OK: nothing accepts on {} ({}, refused as expected)", f.input, tried);
    case VerdictForm::down:
        break;
    }
    // Timeouts are named as timeouts: no reset came back, nothing refused.
    const auto how = f.any_refused   ? std::string()
                     : f.any_timeout ? fmt::format("; no answer within {}: timed out",
                                                   format_duration(f.timeout))
                                     : std::string();
    return fmt::format("DOWN: nothing accepts on {} ({}{})", f.input, tried, how);
}

std::string machine_line(const SystemFacts& s) {
    std::string out = s.distribution;
    if (!s.architecture.empty())
        out += out.empty() ? s.architecture : ", " + s.architecture;
    if (!s.environment.empty())
        out += out.empty() ? "in " + s.environment : ", in " + s.environment;
    return out;
}

} // namespace loopcheck::phrasing
