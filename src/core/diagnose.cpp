#include "loopcheck/core/diagnose.hpp"

#include "loopcheck/core/diagnose_listeners.hpp"
#include "loopcheck/core/exit_codes.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

using namespace std::chrono_literals;

std::string_view severity_name(Severity s) noexcept {
    switch (s) {
    case Severity::ok:
        return "ok";
    case Severity::info:
        return "info";
    case Severity::warning:
        return "warning";
    case Severity::error:
        return "error";
    }
    return "error";
}

Micros syn_retry_step(Os os) noexcept {
    switch (os) {
    case Os::windows:
        return 500ms;
    case Os::linux_:
    case Os::macos:
        return 1s;
    case Os::other:
        break;
    }
    return 0us;
}

std::optional<int> fits_retry_steps(Micros latency, Micros step) noexcept {
    if (step <= 0us)
        return std::nullopt;
    const double ratio = static_cast<double>(latency.count()) / static_cast<double>(step.count());
    const auto k = static_cast<int>(std::lround(ratio));
    if (k < 1 || std::abs(ratio - k) > 0.1)
        return std::nullopt;
    return k;
}

namespace {

/// The wait a refused or failed address costs a client that tries it.
Micros cost(const Observation& o) {
    return o.summary.latency.median;
}

bool accepted(const Observation& o) {
    return o.summary.outcome == Outcome::accepted;
}

std::string describe(const Observation& o) {
    auto s = fmt::format("{} {}", endpoint_string(o.address), outcome_name(o.summary.outcome));
    if (o.summary.outcome == Outcome::timeout)
        return s + fmt::format(" after {}", format_duration(cost(o)));
    if (o.summary.outcome == Outcome::accepted)
        return s + fmt::format(" in {}", format_duration(cost(o)));
    return s + fmt::format(" after {}", format_duration(cost(o)));
}

class Diagnoser {
public:
    explicit Diagnoser(const DiagnosisInput& in) : in_(in), os_(in.os) {
        // Addresses an interrupt cut short measured nothing: no finding or
        // model may rest on them.
        for (const auto& o : in.addresses)
            if (!o.summary.interrupted)
                measured_.push_back(o);
        obs_ = measured_;
        if (in.listeners)
            port_listeners_ = listeners_on_port(*in.listeners, in.target->port);
    }
    Diagnosis run();

private:
    void add(std::string_view id, Severity sev, std::string message,
             std::optional<Address> address = std::nullopt, std::string_view why = {}) {
        d_.findings.push_back(
            {std::string(id), sev, std::string(why), std::move(message), address});
    }
    bool name_target() const { return !in_.target->literal; }
    void slow_refusals();
    void fallback();
    void single_stack();
    void nothing_accepts();
    void timeouts();
    void slow_accepts();
    void accept_queue_full();
    void client_fixes();
    /// Client rows that fail here or wait longer than the threshold.
    bool client_pays(const ClientImpact& c) const {
        return !c.prediction.connected || c.prediction.time > in_.threshold;
    }
    void listener_elsewhere();
    void fixes();
    /// The listener a connect to `a` lands on, when the table is known.
    const Listener* listener_at(const Address& a) const {
        return in_.listeners ? serving(port_listeners_, a) : nullptr;
    }
    /// The process's name for a fix ("ollama"), or "the server".
    std::string server_name(const Listener* l) const {
        return l && !l->process.empty() ? l->process.escaped() : "the server";
    }
    void verdict();
    int exit_code() const;

