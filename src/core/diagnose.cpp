// The diagnosis engine: the findings for one target, then the advice (below).
#include "loopcheck/core/diagnose.hpp"

#include "core/diagnose_listeners.hpp"
#include "core/diagnoser.hpp"
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
    const auto k = static_cast<int>(std::llround(ratio));
    if (k < 1 || std::abs(ratio - k) > 0.1)
        return std::nullopt;
    return k;
}

namespace detail {

std::string describe(const Observation& o) {
    auto s = fmt::format("{} {}", endpoint_string(o.address), outcome_name(o.summary.outcome));
    if (o.summary.outcome == Outcome::timeout)
        return s + fmt::format(" after {}", format_duration(cost(o)));
    if (o.summary.outcome == Outcome::accepted)
        return s + fmt::format(" in {}", format_duration(cost(o)));
    return s + fmt::format(" after {}", format_duration(cost(o)));
}

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
            evidence =
                fmt::format("{} is {} whole step(s) of {}'s {} SYN retry interval",
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
    bool only_ipv6_off = true;
    for (std::size_t i = 0; i < *first_accept_; ++i) {
        failed.push_back(describe(obs_[i]));
        penalty_ += cost(obs_[i]);
        only_ipv6_off = only_ipv6_off && ipv6_off_at(obs_[i]);
    }
    const bool slow = penalty_ > in_.threshold;
    if (only_ipv6_off && !slow)
        return; // the ipv6-off finding says it, without an ordering story
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
        if (o.address.family == served || ipv6_off_at(o))
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
    // curl's own localhost answer may reach a server the resolver's
    // addresses miss: then the target is not down (clients-fail says who
    // fails).
    if (first_accept_ || some_client_connects())
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

void Diagnoser::ipv6_off() {
    for (const auto& o : obs_) {
        if (!ipv6_off_at(o))
            continue;
        add(finding_id::ipv6_off, Severity::info,
            fmt::format("IPv6 is off here: {} is not configured on this machine ({}), so no "
                        "client can connect to it and each one moves on at once. On Windows ::1 "
                        "always exists.",
                        ip_string(o.address),
                        o.summary.native_name.empty() ? "unreachable" : o.summary.native_name),
            o.address);
        return;
    }
}

void Diagnoser::expected_refusal() {
    if (!in_.expect_refused)
        return;
    const Observation* hit = first_accept_ ? &obs_[*first_accept_] : nullptr;
    for (const auto& o : in_.curl_localhost)
        if (!hit && accepted(o))
            hit = &o;
    if (!hit)
        return;
    add(finding_id::not_refused, Severity::error,
        fmt::format("{} was expected to be refused, but {} accepted in {}.", in_.target->input,
                    endpoint_string(hit->address), format_duration(cost(*hit))),
        hit->address);
}

void Diagnoser::client_findings() {
    // Every row that fails or waits here is named by a finding, so the
    // verdict never says OK over a failing row. Under --expect refused the
    // rows are expected to fail (not-refused covers an accept).
    if (in_.expect_refused || in_.own_listener || !(first_accept_ || some_client_connects()))
        return;
    std::vector<std::string> failing, slow;
    for (const auto& c : d_.clients) {
        if (!c.prediction.connected)
            failing.push_back(c.client);
        else if (c.prediction.time > in_.threshold)
            slow.push_back(fmt::format("{} ({})", c.client, format_duration(c.prediction.time)));
    }
    if (!failing.empty()) {
        const auto where = first_accept_
                               ? endpoint_string(obs_[*first_accept_].address)
                               : std::string("an address curl answers localhost with itself");
        add(finding_id::clients_fail, Severity::error,
            fmt::format("These clients fail here, though {} accepts: they never try it: {}.", where,
                        fmt::join(failing, "; ")));
    }
    if (!slow.empty())
        add(finding_id::clients_slow, Severity::warning,
            fmt::format("These clients wait longer than {} here: {}.",
                        format_duration(in_.threshold), fmt::join(slow, "; ")));
}

void Diagnoser::listener_elsewhere() {
    if (first_accept_)
        return;
    if (auto f = listener_words::elsewhere(port_listeners_, *in_.target, obs_, in_.expect_refused))
        d_.findings.push_back(std::move(*f));
}

Diagnosis Diagnoser::run() && {
    if (obs_.empty()) {
        d_.verdict =
            fmt::format("INCOMPLETE: {} was not measured (interrupted)", in_.target->input);
        d_.exit_code = exit_code::interrupted;
        return std::move(d_);
    }
    for (std::size_t i = 0; i < obs_.size(); ++i) {
        if (accepted(obs_[i])) {
            first_accept_ = i;
            break;
        }
    }
    d_.clients = predict_clients(
        obs_, {in_.target->host, os_, in_.curl_localhost, in_.full_client_rows}, &d_.windows);
    expected_refusal();
    slow_refusals();
    ipv6_off();
    fallback();
    single_stack();
    nothing_accepts();
    listener_elsewhere();
    timeouts();
    slow_accepts();
    accept_queue_full();
    client_findings();
    fixes();
    verdict();
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
    return std::move(d_);
}

} // namespace detail

Diagnosis diagnose(const DiagnosisInput& in) {
    return detail::Diagnoser(in).run();
}

Diagnosis diagnose_unresolved(const Target& target, const Error& error) {
    Diagnosis d;
    d.findings.push_back(
        {std::string(finding_id::unresolved), Severity::error, "", error.message, std::nullopt});
    d.verdict = fmt::format("UNRESOLVED: {}", error.message);
    // "locahost": the name a typo was meant to be, as the command typos'.
    const auto meant = meant_local_name(target.host);
    d.fixes.push_back(
        !error.fix.empty() ? error.fix
        : meant ? fmt::format("Check the name '{}': did you mean '{}'?", target.host, *meant)
                : fmt::format("Check the name '{}' (and the hosts file).", target.host));
    d.exit_code = exit_code::unresolved;
    return d;
}

} // namespace loopcheck
