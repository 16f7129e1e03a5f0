// `loopcheck listen SPEC...`: throwaway servers that reproduce a set-up
// ("a server on 127.0.0.1 only", "one on ::1 only", "a dual-stack one"),
// accepting and closing every connection until Ctrl-C, SIGTERM or --for.
#include "loopcheck/run/listen.hpp"

#include "loopcheck/platform/platform.hpp"
#include "loopcheck/run/stop.hpp"
#include "run/targets.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <fmt/format.h>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>

namespace loopcheck {

namespace {

// Ctrl-C, SIGTERM and --for all end the run through request_stop(); every
// wait below is at most `poll_slice`, so each thread sees it soon.
constexpr Micros poll_slice{200'000};

struct Wanted {
    const ListenSpec* spec;
    std::vector<Address> addresses; ///< all with the spec's port
    bool v6only = true;
};

struct Opened {
    platform::Socket socket;
    Address bound;
    bool v6only = true;
};

/// Opens one listener per address of `w`. With port 0 the first bind picks
/// the port and the others must get the same one; if another process holds
/// it on a later address, try again with a fresh port (a few times).
Result<std::vector<Opened>> open_wanted(const Wanted& w) {
    std::optional<Error> last;
    for (int attempt = 0; attempt < 10; ++attempt) {
        std::vector<Opened> out;
        std::uint16_t port = w.spec->port;
        for (Address a : w.addresses) {
            a.port = port;
            const bool v6only = a.family == Family::ipv6 && w.v6only;
            auto sock = platform::open_listener({a, v6only, 128});
            if (!sock) {
                last = sock.error();
                break;
            }
            auto bound = platform::local_address(*sock);
            if (!bound)
                return bound.error();
            port = bound->port;
            out.push_back({std::move(*sock), *bound, v6only});
        }
        if (out.size() == w.addresses.size())
            return out;
        if (w.spec->port != 0 || out.empty())
            break; // a fixed port is taken, or the first bind failed: no retry helps
    }
    return *last;
}

/// Every address of every spec, known and allowed before anything opens.
Result<std::vector<Wanted>> resolve_wanted(const std::vector<ListenSpec>& specs, bool allow_any) {
    std::vector<Wanted> wanted;
    for (const auto& spec : specs) {
        Wanted w{&spec, {}, spec.kind != ListenSpec::Kind::dual};
        if (spec.kind == ListenSpec::Kind::name) {
            auto resolved =
                Resolver(FamilyFilter::any).addresses(name_target(spec.host, spec.port));
            if (!resolved)
                return resolved.error();
            for (const auto& a : *resolved)
                if (std::find(w.addresses.begin(), w.addresses.end(), a) == w.addresses.end())
                    w.addresses.push_back(a);
        } else {
            w.addresses.push_back(spec.address);
        }
        for (const auto& a : w.addresses)
            if (auto why = listen_refusal(spec, a); !why.empty() && !allow_any)
                return usage_error(why);
        wanted.push_back(std::move(w));
    }
    return wanted;
}

/// Starts `body` on a thread of its own in `threads`: false, with `error`
/// set, when the OS has no thread to give (std::system_error, EAGAIN).
bool start_thread(std::vector<std::thread>& threads, const std::function<void()>& body,
                  std::size_t wanted, std::optional<Error>& error, std::mutex& error_mutex) {
    try {
        threads.emplace_back(body);
        return true;
    } catch (const std::system_error& e) {
        const std::lock_guard lock(error_mutex);
        error = system_error(fmt::format("cannot start thread {} of {} (one per listening socket; "
                                         "a process or memory limit, as ulimit -u): {}",
                                         threads.size() + 1, wanted, e.what()));
        return false;
    }
}

/// Accepts and closes on every socket, one thread each, until a stop is
/// requested or `deadline`; the first accept error stops every thread. A
/// thread that cannot start (a process or memory limit) ends the run as
/// one error: the ones started are stopped and joined, or their
/// std::thread would call std::terminate.
Result<ListenResult> serve(const std::vector<Opened>& sockets, Micros deadline,
                           const ListenRequest& request) {
    std::atomic<std::size_t> accepted{0};
    std::mutex error_mutex;
    std::optional<Error> error;
    auto serve_one = [&](const Opened& o) {
        while (!stop_requested()) {
            const Micros now = platform::monotonic_now();
            if (now >= deadline)
                break;
            auto peer = platform::accept_and_close(o.socket, std::min(poll_slice, deadline - now));
            if (!peer) {
                const std::lock_guard lock(error_mutex);
                error = peer.error();
                request_stop();
                break;
            }
            if (!*peer)
                continue;
            ++accepted;
            if (request.on_accept)
                request.on_accept(**peer, o.bound);
        }
    };
    std::vector<std::thread> threads;
    for (const auto& o : sockets)
        if (!start_thread(
                threads, [&serve_one, &o] { serve_one(o); }, sockets.size(), error, error_mutex)) {
            request_stop();
            break;
        }
    for (auto& t : threads)
        t.join();
    if (error)
        return *error;
    return ListenResult{accepted.load()};
}

} // namespace

Result<ListenResult> run_listen(const ListenRequest& request) {
    auto wanted = resolve_wanted(request.specs, request.allow_any);
    if (!wanted)
        return wanted.error();
    std::vector<Opened> sockets;
    for (const auto& w : *wanted) {
        auto opened = open_wanted(w);
        if (!opened)
            return opened.error();
        for (auto& o : *opened)
            sockets.push_back(std::move(o));
    }
    if (request.on_listening) {
        std::vector<ListeningSocket> listening;
        for (const auto& o : sockets)
            listening.push_back({o.bound, o.v6only});
        request.on_listening(listening);
    }
    const Micros deadline =
        request.duration ? platform::monotonic_now() + *request.duration : Micros::max();
    return serve(sockets, deadline, request);
}

} // namespace loopcheck