    const DiagnosisInput& in_;
    Os os_;
    std::vector<Observation> measured_;
    std::span<const Observation> obs_;
    Diagnosis d_;
    std::optional<std::size_t> first_accept_;
    Micros penalty_{0};
    std::vector<Listener> port_listeners_; ///< on the target's port; empty when unknown
};

void Diagnoser::slow_refusals() {
    const Micros step = syn_retry_step(in_.os);
    for (const auto& o : obs_) {
        if (o.summary.outcome != Outcome::refused || cost(o) <= in_.threshold)
            continue;
        std::string evidence;
        std::string_view why = cause::unknown;
        if (o.summary.fast_latency && o.summary.fast_outcome == Outcome::refused &&
            o.summary.fast_latency->median <= in_.threshold) {
            why = cause::syn_retransmission;
            evidence = fmt::format("without SYN retransmissions it was refused in {}",
                                   format_duration(o.summary.fast_latency->median));
        } else if (o.summary.syn_retransmissions.value_or(0) > 0) {
            why = cause::syn_retransmission;
            evidence = fmt::format("the kernel counted {} SYN retransmission(s)",
                                   *o.summary.syn_retransmissions);
        } else if (auto k = fits_retry_steps(cost(o), step)) {
            why = cause::syn_retransmission;
            evidence = fmt::format("{} is {} whole step(s) of {}'s {} SYN retry interval",
                                   format_duration(cost(o)), *k, os_label(in_.os), format_duration(step));
        } else {
            evidence = "no evidence of SYN retransmission was found";
        }
        add(finding_id::slow_refusal, Severity::warning,
            fmt::format("{} was refused only after {}; {}.", endpoint_string(o.address),
                        format_duration(cost(o)), evidence),
            o.address, why);
    }
}

void Diagnoser::fallback() {
    if (!first_accept_ || *first_accept_ == 0)
        return;
    const auto& winner = obs_[*first_accept_];
    std::vector<std::string> failed;
    for (std::size_t i = 0; i < *first_accept_; ++i) {
        failed.push_back(describe(obs_[i]));
        penalty_ += cost(obs_[i]);
    }
    const bool slow = penalty_ > in_.threshold;
    std::string message = fmt::format(
        "{} resolves to {} first; {} before {} accepted, so a client that tries addresses in "
        "order (Python, .NET) pays {} on every new connection.",
        in_.target->host, ip_string(obs_.front().address), fmt::join(failed, ", "),
        endpoint_string(winner.address), format_duration(penalty_));
    if (!slow && os_ != Os::windows) {
        message += " That is cheap here because this system refuses at once; on Windows, "
                   "which resends the SYN after a refusal, the same set-up costs about 2 s "
                   "per connection.";
    }
    add(finding_id::fallback_penalty, slow ? Severity::warning : Severity::info, message,
        obs_.front().address);
}

void Diagnoser::single_stack() {
    if (!name_target() || !first_accept_)
        return;
    const Family served = obs_[*first_accept_].address.family;
    bool other_family_resolved = false, other_family_accepts = false;
    for (const auto& o : obs_) {
        if (o.address.family == served)
            continue;
        other_family_resolved = true;
        other_family_accepts = other_family_accepts || accepted(o);
    }
    if (!other_family_resolved || other_family_accepts)
        return;
    const auto other = served == Family::ipv4 ? "IPv6" : "IPv4";
    const auto& accepted_at = obs_[*first_accept_].address;
    // With the listener table, name who listens where.
    add(finding_id::single_stack_listener, Severity::info,
        listener_at(accepted_at)
            ? listener_words::single_stack(port_listeners_, *in_.target, obs_, served)
            : fmt::format("The server accepts on {} only, while {} also resolves to {} "
                          "addresses.",
                          served == Family::ipv4 ? "IPv4" : "IPv6", in_.target->host, other),
        accepted_at);
}

void Diagnoser::nothing_accepts() {
    if (first_accept_)
        return;
    std::vector<std::string> parts;
    Micros total{0};
    for (const auto& o : obs_) {
        parts.push_back(describe(o));
        total += cost(o);
    }
    const bool all_refused = std::all_of(obs_.begin(), obs_.end(), [](const Observation& o) {
        return o.summary.outcome == Outcome::refused;
    });
    if (in_.expect_refused && all_refused) {
        add(finding_id::server_down, Severity::ok,
            fmt::format("Nothing accepts on {}, as expected: {}; a client pays {} to find out.",
                        in_.target->input, fmt::join(parts, ", "), format_duration(total)));
        return;
    }
    std::string message =
        fmt::format("Nothing accepts on {}: {}. A client that treats this as \"the server is "
                    "down\" pays {} per connection attempt to find out.",
                    in_.target->input, fmt::join(parts, ", "), format_duration(total));
    if (in_.listeners && port_listeners_.empty())
        message += fmt::format(" Nothing listens on port {} on this machine.", in_.target->port);
    add(finding_id::server_down, Severity::error, std::move(message));
}

void Diagnoser::listener_elsewhere() {
    if (first_accept_)
        return;
    if (auto f = listener_words::elsewhere(port_listeners_, *in_.target, obs_, in_.expect_refused))
        d_.findings.push_back(std::move(*f));
}

void Diagnoser::timeouts() {
    bool any = false;
    for (const auto& o : obs_) {
        if (o.summary.outcome != Outcome::timeout)
            continue;
        any = true;
        if (const Listener* l = listener_at(o.address)) {
            add(finding_id::no_answer, Severity::warning,
                listener_words::full_queue(o, *l, in_.timeout), o.address);
            continue;
        }
        add(finding_id::no_answer, Severity::warning,
            fmt::format("{} did not answer within {}: no reset came back, so a firewall drops "
                        "the SYN or the listener's queue is full; this is not a refusal.",
                        endpoint_string(o.address), format_duration(in_.timeout)),
            o.address);
    }
    // A Windows refusal takes about 2 s (4 retries 500 ms apart); a shorter
    // timeout turns it into a "timeout" (the curl -m 2 trap).
    constexpr Micros windows_refusal_stall = 2500ms;
    if (any && in_.timeout < windows_refusal_stall) {
        add(finding_id::short_timeout, Severity::warning,
            fmt::format("--timeout {} is shorter than a refusal Windows delays with SYN "
                        "retransmissions (about 2 s); a refusal may be hiding behind these "
                        "timeouts. Run again with --timeout 5s.",
                        format_duration(in_.timeout)));
    }
}

void Diagnoser::slow_accepts() {
    for (const auto& o : obs_) {
        if (accepted(o) && cost(o) > in_.threshold)
            add(finding_id::slow_accept, Severity::warning,
                fmt::format("{} accepted, but only after {} (threshold {}).",
                            endpoint_string(o.address), format_duration(cost(o)),
                            format_duration(in_.threshold)),
                o.address);
    }
}

void Diagnoser::accept_queue_full() {
    // A SYN the listener dropped because its accept queue was full is
    // resent by the client after the initial retransmission timeout: the
    // accept comes a retry step late, with a retransmission counted.
    const Micros step = syn_retry_step(in_.os);
    for (const auto& o : obs_) {
        if (!accepted(o) && !o.summary.mixed)
            continue;
        const int rtx = o.summary.syn_retransmissions.value_or(0);
        const Micros worst = o.summary.latency.max;
        const auto k = fits_retry_steps(worst, step);
        if (rtx <= 0 && !(k && worst > in_.threshold))
            continue;
        std::string evidence =
            rtx > 0 ? fmt::format("the kernel counted {} SYN retransmission(s)", rtx)
                    : fmt::format("{} is {} whole step(s) of {}'s {} SYN retry interval",
                                  format_duration(worst), *k, os_label(in_.os), format_duration(step));
        std::string counter;
        if (in_.listen_overflows) {
            const auto& c = *in_.listen_overflows;
            counter = c.after > c.before
                          ? fmt::format(" The kernel's ListenOverflows counter (/proc/net/netstat) "
                                        "went from {} to {} during the probes.",
                                        c.before, c.after)
                          : fmt::format(" The kernel's ListenOverflows counter (/proc/net/netstat) "
                                        "stayed at {}.",
                                        c.after);
        }
        add(finding_id::accept_queue_full, Severity::warning,
            fmt::format("An accept at {} took up to {} ({}): the listener's accept queue was "
                        "full, so the kernel dropped the SYN and the client sent it again. The "
                        "server accepts too slowly for the connections coming in, or its "
                        "listen backlog is too small.{}",
                        endpoint_string(o.address), format_duration(worst), evidence, counter),
            o.address);
    }
}

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
    if (pays("java-socket") || pays("java-httpclient"))
        d_.fixes.push_back("Java: run it with -Djava.net.preferIPv6Addresses=true so it prefers "
                           "::1.");
    if (pays("curl"))
        d_.fixes.push_back("curl: add -6 (--ipv6).");
}

