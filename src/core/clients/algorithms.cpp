// The connect algorithms: sequential, Happy Eyeballs, Go's dual-stack race, one address, Node.js's
// attempt timeout.
#include "loopcheck/core/clients/algorithms.hpp"

#include <algorithm>
#include <vector>

namespace loopcheck {

namespace {

constexpr Micros never = Micros::max();

/// Node.js autoSelectFamily (lib/net.js internalConnectMultiple): one
/// attempt at a time; every attempt but the last is destroyed after
/// `limit` and the next one starts; a failure starts the next at once.
ConnectPrediction attempt_timeout(Micros limit, std::span<const Attempt> attempts) {
    ConnectPrediction p;
    for (std::size_t k = 0; k < attempts.size(); ++k) {
        const auto& a = attempts[k];
        const bool last = k + 1 == attempts.size();
        ++p.attempts;
        if (!last && a.cost > limit) {
            p.time += limit; // cut short, whatever it would have done
            continue;
        }
        p.time += a.cost;
        p.lower_bound = p.lower_bound || a.outcome == Outcome::timeout;
        if (a.outcome == Outcome::accepted) {
            p.connected = true;
            p.via = a.address;
            return p;
        }
    }
    return p;
}

/// One attempt after another until one accepts: attempt_timeout with no
/// limit, since no attempt is ever cut short.
ConnectPrediction sequential(std::span<const Attempt> attempts) {
    return attempt_timeout(never, attempts);
}

/// RFC 8305 section 5: attempt k+1 starts `delay` after attempt k, or as
/// soon as every attempt started so far has failed, whichever is first; the
/// first attempt to succeed wins.
ConnectPrediction happy_eyeballs(Micros delay, std::span<const Attempt> attempts) {
    ConnectPrediction p;
    Micros best = never, prev_start{0}, last_end{0};
    std::optional<Address> via;
    bool any_success_started = false;
    for (std::size_t k = 0; k < attempts.size(); ++k) {
        Micros start{0};
        if (k > 0) {
            start = prev_start + delay;
            if (!any_success_started)
                start = std::min(start, last_end); // all earlier ones have failed by then
            if (best <= start)
                break;
        }
        const auto& a = attempts[k];
        ++p.attempts;
        p.lower_bound = p.lower_bound || a.outcome == Outcome::timeout;
        const Micros end = start + a.cost;
        if (a.outcome == Outcome::accepted) {
            any_success_started = true;
            if (end < best) {
                best = end;
                via = a.address;
            }
        }
        last_end = std::max(last_end, end);
        prev_start = start;
    }
    if (best != never) {
        p.connected = true;
        p.time = best;
        p.via = via;
        // Attempts that had not ended when the winner connected do not add
        // to the wait, timed out or not.
        p.lower_bound = false;
        for (std::size_t k = 0; k < static_cast<std::size_t>(p.attempts); ++k)
            if (attempts[k].outcome == Outcome::timeout && attempts[k].cost < best)
                p.lower_bound = true;
    } else {
        p.time = last_end;
    }
    return p;
}

/// Go's dialParallel (and curl's two "ballers" up to 8.15): the primaries
/// (the first address's family) are tried in turn; the fallbacks, in turn
/// too, start after the delay or as soon as the primaries have all failed.
ConnectPrediction go_dual_stack(Micros delay, std::span<const Attempt> attempts) {
    if (attempts.empty())
        return {};
    std::vector<Attempt> primaries, fallbacks;
    for (const auto& a : attempts)
        (a.address.family == attempts.front().address.family ? primaries : fallbacks).push_back(a);
    auto primary = sequential(primaries);
    if (fallbacks.empty())
        return primary;
    const Micros fallback_start = primary.connected ? delay : std::min(delay, primary.time);
    if (primary.connected && primary.time <= fallback_start)
        return primary;
    auto fallback = sequential(fallbacks);
    fallback.time += fallback_start;
    const int attempts_started = primary.attempts + fallback.attempts;
    ConnectPrediction p;
    if (primary.connected && (!fallback.connected || primary.time <= fallback.time)) {
        p = primary;
    } else if (fallback.connected) {
        p = fallback;
        // A primary that timed out before the fallback won moved its start.
        p.lower_bound = fallback.lower_bound || (primary.lower_bound && primary.time < p.time);
    } else {
        p.time = std::max(primary.time, fallback.time);
        p.lower_bound = primary.lower_bound || fallback.lower_bound;
    }
    p.attempts = attempts_started;
    return p;
}

ConnectPrediction first_ipv4(std::span<const Attempt> attempts) {
    if (attempts.empty())
        return {};
    auto it = std::find_if(attempts.begin(), attempts.end(),
                           [](const Attempt& a) { return a.address.family == Family::ipv4; });
    if (it == attempts.end())
        it = attempts.begin();
    return sequential(std::span<const Attempt>(&*it, 1));
}

} // namespace

ConnectPrediction simulate(ConnectAlgorithm kind, Micros delay, std::span<const Attempt> attempts) {
    switch (kind) {
    case ConnectAlgorithm::sequential:
        return sequential(attempts);
    case ConnectAlgorithm::happy_eyeballs:
        return happy_eyeballs(delay, attempts);
    case ConnectAlgorithm::go_dual_stack:
        return go_dual_stack(delay, attempts);
    case ConnectAlgorithm::first_ipv4:
        return first_ipv4(attempts);
    case ConnectAlgorithm::first_address:
        return attempts.empty() ? ConnectPrediction{} : sequential(attempts.first(1));
    case ConnectAlgorithm::attempt_timeout:
        return attempt_timeout(delay, attempts);
    }
    return {};
}

} // namespace loopcheck
