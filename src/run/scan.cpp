// `loopcheck scan [PATH...]`: reads every listed file of every root (the
// platform lists and reads them; core classifies each line), probes each
// distinct (host, port) of the client and config hits once through the
// check's own steps, joins them with the listener table, and concludes.
#include "loopcheck/run/scan.hpp"

#include "loopcheck/core/input/redact.hpp"
#include "loopcheck/core/scan/cost.hpp"
#include "loopcheck/core/scan/file.hpp"
#include "loopcheck/core/scan/gate.hpp"
#include "loopcheck/core/scan/pins.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/common/scan_files.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/run/stop.hpp"
#include "loopcheck/run/version.hpp"
#include "run/measure.hpp"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <set>
#include <span>

namespace loopcheck {

namespace {

/// Files over this are counted, not read (docs/scan.md).
constexpr std::uint64_t max_file_bytes = 16ull << 20;

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

/// The config file's name, looked for from the first root up to the
/// repository root (docs/scan.md#adoption).
constexpr std::string_view config_name = ".loopcheck.json";
/// Bounds on what the gate reads: a config and a baseline are small files
/// a person edits; git's diff of a large change is larger.
constexpr std::size_t max_config_bytes = 1u << 20;
constexpr std::size_t max_baseline_bytes = 64u << 20;
constexpr std::size_t max_diff_bytes = 256u << 20;

/// What the gate reads before and after the scan.
struct Gate {
    std::string base; ///< the folder every gate path is relative to
    std::optional<ScanConfig> config;
    std::optional<std::set<std::string>> baseline;
    std::optional<ChangedLines> since;
};

Result<std::string> read_small(const std::string& path, std::size_t max_bytes,
                               std::string_view what) {
    auto file = platform::read_text_file(path, max_bytes);
    if (!file.text || !file.problem.empty())
        return usage_error(fmt::format("{} {} {}", what, Untrusted(path).escaped(),
                                       file.problem.empty() ? "could not be read" : file.problem));
    return std::move(*file.text);
}

/// The repository's config (the folder holding it is the base of every
/// gate path; else the repository root; else here), the baseline, and
/// --since's changed lines, from the index: `git diff --cached` never reads
/// the work tree, so no clean filter or textconv of the tree runs.
Result<Gate> read_gate(const ScanRequest& request, const std::string& first_root, ScanResult& r) {
    Gate g;
    const std::string config_file = platform::find_upward(first_root, config_name);
    if (!config_file.empty()) {
        auto text = read_small(config_file, max_config_bytes, "the config file");
        if (!text)
            return text.error();
        auto config = parse_scan_config(*text);
        r.config_path = platform::relative_path(".", config_file);
        if (!config)
            return usage_error(
                fmt::format("{}: {}", Untrusted(r.config_path).escaped(), config.error().message));
        g.config = std::move(*config);
        g.base = config_file.substr(0, config_file.size() - config_name.size());
        if (g.config->strict.value_or(false))
            r.strict = true;
    } else {
        g.base = platform::repository_root(first_root);
    }
    if (g.base.empty())
        g.base.assign(1, '.'); // not = ".": GCC 12 -Wrestrict false positive
    if (!request.baseline.empty()) {
        auto text = read_small(request.baseline, max_baseline_bytes, "--baseline:");
        if (!text)
            return text.error();
        auto baseline = parse_baseline(*text);
        if (!baseline)
            return usage_error(fmt::format("--baseline: {}: {}",
                                           Untrusted(request.baseline).escaped(),
                                           baseline.error().message));
        g.baseline = std::move(*baseline);
    }
    if (!request.since.empty()) {
        if (request.since.starts_with("-"))
            return usage_error(fmt::format("--since takes a git revision, not '{}'",
                                           Untrusted(request.since).escaped()));
        auto diff = platform::git_capture(g.base,
                                          {"diff", "--cached", "-U0", "--no-color", "--no-ext-diff",
                                           "--no-textconv", "--find-renames", "--relative",
                                           request.since, "--"},
                                          max_diff_bytes);
        if (!diff)
            return usage_error(fmt::format("--since {}: git diff failed ({}): not a git work "
                                           "tree, or no such revision",
                                           Untrusted(request.since).escaped(),
                                           diff.error().message));
        g.since.emplace();
        parse_diff_ranges(*diff, *g.since);
        // Untracked files are new: every line of them counts.
        const auto untracked = platform::git_capture(
            g.base, {"ls-files", "-z", "-o", "--exclude-standard"}, max_diff_bytes);
        std::string_view rest;
        if (untracked)
            rest = *untracked;
        while (!rest.empty()) {
            const std::size_t nul = rest.find('\0');
            g.since->whole.emplace(rest.substr(0, nul));
            rest = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
        }
        r.since = request.since;
    }
    return g;
}

/// Reads every listed file of every root into `r`; the Error when a root
/// cannot be read. Files the config excludes are counted, not read; each
/// file's hits are gated (suppression comments, fingerprints) as they come.
std::optional<Error> scan_roots(const std::vector<std::string>& roots, ScanResult& r,
                                bool name_skips, Secrets secrets, const Gate& gate) {
    std::string buffer; // one buffer for every file: memory stays flat
    for (const std::string& root : roots) {
        // What the listing puts before each path: "ROOT/" (none for ".").
        const std::size_t root_length = root == "." ? 0 : root.size() + 1;
        const std::string rel_root = platform::relative_path(gate.base, root);
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
            const std::string repo_path = platform::join_generic(
                rel_root, listed == root ? std::string_view() : path.substr(root_length));
            if (gate.config && excluded_by(*gate.config, repo_path)) {
                ++r.files_excluded;
                return !stop_requested();
            }
            const auto skip = platform::read_scan_file(listed, max_file_bytes, buffer);
            const std::size_t first_hit = r.hits.size();
            if (skip == platform::FileSkip::none)
                scan_file_content(path, lang, buffer, r, name_skips, root_length);
            else
                count_skip(r, path, as_core(skip), name_skips);
            gate_file_hits(buffer, lang, repo_path, std::span(r.hits).subspan(first_hit));
            // A hit's line may hold a password or a token (a .env file's
            // line, a URL's query): reports show it redacted.
            if (secrets == Secrets::redact)
                for (ScanHit& h : std::span(r.hits).subspan(first_hit))
                    h.text = h.text.transformed([](std::string_view t) { return redact_line(t); });
            return !stop_requested();
        };
        auto listing = platform::list_scan_files(root, visit);
        if (!listing)
            return usage_error(fmt::format("cannot scan {}: {}", Untrusted(root).escaped(),
                                           listing.error().message));
        log::debug("scan: {} listed by {}", Untrusted(root).escaped(),
                   *listing == platform::Listing::git ? "git" : "a walk");
        if (stop_requested())
            break;
    }
    return std::nullopt;
}

/// Probes every endpoint once, all at once (resolve, listener table, one
/// round of connects), and joins each with the listeners on its port.
/// False when the probes were interrupted.
bool probe_endpoints(std::vector<ScanEndpoint>& endpoints, const ScanRequest& request,
                     const ProgressFn& progress) {
    std::vector<Target> targets;
    std::vector<std::size_t> index; // endpoint -> target
    for (const ScanEndpoint& ep : endpoints) {
        const std::string host = ep.host == "::1" ? "[::1]" : ep.host;
        auto t = parse_target(fmt::format("{}:{}", host, ep.port));
        if (!t) {
            index.push_back(SIZE_MAX);
            continue;
        }
        index.push_back(targets.size());
        targets.push_back(std::move(*t));
    }
    CheckRequest probe;
    probe.timeout = request.timeout;
    probe.threshold = request.threshold;
    probe.command_line = "loopcheck scan";
    // The endpoints come from the tree (distinct ones only): no bound.
    probe.max_probes = SIZE_MAX;
    auto measured = measure(std::move(targets), probe, progress);
    if (!measured)
        return false;
    const Report& check = *measured;
    log::debug("scan: {} endpoint(s) probed", check.targets.size());
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
        if (index[i] == SIZE_MAX)
            continue;
        const TargetReport& t = check.targets[index[i]];
        ScanEndpoint& ep = endpoints[i];
        ep.probed = true;
        ep.accepted_here = std::any_of(t.addresses.begin(), t.addresses.end(), [](const auto& a) {
            return a.summary.outcome == Outcome::accepted;
        });
        if (t.listeners)
            join_listeners(ep, *t.listeners);
    }
    return !check.incomplete;
}

} // namespace

