// loopcheck scan as a gate: suppression comments in each language's comment
// syntax, the config file, globs, fingerprints that survive line moves, the
// baseline, --since's changed lines and the exit code they leave.
#include "core/scan/classify.hpp"
#include "loopcheck/core/scan/cost.hpp"
#include "loopcheck/core/scan/gate.hpp"
#include "support/catch.hpp"

#include <cstdint>

using namespace loopcheck;

namespace {

/// Classifies, gates and concludes one file as the run does (no probe: the
/// port's usual server, Ollama on 127.0.0.1, decides).
ScanResult scanned(std::string_view path, std::string_view text) {
    ScanResult r;
    r.hits = classify_text(path, language_of(path), text);
    gate_file_hits(text, language_of(path), path, r.hits);
    r.files_read = 1;
    r.endpoints = scan_endpoints(r.hits);
    infer_servers(r.endpoints, r.hits);
    conclude_scan(r);
    apply_gate(r, {});
    return r;
}

const ScanHit& hit_on(const ScanResult& r, std::uint32_t line) {
    for (const ScanHit& h : r.hits)
        if (h.line == line)
            return h;
    FAIL("no hit on line " << line);
    return r.hits.front();
}

constexpr std::string_view risky_py = "import requests\n"
                                      "requests.get('http://localhost:11434/api/tags')\n";

} // namespace

TEST_CASE("find_suppression: the marker after each language's comment opener", "[scan][gate]") {
    struct Case {
        Lang lang;
        std::string_view line;
        bool found;
    };
    const Case cases[] = {
        {Lang::python, "x = 1  # loopcheck: ignore", true},
        {Lang::python, "x = 1  #loopcheck:ignore", true},
        {Lang::python, "# noqa: E501  # loopcheck: ignore", true},
        {Lang::python, "x = 'loopcheck: ignore'", false},
        {Lang::python, "x = 1  // loopcheck: ignore", false},
        {Lang::python, "x = 1  # loopcheck: ignored", false},
        {Lang::javascript, "fetch(u) // loopcheck: ignore", true},
        {Lang::javascript, "fetch(u) /* loopcheck: ignore */", true},
        {Lang::javascript, "<!-- loopcheck: ignore -->", true},
        {Lang::javascript, "fetch(u) # loopcheck: ignore", false},
        {Lang::go, "http.Get(u) // loopcheck: ignore", true},
        {Lang::php, "curl_init($u); # loopcheck: ignore", true},
        {Lang::ini, "url = http://localhost:1 ; loopcheck: ignore", true},
        {Lang::yaml, "url: http://localhost:1 # loopcheck: ignore", true},
        {Lang::powershell, "irm $u # loopcheck: ignore", true},
        {Lang::json, "\"u\": \"x\" // loopcheck: ignore", true},
        {Lang::markdown, "<!-- loopcheck: ignore -->", true},
        {Lang::markdown, "-- loopcheck: ignore", true},
        // A kind of file without its own list: batch, SQL, Makefiles.
        {Lang::other, "REM loopcheck: ignore", true},
        {Lang::other, "@rem loopcheck: ignore", true},
        {Lang::other, ":: loopcheck: ignore", true},
        {Lang::other, "echo x :: loopcheck: ignore", false},
        {Lang::other, "-- loopcheck: ignore", true},
        {Lang::other, "PREM loopcheck: ignore", false},
    };
    for (const Case& c : cases) {
        INFO(c.line);
        CHECK(find_suppression(c.line, c.lang).found == c.found);
    }
}

TEST_CASE("find_suppression: rule ids in brackets", "[scan][gate]") {
    const auto s = find_suppression("x  # loopcheck: ignore[py-requests, code-url]", Lang::python);
    REQUIRE(s.found);
    CHECK(s.rules == std::vector<std::string>{"py-requests", "code-url"});
    CHECK(find_suppression("x  # loopcheck: ignore", Lang::python).rules.empty());
    CHECK_FALSE(find_suppression("x  # loopcheck: ignore[py-requests", Lang::python).found);
}

TEST_CASE("a suppressed line does not fail the gate, the same line unsuppressed does",
          "[scan][gate]") {
    const ScanResult open = scanned("app.py", risky_py);
    REQUIRE(hit_on(open, 2).risky);
    CHECK(hit_on(open, 2).gate == HitGate::open);
    CHECK(open.exit_code == 1);

    for (std::string_view text :
         {"import requests\nrequests.get('http://localhost:11434/api/tags')  # loopcheck: ignore\n",
          "import requests\n# loopcheck: ignore[py-requests]\n"
          "requests.get('http://localhost:11434/api/tags')\n"}) {
        INFO(text);
        const ScanResult r = scanned("app.py", text);
        const ScanHit& h = r.hits.front();
        CHECK(h.risky); // still reported as what it is
        CHECK(h.gate == HitGate::suppressed);
        CHECK(r.exit_code == 0);
        CHECK(gate_summary(r) == "1 suppressed");
    }
    // Another rule's id, or a comment two lines up, suppresses nothing.
    for (std::string_view text :
         {"import requests\nrequests.get('http://localhost:11434/')  # loopcheck: "
          "ignore[code-url]\n",
          "import requests\n# loopcheck: ignore\n\nrequests.get('http://localhost:11434/')\n"}) {
        INFO(text);
        CHECK(scanned("app.py", text).exit_code == 1);
    }
}

