// `loopcheck scan` as a CI gate: suppression comments, the config file, the
// baseline and the changed lines (docs/scan.md#adoption). Both files are
// JSON, read with nlohmann/json (Debian's nlohmann-json3-dev): the config as
// a document (a small file a person edits), the baseline as events (SAX),
// keeping only its fingerprints, since a generated baseline can be large.
#include "loopcheck/core/scan/gate.hpp"

#include "loopcheck/core/input/redact.hpp"

#include "core/scan/rules.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>

namespace loopcheck {

namespace {

using Openers = std::span<const std::string_view>;

constexpr std::array<std::string_view, 3> hash_openers{"#", "<#", "<!--"};
constexpr std::array<std::string_view, 4> slash_openers{"//", "/*", "{/*", "<!--"};
constexpr std::array<std::string_view, 4> php_openers{"//", "/*", "#", "<!--"};
constexpr std::array<std::string_view, 3> ini_openers{"#", ";", "!"};
constexpr std::array<std::string_view, 1> json_openers{"//"};
// Markdown shows code of any language; other files (batch, SQL, HTML,
// Makefiles ...) take every opener scan knows.
constexpr std::array<std::string_view, 10> every_opener{"#",    "//", "/*", "{/*", "--",
                                                        "<!--", ";",  "'",  "::",  "REM"};

Openers openers_for(Lang lang) noexcept {
    switch (lang) {
    case Lang::python:
    case Lang::shell:
    case Lang::ruby:
    case Lang::yaml:
    case Lang::toml:
    case Lang::dotenv:
    case Lang::dockerfile:
    case Lang::compose:
    case Lang::powershell:
    case Lang::notebook:
        return hash_openers;
    case Lang::javascript:
    case Lang::go:
    case Lang::java:
    case Lang::csharp:
    case Lang::rust:
        return slash_openers;
    case Lang::php:
        return php_openers;
    case Lang::ini:
    case Lang::properties:
        return ini_openers;
    case Lang::json:
        return json_openers;
    default:
        return every_opener;
    }
}

bool is_space(char c) noexcept {
    return c == ' ' || c == '\t';
}

std::string_view rtrim(std::string_view s) noexcept {
    while (!s.empty() && (is_space(s.back()) || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool iequal(std::string_view a, std::string_view b) noexcept {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

/// True when `before` (the text before the marker, trimmed) ends with one of
/// `openers`: the marker is the start of a comment's text. Word openers
/// (REM) must stand alone; `::` must start the line (a batch label).
bool ends_with_opener(std::string_view before, Openers openers) noexcept {
    for (std::string_view o : openers) {
        if (before.size() < o.size())
            continue;
        const std::string_view tail = before.substr(before.size() - o.size());
        if (o == "REM") {
            const std::string_view head = rtrim(before.substr(0, before.size() - 3));
            if (iequal(tail, o) && (head.empty() || head == "@"))
                return true;
            continue;
        }
        if (o == "::") {
            if (tail == o && rtrim(before.substr(0, before.size() - 2)).empty())
                return true;
            continue;
        }
        if (tail == o)
            return true;
    }
    return false;
}

std::vector<std::string> split_rules(std::string_view list) {
    std::vector<std::string> out;
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        std::string_view item = list.substr(0, comma);
        while (!item.empty() && is_space(item.front()))
            item.remove_prefix(1);
        item = rtrim(item);
        if (!item.empty())
            out.emplace_back(item);
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
    return out;
}

/// FNV-1a, 64 bits: stable on every platform and compiler, which
/// std::hash is not, so a baseline written on Linux matches on Windows.
std::uint64_t fnv1a(std::uint64_t h, std::string_view s) noexcept {
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

std::string fold_spaces(std::string_view s) {
    std::string out;
    bool space = false;
    for (char c : s) {
        if (is_space(c) || c == '\r' || c == '\n') {
            space = !out.empty();
            continue;
        }
        if (space)
            out += ' ';
        space = false;
        out += c;
    }
    return out;
}

/// The line `number` (1-based) of `content` and the one above it.
struct LineCursor {
    std::string_view rest;
    std::uint32_t number = 0; ///< of `current`
    std::string_view current, previous;

    explicit LineCursor(std::string_view content) : rest(content) {}
    bool seek(std::uint32_t target) {
        while (number < target) {
            if (rest.empty() && number > 0)
                return false;
            previous = current;
            const std::size_t nl = rest.find('\n');
            current = rest.substr(0, nl);
            rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
            ++number;
        }
        return number == target;
    }
};

bool suppresses(const Suppression& s, std::string_view rule) {
    return s.found &&
           (s.rules.empty() || std::find(s.rules.begin(), s.rules.end(), rule) != s.rules.end());
}

// Glob matching on segments: `**` takes any number of whole segments.
bool match_segment(std::string_view glob, std::string_view name) {
    std::size_t g = 0, n = 0, star = std::string_view::npos, mark = 0;
    while (n < name.size()) {
        if (g < glob.size() && (glob[g] == '?' || glob[g] == name[n])) {
            ++g;
            ++n;
        } else if (g < glob.size() && glob[g] == '*') {
            star = g++;
            mark = n;
        } else if (star != std::string_view::npos) {
            g = star + 1;
            n = ++mark;
        } else {
            return false;
        }
    }
    while (g < glob.size() && glob[g] == '*')
        ++g;
    return g == glob.size();
}

std::vector<std::string_view> segments(std::string_view path) {
    std::vector<std::string_view> out;
    while (!path.empty()) {
        const std::size_t slash = path.find('/');
        if (slash != 0)
            out.push_back(path.substr(0, slash));
        path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
    }
    return out;
}

bool match_segments(std::span<const std::string_view> glob,
                    std::span<const std::string_view> path) {
    if (glob.empty())
        return path.empty();
    if (glob.front() == "**") {
        for (std::size_t skip = 0; skip <= path.size(); ++skip)
            if (match_segments(glob.subspan(1), path.subspan(skip)))
                return true;
        return false;
    }
    return !path.empty() && match_segment(glob.front(), path.front()) &&
           match_segments(glob.subspan(1), path.subspan(1));
}

std::uint32_t parse_number(std::string_view& s) noexcept {
    std::uint64_t n = 0;
    while (!s.empty() && std::isdigit(static_cast<unsigned char>(s.front()))) {
        n = std::min<std::uint64_t>(n * 10 + static_cast<unsigned>(s.front() - '0'), UINT32_MAX);
        s.remove_prefix(1);
    }
    return static_cast<std::uint32_t>(n);
}

} // namespace

std::string_view hit_gate_name(HitGate gate) noexcept {
    switch (gate) {
    case HitGate::open:
        return "";
    case HitGate::suppressed:
        return "suppressed";
    case HitGate::rule_off:
        return "rule-off";
    case HitGate::baselined:
        return "baselined";
    case HitGate::outside_since:
        return "outside-since";
    }
    return "";
}

Suppression find_suppression(std::string_view line, Lang lang) {
    constexpr std::string_view marker = "loopcheck:";
    const Openers openers = openers_for(lang);
    for (std::size_t at = line.find(marker); at != std::string_view::npos;
         at = line.find(marker, at + 1)) {
        if (!ends_with_opener(rtrim(line.substr(0, at)), openers))
            continue;
        std::string_view rest = line.substr(at + marker.size());
        while (!rest.empty() && is_space(rest.front()))
            rest.remove_prefix(1);
        if (!rest.starts_with("ignore"))
            continue;
        rest.remove_prefix(6);
        if (!rest.empty() && rest.front() == '[') {
            const std::size_t close = rest.find(']');
            if (close == std::string_view::npos)
                continue;
            return {true, split_rules(rest.substr(1, close - 1))};
        }
        if (rest.empty() || is_space(rest.front()) || rest.front() == '\r' ||
            rest.starts_with("-->") || rest.starts_with("*/"))
            return {true, {}};
    }
    return {};
}

std::string hit_fingerprint(std::string_view repo_path, std::string_view rule,
                            std::string_view line_text, std::size_t occurrence) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::string_view part :
         {repo_path, std::string_view("\0", 1), rule, std::string_view("\0", 1)})
        h = fnv1a(h, part);
    h = fnv1a(h, fold_spaces(line_text));
    h = fnv1a(h, fmt::format("\n{}", occurrence));
    return fmt::format("{:016x}", h);
}

void gate_file_hits(std::string_view content, Lang lang, std::string_view repo_path,
                    std::span<ScanHit> file_hits) {
    // Hits arrive in line order within a file (a notebook's by cell); sort
    // an index anyway, so one pass over the content serves them all.
    std::vector<std::size_t> order(file_hits.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return file_hits[a].line < file_hits[b].line;
    });
    LineCursor cursor(content);
    std::map<std::string, std::size_t> seen; // (rule, text) -> occurrences so far
    for (std::size_t i : order) {
        ScanHit& h = file_hits[i];
        h.repo_path = std::string(repo_path);
        const std::string text = h.text.escaped();
        bool hidden = false;
        if (h.cell || lang == Lang::notebook) {
            hidden = suppresses(find_suppression(text, Lang::notebook), h.rule) ||
                     suppresses(find_suppression(text, Lang::markdown), h.rule);
        } else if (cursor.seek(h.line)) {
            hidden = suppresses(find_suppression(cursor.current, lang), h.rule) ||
                     (h.line > 1 && suppresses(find_suppression(cursor.previous, lang), h.rule));
        }
        if (hidden)
            h.gate = HitGate::suppressed;
    }
    // Occurrences counted in file order: the n-th identical line keeps its
    // fingerprint when lines above it move.
    // The fingerprint is of the line as reports show it, secrets redacted
    // (whatever --no-redact says): a hash of a line with a short password
    // in it would give the password away to a guess.
    for (ScanHit& h : file_hits) {
        const std::string text = fold_spaces(redact_line(h.text.escaped()));
        const std::size_t n = seen[std::string(h.rule) + '\0' + text]++;
        h.fingerprint = hit_fingerprint(repo_path, h.rule, text, n);
    }
}

Result<ScanConfig> parse_scan_config(std::string_view text) {
    const auto doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false,
                                           /*ignore_comments=*/true);
    if (doc.is_discarded())
        return usage_error("not valid JSON");
    if (!doc.is_object())
        return usage_error("not a JSON object");
    ScanConfig config;
    for (const auto& [key, value] : doc.items()) {
        if (key == "exclude") {
            if (!value.is_array())
                return usage_error("\"exclude\" must be an array of globs");
            for (const auto& glob : value) {
                if (!glob.is_string() || glob.get_ref<const std::string&>().empty())
                    return usage_error("\"exclude\" must be an array of globs");
                config.exclude.push_back(glob.get<std::string>());
            }
        } else if (key == "rules") {
            if (!value.is_object())
                return usage_error("\"rules\" must map rule ids to true or false");
            for (const auto& item : value.items()) {
                // Not a structured binding: clang 14 cannot capture one in
                // the lambda below.
                const std::string& id = item.key();
                const auto& on = item.value();
                if (!on.is_boolean())
                    return usage_error(
                        fmt::format("rule \"{}\" must be true or false", escape_text(id)));
                const auto rules = scan_rules();
                if (std::none_of(rules.begin(), rules.end(),
                                 [&](const ScanRule& r) { return r.id == id; }))
                    return usage_error(
                        fmt::format("no rule \"{}\" (docs/scan.md#the-rules)", escape_text(id)));
                if (!on.get<bool>())
                    config.rules_off.insert(id);
            }
        } else if (key == "strict") {
            if (!value.is_boolean())
                return usage_error("\"strict\" must be true or false");
            config.strict = value.get<bool>();
        } else {
            return usage_error(
                fmt::format("unknown key \"{}\" (exclude, rules, strict)", escape_text(key)));
        }
    }
    return config;
}

bool glob_match(std::string_view glob, std::string_view path) {
    std::string g(glob);
    if (!g.empty() && g.back() == '/')
        g += "**";
    const bool anchored = g.find('/') != std::string::npos;
    if (!g.empty() && g.front() == '/')
        g.erase(0, 1);
    const auto gs = segments(g);
    const auto ps = segments(path);
    if (anchored)
        return match_segments(gs, ps);
    // A bare name matches at any depth, itself or a folder above the file.
    for (std::size_t i = 0; i < ps.size(); ++i)
        if (match_segment(g, ps[i]))
            return true;
    return false;
}

bool excluded_by(const ScanConfig& config, std::string_view repo_path) {
    return std::any_of(config.exclude.begin(), config.exclude.end(),
                       [&](const std::string& g) { return glob_match(g, repo_path); });
}

namespace {

/// Reads a baseline as events (nlohmann's SAX interface), keeping only the
/// fingerprints: a parsed document of a 30 MB baseline (200,000 entries)
/// took 201 MB; this keeps memory at the fingerprints themselves.
class BaselineReader {
public:
    std::set<std::string> fingerprints;
    bool schema_ok = false, list_seen = false;
    std::string problem;

