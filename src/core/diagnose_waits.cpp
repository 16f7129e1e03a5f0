// The diagnosis engine's findings about waiting (core/diagnoser.hpp): a
// connect that got no answer, an accept slower than the threshold, an accept
// that waited out a full accept queue.
#include "core/diagnose_listeners.hpp"
#include "core/diagnoser.hpp"

#include <fmt/format.h>

namespace loopcheck::detail {

using namespace std::chrono_literals;

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
        // The table says nothing listens on the port: no queue can be full,
        // and the port would refuse, so the reset is what went missing (or
        // a slow refusal outlasted --timeout: the next finding says so).
        if (in_.listeners && port_listeners_.empty()) {
            add(finding_id::no_answer, Severity::warning,
                fmt::format("{} did not answer within {} and nothing listens on port {} here: "
                            "no reset came back, so a firewall drops the SYN or its reset.",
                            endpoint_string(o.address), format_duration(in_.timeout),
                            o.address.port),
                o.address);
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
        // Only an accept can have waited in a full queue: a timeout, or
        // rounds split between timeouts and unreachables, accepted nothing.
        if (!accepted(o))
            continue;
        const int rtx = o.summary.syn_retransmissions.value_or(0);
        const Micros worst = o.summary.latency.max;
        const auto k = fits_retry_steps(worst, step);
        if (rtx <= 0 && !(k && worst > in_.threshold))
            continue;
        std::string evidence =
            rtx > 0
                ? fmt::format("the kernel counted {} SYN retransmission(s)", rtx)
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

} // namespace loopcheck::detail
