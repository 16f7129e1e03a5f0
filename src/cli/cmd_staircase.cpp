// `loopcheck staircase [TARGET]`: its options, the request, and the report
// (the probing is src/run/staircase.cpp).
#include "cli/charset.hpp"
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "loopcheck/run/staircase.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <functional>
#include <memory>

namespace loopcheck {

namespace {

struct StaircaseArgs {
    std::string target;
    int count = 3;
    bool ascii = false;
    CommonArgs common;
};

/// The width of the report, and its bars in ASCII when asked or when the
/// locale cannot show Unicode blocks.
TextStyle bar_style(bool ascii) {
    TextStyle style = text_style(ColorMode::never);
    style.ascii = ascii || !environment_is_utf8();
    return style;
}

int run(const StaircaseArgs& o) {
    if (auto bad = bounds_error("staircase", "--count", std::to_string(o.count)))
        return usage_failure(*bad);
    auto common = validate_common(o.common);
    if (!common)
        return usage_failure(common.error().message);
    StaircaseRequest request;
    request.count = o.count;
    request.timeout = common->timeout;
    if (!o.target.empty()) {
        auto t = parse_target(o.target, common->redaction.secrets);
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
    return write_report(common->output(),
                        {[&] { return render_text(*report, bar_style(o.ascii)); },
                         [&] { return render_json(*report); },
                         [&] { return render_markdown(*report); }},
                        report->exit_code);
}

std::function<int()> declare(CLI::App& sub, std::vector<std::string> /*after_dashes*/) {
    auto o = std::make_shared<StaircaseArgs>();
    constexpr Command c = Command::staircase;
    add_table_option(sub, c, "target", o->target);
    add_table_option(sub, c, "--count", o->count);
    add_table_option(sub, c, "--ascii", o->ascii);
    add_common_options(sub, o->common, c);
    return [o] { return run(*o); };
}

} // namespace

const CommandEntry staircase_command{
    "staircase",
    "time refused connects with the SYN retry limit set to 0..5 (Windows: ~500 ms per retry; "
    "flat where a reset ends the connect)",
    "The text shows one bar per limit beside its numbers: Unicode blocks in a UTF-8 locale, '#' "
    "with --ascii or otherwise.\n\nExit codes: 0 measured, 2 usage error, 4 the name did not "
    "resolve, 5 internal error, 130 interrupted.",
    declare};

} // namespace loopcheck
