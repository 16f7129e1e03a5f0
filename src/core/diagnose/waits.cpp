// The diagnosis engine's findings about waiting (core/diagnose/diagnoser.hpp): a
// connect that got no answer, an accept slower than the threshold, an accept
// that waited out a full accept queue.
#include "core/diagnose/diagnoser.hpp"
#include "core/diagnose/listeners.hpp"

namespace loopcheck::detail {

using namespace std::chrono_literals;

void Diagnoser::timeouts() {
    bool any = false;
    for (const auto& o : obs_) {
        if (o.summary.outcome != Outcome::timeout)
            continue;
        any = true;
        // A listener bound there: its queue is full or a firewall drops the
        // SYN. The table says nothing listens on the port: no queue can be
        // full, and the port would refuse, so the reset is what went missing
        // (or a slow refusal outlasted --timeout: the next finding says so).
        const Listener* l = listener_at(o.address);
        add(finding_id::no_answer, Severity::warning,
            facts::NoAnswer{o.address, in_.timeout, known(l),
                            !l && in_.listeners && port_listeners_.empty()},
            o.address);
    }
    // A Windows refusal takes about 2 s (4 retries 500 ms apart); a shorter
    // timeout turns it into a "timeout" (the curl -m 2 trap).
    constexpr Micros windows_refusal_stall = 2500ms;
    if (any && in_.timeout < windows_refusal_stall) {
        add(finding_id::short_timeout, Severity::warning, facts::ShortTimeout{in_.timeout});
    }
}

void Diagnoser::slow_accepts() {
    for (const auto& o : obs_) {
        if (accepted(o) && cost(o) > in_.threshold)
            add(finding_id::slow_accept, Severity::warning,
                facts::SlowAccept{o.address, cost(o), in_.threshold}, o.address);
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
        add(finding_id::accept_queue_full, Severity::warning,
            facts::AcceptQueueFull{o.address, worst,
                                   rtx > 0 ? kernel_count(rtx)
                                           : retry_steps(worst, *k, in_.os, step),
                                   in_.listen_overflows},
            o.address);
    }
}

} // namespace loopcheck::detail
