// The diagnosis engine: the findings for one target, then the advice (below).
#include "loopcheck/core/diagnose/diagnose.hpp"

#include "core/diagnose/diagnoser.hpp"
#include "core/diagnose/listeners.hpp"
#include "core/diagnose/verdict.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

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

facts::Tried tried(const Observation& o) {
    return {o.address, o.summary.outcome, cost(o)};
}

facts::SynEvidence retry_steps(Micros latency, int k, Os os, Micros step) {
    facts::SynEvidence e;
    e.kind = facts::SynEvidence::Kind::retry_steps;
    e.latency = latency;
    e.steps = k;
    e.os = os;
    e.step = step;
    return e;
}

facts::SynEvidence kernel_count(int retransmissions) {
    facts::SynEvidence e;
    e.kind = facts::SynEvidence::Kind::kernel_count;
    e.retransmissions = retransmissions;
    return e;
}

void Diagnoser::slow_refusals() {
    const Micros step = syn_retry_step(in_.os);
    for (const auto& o : obs_) {
        if (o.summary.outcome != Outcome::refused || cost(o) <= in_.threshold)
            continue;
        facts::SynEvidence evidence;
        std::string_view why = cause::syn_retransmission;
        if (o.summary.fast_latency && o.summary.fast_outcome == Outcome::refused &&
            o.summary.fast_latency->median <= in_.threshold) {
            evidence.kind = facts::SynEvidence::Kind::no_retry_twin;
            evidence.no_retry_time = o.summary.fast_latency->median;
        } else if (o.summary.syn_retransmissions.value_or(0) > 0) {
            evidence = kernel_count(*o.summary.syn_retransmissions);
        } else if (auto k = fits_retry_steps(cost(o), step)) {
            evidence = retry_steps(cost(o), *k, in_.os, step);
        } else {
            why = cause::unknown;
        }
        add(finding_id::slow_refusal, Severity::warning,
            facts::SlowRefusal{o.address, cost(o), evidence}, o.address, why);
    }
}

void Diagnoser::fallback() {
    if (!first_accept_ || *first_accept_ == 0)
        return;
    const auto& winner = obs_[*first_accept_];
    std::vector<facts::Tried> failed;
    bool only_ipv6_off = true;
    for (std::size_t i = 0; i < *first_accept_; ++i) {
        failed.push_back(tried(obs_[i]));
        penalty_ += cost(obs_[i]);
        only_ipv6_off = only_ipv6_off && ipv6_off_at(obs_[i]);
    }
    const bool slow = penalty_ > in_.threshold;
    if (only_ipv6_off && !slow)
        return; // the ipv6-off finding says it, without an ordering story
    add(finding_id::fallback_penalty, slow ? Severity::warning : Severity::info,
        facts::FallbackPenalty{in_.target->host, obs_.front().address, std::move(failed),
                               winner.address, penalty_, !slow && os_ != Os::windows},
        obs_.front().address);
}

void Diagnoser::single_stack() {
    if (!name_target() || !first_accept_ || in_.own_socket)
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
    const auto& accepted_at = obs_[*first_accept_].address;
    facts::SingleStack f{in_.target->host, served, obs_.front().address, {}, {}};
    for (const auto& o : obs_)
        if (o.address.family != served)
            f.others.push_back(o.address);
    // With the listener table, the words name who listens where.
    if (listener_at(accepted_at))
        f.listeners = port_listeners_;
    add(finding_id::single_stack_listener, Severity::info, std::move(f), accepted_at);
}

void Diagnoser::nothing_accepts() {
    // curl's own localhost answer may reach a server the resolver's
    // addresses miss: then the target is not down (clients-fail says who
    // fails).
    if (first_accept_ || some_client_connects())
        return;
    facts::ServerDown f{in_.target->input, {}, Micros{0}, false, false, in_.target->port};
    for (const auto& o : obs_) {
        f.tried.push_back(tried(o));
        f.total += cost(o);
    }
    const bool all_refused = std::all_of(obs_.begin(), obs_.end(), [](const Observation& o) {
        return o.summary.outcome == Outcome::refused;
    });
    if (in_.expect_refused && all_refused) {
        f.expected = true;
        add(finding_id::server_down, Severity::ok, std::move(f));
        return;
    }
    f.nothing_listens = in_.listeners && port_listeners_.empty();
    add(finding_id::server_down, Severity::error, std::move(f));
}

