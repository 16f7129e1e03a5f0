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
    std::string baseline, write_baseline, since, output;
};

/// scan's formats beyond the shared text/json/markdown (docs/scan.md#formats).
enum class CiFormat : std::uint8_t { none, sarif, github, short_lines };

CiFormat ci_format(std::string_view name) noexcept {
    return name == "sarif"    ? CiFormat::sarif
           : name == "github" ? CiFormat::github
           : name == "short"  ? CiFormat::short_lines
                              : CiFormat::none;
}

/// Writes `text` to `path` (UTF-8) whole; the error's words when it could
/// not. A stream, not fopen: the UCRT deprecates fopen and strerror, and a
/// char path would be read in the ANSI code page there.
std::optional<std::string> write_file(const std::string& path, const std::string& text) {
    errno = 0;
    std::ofstream out(std::filesystem::path(std::u8string(path.begin(), path.end())),
                      std::ios::binary | std::ios::trunc);
    if (out)
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (out)
        out.close();
    if (out)
        return std::nullopt;
    const int err = errno;
    return err != 0 ? std::generic_category().message(err) : std::string("write failed");
}

/// --output's format, from the file's name: .sarif (or .sarif.json) SARIF,
/// .json JSON.
std::optional<CiFormat> output_format(std::string_view path) {
    if (path.ends_with(".sarif") || path.ends_with(".sarif.json"))
        return CiFormat::sarif;
    if (path.ends_with(".json"))
        return CiFormat::none;
    return std::nullopt;
}

int run(ScanArgs args) {
    // sarif, github and short are scan's own: taken out before the shared
    // check, which knows text, json and markdown.
    const CiFormat ci = ci_format(args.common.format);
    if (ci != CiFormat::none)
        args.common.format = "text";
    if (ci != CiFormat::none && (args.common.json || args.common.markdown))
        return usage_failure("choose one output format");
    if (!args.output.empty() && !output_format(args.output))
        return usage_failure(fmt::format("--output {}: the name must end in .sarif or .json",
                                         Untrusted(args.output).escaped()));
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
        if (auto error = write_file(args.write_baseline, render_baseline(*r)))
            return report_error(exit_code::usage,
                                fmt::format("cannot write --write-baseline {}: {}",
                                            Untrusted(args.write_baseline).escaped(), *error));
    if (!args.output.empty()) {
        const std::string doc =
            *output_format(args.output) == CiFormat::sarif ? render_sarif(*r) : render_json(*r);
        if (auto error = write_file(args.output, redacted_report(common->output(), doc)))
            return report_error(exit_code::usage,
                                fmt::format("cannot write --output {}: {}",
                                            Untrusted(args.output).escaped(), *error));
    }
    if (ci == CiFormat::sarif)
        return write_stdout(redacted_report(common->output(), render_sarif(*r)), r->exit_code);
    if (ci == CiFormat::github)
        return write_stdout(redacted_report(common->output(), render_github(*r)), r->exit_code);
    if (ci == CiFormat::short_lines)
        return write_stdout(redacted_report(common->output(), render_short(*r)), r->exit_code);
    return write_report(common->output(),
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
    add_table_option(sub, c, "--exit-zero", args->exit_zero);
    add_table_option(sub, c, "--baseline", args->baseline);
    add_table_option(sub, c, "--write-baseline", args->write_baseline);
    add_table_option(sub, c, "--since", args->since);
    add_table_option(sub, c, "--output", args->output);
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
