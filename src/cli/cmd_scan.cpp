// `loopcheck scan [PATH...]`: finds the loopback URLs and host:port pairs in
// a codebase (src/core/scan_*.cpp classify them), probes each distinct
// (host, port) of the client and config hits once, joins them with the
// listener table, and says which hits cost a Windows user ~2 s per connect.
#include "loopcheck/cli/command.hpp"
#include "loopcheck/cli/options.hpp"
#include "loopcheck/cli/pipeline.hpp"
#include "loopcheck/cli/scan_probe.hpp"
#include "loopcheck/cli/version.hpp"
#include "loopcheck/core/exit_codes.hpp"
#include "loopcheck/core/scan_cost.hpp"
#include "loopcheck/core/scan_file.hpp"
#include "loopcheck/core/scan_pins.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/common/probe.hpp"
#include "loopcheck/platform/common/scan_files.hpp"
#include "loopcheck/report/scan_report.hpp"

#include <fmt/format.h>
#include <memory>

namespace loopcheck {

namespace {

/// Files over this are counted, not read (docs/scan.md).
constexpr std::uint64_t max_file_bytes = 16ull << 20;

struct ScanArgs {
    std::vector<std::string> paths;
    CommonArgs common;
    bool no_probe = false;
    bool strict = false;
};

ScanFileSkip as_core(platform::FileSkip s) noexcept {
    switch (s) {
    case platform::FileSkip::too_large:
        return ScanFileSkip::too_large;
    case platform::FileSkip::not_regular:
        return ScanFileSkip::not_regular;
    case platform::FileSkip::symlink_loop:
        return ScanFileSkip::symlink_loop;
    case platform::FileSkip::vanished:
        return ScanFileSkip::vanished;
    default:
        return ScanFileSkip::unreadable;
    }
}

/// Reads every listed file of every root into `r`; false when a root
/// cannot be read (the error is printed).
bool scan_roots(const std::vector<std::string>& roots, ScanResult& r, bool name_skips) {
    std::string buffer; // one buffer for every file: memory stays flat
    for (const std::string& root : roots) {
        // What the listing puts before each path: "ROOT/" (none for ".").
        const std::size_t root_length = root == "." ? 0 : root.size() + 1;
        auto visit = [&](const std::string& listed) {
            std::string_view path = listed;
            if (path.starts_with("./"))
                path.remove_prefix(2);
            ++r.files_listed;
            const Lang lang = language_of(path);
            if (lang == Lang::other && !is_pin_file(path)) {
                ++r.skips.other_type;
                return !stop_requested();
            }
            const auto skip = platform::read_scan_file(listed, max_file_bytes, buffer);
            if (skip == platform::FileSkip::none)
                scan_file_content(path, lang, buffer, r, name_skips, root_length);
            else
                count_skip(r, path, as_core(skip), name_skips);
            return !stop_requested();
        };
        auto listing = platform::list_scan_files(root, visit);
        if (!listing) {
            report_error(exit_code::usage,
                         fmt::format("cannot scan {}: {}", Untrusted(root).escaped(),
                                     listing.error().message));
            return false;
        }
        log::debug("scan: {} listed by {}", Untrusted(root).escaped(),
                   *listing == platform::Listing::git ? "git" : "a walk");
        if (stop_requested())
            break;
    }
    return true;
}

int run_scan(const ScanArgs& args) {
    auto common = validate_common(args.common);
    if (!common)
        return usage_failure(common.error().message);
    Options opt;
    apply_common(opt, *common);
    const CommandSetup setup(opt.verbosity);
    if (auto code = setup.failed())
        return *code;

    ScanResult r;
    r.roots = args.paths.empty() ? std::vector<std::string>{"."} : args.paths;
    for (std::string& root : r.roots)
        while (root.size() > 1 && root.back() == '/')
            root.pop_back();
    r.strict = args.strict;
    if (!scan_roots(r.roots, r, opt.verbosity > 0))
        return exit_code::usage;
    r.interrupted = stop_requested();
    r.endpoints = scan_endpoints(r.hits);
    if (args.no_probe)
        r.probe_note = "not probed (--no-probe): servers inferred from the tree and usual ports";
    else if (!r.interrupted && !r.endpoints.empty()) {
        r.probed = true;
        r.interrupted = !probe_scan_endpoints(r.endpoints, opt);
    }
    infer_servers(r.endpoints, r.hits);
    conclude_scan(r);
    write_report(opt.format,
                 {[&] { return render_scan_text(r, text_style(opt), opt.verbosity > 0); },
                  [&] { return render_scan_json(r, version()); },
                  [&] { return render_scan_markdown(r); }});
    return r.exit_code;
}

} // namespace

Command add_scan_command(CLI::App& app) {
    auto args = std::make_shared<ScanArgs>();
    CLI::App* sub = app.add_subcommand(
        "scan", "find the localhost URLs in a codebase that cost a Windows user ~2 s per connect");
    sub->add_option("path", args->paths, "files or folders to scan (default: .)")
        ->type_name("PATH");
    CommonSet which;
    which.threshold = false; // nothing here is judged by a time threshold
    add_common_options(*sub, args->common, which);
    sub->add_flag(
        "--no-probe", args->no_probe,
        "static scan only: connect to nothing, infer servers from the tree and usual ports");
    sub->add_flag("--strict", args->strict, "exit 1 for risky config values too, not only clients");
    sub->footer(R"(Reads the files git lists (tracked and untracked, not ignored) or, outside a
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
  loopcheck scan -v --json . >scan.json)");
    return {sub, [args] { return run_scan(*args); }};
}

} // namespace loopcheck