Result<ScanResult> run_scan(const ScanRequest& request, const ProgressFn& progress) {
    ScanResult r;
    r.loopcheck_version = std::string(version());
    const auto facts = platform::system_facts();
    r.os = facts.os_name + " " + facts.os_version;
    r.roots = request.roots.empty() ? std::vector<std::string>{"."} : request.roots;
    for (std::string& root : r.roots)
        while (root.size() > 1 && root.back() == '/')
            root.pop_back();
    r.strict = request.strict;
    auto gate = read_gate(request, r.roots.front(), r);
    if (!gate)
        return gate.error();
    if (auto error = scan_roots(r.roots, r, request.name_skips, request.secrets, *gate))
        return *error;
    r.interrupted = stop_requested();
    r.endpoints = scan_endpoints(r.hits);
    if (request.no_probe)
        r.probe_note = "not probed (--no-probe): servers inferred from the tree and usual ports";
    else if (!r.interrupted && !r.endpoints.empty()) {
        r.probed = true;
        r.interrupted = !probe_endpoints(r.endpoints, request, progress);
    }
    infer_servers(r.endpoints, r.hits);
    conclude_scan(r);
    apply_gate(r, {.config = gate->config ? &*gate->config : nullptr,
                   .baseline = gate->baseline ? &*gate->baseline : nullptr,
                   .since = gate->since ? &*gate->since : nullptr,
                   .exit_zero = request.exit_zero});
    return r;
}

} // namespace loopcheck