    bool null() { return scalar(); }
    bool boolean(bool) { return scalar(); }
    bool number_integer(std::int64_t) { return scalar(); }
    bool number_unsigned(std::uint64_t) { return scalar(); }
    bool number_float(double, const std::string&) { return scalar(); }
    bool binary(std::vector<std::uint8_t>&) { return scalar(); }
    bool string(std::string& s) {
        if (skip_ == 0 && depth_ == 1 && key_ == "schema")
            schema_ok = s == "loopcheck-baseline/1";
        if (skip_ == 0 && depth_ == 3 && key_ == "fingerprint") {
            entry_has_ = true;
            fingerprints.insert(std::move(s));
            return true;
        }
        return scalar();
    }
    bool key(std::string& k) {
        key_ = std::move(k);
        return true;
    }
    bool start_object(std::size_t) {
        if (skip_ > 0 || depth_ == 3 || (depth_ == 1 && key_ != "fingerprints"))
            return ++skip_, true; // read past: not the baseline's business
        if (depth_ == 1)
            return fail(not_array);
        if (depth_ == 2)
            entry_has_ = false;
        return ++depth_, true;
    }
    bool end_object() {
        if (skip_ > 0)
            return --skip_, true;
        if (depth_ == 3 && !entry_has_)
            return fail(not_entry);
        return --depth_, true;
    }
    bool start_array(std::size_t) {
        if (skip_ > 0 || depth_ == 3 || (depth_ == 1 && key_ != "fingerprints"))
            return ++skip_, true;
        if (depth_ == 0)
            return fail("not a JSON object");
        if (depth_ == 2)
            return fail(not_entry);
        list_seen = true;
        return ++depth_, true;
    }
    bool end_array() {
        if (skip_ > 0)
            return --skip_, true;
        return --depth_, true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
        return fail("not valid JSON");
    }

private:
    static constexpr std::string_view not_entry =
        "each fingerprint must be an object with a \"fingerprint\" string";
    static constexpr std::string_view not_array = "\"fingerprints\" must be an array";
    int depth_ = 0; ///< 1: in the document; 2: in its fingerprints; 3: in one entry
    int skip_ = 0;  ///< containers being read past
    std::string key_;
    bool entry_has_ = false;