void Diagnoser::fixes() {
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
        d_.fixes.push_back(fmt::format("Or make {} listen on both ::1 and 127.0.0.1, or on [::] "
                                       "with IPV6_V6ONLY off, so every address of the name "
                                       "accepts.",
                                       server_name(server)));
        if (winner.family == Family::ipv6) {
            d_.fixes.push_back("Do not switch to 127.0.0.1: the server listens on IPv6 only, "
                               "and nothing accepts there.");
        }
        d_.fixes.push_back(
            os_ == Os::windows
                ? "Or use a client that does not wait out the retries: one with Happy Eyeballs "
                  "(asyncio happy_eyeballs_delay=0.25, curl, Go) or one that turns SYN retries "
                  "off on loopback (Node.js, Go, curl >= 8.22)."
                : "Or use a client that does not wait for the failed address: one with Happy "
                  "Eyeballs (asyncio happy_eyeballs_delay=0.25, curl, Go) or Node.js >= 20 "
                  "(autoSelectFamily).");
    } else if (first_accept_ && *first_accept_ > 0 && name_target()) {
        d_.rewritten = rewrite_host(*in_.target, obs_[*first_accept_].address);
    }
    const bool slow_refusal = std::any_of(d_.findings.begin(), d_.findings.end(),
                                          [](auto& f) { return f.id == finding_id::slow_refusal; });
    const bool elsewhere = std::any_of(d_.findings.begin(), d_.findings.end(), [](auto& f) {
        return f.id == finding_id::listener_elsewhere;
    });
    if (!first_accept_ && !in_.expect_refused && elsewhere) {
        // The server runs, on an address the client does not use.
        std::string rewritten;
        for (auto& f :
             listener_words::elsewhere_fixes(port_listeners_, *in_.target, obs_, rewritten))
            d_.fixes.push_back(std::move(f));
        d_.rewritten = std::move(rewritten);
    } else if (!first_accept_ && !in_.expect_refused && port_listeners_.empty()) {
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
                  "SYN retries off for it (SIO_TCP_INITIAL_RTO), or use Node.js or Go."
                : "A test that uses a closed port as \"a server that is down\" pays the slow "
                  "refusal on every call: give that connect a short timeout (0.5 s).");
    }
    client_fixes();
}

