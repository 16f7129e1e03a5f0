// `loopcheck staircase [TARGET]`: its options, the request, and the report
// (the probing is src/run/staircase.cpp).
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/text.hpp"
#include "loopcheck/run/staircase.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <memory>

namespace loopcheck {

namespace {

struct StaircaseArgs {
    std::string target;
    int count = 3;
    CommonArgs common;
};

int run(const StaircaseArgs& o) {
    if (o.count < 1 || o.count > max_staircase_count)
        return usage_failure(fmt::format("--count must be from 1 to {}", max_staircase_count));
    auto common = validate_common(o.common);
    if (!common)
        return usage_failure(common.error().message);
    StaircaseRequest request;
    request.count = o.count;
    request.timeout = common->timeout;
    if (!o.target.empty()) {
        auto t = parse_target(o.target);
        if (!t)
            return usage_failure(t.error().message);
        request.target = std::move(*t);
    }
    const CommandSetup setup(common->verbosity);
    if (auto code = setup.failed())
        return *code;

    ProgressLine progress(live_lines_wanted(common->verbosity));
    const auto report = run_staircase(request, progress.callback());
    progress.clear();
    if (!report)
        return run_failure(report.error());
    return write_report(common->format,
                        {[&] { return render_text(*report, text_style(ColorMode::never)); },
                         [&] { return render_json(*report); },
                         {}},
                        report->exit_code);
}

std::function<int()> declare(CLI::App& sub) {
    auto o = std::make_shared<StaircaseArgs>();
    sub.add_option("target", o->target,
                   "host:port that refuses; default: a closed port on 127.0.0.1 and ::1");
    sub.add_option("-n,--count", o->count, "probes per limit (default 3, at most 100)");
    add_common_options(sub, o->common,
                       {.threshold = false, .format = false, .color = false, .quiet = false});
    return [o] { return run(*o); };
}

} // namespace

const CommandEntry staircase_command{
    "staircase",
    "time refused connects with the SYN retry limit set to 0..5 (Windows: ~500 ms per retry; "
    "flat where a reset ends the connect)",
    "Exit codes: 0 measured, 2 usage error, 4 the name did not resolve, 5 internal error, 130 "
    "interrupted. See docs/windows.md (staircase).",
    declare};

} // namespace loopcheck
