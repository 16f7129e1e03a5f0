// `loopcheck listen SPEC...`: throwaway servers that reproduce a set-up
// ("a server on 127.0.0.1 only", "one on ::1 only", "a dual-stack one"),
// accepting and closing every connection until Ctrl-C, SIGTERM or --for.
//
// stdout gets one "listening on ADDRESS" line per socket, at once, so a
// script can read the port that port 0 picked; stderr gets one line per
// accepted connection (not with -q).
#include "loopcheck/cli/command.hpp"
#include "loopcheck/core/exit_codes.hpp"
#include "loopcheck/core/listen_spec.hpp"
#include "loopcheck/cli/options.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/platform/common/probe.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <mutex>
#include <thread>
#include <variant>

namespace loopcheck {

namespace {

struct ListenArgs {
    std::vector<std::string> specs;
    std::string duration;
    bool allow_any = false;
    bool quiet = false;
};

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
/// The exit code and its printed error on failure.
std::variant<std::vector<Wanted>, int> resolve_wanted(const std::vector<ListenSpec>& specs,
                                                      bool allow_any) {
    std::vector<Wanted> wanted;
    for (const auto& spec : specs) {
        Wanted w{&spec, {}, spec.kind != ListenSpec::Kind::dual};
        if (spec.kind == ListenSpec::Kind::name) {
            auto resolved = platform::resolve(spec.host, spec.port, FamilyFilter::any);
            if (!resolved)
                return report_error(exit_code::unresolved, resolved.error().message);
            for (const auto& a : *resolved)
                if (std::find(w.addresses.begin(), w.addresses.end(), a) == w.addresses.end())
                    w.addresses.push_back(a);
        } else {
            w.addresses.push_back(spec.address);
        }
        for (const auto& a : w.addresses)
            if (auto why = listen_refusal(spec, a); !why.empty() && !allow_any)
                return usage_failure(why);
        wanted.push_back(std::move(w));
    }
    return wanted;
}

/// One "listening on ADDRESS" line per socket on stdout, flushed at once so
/// that a script can read the port that port 0 picked.
void announce(const std::vector<Opened>& sockets) {
    for (const auto& o : sockets) {
        const bool wildcard6 = o.bound.family == Family::ipv6 && is_unspecified(o.bound);
        std::fputs(
            fmt::format("listening on {}{}\n", endpoint_string(o.bound),
                        wildcard6 ? (o.v6only ? " (IPV6_V6ONLY on)" : " (IPV6_V6ONLY off)") : "")
                .c_str(),
            stdout);
    }
    std::fflush(stdout);
}

/// Accepts and closes on every socket, one thread each, until a stop is
/// requested or `deadline`; the first accept error stops every thread.
int serve(const std::vector<Opened>& sockets, Micros deadline, bool quiet) {
    std::atomic<std::size_t> accepted{0};
    std::mutex error_mutex;
    std::optional<Error> error;
    std::vector<std::thread> threads;
    for (const auto& o : sockets) {
        threads.emplace_back([&, &o = o] {
            while (!stop_requested()) {
                const Micros now = platform::monotonic_now();
                if (now >= deadline)
                    break;
                auto peer =
                    platform::accept_and_close(o.socket, std::min(poll_slice, deadline - now));
                if (!peer) {
                    const std::lock_guard lock(error_mutex);
                    error = peer.error();
                    request_stop();
                    break;
                }
                if (!*peer)
                    continue;
                ++accepted;
                if (!quiet)
                    std::fputs(fmt::format("accepted {} on {}\n", endpoint_string(**peer),
                                           endpoint_string(o.bound))
                                   .c_str(),
                               stderr);
            }
        });
    }
    for (auto& t : threads)
        t.join();
    if (error)
        return report_error(exit_code::internal, error->message);
    if (!quiet)
        std::fputs(
            fmt::format("loopcheck: stopped after {} connection(s)\n", accepted.load()).c_str(),
            stderr);
    return exit_code::healthy;
}

int run_listen(const ListenArgs& args) {
    std::optional<Micros> duration;
    if (!args.duration.empty()) {
        auto d = parse_duration(args.duration);
        if (!d)
            return usage_failure(fmt::format("--for: {}", d.error().message));
        if (*d <= Micros{0})
            return usage_failure("--for must be above 0");
        duration = *d;
    }
    std::vector<ListenSpec> specs;
    for (const auto& text : args.specs) {
        auto spec = parse_listen_spec(text);
        if (!spec)
            return usage_failure(spec.error().message);
        specs.push_back(std::move(*spec));
    }
    // Before the first "listening on" line, the interrupt handler: whoever
    // reads it may stop us.
    const CommandSetup setup(args.quiet ? -1 : 0);
    if (auto code = setup.failed())
        return *code;
    auto wanted = resolve_wanted(specs, args.allow_any);
    if (const int* code = std::get_if<int>(&wanted))
        return *code;

    std::vector<Opened> sockets;
    for (const auto& w : std::get<std::vector<Wanted>>(wanted)) {
        auto opened = open_wanted(w);
        if (!opened)
            return report_error(exit_code::internal, opened.error().message);
        for (auto& o : *opened)
            sockets.push_back(std::move(o));
    }
    announce(sockets);

    const Micros deadline = duration ? platform::monotonic_now() + *duration : Micros::max();
    if (!args.quiet)
        std::fputs(
            duration
                ? fmt::format("loopcheck: accepting for {}\n", format_duration(*duration)).c_str()
                : "loopcheck: accepting until Ctrl-C\n",
            stderr);
    return serve(sockets, deadline, args.quiet);
}

} // namespace

Command add_listen_command(CLI::App& app) {
    auto args = std::make_shared<ListenArgs>();
    CLI::App* sub =
        app.add_subcommand("listen", "throwaway listeners to reproduce a set-up (Ctrl-C ends)");
    sub->add_option("spec", args->specs,
                    "127.0.0.1:PORT, [::1]:PORT, localhost:PORT (every address the name "
                    "resolves to) or dual:PORT ([::], IPV6_V6ONLY off); port 0 picks one")
        ->required();
    sub->add_option("--for", args->duration,
                    "stop after this long: 30s, 5m (default: until Ctrl-C)");
    sub->add_flag("--allow-any", args->allow_any,
                  "allow addresses other than loopback (and dual:, which binds [::])");
    sub->add_flag("-q,--quiet", args->quiet, "do not log accepted connections");
    sub->footer(R"(Opens every SPEC, accepts and closes every connection, and runs until
Ctrl-C, SIGTERM or --for. Loopback addresses only unless --allow-any.

Output: stdout gets one "listening on ADDRESS" line per socket, at once (so a
script can read the port 0 picked); stderr gets one "accepted PEER on
ADDRESS" line per connection (not with -q).

Exit codes:
  0  ended by --for, Ctrl-C or SIGTERM
  2  a bad SPEC or option, or a non-loopback address without --allow-any
  4  a name did not resolve
  5  a listener could not be opened (port in use, no IPv6)

Examples:
  loopcheck listen 127.0.0.1:8000           a server on IPv4 only (Ollama-like)
  loopcheck listen [::1]:3000               IPv6 only (Node on Windows, 'localhost')
  loopcheck listen localhost:0 --for 30s    every address of localhost, one free port
  loopcheck listen dual:8000 --allow-any    [::] with IPV6_V6ONLY off)");
    return {sub, [args] { return run_listen(*args); }};
}

} // namespace loopcheck