TEST_CASE("fingerprints survive line moves and change with the text", "[scan][gate]") {
    const ScanResult before = scanned("app.py", risky_py);
    const ScanResult moved =
        scanned("app.py", std::string("\n\n# a comment\n") + std::string(risky_py));
    const ScanResult edited =
        scanned("app.py", "import requests\nrequests.get('http://localhost:11434/api/ps')\n");
    const ScanResult renamed = scanned("lib/app.py", risky_py);
    REQUIRE(before.hits.size() == 1);
    CHECK(before.hits[0].fingerprint.size() == 16);
    CHECK(moved.hits[0].line == 5);
    CHECK(moved.hits[0].fingerprint == before.hits[0].fingerprint);
    CHECK(edited.hits[0].fingerprint != before.hits[0].fingerprint);
    CHECK(renamed.hits[0].fingerprint != before.hits[0].fingerprint);
    // Whitespace is folded: re-indenting keeps it.
    const ScanResult indented = scanned(
        "app.py", "import requests\nif x:\n    requests.get('http://localhost:11434/api/tags')\n");
    CHECK(indented.hits[0].fingerprint == before.hits[0].fingerprint);
    // Two identical lines are two fingerprints (occurrence 0 and 1).
    const ScanResult twice = scanned(
        "app.py", std::string(risky_py) + "requests.get('http://localhost:11434/api/tags')\n");
    REQUIRE(twice.hits.size() == 2);
    CHECK(twice.hits[0].fingerprint != twice.hits[1].fingerprint);
    // Stable across platforms and releases: a baseline written anywhere
    // matches everywhere (FNV-1a 64, not std::hash).
    CHECK(hit_fingerprint("app.py", "py-requests", "x", 0) ==
          hit_fingerprint("app.py", "py-requests", "  x ", 0));
    CHECK(hit_fingerprint("a", "b", "c", 0) == "6bf71f38c0009f9d");
}

TEST_CASE("a baselined hit does not fail the gate, a new one does", "[scan][gate]") {
    ScanResult first = scanned("app.py", risky_py);
    const std::string written = render_baseline(first);
    const auto baseline = parse_baseline(written);
    REQUIRE(baseline);
    CHECK(baseline->size() == 1);

    // The same hit moved down three lines: still baselined, exit 0.
    ScanResult later = scanned("app.py", std::string("\n\n\n") + std::string(risky_py));
    apply_gate(later, {.baseline = &*baseline});
    CHECK(later.hits[0].gate == HitGate::baselined);
    CHECK(later.exit_code == 0);

    // A new risky line beside it fails the gate.
    ScanResult grown = scanned("app.py", std::string(risky_py) +
                                             "requests.get('http://localhost:11434/api/ps')\n");
    apply_gate(grown, {.baseline = &*baseline});
    CHECK(grown.exit_code == 1);
    CHECK(gate_summary(grown) == "1 baselined");
}

TEST_CASE("parse_baseline: what it refuses", "[scan][gate]") {
    CHECK_FALSE(parse_baseline("{"));
    CHECK_FALSE(parse_baseline("[]"));
    CHECK_FALSE(parse_baseline(R"({"schema": "other/1", "fingerprints": []})"));
    CHECK_FALSE(parse_baseline(R"({"schema": "loopcheck-baseline/1", "fingerprints": [1]})"));
    CHECK(parse_baseline(R"({"schema": "loopcheck-baseline/1", "fingerprints": []})")->empty());
    CHECK(parse_baseline(R"({"schema": "loopcheck-baseline/1", "fingerprints": {}})")
              .error()
              .message.find("array") != std::string::npos);
    CHECK_FALSE(
        parse_baseline(R"({"schema": "loopcheck-baseline/1", "fingerprints": [{"path": "x"}]})"));
    CHECK_FALSE(parse_baseline(R"({"fingerprints": []})"));
    // Other keys and entries' other fields are read past.
    const auto extra = parse_baseline(R"({"schema": "loopcheck-baseline/1", "note": [1, {"a": 2}],
        "fingerprints": [{"fingerprint": "00000000000000aa", "path": "a", "line": 3, "x": [1]}]})");
    REQUIRE(extra);
    CHECK(*extra == std::set<std::string>{"00000000000000aa"});
}

