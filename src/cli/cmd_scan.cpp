// `loopcheck scan [PATH...]`: its options, the request, and the report
// (the scan itself is src/run/scan.cpp).
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "loopcheck/run/scan.hpp"

#include <CLI/CLI.hpp>
#include <memory>

namespace loopcheck {

namespace {

struct ScanArgs {
    std::vector<std::string> paths;
    CommonArgs common;
    bool no_probe = false;
    bool strict = false;
};

int run(const ScanArgs& args) {
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
    request.timeout = common->timeout;
    request.threshold = common->threshold;
    ProgressLine progress(live_lines_wanted(common->verbosity));
    const auto r = run_scan(request, progress.callback());
    progress.clear();
    if (!r)
        return run_failure(r.error());
    const bool verbose = common->verbosity > 0;
    return write_report(common->format,
                        {[&] { return render_text(*r, text_style(common->color), verbose); },
                         [&] { return render_json(*r); }, [&] { return render_markdown(*r); }},
                        r->exit_code);
}

std::function<int()> declare(CLI::App& sub) {
    auto args = std::make_shared<ScanArgs>();
    constexpr Command c = Command::scan;
    add_table_option(sub, c, "path", args->paths);
    add_common_options(sub, args->common, c);
    add_table_option(sub, c, "--no-probe", args->no_probe);
    add_table_option(sub, c, "--strict", args->strict);
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

Exit codes:
  0  nothing risky
  1  a client hit is risky (with --strict: a config hit too)
  2  usage error, or a PATH that cannot be read
  130 interrupted (the result so far is printed)

Examples:
  loopcheck scan                     this repository
  loopcheck scan --no-probe src/     static only
  loopcheck scan -v --json . >scan.json)",
    declare};

} // namespace loopcheck
