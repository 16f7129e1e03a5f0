// The diagnosis engine's inside, shared by the files that implement it:
// diagnose.cpp (the findings, their covers), diagnose_waits.cpp and
// diagnose_advice.cpp (the fixes, the exit code and the verdict). Each
// finding and fix is a fact (core/diagnose/facts.hpp); report/phrasing.cpp words it. Not part of
// core's interface: use diagnose().
#pragma once

#include "core/diagnose/listeners.hpp"
#include "loopcheck/core/diagnose/diagnose.hpp"

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck::detail {

/// The wait a refused or failed address costs a client that tries it.
inline Micros cost(const Observation& o) {
    return o.summary.latency.median;
}

inline bool accepted(const Observation& o) {
    return o.summary.outcome == Outcome::accepted;
}

/// ::1 not configured here (EADDRNOTAVAIL, or unreachable): IPv6 is off on
/// loopback, which is no ordering or listener matter.
inline bool ipv6_off_at(const Observation& o) {
    return o.address.family == Family::ipv6 && is_loopback(o.address) &&
           o.summary.outcome == Outcome::unreachable;
}

/// An address and what its connects did, for findings.
facts::Tried tried(const Observation& o);

/// The evidence that a time is whole steps of the OS's SYN retry interval.
facts::SynEvidence retry_steps(Micros latency, int k, Os os, Micros step);
/// The evidence that the kernel counted SYN retransmissions.
facts::SynEvidence kernel_count(int retransmissions);

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
    /// Runs once, on a temporary: the diagnosis is moved out, not copied.
    Diagnosis run() &&;

private:
    void add(std::string_view id, Severity sev, facts::FindingFacts facts,
             std::optional<Address> address = std::nullopt, std::string_view why = {}) {
        d_.findings.push_back({std::string(id), sev, std::string(why), std::move(facts), address});
    }
    bool name_target() const { return !in_.target->literal; }
    void slow_refusals();
    void fallback();
    void single_stack();
    void nothing_accepts();
    void timeouts();
    void slow_accepts();
    void accept_queue_full();
    void ipv6_off();
    /// --expect refused, and an address (or curl's own localhost) accepted.
    void expected_refusal();
    /// clients-fail and clients-slow: every row that pays here, by name.
    void client_findings();
    bool some_client_connects() const {
        return std::any_of(d_.clients.begin(), d_.clients.end(),
                           [](const ClientImpact& c) { return c.prediction.connected; });
    }
    void client_fixes();
    /// Client rows that fail here or wait longer than the threshold.
    bool client_pays(const ClientImpact& c) const {
        return !c.prediction.connected || c.prediction.time > in_.threshold;
    }
    void listener_elsewhere();
    /// When an address after the first accepts: the target rewritten to it,
    /// and when falling back costs more than the threshold, the fixes for
    /// the wait (connect there, make the server listen on both, or a client
    /// that does not wait).
    void fallback_fixes();
    /// Off Windows, when clients that pay nothing here fail or wait past
    /// the threshold on Windows: the address that accepts, for Windows users.
    void windows_fixes();
    /// The server's own both-families setting when recognised, else "listen
    /// on both"; sets server_fix for the first.
    void both_families_fix(const Listener* server, const Address& winner);
    void fixes();
    /// The listener a connect to `a` lands on, when the table is known.
    const Listener* listener_at(const Address& a) const {
        return in_.listeners ? serving(port_listeners_, a) : nullptr;
    }
    /// The listener, as a fact a fix carries; nullopt when unknown.
    static std::optional<Listener> known(const Listener* l) {
        return l ? std::optional<Listener>(*l) : std::nullopt;
    }
    /// The verdict's form, word and exit code, by decide_verdict.
    void verdict();
    /// The covers relation: which finding another line of the one-screen
    /// report already says (Finding::covered_by).
    void covers();

    const DiagnosisInput& in_;
    Os os_;
    std::vector<Observation> measured_;
    std::span<const Observation> obs_;
    Diagnosis d_;
    std::optional<std::size_t> first_accept_;
    Micros penalty_{0};
    std::vector<Listener> port_listeners_; ///< on the target's port; empty when unknown
};

} // namespace loopcheck::detail