TEST_CASE("since: hits outside the changed lines do not fail the gate", "[scan][gate]") {
    const std::string diff = "diff --git a/app.py b/app.py\n"
                             "index 1..2 100644\n"
                             "--- a/app.py\n"
                             "+++ b/app.py\n"
                             "@@ -3,0 +4,2 @@ def f():\n"
                             "+x\n+y\n"
                             "@@ -9 +11 @@\n"
                             "-a\n+b\n"
                             "@@ -20,3 +22,0 @@\n"
                             "--- a/gone.py\n"
                             "+++ /dev/null\n"
                             "@@ -1 +0,0 @@\n";
    ChangedLines changed;
    parse_diff_ranges(diff, changed);
    CHECK(changed.changed("app.py", 4, false));
    CHECK(changed.changed("app.py", 5, false));
    CHECK_FALSE(changed.changed("app.py", 6, false));
    CHECK(changed.changed("app.py", 11, false));
    CHECK_FALSE(changed.changed("app.py", 22, false));
    CHECK_FALSE(changed.changed("other.py", 4, false));
    CHECK(changed.changed("app.py", 99, true)); // a notebook: any change
    changed.whole.insert("new.py");
    CHECK(changed.changed("new.py", 1, false));

    ScanResult r = scanned("app.py", risky_py); // the risky hit is on line 2
    apply_gate(r, {.since = &changed});
    CHECK(r.hits[0].gate == HitGate::outside_since);
    CHECK(r.exit_code == 0);
    ChangedLines line2;
    parse_diff_ranges("+++ b/app.py\n@@ -1,0 +2 @@\n", line2);
    ScanResult touched = scanned("app.py", risky_py);
    apply_gate(touched, {.since = &line2});
    CHECK(touched.hits[0].gate == HitGate::open);
    CHECK(touched.exit_code == 1);
}

TEST_CASE("the config file: excludes, rules off, strict, and errors name the key", "[scan][gate]") {
    const auto config = parse_scan_config(R"({
        // comments are allowed
        "exclude": ["docs/", "*.example.py", "/vendor/**/gen_*.py"],
        "rules": {"py-requests": false, "code-url": true},
        "strict": true
    })");
    REQUIRE(config);
    CHECK(config->strict == true);
    CHECK(config->rules_off == std::set<std::string>{"py-requests"});
    CHECK(excluded_by(*config, "docs/setup.md"));
    CHECK(excluded_by(*config, "docs/a/b/setup.md"));
    CHECK(excluded_by(*config, "app/x.example.py"));
    CHECK(excluded_by(*config, "vendor/a/b/gen_x.py"));
    CHECK_FALSE(excluded_by(*config, "src/vendor/a/gen_x.py"));
    CHECK_FALSE(excluded_by(*config, "app/docs.py"));

    ScanResult r = scanned("app.py", risky_py);
    apply_gate(r, {.config = &*config});
    CHECK(r.hits[0].gate == HitGate::rule_off);
    CHECK(r.exit_code == 0);

    CHECK(parse_scan_config("{\"exclud\": []}").error().message.find("exclud") !=
          std::string::npos);
    CHECK(parse_scan_config(R"({"rules": {"no-such-rule": false}})")
              .error()
              .message.find("no-such-rule") != std::string::npos);
    CHECK_FALSE(parse_scan_config(R"({"strict": "yes"})"));
    CHECK_FALSE(parse_scan_config(R"({"exclude": "docs/"})"));
    CHECK_FALSE(parse_scan_config("not json"));
}

TEST_CASE("glob_match", "[scan][gate]") {
    CHECK(glob_match("*.md", "README.md"));
    CHECK(glob_match("*.md", "docs/x/README.md"));
    CHECK(glob_match("docs/*.md", "docs/a.md"));
    CHECK_FALSE(glob_match("docs/*.md", "docs/x/a.md"));
    CHECK(glob_match("docs/**/*.md", "docs/x/y/a.md"));
    CHECK(glob_match("docs/**/*.md", "docs/a.md"));
    CHECK(glob_match("examples", "examples/a/b.py"));
    CHECK(glob_match("te?t.py", "test.py"));
    CHECK_FALSE(glob_match("te?t.py", "teest.py"));
}

TEST_CASE("exit-zero reports and never fails", "[scan][gate]") {
    ScanResult r = scanned("app.py", risky_py);
    apply_gate(r, {.exit_zero = true});
    CHECK(r.hits[0].gate == HitGate::open);
    CHECK(r.hits[0].risky);
    CHECK(r.exit_code == 0);
}
