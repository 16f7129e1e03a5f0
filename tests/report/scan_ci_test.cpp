// scan's CI formats on constructed hits: GitHub's workflow-command escaping
// (a file name with %, CR, LF, ',' and ':' stays one annotation with its
// properties intact), which hits each format lists, and a notebook hit.
#include "loopcheck/report/scan_ci.hpp"
#include "support/catch.hpp"

#include <string>

using namespace loopcheck;

namespace {

ScanHit risky_hit(std::string path, HitGate gate = HitGate::open) {
    ScanHit h;
    h.path = path;
    h.repo_path = path;
    h.line = 2;
    h.col = 15;
    h.kind = HitKind::client;
    h.rule = "py-requests";
    h.reason = "a requests call (urllib3: one address at a time)";
    h.client = "python";
    h.client_label = "requests";
    h.ref.host = "localhost";
    h.ref.port = 11434;
    h.risky = true;
    h.cost_windows = "100% sure: ~2.00 s\nper connection";
    h.fingerprint = "0123456789abcdef";
    h.gate = gate;
    return h;
}

std::size_t count(const std::string& s, std::string_view what) {
    std::size_t n = 0;
    for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST_CASE("github escaping: data and properties as the Actions toolkit escapes them",
          "[scan][ci]") {
    CHECK(github_escape_data("100%\r\nok: a,b") == "100%25%0D%0Aok: a,b");
    CHECK(github_escape_property("100%\r\nok: a,b") == "100%25%0D%0Aok%3A a%2Cb");
}

TEST_CASE("format github: one line per open risky hit, then the summary", "[scan][ci]") {
    ScanResult r;
    r.hits = {risky_hit("we,ird:name%.py"), risky_hit("held.py", HitGate::suppressed)};
    const std::string out = render_github(r);
    CHECK(count(out, "\n") == 2); // the LF in the cost did not split the command
    CHECK(out.starts_with("::error file=we%2Cird%3Aname%25.py,line=2,col=15,"
                          "title=loopcheck py-requests%3A localhost%3A11434::"));
    CHECK(out.find("100%25 sure: ~2.00 s%0Aper connection") != std::string::npos);
    CHECK(out.find("held.py") == std::string::npos);
    CHECK(out.find("(1 suppressed not failing the gate)") != std::string::npos);
}

TEST_CASE("format short and SARIF: which hits, and a notebook's place", "[scan][ci]") {
    ScanResult r;
    r.loopcheck_version = "0.1.0";
    ScanHit cell = risky_hit("nb.ipynb");
    cell.cell = 3;
    r.hits = {risky_hit("app.py"), risky_hit("held.py", HitGate::baselined), cell};
    const std::string short_lines = render_short(r);
    CHECK(short_lines.starts_with("app.py:2:15: py-requests requests"));
    CHECK(short_lines.find("held.py") == std::string::npos);
    CHECK(short_lines.find("(notebook cell 3)") != std::string::npos);

    const std::string sarif = render_sarif(r);
    CHECK(count(sarif, "\"ruleId\": \"py-requests\"") == 3); // every risky hit
    CHECK(count(sarif, "\"baselineState\": \"unchanged\"") == 1);
    CHECK(count(sarif, "\"kind\": \"external\"") == 1);
    CHECK(sarif.find("Notebook cell 3, line 2") != std::string::npos);
    CHECK(sarif.find("\"loopcheckHit/v1\": \"0123456789abcdef\"") != std::string::npos);
}
