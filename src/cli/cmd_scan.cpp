// `loopcheck scan [PATH...]`: its options, the request, and the report
// (the scan itself is src/run/scan.cpp).
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/scan/gate.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/scan_ci.hpp"
#include "loopcheck/report/text.hpp"
#include "loopcheck/run/scan.hpp"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <memory>
#include <system_error>

namespace loopcheck {

namespace {

struct ScanArgs {
    std::vector<std::string> paths;
    CommonArgs common;
    bool no_probe = false;
    bool strict = false;
    bool exit_zero = false;
    std::string baseline, write_baseline, since;
};

/// scan's formats beyond the shared text/json/markdown (docs/scan.md#formats).
enum class CiFormat : std::uint8_t { none, sarif, github, short_lines };

CiFormat ci_format(std::string_view name) noexcept {
    return name == "sarif"    ? CiFormat::sarif
           : name == "github" ? CiFormat::github
           : name == "short"  ? CiFormat::short_lines
                              : CiFormat::none;
}

int run(ScanArgs args) {
    // sarif, github and short are scan's own: taken out before the shared
    // check, which knows text, json and markdown.
    const CiFormat ci = ci_format(args.common.format);
    if (ci != CiFormat::none)
        args.common.format = "text";
    if (ci != CiFormat::none && (args.common.json || args.common.markdown))
        return usage_failure("choose one output format");
    auto common = validate_common(args.common);
    if (!common)
        return usage_failure(common.error().message);
    const CommandSetup setup(common->verbosity);
    if (auto code = setup.failed())
        return *code;
    ScanRequest request;
    request.roots = args.paths;
    request.strict = args.strict;
    request.no_probe = args.no_probe;
    request.name_skips = common->verbosity > 0;
    request.exit_zero = args.exit_zero;
    request.secrets = common->redaction.secrets;
    request.baseline = args.baseline;
    request.since = args.since;
    request.timeout = common->timeout;
    request.threshold = common->threshold;
    ProgressLine progress(live_lines_wanted(common->verbosity));
    const auto r = run_scan(request, progress.callback());
    progress.clear();
    if (!r)
        return run_failure(r.error());
    const bool verbose = common->verbosity > 0;
    if (!args.write_baseline.empty())
        if (auto error = write_text_file(args.write_baseline, render_baseline(*r)))
            return report_error(exit_code::usage,
                                fmt::format("cannot write --write-baseline {}: {}",
                                            Untrusted(args.write_baseline).escaped(), *error));
    Renderings renderings{[&] { return render_text(*r, text_style(common->color), verbose); },
                          [&] { return render_json(*r); }, [&] { return render_markdown(*r); },
                          [&] { return render_sarif(*r); }};
    if (ci == CiFormat::sarif)
        renderings.ci = [&] { return render_sarif(*r); };
    else if (ci == CiFormat::github)
        renderings.ci = [&] { return render_github(*r); };
    else if (ci == CiFormat::short_lines)
        renderings.ci = [&] { return render_short(*r); };
    return write_report(common->output(), renderings, r->exit_code);
}

std::function<int()> declare(CLI::App& sub, std::vector<std::string> /*after_dashes*/) {
    auto args = std::make_shared<ScanArgs>();
    constexpr Command c = Command::scan;
    add_table_option(sub, c, "path", args->paths);
    add_common_options(sub, args->common, c);
    add_table_option(sub, c, "--no-probe", args->no_probe);
    add_table_option(sub, c, "--strict", args->strict);
    add_table_option(sub, c, "--exit-zero", args->exit_zero);
    add_table_option(sub, c, "--baseline", args->baseline);
    add_table_option(sub, c, "--write-baseline", args->write_baseline);
    add_table_option(sub, c, "--since", args->since);
    return [args] { return run(*args); };
}

} // namespace

const CommandEntry scan_command{
    "scan", "find the localhost URLs in a codebase that cost a Windows user ~2 s per connect",
    R"(Reads the files git lists (tracked and untracked, not ignored) or, outside a
git work tree, every file but .git, node_modules, virtualenvs, build and
cache folders. Finds URLs and host:port pairs naming localhost, 127/8, [::1],
0.0.0.0 or host.docker.internal, and classifies each hit: client (which
library, its client-table row), config (a value a client reads), server (a
bind), or harmless (CORS lists, Host checks, URLs for a person, dev-server
proxies, Linux-only contexts, e-mail addresses, comments). Then probes each
distinct (host, port) of the client and config hits once, all at once, and
joins it with the listener table; where nothing listens, the port's usual
server decides (inferred). Text shows the risky hits and server binds; -v
every hit and every skipped file. docs/scan.md lists every rule.

As a gate: a "loopcheck: ignore" comment (or "loopcheck: ignore[RULE]") on
the line or the line above, the rules and excludes of .loopcheck.json
(looked for from PATH up to the repository root), --baseline and --since
keep a hit from failing; it is still reported. --format also takes sarif,
github (Actions annotations) and short (path:line:col: RULE message).

Exit codes:
  0  nothing risky (or every risky hit held back; or --exit-zero)
  1  a client hit is risky (with --strict: a config hit too)
  2  usage error, a PATH that cannot be read, a bad config or baseline
  130 interrupted (the result so far is printed)

Examples:
  loopcheck scan                     this repository
  loopcheck scan --no-probe src/     static only
  loopcheck scan -v --json . >scan.json
  loopcheck scan --no-probe --since origin/main --format github --output scan.sarif)",
    declare};

} // namespace loopcheck
