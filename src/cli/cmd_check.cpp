#include "loopcheck/cli/cmd_check.hpp"

#include "loopcheck/cli/options.hpp"
#include "loopcheck/cli/pipeline.hpp"
#include "loopcheck/cli/version.hpp"
#include "loopcheck/core/exit_codes.hpp"
#include "loopcheck/core/selfcheck.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/common/probe.hpp"
#include "loopcheck/platform/platform.hpp"

#include <cstdio>
#include <fmt/format.h>

namespace loopcheck {

namespace {

/// The self-check's set-up: a listener on 127.0.0.1 only and two closed
/// ports, held open until the probes are done.
struct SelfCheckSetup {
    platform::Socket listener, closed_v4, closed_v6;
    SelfCheck facts;
    std::vector<std::string> targets;
};

Result<SelfCheckSetup> set_up_self_check() {
    SelfCheckSetup s;
    auto listener = platform::open_listener({make_ipv4(127, 0, 0, 1), true, 16});
    if (!listener)
        return listener.error();
    auto listen_addr = platform::local_address(*listener);
    if (!listen_addr)
        return listen_addr.error();
    s.listener = std::move(*listener);
    s.facts.listener_port = listen_addr->port;

    auto closed4 = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    if (!closed4)
        return closed4.error();
    auto c4 = platform::local_address(*closed4);
    if (!c4)
        return c4.error();
    s.closed_v4 = std::move(*closed4);
    s.facts.closed_port_v4 = c4->port;

    // IPv6 may be off entirely; the self-check says so instead of failing.
    if (auto closed6 = platform::bind_closed(ipv6_loopback())) {
        if (auto c6 = platform::local_address(*closed6)) {
            s.closed_v6 = std::move(*closed6);
            s.facts.closed_port_v6 = c6->port;
        }
    } else {
        log::debug("no IPv6 loopback: {}", closed6.error().message);
    }
    s.targets.push_back(fmt::format("localhost:{}", s.facts.listener_port));
    s.targets.push_back(fmt::format("127.0.0.1:{}", s.facts.closed_port_v4));
    if (s.facts.closed_port_v6 != 0)
        s.targets.push_back(fmt::format("[::1]:{}", s.facts.closed_port_v6));
    return s;
}

} // namespace

int run_check(const Options& opt) {
    std::vector<Target> targets;
    for (const auto& text : opt.targets) {
        auto t = parse_target(text);
        if (!t)
            return usage_failure(t.error().message);
        targets.push_back(std::move(*t));
    }
    const CommandSetup command(opt.verbosity);
    if (auto code = command.failed())
        return *code;

    Report report;
    report.loopcheck_version = std::string(version());
    report.command_line = opt.command_line;
    report.system = platform::system_facts();
    report.threshold = opt.threshold;
    report.timeout = opt.timeout;
    report.count = opt.count;

    std::optional<SelfCheckSetup> self;
    std::size_t expect_refused_from = SIZE_MAX;
    if (targets.empty()) {
        auto setup = set_up_self_check();
        if (!setup)
            return report_error(exit_code::internal,
                                fmt::format("self-check set-up failed: {}", setup.error().message));
        self = std::move(*setup);
        for (const auto& text : self->targets)
            targets.push_back(std::move(*parse_target(text)));
        expect_refused_from = 1; // the closed ports are meant to refuse
    }
    for (auto& t : targets) {
        TargetReport tr;
        tr.target = std::move(t);
        report.targets.push_back(std::move(tr));
    }

    resolve_targets(report, opt);
    attach_listeners(report);
    run_rounds(report, opt);
    conclude(report, opt, expect_refused_from);
    run_emulations(report, opt);

    if (self) {
        self->facts.statements =
            self_check_statements(report.targets[0], report.targets[1],
                                  report.targets.size() > 2 ? &report.targets[2] : nullptr,
                                  opt.threshold, report.system.hosts_file);
        report.self_check = self->facts;
    }

    const int code = combined_exit_code(report);
    report.exit_code = code;

    write_report(opt.format,
                 {[&] { return render_text(report, text_style(opt)); },
                  [&] { return render_json(report); }, [&] { return render_markdown(report); }});
    return code;
}

} // namespace loopcheck
