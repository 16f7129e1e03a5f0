#include "loopcheck/app.hpp"

#include "loopcheck/diagnose.hpp"
#include "loopcheck/exit_codes.hpp"
#include "loopcheck/logging.hpp"
#include "loopcheck/platform.hpp"
#include "loopcheck/probe.hpp"
#include "loopcheck/progress.hpp"
#include "loopcheck/report.hpp"
#include "loopcheck/report_render.hpp"
#include "loopcheck/selfcheck.hpp"
#include "loopcheck/syn_policy.hpp"
#include "loopcheck/version.hpp"

#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <spdlog/spdlog.h>

namespace loopcheck {

namespace {

int fail(int code, const std::string& message) {
    std::fputs(fmt::format("loopcheck: error: {}\n", message).c_str(), stderr);
    return code;
}

/// Where one probe's sample goes in the report.
struct Slot {
    std::size_t target;
    std::size_t address;
    bool fast; ///< the no-SYN-retry twin
};

struct Plan {
    std::vector<ProbeSpec> specs;
    std::vector<Slot> slots;
};

/// One round: every address of every target, with its twin where paired.
Plan make_plan(const Report& report, const Options& opt) {
    Plan plan;
    for (std::size_t t = 0; t < report.targets.size(); ++t) {
        const auto& addrs = report.targets[t].addresses;
        for (std::size_t a = 0; a < addrs.size(); ++a) {
            const Address& address = addrs[a].address;
            if (opt.syn_retries) {
                plan.specs.push_back({address, SynPolicy::fixed, *opt.syn_retries});
                plan.slots.push_back({t, a, false});
                continue;
            }
            plan.specs.push_back({address, SynPolicy::system_default, 0});
            plan.slots.push_back({t, a, false});
            if (!opt.no_pair &&
                pair_probe(report.system.os, report.system.windows_build, address)) {
                plan.specs.push_back({address, SynPolicy::no_retries, 0});
                plan.slots.push_back({t, a, true});
            }
        }
    }
    return plan;
}

/// The hosts file's text, read up to max_hosts_file_bytes; nullopt when it
/// cannot be read.
std::optional<std::string> read_hosts_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::string content(max_hosts_file_bytes, '\0');
    in.read(content.data(), static_cast<std::streamsize>(content.size()));
    content.resize(static_cast<std::size_t>(in.gcount()));
    return content;
}

void resolve_targets(Report& report, const Options& opt) {
    const auto hosts = read_hosts_file(report.system.hosts_file);
    for (auto& tr : report.targets) {
        if (!tr.target.literal) {
            Resolution r;
            r.hosts_file_readable = hosts.has_value();
            if (hosts)
                r.hosts_lines = hosts_lines_for(*hosts, tr.target.host);
            r.note = resolution_note(report.system.os, tr.target.host, r.hosts_lines);
            tr.resolution = std::move(r);
        }
    }
    for (auto& tr : report.targets) {
        const auto& t = tr.target;
        if (t.literal) {
            const bool wrong_family =
                (opt.family == platform::FamilyFilter::ipv4 && t.literal->family == Family::ipv6) ||
                (opt.family == platform::FamilyFilter::ipv6 && t.literal->family == Family::ipv4);
            if (wrong_family)
                tr.resolve_error = Error{
                    ErrorKind::resolve,
                    fmt::format("{} is not an {} address", t.host,
                                opt.family == platform::FamilyFilter::ipv4 ? "IPv4" : "IPv6")};
            else
                tr.addresses.emplace_back().address = *t.literal;
            continue;
        }
        spdlog::debug("resolving {}", t.host);
        auto resolved = platform::resolve(t.host, t.port, opt.family);
        if (!resolved) {
            tr.resolve_error = resolved.error();
            continue;
        }
        for (const auto& a : *resolved)
            tr.addresses.emplace_back().address = a;
        spdlog::debug("{} resolved to {} address(es)", t.host, resolved->size());
    }
}

void run_rounds(Report& report, const Options& opt) {
    const Plan plan = make_plan(report, opt);
    if (plan.specs.empty())
        return;
    ProgressLine progress(opt.verbosity >= 0 && platform::is_terminal(platform::Stream::err));
    for (int round = 0; round < opt.count && !stop_requested(); ++round) {
        spdlog::debug("round {}: {} probe(s)", round + 1, plan.specs.size());
        auto samples = probe(plan.specs, opt.timeout, progress.callback());
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const Slot& s = plan.slots[i];
            auto& ar = report.targets[s.target].addresses[s.address];
            (s.fast ? ar.fast_samples : ar.samples).push_back(std::move(samples[i]));
        }
    }
    progress.clear();
}