void Diagnoser::ipv6_off() {
    for (const auto& o : obs_) {
        if (!ipv6_off_at(o))
            continue;
        add(finding_id::ipv6_off, Severity::info, facts::Ipv6Off{o.address, o.summary.native_name},
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
        facts::NotRefused{in_.target->input, hit->address, cost(*hit)}, hit->address);
}

void Diagnoser::client_findings() {
    // Every row that fails or waits here is named by a finding, so the
    // verdict never says OK over a failing row. Under --expect refused the
    // rows are expected to fail (not-refused covers an accept).
    if (in_.expect_refused || in_.own_listener || !(first_accept_ || some_client_connects()))
        return;
    facts::ClientsFail failing;
    facts::ClientsSlow slow{in_.threshold, {}};
    for (const auto& c : d_.clients) {
        if (!c.prediction.connected)
            failing.clients.push_back(c.client);
        else if (c.prediction.time > in_.threshold)
            slow.clients.push_back({c.client, c.prediction.time});
    }
    if (!failing.clients.empty()) {
        if (first_accept_)
            failing.accepts = obs_[*first_accept_].address;
        add(finding_id::clients_fail, Severity::error, std::move(failing));
    }
    if (!slow.clients.empty())
        add(finding_id::clients_slow, Severity::warning, std::move(slow));
}

void Diagnoser::listener_elsewhere() {
    if (first_accept_)
        return;
    if (auto f = listener_words::elsewhere(port_listeners_, *in_.target, obs_, in_.expect_refused))
        d_.findings.push_back(std::move(*f));
}

void Diagnoser::covers() {
    // The one-screen report says each fact once. The client fold (or its
    // one-line "every client" form) names every row clients-fail and
    // clients-slow list, with its cost; the verdict line words a slow
    // fallback in full ("clients that try addresses in turn wait T per new
    // connection to X before Y accepts"); server-down names every address
    // and fallback-penalty every address before the first that accepted,
    // each with its time, and the address table holds a slow refusal's
    // retries and its time without them.
    const auto first_covering = [&](std::size_t at) -> const Finding* {
        for (const auto& o : d_.findings) {
            if (o.id == finding_id::server_down)
                return &o;
            if (o.id == finding_id::fallback_penalty && first_accept_ && at < *first_accept_)
                return &o;
        }
        return nullptr;
    };
    for (auto& f : d_.findings) {
        if (f.id == finding_id::clients_fail || f.id == finding_id::clients_slow) {
            if (!d_.clients.empty())
                f.covered_by = CoveredBy::client_fold;
        } else if (f.id == finding_id::fallback_penalty) {
            if (d_.verdict.form == facts::VerdictForm::slow_fallback)
                f.covered_by = CoveredBy::verdict;
        } else if (f.id == finding_id::slow_refusal && f.address) {
            const auto at = std::find_if(obs_.begin(), obs_.end(), [&](const Observation& o) {
                return o.address == *f.address;
            });
            if (at == obs_.end())
                continue;
            if (const Finding* by = first_covering(static_cast<std::size_t>(at - obs_.begin()))) {
                f.covered_by = CoveredBy::finding;
                f.covering = by->id;
            }
        }
    }
}

Diagnosis Diagnoser::run() && {
    if (obs_.empty()) {
        d_.verdict.form = facts::VerdictForm::incomplete;
        d_.verdict.word = verdict_word::incomplete;
        d_.verdict.facts.input = in_.target->input;
        d_.exit_code = d_.verdict.exit_code = exit_code::interrupted;
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
        facts::Healthy f{winner.address, cost(winner), std::nullopt};
        if (const Listener* server = listener_at(winner.address))
            f.server = *server;
        add(finding_id::healthy, Severity::ok, std::move(f));
    }
    covers();
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
    Finding f{std::string(finding_id::unresolved), Severity::error, "",
              facts::Unresolved{error.message}, std::nullopt};
    // The verdict line words the resolver's message in full.
    f.covered_by = CoveredBy::verdict;
    d.findings.push_back(std::move(f));
    d.verdict.form = facts::VerdictForm::unresolved;
    d.verdict.word = verdict_word::unresolved;
    d.verdict.facts.input = target.input;
    d.verdict.error = error.message;
    // "locahost": the name a typo was meant to be, as the command typos'.
    if (!error.fix.empty())
        d.fixes.emplace_back(facts::ResolverAdvice{error.fix});
    else
        d.fixes.emplace_back(facts::CheckName{target.host, meant_local_name(target.host)});
    d.exit_code = d.verdict.exit_code = exit_code::unresolved;
    return d;
}

} // namespace loopcheck
