// `loopcheck [TARGET...]`: the check, and with no target the self-check,
// whose listener and closed ports are opened here and held until the
// probes are done.
#include "loopcheck/run/check.hpp"

#include "loopcheck/core/diagnose/selfcheck.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"
#include "run/measure.hpp"

#include <fmt/format.h>

namespace loopcheck {

namespace {

/// The self-check's set-up: a listener on 127.0.0.1 only and two closed
/// ports, held open until the probes are done.
struct SelfCheckSetup {
    platform::Socket listener, closed_v4, closed_v6;
    SelfCheck facts;
    std::vector<Target> targets;
};

/// A socket and the address it is bound to.
Result<std::pair<platform::Socket, Address>> bound(Result<platform::Socket> socket) {
    if (!socket)
        return socket.error();
    auto address = platform::local_address(*socket);
    if (!address)
        return address.error();
    return std::pair{std::move(*socket), *address};
}

Result<SelfCheckSetup> set_up_self_check() {
    SelfCheckSetup s;
    auto listener = bound(platform::open_listener({make_ipv4(127, 0, 0, 1), true, 16}));
    if (!listener)
        return listener.error();
    s.listener = std::move(listener->first);
    s.facts.listener_port = listener->second.port;

    auto closed4 = bound(platform::bind_closed(make_ipv4(127, 0, 0, 1)));
    if (!closed4)
        return closed4.error();
    s.closed_v4 = std::move(closed4->first);
    s.facts.closed_port_v4 = closed4->second.port;

    // IPv6 may be off entirely; the self-check says so instead of failing.
    auto closed6 = bound(platform::bind_closed(ipv6_loopback()));
    if (closed6) {
        s.closed_v6 = std::move(closed6->first);
        s.facts.closed_port_v6 = closed6->second.port;
    } else {
        log::debug("no IPv6 loopback: {}", closed6.error().message);
    }
    s.targets.push_back(name_target("localhost", s.facts.listener_port));
    s.targets.push_back(address_target(make_ipv4(127, 0, 0, 1, s.facts.closed_port_v4)));
    if (s.facts.closed_port_v6 != 0)
        s.targets.push_back(address_target(ipv6_loopback(s.facts.closed_port_v6)));
    return s;
}

} // namespace

Result<Report> run_check(const CheckRequest& request, const ProgressFn& progress) {
    if (!request.targets.empty())
        return measure(request.targets, request, progress);

    auto self = set_up_self_check();
    if (!self)
        return Error{ErrorKind::system,
                     fmt::format("self-check set-up failed: {}", self.error().message)};
    // The closed ports (every target after the first) are meant to refuse.
    auto measured = measure(std::move(self->targets), request, progress, nullptr, 1);
    if (!measured)
        return measured.error();
    Report& report = *measured;
    self->facts.statements =
        self_check_statements(report.targets[0], report.targets[1],
                              report.targets.size() > 2 ? &report.targets[2] : nullptr,
                              request.threshold, report.system.hosts_file);
    report.self_check = self->facts;
    return measured;
}

} // namespace loopcheck