int Diagnoser::exit_code() const {
    for (const auto& f : d_.findings) {
        if (f.severity >= Severity::warning &&
            (f.id == finding_id::slow_refusal || f.id == finding_id::fallback_penalty ||
             f.id == finding_id::slow_accept || f.id == finding_id::accept_queue_full))
            return exit_code::slow;
    }
    if (!first_accept_) {
        const bool ok = std::any_of(d_.findings.begin(), d_.findings.end(), [](auto& f) {
            return f.id == finding_id::server_down && f.severity == Severity::ok;
        });
        return ok ? exit_code::healthy : exit_code::server_down;
    }
    return exit_code::healthy;
}

void Diagnoser::verdict() {
    const auto& input = in_.target->input;
    if (!first_accept_) {
        const bool slow = d_.exit_code == exit_code::slow;
        const bool expected = d_.exit_code == exit_code::healthy;
        d_.verdict = fmt::format("{}: nothing accepts on {} ({} address{} tried{})",
                                 expected ? "OK" : (slow ? "SLOW" : "DOWN"), input, obs_.size(),
                                 obs_.size() == 1 ? "" : "es",
                                 expected ? ", refused as expected"
                                          : (slow ? ", and the refusals are slow" : ""));
        return;
    }
    const auto& winner = obs_[*first_accept_];
    if (d_.exit_code == exit_code::slow && *first_accept_ > 0 && penalty_ > in_.threshold) {
        d_.verdict = fmt::format("SLOW: every new connection to {} waits {} before {} accepts",
                                 input, format_duration(penalty_), endpoint_string(winner.address));
    } else if (d_.exit_code == exit_code::slow) {
        // Name what was slow: a refusal, an accept queue, or an accept.
        const auto refusal = std::find_if(obs_.begin(), obs_.end(), [&](const Observation& o) {
            return o.summary.outcome == Outcome::refused && cost(o) > in_.threshold;
        });
        const bool queue = std::any_of(d_.findings.begin(), d_.findings.end(), [](auto& f) {
            return f.id == finding_id::accept_queue_full;
        });
        if (refusal != obs_.end())
            d_.verdict =
                fmt::format("SLOW: {} connects via {}, but {} is refused only after {}", input,
                            endpoint_string(winner.address), endpoint_string(refusal->address),
                            format_duration(cost(*refusal)));
        else if (queue)
            d_.verdict = fmt::format("SLOW: {} connects via {}, but the listener's accept queue "
                                     "overflowed: an accept needed a SYN retransmission",
                                     input, endpoint_string(winner.address));
        else
            d_.verdict =
                fmt::format("SLOW: {} connects via {}, but a connect took longer than {}", input,
                            endpoint_string(winner.address), format_duration(in_.threshold));
    } else {
        d_.verdict =
            fmt::format("OK: {} connects to {} in {}", input, endpoint_string(winner.address),
                        format_duration(penalty_ + cost(winner)));
    }
}