    bool scalar() {
        if (skip_ > 0)
            return true;
        if (depth_ == 0)
            return fail("not a JSON object");
        if (depth_ == 2 || (depth_ == 3 && key_ == "fingerprint"))
            return fail(not_entry);
        if (depth_ == 1 && key_ == "fingerprints")
            return fail(not_array);
        return true;
    }
    bool fail(std::string_view why) {
        if (problem.empty())
            problem = std::string(why);
        return false;
    }
};

} // namespace

Result<std::set<std::string>> parse_baseline(std::string_view text) {
    BaselineReader reader;
    const bool ok = nlohmann::json::sax_parse(text, &reader);
    if (!ok)
        return usage_error(reader.problem.empty() ? "not valid JSON" : reader.problem);
    if (!reader.schema_ok)
        return usage_error("not a loopcheck baseline (\"schema\": \"loopcheck-baseline/1\")");
    if (!reader.list_seen)
        return usage_error("\"fingerprints\" must be an array");
    return std::move(reader.fingerprints);
}

std::string render_baseline(const ScanResult& r) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const ScanHit& h : r.hits) {
        if (!h.risky || h.gate == HitGate::suppressed || h.gate == HitGate::rule_off)
            continue;
        nlohmann::ordered_json e;
        e["fingerprint"] = h.fingerprint;
        e["path"] = h.repo_path;
        e["line"] = h.line;
        e["rule"] = std::string(h.rule);
        list.push_back(std::move(e));
    }
    nlohmann::ordered_json doc;
    doc["schema"] = "loopcheck-baseline/1";
    doc["fingerprints"] = std::move(list);
    // Replace: a path with invalid UTF-8 must not make dump() throw.
    return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

bool ChangedLines::changed(std::string_view repo_path, std::uint32_t line, bool notebook) const {
    if (whole.contains(repo_path))
        return true;
    const auto it = ranges.find(repo_path);
    if (it == ranges.end())
        return false;
    // A notebook hit's line is a line in its cell, not in the file git
    // diffs: any change to the notebook counts.
    if (notebook)
        return true;
    return std::any_of(it->second.begin(), it->second.end(),
                       [&](const auto& r) { return line >= r.first && line <= r.second; });
}

void parse_diff_ranges(std::string_view diff, ChangedLines& out) {
    std::string current;
    bool have_file = false;
    while (!diff.empty()) {
        const std::size_t nl = diff.find('\n');
        std::string_view line = rtrim(diff.substr(0, nl));
        diff = nl == std::string_view::npos ? std::string_view() : diff.substr(nl + 1);
        if (line.starts_with("+++ ")) {
            std::string_view name = line.substr(4);
            have_file = name != "/dev/null";
            if (name.starts_with("b/"))
                name.remove_prefix(2);
            current = std::string(name);
            if (have_file)
                out.ranges[current]; // a file with only deletions is still changed
            continue;
        }
        if (!have_file || !line.starts_with("@@ "))
            continue;
        // "@@ -a,b +c,d @@": the new side starts at c and spans d lines
        // (d omitted: 1; d = 0: a pure deletion, nothing to flag).
        const std::size_t plus = line.find(" +");
        if (plus == std::string_view::npos)
            continue;
        std::string_view rest = line.substr(plus + 2);
        const std::uint32_t start = parse_number(rest);
        std::uint32_t count = 1;
        if (!rest.empty() && rest.front() == ',') {
            rest.remove_prefix(1);
            count = parse_number(rest);
        }
        if (count > 0)
            out.ranges[current].emplace_back(start, start + count - 1);
    }
}

void apply_gate(ScanResult& r, const GateInputs& in) {
    bool fail = false;
    for (ScanHit& h : r.hits) {
        if (h.gate == HitGate::open && in.config &&
            in.config->rules_off.contains(std::string(h.rule)))
            h.gate = HitGate::rule_off;
        if (h.gate == HitGate::open && in.baseline && in.baseline->contains(h.fingerprint))
            h.gate = HitGate::baselined;
        if (h.gate == HitGate::open && in.since &&
            !in.since->changed(h.repo_path, h.line, h.cell.has_value()))
            h.gate = HitGate::outside_since;
        if (h.gate == HitGate::open && h.risky &&
            (h.kind == HitKind::client || (r.strict && h.kind == HitKind::config)))
            fail = true;
    }
    r.exit_zero = in.exit_zero;
    r.exit_code = r.interrupted ? exit_code::interrupted : fail && !in.exit_zero ? 1 : 0;
}

std::string gate_summary(const ScanResult& r) {
    std::array<std::size_t, 5> n{};
    for (const ScanHit& h : r.hits)
        if (h.risky)
            ++n[static_cast<std::size_t>(h.gate)];
    std::string out;
    for (std::size_t g = 1; g < n.size(); ++g)
        if (n[g] > 0)
            out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n[g],
                               hit_gate_name(static_cast<HitGate>(g)));
    return out;
}

} // namespace loopcheck
