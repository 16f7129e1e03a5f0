// `loopcheck scan [PATH...]`: reads every listed file of every root (the
// platform lists and reads them; core classifies each line), probes each
// distinct (host, port) of the client and config hits once through the
// check's own steps, joins them with the listener table, and concludes.
#include "loopcheck/run/scan.hpp"

#include "loopcheck/core/scan_cost.hpp"
#include "loopcheck/core/scan_file.hpp"
#include "loopcheck/core/scan_pins.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/common/scan_files.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/run/stop.hpp"
#include "loopcheck/run/version.hpp"
#include "run/measure.hpp"

#include <algorithm>
#include <fmt/format.h>

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

/// Reads every listed file of every root into `r`; the Error when a root
/// cannot be read.
std::optional<Error> scan_roots(const std::vector<std::string>& roots, ScanResult& r,
                                bool name_skips) {
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
    if (auto error = scan_roots(r.roots, r, request.name_skips))
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
    return r;
}

} // namespace loopcheck