Diagnosis Diagnoser::run() {
    if (obs_.empty()) {
        d_.verdict =
            fmt::format("INCOMPLETE: {} was not measured (interrupted)", in_.target->input);
        d_.exit_code = exit_code::interrupted;
        return d_;
    }
    for (std::size_t i = 0; i < obs_.size(); ++i) {
        if (accepted(obs_[i])) {
            first_accept_ = i;
            break;
        }
    }
    slow_refusals();
    fallback();
    single_stack();
    nothing_accepts();
    listener_elsewhere();
    timeouts();
    slow_accepts();
    accept_queue_full();
    d_.clients = predict_clients(obs_, {in_.target->host, os_, in_.curl_localhost});
    fixes();
    d_.exit_code = exit_code();
    if (d_.exit_code == exit_code::healthy &&
        std::none_of(d_.findings.begin(), d_.findings.end(),
                     [](auto& f) { return f.severity >= Severity::warning; }) &&
        first_accept_) {
        const auto& winner = obs_[*first_accept_];
        const Listener* server = listener_at(winner.address);
        add(finding_id::healthy, Severity::ok,
            server ? fmt::format("Every connect a client needs here is fast: {} accepts on {} "
                                 "in {}.",
                                 owner_string(*server), endpoint_string(winner.address),
                                 format_duration(cost(winner)))
                   : fmt::format("Every connect a client needs here is fast: {} accepts in {}.",
                                 endpoint_string(winner.address), format_duration(cost(winner))));
    }
    auto same = [](const ConnectPrediction& a, const ConnectPrediction& b) {
        return a.connected == b.connected && a.via == b.via &&
               std::chrono::abs(a.time - b.time) < 1ms;
    };
    d_.clients_agree = std::all_of(d_.clients.begin(), d_.clients.end(), [&](const auto& c) {
        return same(c.prediction, d_.clients.front().prediction);
    });
    d_.clients_agree_on_windows =
        std::all_of(d_.clients.begin(), d_.clients.end(), [&](const auto& c) {
            const auto& first = d_.clients.front();
            return !c.windows || !first.windows || same(*c.windows, *first.windows);
        });
    verdict();
    return d_;
}

} // namespace

Diagnosis diagnose(const DiagnosisInput& in) {
    return Diagnoser(in).run();
}

Diagnosis diagnose_unresolved(const Target& target, const Error& error) {
    Diagnosis d;
    d.findings.push_back(
        {std::string(finding_id::unresolved), Severity::error, "", error.message, std::nullopt});
    d.verdict = fmt::format("UNRESOLVED: {}", error.message);
    d.fixes.push_back(fmt::format("Check the name '{}' (and the hosts file).", target.host));
    d.exit_code = exit_code::unresolved;
    return d;
}

} // namespace loopcheck