void conclude(Report& report, const Options& opt, std::size_t expect_refused_from) {
    for (std::size_t i = 0; i < report.targets.size(); ++i) {
        auto& tr = report.targets[i];
        if (tr.resolve_error) {
            tr.diagnosis = diagnose_unresolved(tr.target, *tr.resolve_error);
            continue;
        }
        std::vector<Observation> obs;
        for (auto& a : tr.addresses) {
            a.summary = summarize_address(a.samples, a.fast_samples);
            obs.push_back({a.address, a.summary});
        }
        DiagnosisInput in;
        in.target = &tr.target;
        in.addresses = obs;
        in.threshold = opt.threshold;
        in.timeout = opt.timeout;
        in.os = report.system.os;
        in.expect_refused = opt.expect_refused || i >= expect_refused_from;
        tr.diagnosis = diagnose(in);
        for (const auto& spec : opt.emulate)
            tr.emulations.push_back({spec, {}, predict_emulation(spec, obs)});
    }
}

/// --emulate: after the probes, one strategy at a time so that no two
/// measurements share the wire.
void run_emulations(Report& report, const Options& opt) {
    for (auto& tr : report.targets) {
        std::vector<Address> addresses;
        for (const auto& a : tr.addresses)
            addresses.push_back(a.address);
        for (auto& e : tr.emulations) {
            if (stop_requested())
                return;
            spdlog::debug("emulating {} against {}", e.spec.label, tr.target.input);
            e.measured = run_emulation(e.spec, addresses, opt.timeout, report.system.os,
                                       report.system.windows_build);
        }
    }
}

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
        spdlog::debug("no IPv6 loopback: {}", closed6.error().message);
    }
    s.targets.push_back(fmt::format("localhost:{}", s.facts.listener_port));
    s.targets.push_back(fmt::format("127.0.0.1:{}", s.facts.closed_port_v4));
    if (s.facts.closed_port_v6 != 0)
        s.targets.push_back(fmt::format("[::1]:{}", s.facts.closed_port_v6));
    return s;
}

TextStyle text_style(const Options& opt) {
    TextStyle style;
    const char* no_color = std::getenv("NO_COLOR");
    const bool no_color_set = no_color != nullptr && *no_color != '\0';
    style.color =
        opt.color == ColorMode::always || (opt.color == ColorMode::automatic && !no_color_set &&
                                           platform::is_terminal(platform::Stream::out));
    const int width = platform::terminal_width();
    style.width = width > 0 ? std::min(width, 120) : 100;
    return style;
}

} // namespace

int run_check(const Options& opt) {
    setup_logging(opt.verbosity);
    platform::install_interrupt_handler(request_stop);

    std::vector<Target> targets;
    for (const auto& text : opt.targets) {
        auto t = parse_target(text);
        if (!t)
            return fail(exit_code::usage, t.error().message);
        targets.push_back(std::move(*t));
    }

    platform::NetworkScope network;
    if (network.error())
        return fail(exit_code::internal, network.error()->message);

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
            return fail(exit_code::internal,
                        fmt::format("self-check set-up failed: {}", setup.error().message));
        self = std::move(*setup);
        for (const auto& text : self->targets)
            targets.push_back(std::move(*parse_target(text)));
        expect_refused_from = 1; // the closed ports are meant to refuse
    }
    for (auto& t : targets)
        report.targets.emplace_back().target = std::move(t);

    resolve_targets(report, opt);
    run_rounds(report, opt);
    conclude(report, opt, expect_refused_from);
    run_emulations(report, opt);
    report.incomplete = stop_requested();

    if (self) {
        self->facts.statements = self_check_statements(
            report.targets[0], report.targets[1],
            report.targets.size() > 2 ? &report.targets[2] : nullptr, opt.threshold);
        report.self_check = self->facts;
    }

    int code = exit_code::healthy;
    for (const auto& t : report.targets)
        code = exit_code::combine(code, t.diagnosis.exit_code);
    if (report.incomplete)
        code = exit_code::interrupted;
    report.exit_code = code;

    std::string out;
    switch (opt.format) {
    case Format::text:
        out = render_text(report, text_style(opt));
        break;
    case Format::json:
        out = render_json(report);
        break;
    case Format::markdown:
        out = render_markdown(report);
        break;
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    return code;
}

} // namespace loopcheck
