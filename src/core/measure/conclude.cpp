// Conclude_target(): samples -> summary -> diagnosis and emulation predictions for one target.
#include "loopcheck/core/measure/conclude.hpp"

#include "loopcheck/core/diagnose/diagnose.hpp"
#include "loopcheck/core/measure/observation.hpp"

#include <span>
#include <vector>

namespace loopcheck {

void conclude_target(TargetReport& t, const ConcludeContext& c) {
    if (t.resolve_error) {
        t.diagnosis = diagnose_unresolved(t.target, *t.resolve_error);
        return;
    }
    std::vector<Observation> obs;
    obs.reserve(t.addresses.size());
    for (auto& a : t.addresses) {
        a.summary = summarize_address(a.samples, a.fast_samples);
        obs.push_back({a.address, a.summary});
    }
    // IPv6 switched off on loopback is what the order note should say, not
    // an RFC 6724 ranking that costs nothing here (the ipv6-off finding).
    for (const auto& o : obs) {
        if (t.resolution && o.address.family == Family::ipv6 && is_loopback(o.address) &&
            o.summary.outcome == Outcome::unreachable) {
            t.resolution->note = "IPv6 is off here: ::1 is not configured on this machine, so "
                                 "every client skips it at once whatever the order.";
            break;
        }
    }
    // curl's own answer for localhost (addresses it tries that the resolver
    // may not give): for the curl rows only.
    std::vector<Observation> curl_obs;
    for (auto& a : t.curl_localhost) {
        a.summary = summarize_address(a.samples, a.fast_samples);
        if (!a.summary.interrupted)
            curl_obs.push_back({a.address, a.summary});
    }
    DiagnosisInput in;
    in.target = &t.target;
    in.addresses = obs;
    in.threshold = c.threshold;
    in.timeout = c.timeout;
    in.os = c.os;
    in.expect_refused = c.expect_refused;
    in.own_listener = c.own_listener;
    in.own_socket = c.own_socket;
    in.listen_overflows = c.listen_overflows;
    in.curl_localhost = curl_obs;
    in.full_client_rows = c.client_rows_kept;
    if (t.listeners)
        in.listeners = std::span<const Listener>(*t.listeners);
    t.diagnosis = diagnose(in);
    for (auto& e : t.emulations)
        e.predicted = predict_emulation(e.spec, obs, c.os);
}

} // namespace loopcheck
